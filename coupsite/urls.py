from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views
from games.mail.inbound import webhook_urls

urlpatterns = [
    path("", include("games.web.urls")),
    path("", include("ratings.urls")),
    path("accounts/", include("accounts.urls")),
    path("accounts/", include("allauth.urls")),
    # Django's set_language, which also saves a signed-in player's profile language.
    path("i18n/setlang/", account_views.set_language, name="set_language"),
    path("admin/", admin.site.urls),
]

if settings.INBOUND_ESP:
    # Inbound email from the configured ESP only (games/mail/inbound.py), e.g.
    # /anymail/postmark/inbound/; every other anymail address is a 404.
    urlpatterns += [path("anymail/", include((webhook_urls(settings.INBOUND_ESP), "anymail")))]

if settings.DEBUG:
    # The local mailbox shows every stored email to anyone: a development aid only.
    from coupsite import mailbox_views

    urlpatterns += [
        path("mailbox/", mailbox_views.mailbox, name="mailbox"),
        path("mailbox/<str:key>/", mailbox_views.mailbox, name="mailbox_message"),
        path("mailbox/<str:key>/html", mailbox_views.mailbox_html, name="mailbox_html"),
    ]

handler400 = "games.web.views.bad_request"
handler404 = "games.web.views.not_found"
handler500 = "games.web.views.server_error"
