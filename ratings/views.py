"""The public pages of the ratings: a game's leaderboard and a player's page.
Thin: read through ``ratings.selectors``. Anyone may read them, signed in or
not; an unknown game or player is a 404 page that says which."""

from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games.kinds import DEFAULT_KIND, KINDS
from ratings import selectors


def _not_found(request, reason: str) -> HttpResponse:
    return render(request, "404.html", {"reason": reason}, status=404)


@require_GET
def leaderboards(request):
    """The leaderboard of the default game; the page links to the others."""
    return redirect("leaderboard", kind=DEFAULT_KIND)


@require_GET
def leaderboard(request, kind: str):
    if kind not in KINDS:
        return _not_found(request, _("There is no leaderboard for this game: we have no game of that name."))
    return render(request, "ratings/leaderboard.html", selectors.leaderboard(kind, request.user))


@require_GET
def player(request, pk: int):
    user = selectors.public_player(pk)
    if user is None:
        return _not_found(request, _("There is no player with this number."))
    return render(request, "ratings/player.html", selectors.player_page(user))
