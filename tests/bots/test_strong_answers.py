"""The strong bot leaves the easy player's answer only for one that beat it
clearly in the worlds it imagined (``Tally.clearly_better``), and in
those worlds a player holds what it claimed, most of the time (``CoupTracker``)."""

import random

from games.bots import Budget, bot_for, knowledge_for
from games.bots.players import StrongPlayer, Tally
from games.engine.dealer import SeededDealer
from games.kinds import rules_of
from games.kinds.coup import bots as coup_bots

SAMPLES = 2000
NAMES = ["p0", "p1", "p2", "p3"]


def a_new_game(seed: float):
    """A 4-player classic game just dealt, p0 to play: its rules, dealer, state and events."""
    rules = rules_of("coup")
    dealer = SeededDealer(seed)
    events = rules.setup(dealer=dealer, players=NAMES, variants=[], first="p0")
    return rules, dealer, rules.replay(events), events


def tally_of(worlds: list[list[float]], usual: int) -> Tally:
    tally = Tally(len(worlds[0]), usual)
    for scores in worlds:
        tally.add(scores)
    return tally


def test_one_world_never_shows_an_answer_clearly_better():
    one = tally_of([[0.0, 1.0]], usual=0)
    assert not one.clearly_better(1, StrongPlayer.CONFIDENCE)
    assert one.clearly_better(0, StrongPlayer.CONFIDENCE)  # the easy answer needs no proof


def test_a_small_steady_lead_is_clear_and_a_lucky_one_is_not():
    steady = [[0.50, 0.52], [0.30, 0.33], [0.70, 0.71], [0.10, 0.12]]
    assert tally_of(steady, usual=0).clearly_better(1, StrongPlayer.CONFIDENCE)
    lucky = tally_of([[0.5, 1.0], [0.5, 0.0]] * 5 + [[0.5, 0.6]], usual=0)
    assert lucky.totals[1] > lucky.totals[0]  # the best total, by luck
    assert not lucky.clearly_better(1, StrongPlayer.CONFIDENCE)


def test_a_lead_that_never_varies_is_clear():
    # The sums of squares may round such a lead's variance a hair below zero.
    assert tally_of([[0.1, 0.4]] * 1000, usual=0).clearly_better(1, StrongPlayer.CONFIDENCE)


def test_with_a_single_world_the_strong_bot_answers_as_the_easy_player():
    rules, dealer, state, events = a_new_game(0.25)
    knowledge = {name: knowledge_for("coup", name) for name in NAMES}
    for seat in knowledge.values():
        seat.observe_events(events)
    strong, easy = bot_for("coup", "strong"), bot_for("coup", "easy")
    rng = random.Random(5)
    compared = 0
    while not rules.is_over(state) and compared < 40:
        name = rng.choice(rules.awaiting(state))[0]
        seed = rng.random()
        answer = easy.choose(knowledge[name], random.Random(seed), Budget())
        if len(knowledge[name].options()) > 1:
            strongs = strong.choose(knowledge[name], random.Random(seed), Budget(seconds=60, worlds=1))
            assert strongs == answer
            compared += 1
        played = rules.play(state, name, answer, dealer)
        for seat in knowledge.values():
            seat.observe_events(played)
    assert compared == 40


def test_an_imagined_claimant_holds_the_character_it_claimed_most_of_the_time():
    rules, dealer, state, events = a_new_game(0.5)
    events += rules.play(state, "p0", {"act": "tax"}, dealer)  # p0 claims the Duke
    knowledge = knowledge_for("coup", "p1")
    knowledge.observe_events(events)
    rng = random.Random(3)
    holds = {"p0": 0, "p2": 0}
    for _ in range(SAMPLES):
        world = knowledge.sample(rng)
        for name in holds:
            holds[name] += "duke" in world.by_name[name].hand
    assert holds["p0"] / SAMPLES > coup_bots.CLAIM_TRUTH - 0.03, holds
    assert holds["p2"] / SAMPLES < 0.5, holds  # p2 claimed nothing: a Duke only as often as the deal gives one
