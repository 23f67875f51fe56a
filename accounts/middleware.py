"""Pages follow the signed-in player's chosen language and time zone.

Runs after AuthenticationMiddleware: LocaleMiddleware has already picked a language
from the cookie or the browser, and a signed-in user's profile overrides it. The
profile's time zone is active for the request, so every date a page shows is in the
player's zone; anyone else sees UTC. A player still on UTC who has not declined it is
offered the zone their browser gives (``request.time_zone_offer``), and a player whose
mail fails is told why on every page (``request.mail_failure``, ``accounts.bounces``).
One query reads it all.
"""

import zoneinfo

from django.db.models import OuterRef, Subquery
from django.db.models.functions import Lower
from django.utils import timezone, translation

from accounts.bounces import active_failures
from accounts.models import MailFailure, Profile


def _what_pages_read(user) -> tuple:
    """The player's language, time zone, whether they declined the zone offer, and
    the kind and time of the failure that keeps mail from their address (or None)."""
    failure = active_failures().filter(address=Lower(OuterRef("user__email")))
    rows = Profile.objects.filter(user=user).annotate(
        failure_kind=Subquery(failure.values("kind")[:1]),
        failed_at=Subquery(failure.values("failed_at")[:1]),
    )
    fields = ("language", "time_zone", "time_zone_offer_declined", "failure_kind", "failed_at")
    return rows.values_list(*fields).first() or (None, None, False, None, None)


class ProfileLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        timezone.deactivate()  # a thread serves many users: start from UTC
        request.time_zone_offer = False
        request.mail_failure = None
        if user is not None and user.is_authenticated:
            language, zone, declined, failure_kind, failed_at = _what_pages_read(user)
            request.time_zone_offer = zone == "UTC" and not declined
            if failure_kind:
                request.mail_failure = MailFailure(address=user.email, kind=failure_kind, failed_at=failed_at)
            if language and translation.check_for_language(language):
                translation.activate(language)
                request.LANGUAGE_CODE = translation.get_language()
            if zone:
                try:
                    timezone.activate(zoneinfo.ZoneInfo(zone))
                except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                    pass  # a zone this system no longer knows: UTC
        try:
            response = self.get_response(request)
            response.headers.setdefault("Content-Language", translation.get_language())
        finally:
            # The thread goes back to the site's language and UTC: whatever it runs
            # next outside a request must not speak this player's language.
            timezone.deactivate()
            translation.deactivate()
        return response
