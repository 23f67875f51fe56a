"""Baseline: random-playout speed of the PyPI ``coupml`` Coup engine.

Plays complete games in which every decision is a uniformly random legal action,
through coupml's public API as its own docstring example does::

    coup = Coup(num_players, np_random)
    coup.init_game()
    while not coup.is_game_over():
        coup.play_action(choose(coup.get_legal_actions()))

coupml asks its random source (``np_random``) for two things only:
``shuffle(list)`` (the court deck) and ``choice(n)`` (an index below ``n``).
It may get either of two sources (``SOURCES``):

- ``"numpy"``: the ``numpy.random.RandomState`` its documentation names;
- ``"random"``: ``RandomAdapter``, a small adapter over ``random.Random`` with the
  same two methods (``choice`` also takes a sequence).

``fastest_source`` times both and the comparison gives coupml the faster one, so
our engine is measured against coupml at its best. Either way the random legal
action is picked with ``random.Random.choice``, the fastest picker (numpy's would
convert each list of actions to an array). Times are CPU time of this process
(``time.process_time``), as the bots' budget is: on a shared machine the load of
others inflates wall time, not this.
"""

import random
import time

import numpy as np
from coupml import Coup

STEP_CAP = 10_000


class RandomAdapter:
    """``random.Random`` with the two methods coupml calls on its random source."""

    def __init__(self, seed):
        self._random = random.Random(seed)
        self.shuffle = self._random.shuffle

    def choice(self, items):
        """An index below ``items`` when it is an int (as numpy's), else one of them."""
        if type(items) is int:
            return self._random.randrange(items)
        return self._random.choice(items)


SOURCES = {"numpy": np.random.RandomState, "random": RandomAdapter}


def play_random_games(players: int, games: int, seed: int = 0, source: str = "random") -> dict:
    """Play ``games`` random games with coupml's random source ``source`` (a key of
    ``SOURCES``); a decision is one ``play_action`` call."""
    choose = random.Random(seed).choice
    coup = Coup(players, SOURCES[source](seed))
    decisions = 0
    start = time.process_time()
    for _ in range(games):
        coup.init_game()
        steps = 0
        while not coup.is_game_over():
            if steps >= STEP_CAP:
                raise RuntimeError("a coupml game did not end")
            coup.play_action(choose(coup.get_legal_actions()))
            steps += 1
        decisions += steps
    seconds = time.process_time() - start
    return {
        "source": source,
        "games_per_s": round(games / seconds, 1),
        "decisions_per_s": round(decisions / seconds, 1),
    }


def fastest_source(players: int, games: int, trials: int = 3) -> str:
    """The random source with which coupml plays ``games`` random games fastest:
    each is timed ``trials`` times, alternately, and its best time counts."""
    best = dict.fromkeys(SOURCES, 0.0)
    for trial in range(trials):
        for source in SOURCES:
            speed = play_random_games(players, games, seed=trial, source=source)["games_per_s"]
            best[source] = max(best[source], speed)
    return max(best, key=best.__getitem__)
