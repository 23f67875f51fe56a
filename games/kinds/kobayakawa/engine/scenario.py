"""Kobayakawa's scenario files (docs/scenarios.md): ``rounds`` holds one deck (top
first) per deal, a replayed round included; once they are used up the cards come
in ascending order. ``medals`` and ``centre`` may override the starting ones."""

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
from games.kinds.kobayakawa.engine.rules import (
    CARDS,
    LAST_ROUND_CENTRE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    START_CENTRE,
    START_MEDALS,
    is_card,
)
from games.kinds.kobayakawa.engine.setup import setup_events

FIELDS = {"game", "variants", "players", "first", "rounds", "medals", "centre", "steps"}
REQUIRED = {"game", "players", "rounds", "steps"}
STEP_FIELDS = {
    "draw": ((), ()),
    "discard": (("card",), ()),
    "flip": ((), ()),
    "bet": ((), ()),
    "pass": ((), ()),
}


class ScriptedRounds(ScriptedDealer):
    """Scenario files: each deal takes the next deck of ``rounds`` (top first); once
    they are used up, the fifteen cards come unshuffled, in ascending order."""

    def __init__(self, rounds):
        self.rounds = [list(deck) for deck in rounds]

    def shuffle(self, cards: list) -> list:
        if self.rounds:
            return self.rounds.pop(0)
        return sorted(cards)


def read_scenario(data: dict) -> Scenario:
    check_fields(data, FIELDS, REQUIRED)
    variants = list_of(data.get("variants", []), "variants", str)
    if variants:
        raise MalformedScenario(f"unknown variant {variants[0]!r}: Kobayakawa has no variants")
    players = check_players(data, MIN_PLAYERS, MAX_PLAYERS)
    first = data.get("first", players[0])
    check_player(first, players, "'first'")
    rounds = data["rounds"]
    if not isinstance(rounds, list) or not rounds:
        raise MalformedScenario("'rounds' must be a list of decks, one per deal")
    for index, deck in enumerate(rounds):
        if not isinstance(deck, list) or not all(is_card(card) for card in deck):
            raise MalformedScenario(f"rounds[{index}] must be a list of card numbers 1 to 15")
        if sorted(deck) != list(CARDS):
            raise MalformedScenario(f"rounds[{index}] must hold each card from 1 to 15 exactly once")
    medals = per_player(data.get("medals", {}), players, "medals", lambda v: type(v) is int and v >= 0)
    start_medals = {name: medals.get(name, START_MEDALS) for name in players}
    if sum(1 for n in start_medals.values() if n) < 2:
        raise MalformedScenario("at least two players need medals")
    if not start_medals[first]:
        raise MalformedScenario(f"'first' names {first!r}, who has no medals")
    centre = data.get("centre", START_CENTRE)
    if type(centre) is not int or centre < LAST_ROUND_CENTRE:
        raise MalformedScenario(f"'centre' must be a whole number of at least {LAST_ROUND_CENTRE} medals")
    steps = list_of(data["steps"], "steps", dict)
    for index, step in enumerate(steps):
        _check_step(index, step, players)
    dealer = ScriptedRounds(rounds)
    start = partial(setup_events, players, first, dealer, medals=medals, centre=centre)
    return Scenario(players, start, steps, dealer)


def _check_step(index, step, players):
    check_step_fields(index, step, players, STEP_FIELDS, {})
    if "card" in step and not is_card(step["card"]):
        raise MalformedScenario(f"unknown card {step['card']!r} in step {index}: cards are numbered 1 to 15")
