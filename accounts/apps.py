"""Accounts: sign-in (django-allauth), profile, preferences, dashboard of games."""

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from allauth.account.decorators import secure_admin_login
        from django.contrib import admin

        from accounts import signals  # noqa: F401  (connects the receivers)

        # The admin's sign-in is allauth's, with its rate limits: the admin's own
        # form would take unlimited password guesses. It wraps the view of this one site
        # object, not of its class, which mypy takes for replacing a method.
        admin.site.login = secure_admin_login(admin.site.login)  # type: ignore[method-assign]
