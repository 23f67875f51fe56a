"""What every page's template may read beyond Django's own context."""

from games.kinds import KINDS


def kind_stylesheets(request) -> dict:
    """The stylesheets the game kinds add (``Templates.stylesheet``), linked on every
    page: a kind's cards appear on the dashboard and in replays as well as at its table."""
    stylesheets = (game_kind.templates.stylesheet for game_kind in KINDS.values())
    return {"kind_stylesheets": [stylesheet for stylesheet in stylesheets if stylesheet]}
