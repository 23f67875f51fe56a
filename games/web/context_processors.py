"""What every page's template may read beyond Django's own context."""

from django.utils.functional import SimpleLazyObject

from games.kinds import KINDS
from games.selectors.dashboard import games_waiting_count


def kind_stylesheets(request) -> dict:
    """The stylesheets the game kinds add (``Templates.stylesheet``), linked on every
    page: a kind's cards appear on the dashboard and in replays as well as at its table."""
    stylesheets = (game_kind.templates.stylesheet for game_kind in KINDS.values())
    return {"kind_stylesheets": [stylesheet for stylesheet in stylesheets if stylesheet]}


def games_waiting(request) -> dict:
    """The count of games waiting for the signed-in player, that the tab's title
    starts with ("(2) Coup by email"): read only when a page shows it (a page that
    counted them already, the dashboard, passes its own count)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"games_waiting": SimpleLazyObject(lambda: games_waiting_count(user))}
