"""The admin site, closed outside DEBUG to staff whose account has no second factor.

Whoever holds a staff password alone must not reach every player's address and
game. Staff sign in through allauth's pages (accounts/apps.py), where a passkey or
an authenticator code is asked for once the account has one; a staff account
without one is shown how to add it instead of the admin. On a development machine
(DEBUG) the admin stays open, so that a fresh checkout's superuser needs no phone.
"""

from functools import wraps

from allauth.mfa.models import Authenticator
from allauth.mfa.utils import is_mfa_enabled
from django.conf import settings
from django.contrib import admin
from django.shortcuts import render
from django.views.decorators.cache import never_cache


def second_factor_missing(user) -> bool:
    """Whether the admin must refuse ``user``, a signed-in staff member, for want of a second factor."""
    # The factors sign-in asks for: recovery codes only stand in for one of them.
    return not settings.DEBUG and not is_mfa_enabled(user, [Authenticator.Type.TOTP, Authenticator.Type.WEBAUTHN])


class SecondFactorAdminSite(admin.AdminSite):
    def admin_view(self, view, cacheable=False):
        guarded = super().admin_view(view, cacheable)

        @wraps(guarded)
        def inner(request, *args, **kwargs):
            if self.has_permission(request) and second_factor_missing(request.user):
                return render(request, "admin/second_factor_required.html", status=403)
            return guarded(request, *args, **kwargs)

        return never_cache(inner)
