"""The players of the strong bot's simulations answer by the easy rules, except
that they sometimes challenge a claim on mere suspicion (``imagined_answer``);
the easy player at the table never does."""

import random

from games.engine.dealer import SeededDealer
from games.kinds import rules_of
from games.kinds.coup import bots as coup_bots

TRIES = 4000


def a_tax_to_answer():
    """A 4-player classic game in which p0 has just claimed the Duke's tax, and p1 answers."""
    rules = rules_of("coup")
    names = ["p0", "p1", "p2", "p3"]
    state = rules.replay(rules.setup(dealer=SeededDealer(0.5), players=names, variants=[], first="p0"))
    rules.play(state, "p0", {"act": "tax"}, SeededDealer(1))
    return state, rules.options(state, "p1")


def acts(answer) -> dict:
    state, options = a_tax_to_answer()
    rng = random.Random(7)
    counted: dict[str, int] = {}
    for _ in range(TRIES):
        act = answer(state, "p1", options, rng)["act"]
        counted[act] = counted.get(act, 0) + 1
    return counted


def test_the_easy_player_never_doubts_a_tax_it_cannot_disprove():
    assert acts(coup_bots.easy_answer) == {"allow": TRIES}


def test_an_imagined_player_challenges_it_on_suspicion_as_often_as_the_chance_says():
    counted = acts(coup_bots.imagined_answer)
    share = counted["challenge"] / TRIES
    assert abs(share - coup_bots.SUSPICION_CHANCE) < 0.02, counted
    assert set(counted) == {"allow", "challenge"}


def test_the_strong_bots_simulations_use_the_imagined_players():
    assert coup_bots.PLAYOUTS.imagined_answer is coup_bots.imagined_answer
    assert coup_bots.PLAYOUTS.easy_answer is coup_bots.easy_answer  # the easy level keeps its rules
