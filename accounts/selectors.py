"""Reading accounts (no writes here)."""

import zoneinfo
from datetime import date, timedelta

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.db.models import Q

from accounts.models import HOLIDAY_DAYS_PER_YEAR, Holiday


def account_by_id(pk: int):
    """The account ``pk`` with its profile, or None."""
    return get_user_model().objects.select_related("profile").filter(pk=pk).first()


def account_of_address(address: str):
    """The account, with its profile, that signs in with ``address`` or has verified
    it as one of its addresses (any case); None when no account has it."""
    verified = EmailAddress.objects.filter(email__iexact=address, verified=True).values("user_id")
    accounts = get_user_model().objects.select_related("profile")
    return accounts.filter(Q(email__iexact=address) | Q(pk__in=verified)).order_by("pk").first()


def second_factors_of(user) -> set[str]:
    """The kinds of second factor ``user`` has (allauth's: "webauthn", "totp", "recovery_codes")."""
    return set(Authenticator.objects.filter(user_id=user.pk).values_list("type", flat=True))


def holidays_ahead(user) -> list[Holiday]:
    """``user``'s holidays planned or under way, the soonest first."""
    return list(Holiday.objects.filter(user=user).exclude(status=Holiday.Status.OVER).order_by("starts_at"))


def holiday_days_taken(holidays, year: int, zone: zoneinfo.ZoneInfo) -> int:
    """How many days of ``year`` the ``holidays`` take (one ended early: up to the
    day it ended, in ``zone``)."""
    return sum(days_in(holiday.first_day, _last_day_taken(holiday, zone), year) for holiday in holidays)


def _last_day_taken(holiday: Holiday, zone: zoneinfo.ZoneInfo) -> date:
    return min(holiday.last_day, (holiday.ends_at - timedelta(microseconds=1)).astimezone(zone).date())


def days_in(first: date, last: date, year: int) -> int:
    """How many days from ``first`` to ``last`` (both included) fall in ``year``."""
    first, last = max(first, date(year, 1, 1)), min(last, date(year, 12, 31))
    return max((last - first).days + 1, 0)


def holiday_days_left(user, year: int, zone: zoneinfo.ZoneInfo) -> int:
    """The days of ``year`` ``user`` may still plan to be away."""
    return max(HOLIDAY_DAYS_PER_YEAR - holiday_days_taken(Holiday.objects.filter(user=user), year, zone), 0)
