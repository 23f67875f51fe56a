"""What one player may see of a Coup game: the only way state leaves the engine.

``view(state, None)`` is the omniscient state (scenario files, finished-game
replays); ``view(state, name)`` hides every card ``name`` could not see at the
table (any name that is not a player's, such as ``common.PUBLIC``, sees only what is
public): other hands and exchange draws become counts, the court a count, and a
card shown in an examination is visible only to the two players involved.
"""

from .state import CoupState



def view(state: CoupState, viewer: str | None = None) -> dict:
    players = []
    for p in state.players:
        own = viewer is None or viewer == p.name
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
    shown = {
        "players": players,
        "court": list(state.court) if viewer is None else len(state.court),
        "reserve": state.reserve,
        "turn": state.turn.name if state.turn is not None else None,
        "awaiting": [
            {"player": p.name, "decision": state.awaiting[p.name].kind}
            for p in state.players
            if p.name in state.awaiting
        ],
        "winner": state.winner,
    }
    if "two_player_draft" in state.variants:
        shown["aside"] = list(state.aside) if viewer is None else len(state.aside)
    if state.action is not None:
        shown["pending"] = _pending(state, viewer)
    if state.estate is not None:
        estate = state.estate
        shown["inheritance"] = {"player": estate.deceased, "coins": estate.coins, "claimants": list(estate.claimants)}
    return shown


def _pending(state: CoupState, viewer) -> dict:
    action = state.action
    pending = {"action": action.kind, "player": action.actor}
    for key in ("target", "name", "beneficiary", "blocker", "block_card"):
        value = getattr(action, key)
        if value is not None:
            pending[key] = value
    if state.challenge is not None and state.challenge.on != "inheritance":
        pending["challenger"] = state.challenge.challenger
        pending["challenged"] = state.challenge.claimant
    if action.shown is not None and viewer in (None, action.actor, action.target):
        pending["shown"] = action.shown
    return pending
