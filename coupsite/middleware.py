"""Response headers Django does not set itself."""

from django.conf import settings


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
