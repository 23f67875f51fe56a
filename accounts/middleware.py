"""Pages follow the signed-in player's chosen language.

Runs after AuthenticationMiddleware: LocaleMiddleware has already picked a language
from the cookie or the browser, and a signed-in user's profile overrides it.
"""

from django.utils import translation

from accounts.models import Profile


class ProfileLanguageMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            language = Profile.objects.filter(user=user).values_list("language", flat=True).first()
            if language and translation.check_for_language(language):
                translation.activate(language)
                request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", translation.get_language())
        return response
