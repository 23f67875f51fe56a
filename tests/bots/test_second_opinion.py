"""A second opinion reads only what the seat could see at its decision.

As for the bots at the table (test_view_only.py, whose redeals this borrows):
random games of both kinds are played to their end; each seat's decisions are
read from the finished log (``seat_decisions``), and at some of them the state
then is dealt again (the cards the seat had not seen: other hands, draws, the
court or deck, the cards set aside). The opinion from the seat's knowledge,
checked against the real state's view and against the redealt one's, must be
the same, option by option and score by score, with the same seed.
"""

import random

import pytest

from games.bots import bot_for, knowledge_for
from games.bots.opinions import seat_decisions, weigh_decision
from games.engine.dealer import SeededDealer
from games.kinds import rules_of
from tests.bots.test_view_only import REDEAL

GAMES = {"coup": [(4, []), (3, ["inquisitor", "lawyer"])], "kobayakawa": [(3, [])]}
WORLDS = 4  # a fixed count: the same scores on any machine
EVERY = 3  # each seat's every third decision, to keep the test quick


def finished_game(rules, number: int, players: int, variants):
    """The events of a game played to its end by random legal answers."""
    rng, dealer = random.Random(number), SeededDealer(number)
    names = [f"p{i}" for i in range(players)]
    events = rules.setup(dealer=dealer, players=names, variants=variants, first=names[0])
    state = rules.replay(events)
    while not rules.is_over(state):
        name, _decision, _version = rng.choice(rules.awaiting(state))
        events += rules.play(state, name, rng.choice(rules.options(state, name)), dealer)
    return names, events


@pytest.mark.parametrize("kind", GAMES)
def test_a_second_opinion_is_the_same_whatever_the_cards_the_seat_could_not_see(kind):
    rules = rules_of(kind)
    strong = bot_for(kind, "strong")
    weighed = moved = 0
    for number, (players, variants) in enumerate(GAMES[kind]):
        names, events = finished_game(rules, number, players, variants)
        for seat in names:
            decisions = list(seat_decisions(rules, events, seat).values())
            assert decisions, f"{seat} made no decision"
            for decision in decisions[::EVERY]:
                state = rules.replay(events[: decision.upto])
                assert decision.view == rules.view(state, seat)
                assert len(rules.options(state, seat)) > 1
                knowledge = knowledge_for(kind, seat)
                knowledge.observe_events(events[: decision.upto])
                twin = rules.load(rules.dump(state))
                moved += REDEAL[kind](twin, knowledge, random.Random(decision.version))
                seed = f"{number}:{seat}:{decision.version}"
                here = weigh_decision(strong, knowledge, rules.view(state, seat), seed, WORLDS)
                there = weigh_decision(strong, knowledge, rules.view(twin, seat), seed, WORLDS)
                assert here == there, f"{seat}'s opinion on decision {decision.version} moved with unseen cards"
                scores, choice = here
                assert [option for option, _score in scores] == rules.options(state, seat)
                assert all(0 <= score <= 1 for _option, score in scores) and 0 <= choice < len(scores)
                weighed += 1
    assert weighed > 10
    assert moved > 0, "no redeal ever moved a card"


def test_a_second_opinion_is_reproducible_and_its_seed_matters():
    rules = rules_of("coup")
    strong = bot_for("coup", "strong")
    names, events = finished_game(rules, 7, 4, [])
    decision = next(d for d in seat_decisions(rules, events, "p1").values() if d.kind == "turn")
    knowledge = knowledge_for("coup", "p1")
    knowledge.observe_events(events[: decision.upto])

    def weigh(seed):
        return weigh_decision(strong, knowledge, decision.view, seed, 30)

    assert weigh("a") == weigh("a")
    assert weigh("a") != weigh("b")
