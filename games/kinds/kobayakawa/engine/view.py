"""What one player may see of a Kobayakawa game: the only way state leaves the engine.

``shown`` is the game's ``view`` and ``omniscient_view`` (``common.Rules``). A
view for ``viewer`` shows them their own card (and the card they just drew), and
another player's card only once it was shown at a showdown: a lone bettor wins
without showing theirs. The deck is a count. Discards, the Kobayakawa card (and
the cards it covers), medals and bets are public. Any name that is not a
player's sees only what is public: the view fails closed. The omniscient view
shows every card and the deck in order, and is for finished-game replays and
scenario files only.
"""

from games.engine.common import awaited_view
from games.kinds.kobayakawa.engine.state import KobayakawaState, _copy


def shown(state: KobayakawaState, viewer, omniscient: bool) -> dict:
    """What ``viewer`` may see of ``state``, or everything when ``omniscient``."""
    players = []
    for p in state.players:
        own = omniscient or viewer == p.name
        entry = {
            "name": p.name,
            "medals": p.medals,
            "bet": p.bet,
            "card": p.card if own or p.shown else None,
            "discards": list(p.discards),
            "answer": p.answer,
            "shown": p.shown,
            "out": p.out,
            "resigned": p.resigned,
        }
        if p.drawn is not None:  # drew in stage 1 and has not discarded yet
            entry["drawn"] = p.drawn if own else None
        players.append(entry)
    winners = state.winners
    return {
        "players": players,
        "deck": list(state.deck) if omniscient else len(state.deck),
        "kobayakawa": state.kobayakawa,
        "covered": state.pile[-2::-1],  # earlier Kobayakawa cards, face up, most recent first
        "centre": state.centre,
        "box": state.box,
        "round": state.round,
        "last_round": state.last,
        "first": state.first,
        "stage": state.stage,
        "awaiting": awaited_view(state),
        "previous": _copy(state.previous),  # a copy: a view never shares the state's objects
        "winner": (winners[0] if len(winners) == 1 else list(winners)) if state.over else None,
    }
