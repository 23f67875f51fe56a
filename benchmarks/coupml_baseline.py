"""Baseline: random-playout speed of the PyPI ``coupml`` Coup engine.

Plays complete games in which every decision is a uniformly random legal action,
through coupml's public API as its own docstring example does::

    coup = Coup(num_players, np_random)
    coup.init_game()
    while not coup.is_game_over():
        coup.play_action(choose(coup.get_legal_actions()))

coupml's dealer needs a ``numpy.random.RandomState``; the random choice among
legal actions uses ``random.Random.choice``, the fastest picker, so coupml is not
held back by numpy's list-to-array conversion.
"""

import random
import time

import numpy as np
from coupml import Coup

STEP_CAP = 10_000


def play_random_games(players: int, games: int, seed: int = 0) -> dict:
    """Play ``games`` random games; a decision is one ``play_action`` call."""
    choose = random.Random(seed).choice
    coup = Coup(players, np.random.RandomState(seed))
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        coup.init_game()
        steps = 0
        while not coup.is_game_over():
            if steps >= STEP_CAP:
                raise RuntimeError("a coupml game did not end")
            coup.play_action(choose(coup.get_legal_actions()))
            steps += 1
        decisions += steps
    seconds = time.perf_counter() - start
    return {"games_per_s": round(games / seconds, 1), "decisions_per_s": round(decisions / seconds, 1)}
