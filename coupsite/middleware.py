"""Response headers Django does not set itself, and a guard on query strings."""

from django.conf import settings
from django.core.exceptions import BadRequest


def permissions_policy(features: dict[str, list[str]]) -> str:
    """The Permissions-Policy header: each feature with its allowed origins,
    ``camera=()`` for none, ``fullscreen=(self)`` for the site's own pages."""
    return ", ".join(f"{feature}=({' '.join(origins)})" for feature, origins in features.items())


class PermissionsPolicyMiddleware:
    """Sends ``settings.PERMISSIONS_POLICY`` as the Permissions-Policy header of
    every response that does not set its own."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if settings.PERMISSIONS_POLICY:
            response.headers.setdefault("Permissions-Policy", permissions_policy(settings.PERMISSIONS_POLICY))
        return response


class NulCharacterRefusedMiddleware:
    """Refuses (400, ``games.web.views.bad_request``) a request whose query string
    carries a NUL character. No input of the site may hold one, and PostgreSQL's text
    cannot: a view that passed one on to a query would fail with a server error (the
    admin's list filters and search do, for any field named in the query string).
    Forms need no such guard: their text fields refuse NUL characters themselves."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if any("\x00" in key or any("\x00" in value for value in values) for key, values in request.GET.lists()):
            raise BadRequest("NUL character in the query string")
        return self.get_response(request)
