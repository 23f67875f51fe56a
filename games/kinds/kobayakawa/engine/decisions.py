"""The legal answers to each awaited decision, as commands.

Pages and emails offer exactly these; ``flow.py`` accepts exactly these. The
option dicts are shared constants: callers must not mutate them.
"""

from .rules import CARDS
from .state import KobayakawaState

TURN_OPTIONS = ({"act": "draw"}, {"act": "flip"})
BET_OPTIONS = ({"act": "bet"}, {"act": "pass"})
DISCARD_OPTIONS = {card: {"act": "discard", "card": card} for card in CARDS}


def options(state: KobayakawaState, name: str) -> list[dict]:
    """The legal answers of ``name`` (none when nothing is asked of them)."""
    decision = state.awaiting.get(name)
    if decision is None:
        return []
    if decision.kind == "turn":
        return list(TURN_OPTIONS)
    if decision.kind == "bet":
        return list(BET_OPTIONS)
    player = state.by_name[name]
    return [DISCARD_OPTIONS[card] for card in sorted((player.card, player.drawn))]
