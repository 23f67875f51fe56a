"""A game whose stored state cannot be read fails gracefully on every page."""

from django.http import HttpResponse
from django.shortcuts import render

from games.selectors import GameUnreadable
from games.services.attention import game_attention_mark


class UnreadableGameMiddleware:
    """Any page of a game that cannot be read (``GameUnreadable``) says that the
    game needs attention (503) instead of a server error, and marks it for an
    operator. A polling request (htmx) reloads its page, which then says so."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, GameUnreadable):
            return None
        game_attention_mark(game_id=exception.game_id, during="reading", error=exception)
        if request.headers.get("HX-Request") == "true":
            response = HttpResponse(status=204)
            response["HX-Refresh"] = "true"
            return response
        return render(request, "games/unreadable.html", {"game_id": exception.game_id}, status=503)
