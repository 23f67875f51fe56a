"""What every page's template may read beyond Django's own context."""

from games.kinds import KINDS


def kind_stylesheets(request) -> dict:
    """The stylesheets the game kinds add (``GameKind.stylesheet``), linked on every
    page: a kind's cards appear on the dashboard and in replays as well as at its table."""
    return {"kind_stylesheets": [kind.stylesheet for kind in KINDS.values() if kind.stylesheet]}
