"""Pages follow the signed-in player's chosen language and time zone.

Runs after AuthenticationMiddleware: LocaleMiddleware has already picked a language
from the cookie or the browser, and a signed-in user's profile overrides it. The
profile's time zone is active for the request (one query reads both), so every date
a page shows is in the player's zone; anyone else sees UTC. A player still on UTC who
has not declined it is offered the zone their browser gives (``request.time_zone_offer``).
"""

import zoneinfo

from django.utils import timezone, translation

from accounts.models import Profile


class ProfileLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        timezone.deactivate()  # a thread serves many users: start from UTC
        request.time_zone_offer = False
        if user is not None and user.is_authenticated:
            language, zone, declined = Profile.objects.filter(user=user).values_list(
                "language", "time_zone", "time_zone_offer_declined"
            ).first() or (None, None, False)
            request.time_zone_offer = zone == "UTC" and not declined
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
