from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views

urlpatterns = [
    path("", include("games.urls")),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    # Django's set_language, which also saves a signed-in player's profile language.
    path("i18n/setlang/", account_views.set_language, name="set_language"),
    path("admin/", admin.site.urls),
]

handler404 = "games.views.not_found"
handler500 = "games.views.server_error"
