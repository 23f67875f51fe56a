"""The legal answers to each awaited decision, as commands.

Pages and emails offer exactly these; ``flow.py`` accepts exactly these. The
option dicts are shared constants: callers must not mutate them.
"""

from itertools import combinations

from .cards import CHARACTERS, CONVERT_COST, FORCED_COUP_COINS
from .flow import blockers_of, can_prove, faction_forbids, open_inheritance_claims
from .state import CoupState


def options(state: CoupState, name: str) -> list[dict]:
    """The legal answers of ``name``. Many dicts are shared constants (below and
    in ``Table``): read them, copy them, play them, but never change them."""
    decision = state.awaiting.get(name)
    if decision is None:
        return []
    return OPTIONS[decision.kind](state, state.by_name[name])


ALLOW, CHALLENGE = {"act": "allow"}, {"act": "challenge"}
PROVE, CONCEDE = {"act": "prove"}, {"act": "concede"}
EXAMINE_OPTIONS = ({"act": "give_back"}, {"act": "force_exchange"})
INHERITANCE_OPTIONS = ({"act": "claim_inheritance"}, {"act": "decline"})
LOSE_OPTIONS = {card: {"act": "lose", "card": card} for card in CHARACTERS}
SHOW_OPTIONS = {card: {"act": "show", "card": card} for card in CHARACTERS}
DRAFT_OPTIONS = {card: {"act": "draft_keep", "card": card} for card in CHARACTERS}


def _turn(state, player):
    table = state.table
    coins = player.coins
    others = state.after(player)
    found = []
    if coins < FORCED_COUP_COINS:
        found += table.plain_options
        if "convert" in table.turn_actions:
            if coins >= CONVERT_COST[True]:
                found.append({"act": "convert"})
            if coins >= CONVERT_COST[False]:
                found.extend({"act": "convert", "target": q.name} for q in others)
        if "patronage" in table.turn_actions:
            found.extend({"act": "patronage", "target": q.name} for q in others)
    targets = None
    for act, cost in table.aimed_costs:
        if coins < cost or (act != "coup" and coins >= FORCED_COUP_COINS):
            continue
        if targets is None:
            if player.faction is None:  # no faction rule to check: spare a call per player
                targets = [q.name for q in others]
            else:
                targets = [q.name for q in others if not faction_forbids(state, player, q)]
        # List comprehensions rather than generators: Python 3.12+ inlines them.
        if act in table.declared:
            found += [{"act": act, "target": t, "name": c} for t in targets for c in table.characters]
        else:
            found += [{"act": act, "target": t} for t in targets]
    return found


def _blocks(state, player):
    action = state.action
    if state.estate is not None or action.blocker is not None or player not in blockers_of(state, action):
        return ()
    return state.table.block_options[action.kind]


def _respond(state, player):
    found = [ALLOW]
    if state.estate is not None:
        found.extend({"act": "challenge", "target": c} for c in open_inheritance_claims(state, player))
        return found
    action = state.action
    if action.blocker is not None or action.kind in state.table.challengeable:
        found.append(CHALLENGE)
    found += _blocks(state, player)
    return found


def _block_only(state, player):
    return [ALLOW, *_blocks(state, player)]


def _challenged(state, player):
    if can_prove(state, player):
        return [PROVE, CONCEDE]
    return [CONCEDE]


def _lose(state, player):
    return [LOSE_OPTIONS[card] for card in sorted(set(player.hand))]


def _keep(state, player):
    pool = sorted(player.hand + player.drawn)
    choices = sorted(set(combinations(pool, len(player.hand))))
    return [{"act": "keep", "cards": list(choice)} for choice in choices]


def _show(state, player):
    return [SHOW_OPTIONS[card] for card in sorted(set(player.hand))]


def _examine(state, player):
    return list(EXAMINE_OPTIONS)


def _inheritance(state, player):
    return list(INHERITANCE_OPTIONS)


def _draft(state, player):
    return [DRAFT_OPTIONS[card] for card in sorted(set(player.hand))]


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


