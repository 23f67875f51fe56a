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
        # form would take unlimited password guesses.
        admin.site.login = secure_admin_login(admin.site.login)
