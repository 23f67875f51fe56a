"""Starting a Kobayakawa game: the players, their medals, the centre, the first deal."""

from ..dealer import ScriptedDealer
from ..errors import IllegalMove
from ..errors import gettext_noop as _
from .flow import Flow
from .rules import MAX_PLAYERS, MIN_PLAYERS, START_CENTRE, START_MEDALS, LAST_ROUND_CENTRE
from .state import KobayakawaState


def check_config(players: list, variants=()) -> None:
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalMove(_("Kobayakawa is played by 3 to 6 players."))
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
    first_faction=None,  # a Coup option the service passes to every game: no meaning here
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


class ScriptedRounds(ScriptedDealer):
    """Scenario files: each deal takes the next deck of ``rounds`` (top first); once
    they are used up, the fifteen cards come unshuffled, in ascending order."""

    def __init__(self, rounds):
        self.rounds = [list(deck) for deck in rounds]

    def shuffle(self, cards: list) -> list:
        if self.rounds:
            return self.rounds.pop(0)
        return sorted(cards)
