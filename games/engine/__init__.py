"""The rules engine: pure Python, no Django.

Every game offers the same interface (``CoupGame`` is the model): ``setup`` makes
the starting events, ``apply`` folds one event into a state, ``play`` checks a
command and returns its events, ``timeout`` answers every awaited decision with
its default, ``options`` lists a player's legal answers, ``winners`` names who
won (a list: Kobayakawa can end in a shared win), and ``view`` is the only way
state leaves the engine.
"""

from .coup import COUP
from .errors import IllegalMove
from .events import Event
from .kobayakawa import KOBAYAKAWA

GAMES = {COUP.kind: COUP, KOBAYAKAWA.kind: KOBAYAKAWA}


def replay(kind: str, events):
    """Rebuild a state by folding ``events`` (``Event`` objects or stored JSON)."""
    game = GAMES[kind]
    state = game.new_state()
    for event in events:
        game.apply(state, event if isinstance(event, Event) else Event.from_json(event))
    return state


__all__ = ["GAMES", "COUP", "KOBAYAKAWA", "Event", "IllegalMove", "replay"]
