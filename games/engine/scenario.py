"""Scenario files: set up a game with a fixed deal, play steps, report the state.

The format is specified in SCENARIOS.md, for Coup and for Kobayakawa. ``run``
raises ``MalformedScenario`` when the file cannot be read as a scenario at all; a
step the rules forbid is reported in the result (``"ok": false``), never raised.
"""

from .coup.cards import CHARACTERS, FACTIONS, VARIANTS, deck_for, characters_in_play
from .dealer import ScriptedDealer
from .errors import IllegalMove
from .kobayakawa import rules as kobayakawa_rules
from .kobayakawa.setup import ScriptedRounds
from . import GAMES, replay


class MalformedScenario(ValueError):
    """The input is not a scenario: the message says which part and why."""


COUP_FIELDS = {"game", "variants", "players", "first", "deal", "court", "coins", "factions", "steps"}
COUP_REQUIRED = {"game", "players", "deal", "court", "steps"}

# The fields each act takes besides "player" and "act": (required, optional).
STEP_FIELDS = {
    "income": ((), ()),
    "foreign_aid": ((), ()),
    "tax": ((), ()),
    "exchange": ((), ()),
    "embezzle": ((), ()),
    "coup": (("target",), ()),
    "assassinate": (("target",), ()),
    "steal": (("target",), ()),
    "examine": (("target",), ()),
    "convert": ((), ("target",)),
    "patronage": (("target",), ()),
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
DECLARED_VARIANT = {"coup": "declared_coup", "assassinate": "declared_assassination"}


def run(data, view: str | None = None, with_events: bool = False) -> dict:
    """Play a scenario and return the output object SCENARIOS.md describes."""
    kind, setup, steps, dealer = _parse(data)
    if view is not None and view not in setup["players"]:
        raise MalformedScenario(f"--view names {view!r}, who is not a player in this scenario")
    game = GAMES[kind]
    try:
        events = game.setup(dealer=dealer, **setup)
    except IllegalMove as error:  # the checks below should leave none, but never a traceback
        raise MalformedScenario(str(error)) from None
    state = replay(kind, events)
    rejected = None
    for index, step in enumerate(steps):
        try:
            if step["act"] == "timeout":
                events += game.timeout(state, dealer)
            else:
                events += game.play(state, step["player"], step, dealer)
        except IllegalMove as error:
            rejected = {"step": index, "error": str(error)}
            break
    output = {"ok": rejected is None, "rejected": rejected, "state": game.view(state, view)}
    if with_events:
        output["events"] = [{"type": e.type, "data": e.visible_to(view) if view else {**e.data, **(e.secret or {})}} for e in events]
    return output


def _parse(data) -> tuple[str, dict, list, object]:
    """``(game kind, setup keywords, steps, dealer)`` of a scenario."""
    if not isinstance(data, dict):
        raise MalformedScenario("a scenario is a JSON object")
    game = data.get("game")
    if game == "kobayakawa":
        return _parse_kobayakawa(data)
    if game != "coup":
        raise MalformedScenario(f"unknown game {game!r}: expected 'coup' or 'kobayakawa'")
    return ("coup", *_parse_coup(data), ScriptedDealer())


def _parse_coup(data) -> tuple[dict, list]:
    unknown = set(data) - COUP_FIELDS
    if unknown:
        raise MalformedScenario(f"unknown field {sorted(unknown)[0]!r}")
    missing = COUP_REQUIRED - set(data)
    if missing:
        raise MalformedScenario(f"missing field {sorted(missing)[0]!r}")
    variants = _list_of(data.get("variants", []), "variants", str)
    for variant in variants:
        if variant not in VARIANTS:
            raise MalformedScenario(f"unknown variant {variant!r}")
    players = _list_of(data["players"], "players", str)
    if not 2 <= len(players) <= 10 or len(set(players)) != len(players):
        raise MalformedScenario("'players' must name 2 to 10 different players")
    if "two_player_draft" in variants and len(players) != 2:
        raise MalformedScenario("the two-player draft needs exactly 2 players")
    first = data.get("first", players[0])
    _check_player(first, players, "'first'")
    deal, court = _parse_cards(data, players, variants)
    coins = _parse_per_player(data.get("coins", {}), players, "coins", lambda v: isinstance(v, int) and v >= 0)
    factions = _parse_per_player(data.get("factions", {}), players, "factions", lambda v: v in FACTIONS)
    if factions and "factions" not in variants:
        raise MalformedScenario("'factions' is given but the factions variant is not in play")
    if factions and set(factions) != set(players):
        raise MalformedScenario("'factions' must give every player's faction")
    steps = _list_of(data["steps"], "steps", dict)
    for index, step in enumerate(steps):
        _check_step(index, step, players, variants)
    setup = {"players": players, "variants": variants, "first": first, "deal": deal, "court": court, "coins": coins}
    if factions:
        setup["factions"] = factions
    return setup, steps


def _list_of(value, field, kind):
    if not isinstance(value, list) or not all(isinstance(item, kind) for item in value):
        raise MalformedScenario(f"{field!r} must be a list of {'objects' if kind is dict else 'strings'}")
    return value


def _check_player(name, players, where):
    if name not in players:
        raise MalformedScenario(f"{where} names {name!r}, who is not a player in this scenario")


def _check_card(card, where):
    if card not in CHARACTERS:
        raise MalformedScenario(f"unknown card {card!r} in {where}")


def _parse_per_player(value, players, field, valid):
    if not isinstance(value, dict):
        raise MalformedScenario(f"{field!r} must be an object keyed by player")
    for name, item in value.items():
        _check_player(name, players, f"{field!r}")
        if not valid(item):
            raise MalformedScenario(f"invalid {field} value {item!r} for {name!r}")
    return value


def _parse_cards(data, players, variants):
    deal = data["deal"]
    if not isinstance(deal, dict):
        raise MalformedScenario("'deal' must be an object keyed by player")
    for name in deal:
        _check_player(name, players, "'deal'")
    if set(deal) != set(players):
        raise MalformedScenario("'deal' must give every player's cards")
    court = _list_of(data["court"], "court", str)
    for where, cards in [*((f"the deal of {n!r}", _list_of(c, "deal", str)) for n, c in deal.items()), ("'court'", court)]:
        for card in cards:
            _check_card(card, where)
    if "two_player_draft" in variants:
        one_set = sorted(characters_in_play(variants))
        if any(sorted(cards) != one_set for cards in deal.values()) or sorted(court) != one_set:
            raise MalformedScenario("in the two-player draft every player's deal and the court are one set of each character")
        return deal, court
    if any(len(cards) != 2 for cards in deal.values()):
        raise MalformedScenario("every player is dealt exactly 2 cards")
    dealt = sorted([card for cards in deal.values() for card in cards] + court)
    expected = deck_for(variants, len(players))
    if dealt != expected:
        raise MalformedScenario(
            f"the deal and court hold {len(dealt)} cards that do not match the deck for these variants and "
            f"{len(players)} players ({len(expected)} cards: {len(expected) // 5} of each of {', '.join(characters_in_play(variants))})"
        )
    return deal, court


def _check_step_fields(index, step, players, fields: dict, also_required: dict) -> str | None:
    """Check what every game's steps share: the act, the player, the fields the act
    takes (``fields``: act → (required, optional); ``also_required``: act → more
    required fields). Returns the act, or None for a timeout."""
    where = f"step {index}"
    if "act" not in step:
        raise MalformedScenario(f"{where}: missing field 'act'")
    act = step["act"]
    if act == "timeout":
        if set(step) != {"act"}:
            raise MalformedScenario(f"{where}: a timeout step takes no other field")
        return None
    if act not in fields:
        raise MalformedScenario(f"{where}: unknown act {act!r}")
    if "player" not in step:
        raise MalformedScenario(f"{where}: missing field 'player'")
    _check_player(step["player"], players, where)
    required, optional = fields[act]
    required = required + also_required.get(act, ())
    for field in required:
        if field not in step:
            raise MalformedScenario(f"{where}: {act!r} needs the field {field!r}")
    extra = set(step) - {"player", "act", *required, *optional}
    if extra:
        raise MalformedScenario(f"{where}: {act!r} does not take the field {sorted(extra)[0]!r}")
    return act


def _check_step(index, step, players, variants):
    declared = {act: ("name",) for act, variant in DECLARED_VARIANT.items() if variant in variants}
    if _check_step_fields(index, step, players, STEP_FIELDS, declared) is None:
        return
    where = f"step {index}"
    if "target" in step:
        _check_player(step["target"], players, where)
    for field in CARD_FIELDS:
        if field in step:
            _check_card(step[field], where)
    if "cards" in step:
        for card in _list_of(step["cards"], f"{where}: 'cards'", str):
            _check_card(card, where)


# ---- Kobayakawa ------------------------------------------------------------------------

KOBAYAKAWA_FIELDS = {"game", "variants", "players", "first", "rounds", "medals", "centre", "steps"}
KOBAYAKAWA_REQUIRED = {"game", "players", "rounds", "steps"}
KOBAYAKAWA_STEP_FIELDS = {
    "draw": ((), ()),
    "discard": (("card",), ()),
    "flip": ((), ()),
    "bet": ((), ()),
    "pass": ((), ()),
}


def _parse_kobayakawa(data) -> tuple[str, dict, list, object]:
    """A Kobayakawa scenario: ``rounds`` holds one deck (top first) per deal, a
    replayed round included; once they are used up the cards come in ascending order."""
    unknown = set(data) - KOBAYAKAWA_FIELDS
    if unknown:
        raise MalformedScenario(f"unknown field {sorted(unknown)[0]!r}")
    missing = KOBAYAKAWA_REQUIRED - set(data)
    if missing:
        raise MalformedScenario(f"missing field {sorted(missing)[0]!r}")
    variants = _list_of(data.get("variants", []), "variants", str)
    if variants:
        raise MalformedScenario(f"unknown variant {variants[0]!r}: Kobayakawa has no variants")
    players = _list_of(data["players"], "players", str)
    low, high = kobayakawa_rules.MIN_PLAYERS, kobayakawa_rules.MAX_PLAYERS
    if not low <= len(players) <= high or len(set(players)) != len(players):
        raise MalformedScenario(f"'players' must name {low} to {high} different players")
    first = data.get("first", players[0])
    _check_player(first, players, "'first'")
    rounds = data["rounds"]
    if not isinstance(rounds, list) or not rounds:
        raise MalformedScenario("'rounds' must be a list of decks, one per deal")
    for index, deck in enumerate(rounds):
        if not isinstance(deck, list) or not all(kobayakawa_rules.is_card(card) for card in deck):
            raise MalformedScenario(f"rounds[{index}] must be a list of card numbers 1 to 15")
        if sorted(deck) != list(kobayakawa_rules.CARDS):
            raise MalformedScenario(f"rounds[{index}] must hold each card from 1 to 15 exactly once")
    medals = _parse_per_player(
        data.get("medals", {}), players, "medals", lambda v: type(v) is int and v >= 0
    )
    start = {name: medals.get(name, kobayakawa_rules.START_MEDALS) for name in players}
    if sum(1 for n in start.values() if n) < 2:
        raise MalformedScenario("at least two players need medals")
    if not start[first]:
        raise MalformedScenario(f"'first' names {first!r}, who has no medals")
    centre = data.get("centre", kobayakawa_rules.START_CENTRE)
    if type(centre) is not int or centre < kobayakawa_rules.LAST_ROUND_CENTRE:
        raise MalformedScenario(f"'centre' must be a whole number of at least {kobayakawa_rules.LAST_ROUND_CENTRE} medals")
    steps = _list_of(data["steps"], "steps", dict)
    for index, step in enumerate(steps):
        _check_kobayakawa_step(index, step, players)
    setup = {"players": players, "first": first, "medals": medals, "centre": centre}
    return "kobayakawa", setup, steps, ScriptedRounds(rounds)


def _check_kobayakawa_step(index, step, players):
    _check_step_fields(index, step, players, KOBAYAKAWA_STEP_FIELDS, {})
    where = f"step {index}"
    if "card" in step and not kobayakawa_rules.is_card(step["card"]):
        raise MalformedScenario(f"unknown card {step['card']!r} in {where}: cards are numbered 1 to 15")
