"""Accounts: sign-in (django-allauth), profile, preferences, dashboard of games."""
from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self):
        from accounts import signals  # noqa: F401  (connects the receivers)
