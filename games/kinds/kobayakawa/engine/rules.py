"""Kobayakawa's numbers and the rules several parts read (docs/rules.md §6)."""

from games.kinds.kobayakawa.engine.state import KobayakawaState

MIN_PLAYERS, MAX_PLAYERS = 3, 6
CARDS = tuple(range(1, 16))  # the fifteen cards, numbered 1 to 15
START_MEDALS = 4  # each player's medals
START_CENTRE = 8  # medals in the centre, belonging to nobody
LAST_ROUND_CENTRE = 2  # when exactly this many remain in the centre, the round is the last
LAST_ROUND_BET = 2  # what a bet costs in the last round (or the player's only medal)
BET = 1  # what a bet costs in every other round


def is_card(value) -> bool:
    """A card number (``True`` is not the card 1)."""
    return type(value) is int and CARDS[0] <= value <= CARDS[-1]


def bet_cost(state: KobayakawaState, player) -> int:
    """A bet places 1 medal; in the last round 2, or the player's only medal."""
    return min(LAST_ROUND_BET, player.medals) if state.last else BET


def winners_of(state: KobayakawaState) -> list[str]:
    """Most medals wins; equal most is a shared win. A player who resigned is no
    longer in the running, whatever they held."""
    running = [p for p in state.players if not p.resigned]
    best = max(p.medals + p.bet for p in running)
    return [p.name for p in running if p.medals + p.bet == best]
