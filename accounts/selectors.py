"""Reading accounts (no writes here)."""

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.db.models import Q


def account_by_id(pk: int):
    """The account ``pk`` with its profile, or None."""
    return get_user_model().objects.select_related("profile").filter(pk=pk).first()


def account_of_address(address: str):
    """The account, with its profile, that signs in with ``address`` or has verified
    it as one of its addresses (any case); None when no account has it."""
    verified = EmailAddress.objects.filter(email__iexact=address, verified=True).values("user_id")
    accounts = get_user_model().objects.select_related("profile")
    return accounts.filter(Q(email__iexact=address) | Q(pk__in=verified)).order_by("pk").first()
