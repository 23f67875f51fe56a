"""Starting a Kobayakawa game: the players, their medals, the centre, the first deal."""

from games.engine.errors import IllegalMove
from games.engine.errors import gettext_noop as _
from games.kinds.kobayakawa.engine.flow import Flow
from games.kinds.kobayakawa.engine.rules import LAST_ROUND_CENTRE, MAX_PLAYERS, MIN_PLAYERS, START_CENTRE, START_MEDALS
from games.kinds.kobayakawa.engine.state import KobayakawaState


def check_config(players: list, variants=()) -> None:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalMove(_("Kobayakawa is played by {low} to {high} players."), low=MIN_PLAYERS, high=MAX_PLAYERS)
    if len(set(players)) != len(players):
        raise IllegalMove(_("Every player needs a different name."))
    if variants:
        raise IllegalMove(_("Kobayakawa has no variants."))


def setup_events(
    players: list,
    first: str,
    dealer,
    variants=(),
    *,
    medals: dict | None = None,
    centre: int | None = None,
) -> list:
    """The events that start a game and deal its first round. ``medals`` and
    ``centre`` override the rules' 4 each and 8 (scenario files)."""
    check_config(players, variants)
    if first not in players:
        raise IllegalMove(_("The first player must be one of the players."))
    start = {name: START_MEDALS for name in players}
    start.update(medals or {})
    if set(start) != set(players) or any(type(n) is not int or n < 0 for n in start.values()):
        raise IllegalMove(_("Every player starts with a whole number of medals."))
    if sum(1 for n in start.values() if n) < 2:
        raise IllegalMove(_("At least two players need medals to play."))
    centre = START_CENTRE if centre is None else centre
    if type(centre) is not int or centre < LAST_ROUND_CENTRE:
        raise IllegalMove(_("The centre starts with at least 2 medals."))
    if not start[first]:
        raise IllegalMove(_("The first player needs medals to play."))
    return Flow(KobayakawaState(), dealer).start(players, first, start, centre)
