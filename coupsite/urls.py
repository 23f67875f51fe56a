from django.conf import settings
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
    # Inbound email from an ESP (games/inbound.py), e.g. /anymail/postmark/inbound/.
    path("anymail/", include("anymail.urls")),
]

if settings.DEBUG:
    # The local mailbox shows every stored email to anyone: a development aid only.
    from coupsite import mailbox_views

    urlpatterns += [
        path("mailbox/", mailbox_views.mailbox, name="mailbox"),
        path("mailbox/<str:key>/", mailbox_views.mailbox, name="mailbox_message"),
    ]

handler404 = "games.views.not_found"
handler500 = "games.views.server_error"
