"""Coup's scenario files (docs/scenarios.md): a fixed deal and court, steps by name.

``read_scenario`` refuses, as ``MalformedScenario``, whatever is not a Coup
scenario at all: an unknown field, card, variant or act, a step naming a player
who is not in the game or missing a field its act needs, a deal that does not
match the deck of the variants and player count.
"""

from functools import partial

from games.engine.dealer import ScriptedDealer
from games.engine.scenario import (
    MalformedScenario,
    Scenario,
    check_fields,
    check_player,
    check_players,
    check_step_fields,
    list_of,
    per_player,
)
from games.kinds.coup.engine.actions import ACTIONS, ANYONE, BENEFICIARY, OPPONENT
from games.kinds.coup.engine.cards import FACTIONS, MAX_PLAYERS, MIN_PLAYERS, VARIANTS, rulebook_for
from games.kinds.coup.engine.characters import CHARACTERS
from games.kinds.coup.engine.setup import setup_events

FIELDS = {"game", "variants", "players", "first", "deal", "court", "coins", "factions", "steps"}
REQUIRED = {"game", "players", "deal", "court", "steps"}

# The fields a turn action's step takes besides "player" and "act", by whom the
# action aims at: (required, optional).
AIM_FIELDS = {None: ((), ()), OPPONENT: (("target",), ()), BENEFICIARY: (("target",), ()), ANYONE: ((), ("target",))}
# The fields each act takes besides "player" and "act": (required, optional).
STEP_FIELDS = {
    **{act: AIM_FIELDS[action.aim] for act, action in ACTIONS.items()},
    "allow": ((), ()),
    "challenge": ((), ("target",)),
    "decline": ((), ()),
    "block": (("as",), ()),
    "prove": ((), ()),
    "concede": ((), ()),
    "lose": (("card",), ()),
    "keep": (("cards",), ()),
    "show": (("card",), ()),
    "give_back": ((), ()),
    "force_exchange": ((), ()),
    "claim_inheritance": ((), ()),
    "draft_keep": (("card",), ()),
}
CARD_FIELDS = ("card", "as", "name")


def read_scenario(data: dict) -> Scenario:
    check_fields(data, FIELDS, REQUIRED)
    variants = list_of(data.get("variants", []), "variants", str)
    for variant in variants:
        if variant not in VARIANTS:
            raise MalformedScenario(f"unknown variant {variant!r}")
    players = check_players(data, MIN_PLAYERS, MAX_PLAYERS)
    rulebook = rulebook_for(frozenset(variants))
    if rulebook.draft and len(players) != 2:
        raise MalformedScenario("the two-player draft needs exactly 2 players")
    first = data.get("first", players[0])
    check_player(first, players, "'first'")
    deal, court = _read_cards(data, players, rulebook)
    coins = per_player(data.get("coins", {}), players, "coins", lambda v: isinstance(v, int) and v >= 0)
    factions = per_player(data.get("factions", {}), players, "factions", lambda v: v in FACTIONS)
    if factions and not rulebook.factions:
        raise MalformedScenario("'factions' is given but the factions variant is not in play")
    if factions and set(factions) != set(players):
        raise MalformedScenario("'factions' must give every player's faction")
    steps = list_of(data["steps"], "steps", dict)
    for index, step in enumerate(steps):
        _check_step(index, step, players, rulebook)
    dealer = ScriptedDealer()
    start = partial(
        setup_events, players, variants, first, dealer, deal=deal, court=court, coins=coins, factions=factions or None
    )
    return Scenario(players, start, steps, dealer)


def _check_card(card, where):
    if card not in CHARACTERS:
        raise MalformedScenario(f"unknown card {card!r} in {where}")


def _read_cards(data, players, rulebook):
    deal = data["deal"]
    if not isinstance(deal, dict):
        raise MalformedScenario("'deal' must be an object keyed by player")
    for name in deal:
        check_player(name, players, "'deal'")
    if set(deal) != set(players):
        raise MalformedScenario("'deal' must give every player's cards")
    court = list_of(data["court"], "court", str)
    for where, cards in [
        *((f"the deal of {n!r}", list_of(c, "deal", str)) for n, c in deal.items()),
        ("'court'", court),
    ]:
        for card in cards:
            _check_card(card, where)
    if rulebook.draft:
        one_set = sorted(rulebook.characters)
        if any(sorted(cards) != one_set for cards in deal.values()) or sorted(court) != one_set:
            raise MalformedScenario(
                "in the two-player draft every player's deal and the court are one set of each character"
            )
        return deal, court
    if any(len(cards) != rulebook.deal_size for cards in deal.values()):
        raise MalformedScenario(f"every player is dealt exactly {rulebook.deal_size} cards")
    dealt = sorted([card for cards in deal.values() for card in cards] + court)
    expected = rulebook.deck(len(players))
    if dealt != expected:
        raise MalformedScenario(
            f"the deal and court hold {len(dealt)} cards that do not match the deck for these variants and "
            f"{len(players)} players ({len(expected)} cards: {rulebook.copies(len(players))} of each of "
            f"{', '.join(rulebook.characters)})"
        )
    return deal, court


def _check_step(index, step, players, rulebook):
    declared = {act: ("name",) for act in rulebook.declared}
    if check_step_fields(index, step, players, STEP_FIELDS, declared) is None:
        return
    where = f"step {index}"
    if "target" in step:
        check_player(step["target"], players, where)
    for field in CARD_FIELDS:
        if field in step:
            _check_card(step[field], where)
    if "cards" in step:
        for card in list_of(step["cards"], f"{where}: 'cards'", str):
            _check_card(card, where)
