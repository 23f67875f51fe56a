"""Reading accounts (no writes here)."""

from django.contrib.auth import get_user_model


def account_by_id(pk: int):
    """The account ``pk`` with its profile, or None."""
    return get_user_model().objects.select_related("profile").filter(pk=pk).first()
