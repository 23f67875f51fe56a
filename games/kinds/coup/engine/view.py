"""What one player may see of a Coup game: the only way state leaves the engine.

``shown`` is the game's ``view`` and ``omniscient_view`` (``common.Rules``). A
view for ``viewer`` hides every card ``viewer`` could not see at the table: other
hands and exchange draws become counts, the court a count, and a card shown in an
examination is visible only to the two players involved. Any name that is not a
player's (``common.PUBLIC``, ``None``) sees only what is public: the view fails
closed. The omniscient view shows everything, and is for finished-game replays
and scenario files only.
"""

from typing import Any

from games.engine.common import awaited_view
from games.kinds.coup.engine.actions import ACTIONS
from games.kinds.coup.engine.rules import stolen
from games.kinds.coup.engine.state import Action, CoupState


def shown(state: CoupState, viewer, omniscient: bool) -> dict:
    """What ``viewer`` may see of ``state``, or everything when ``omniscient``."""
    players = []
    for p in state.players:
        own = omniscient or viewer == p.name
        entry = {
            "name": p.name,
            "coins": p.coins,
            "hand": list(p.hand) if own else len(p.hand),
            "revealed": list(p.revealed),
            "alive": p.alive,
            "faction": p.faction,
        }
        if p.drawn:
            entry["drawn"] = list(p.drawn) if own else len(p.drawn)
        players.append(entry)
    shown: dict[str, Any] = {
        "players": players,
        "court": list(state.court) if omniscient else len(state.court),
        "reserve": state.reserve,
        "turn": state.turn.name if state.turn is not None else None,
        "awaiting": awaited_view(state),
        "winner": state.winner,
    }
    if state.rulebook.draft:
        shown["aside"] = list(state.aside) if omniscient else len(state.aside)
    if state.action is not None:
        shown["pending"] = _pending(state, state.action, viewer, omniscient)
    if state.estate is not None:
        estate = state.estate
        shown["inheritance"] = {"player": estate.deceased, "coins": estate.coins, "claimants": list(estate.claimants)}
    return shown


def _pending(state: CoupState, action: Action, viewer, omniscient: bool) -> dict:
    """The action being resolved; a Steal says the coins it takes."""
    pending = {"action": action.kind, "player": action.actor}
    for key in ("target", "name", "beneficiary", "blocker", "block_card"):
        value = getattr(action, key)
        if value is not None:
            pending[key] = value
    steals = ACTIONS[action.kind].steals
    if steals:
        pending["coins"] = stolen(state.by_name[action.target], steals)
    if state.challenge is not None and state.challenge.on != "inheritance":
        pending["challenger"] = state.challenge.challenger
        pending["challenged"] = state.challenge.claimant
    if action.shown is not None and (omniscient or viewer in (action.actor, action.target)):
        pending["shown"] = action.shown
    return pending
