"""Accounts: sign-in (django-allauth), profile, preferences, dashboard of games."""
