"""What every page's template may read beyond Django's own context."""

from django.utils.functional import SimpleLazyObject

from accounts.bounces import failure_of
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


def mail_failure(request) -> dict:
    """Why mail to the signed-in player's address fails (``accounts.bounces``), for
    the banner every page of theirs shows while it does: read only when a page
    shows it. Nobody else ever sees it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.email:
        return {}
    return {"mail_failure": SimpleLazyObject(lambda: failure_of(user.email))}
