"""The legal answers to each awaited decision, as commands.

Pages and emails offer exactly these; ``flow.py`` accepts exactly these.
"""

from itertools import combinations

from .cards import CONVERT_COST, COSTS, FORCED_COUP_COINS
from .flow import blockers_of, can_prove, faction_forbids
from .state import CoupState


def options(state: CoupState, name: str) -> list[dict]:
    decision = state.awaiting.get(name)
    if decision is None:
        return []
    player = state.by_name[name]
    return OPTIONS[decision.kind](state, player)


def _turn(state, player):
    table = state.table
    coins = player.coins
    others = state.after(player)
    found = []
    if coins < FORCED_COUP_COINS:
        for act in ("income", "foreign_aid", "tax", "exchange", "embezzle"):
            if act in table.turn_actions:
                found.append({"act": act})
        if "convert" in table.turn_actions:
            if coins >= CONVERT_COST[True]:
                found.append({"act": "convert"})
            if coins >= CONVERT_COST[False]:
                found.extend({"act": "convert", "target": q.name} for q in others)
        if "patronage" in table.turn_actions:
            found.extend({"act": "patronage", "target": q.name} for q in others)
    for act in ("coup", "assassinate", "steal", "examine"):
        if act not in table.turn_actions or coins < COSTS.get(act, 0):
            continue
        if act != "coup" and coins >= FORCED_COUP_COINS:
            continue
        targets = [q.name for q in others if not faction_forbids(state, player, q)]
        if act in table.declared:
            found.extend({"act": act, "target": t, "name": c} for t in targets for c in table.characters)
        else:
            found.extend({"act": act, "target": t} for t in targets)
    return found


def _blocks(state, player):
    action = state.action
    if state.estate is not None or action.blocker is not None or player not in blockers_of(state, action):
        return []
    return [{"act": "block", "as": card} for card in state.table.blockers[action.kind]]


def _respond(state, player):
    found = [{"act": "allow"}]
    if state.estate is not None:
        found.extend(
            {"act": "challenge", "target": c}
            for c in state.estate.claimants
            if c != player.name and state.by_name[c].alive
        )
        return found
    action = state.action
    if action.blocker is not None or action.kind in state.table.claims or action.kind == "embezzle":
        found.append({"act": "challenge"})
    found.extend(_blocks(state, player))
    return found


def _block_only(state, player):
    return [{"act": "allow"}, *_blocks(state, player)]


def _challenged(state, player):
    if can_prove(state, player):
        return [{"act": "prove"}, {"act": "concede"}]
    return [{"act": "concede"}]


def _lose(state, player):
    return [{"act": "lose", "card": card} for card in sorted(set(player.hand))]


def _keep(state, player):
    pool = sorted(player.hand + player.drawn)
    choices = sorted(set(combinations(pool, len(player.hand))))
    return [{"act": "keep", "cards": list(choice)} for choice in choices]


def _show(state, player):
    return [{"act": "show", "card": card} for card in sorted(set(player.hand))]


def _examine(state, player):
    return [{"act": "give_back"}, {"act": "force_exchange"}]


def _inheritance(state, player):
    return [{"act": "claim_inheritance"}, {"act": "decline"}]


def _draft(state, player):
    return [{"act": "draft_keep", "card": card} for card in sorted(set(player.hand))]


OPTIONS = {
    "turn": _turn,
    "respond": _respond,
    "block": _block_only,
    "challenged": _challenged,
    "lose": _lose,
    "keep": _keep,
    "show": _show,
    "examine": _examine,
    "inheritance": _inheritance,
    "draft": _draft,
}


