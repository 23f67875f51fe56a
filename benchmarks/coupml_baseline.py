"""Baseline: random-playout speed of the PyPI ``coupml`` Coup engine.

Plays complete N-player games where every decision (initial action, challenge/
pass, block, reveal, exchange keep) is a uniformly random legal action, using
coupml's public ``coupml.Coup`` API exactly as its docstring example does::

    coup = Coup(num_players, np_random)
    coup.init_game()
    while not coup.is_game_over():
        action = choose(coup.get_legal_actions())
        coup.play_action(action)

Requires ``pip install coupml numpy`` (coupml's dealer expects a
numpy.random.RandomState: it calls ``np_random.choice(len(items))`` and
``np_random.shuffle(list)``).

The engine's own RNG is always a numpy RandomState, as the library intends.
The *agent's* random choice among legal actions can be made with
``random.Random.choice`` (default, fastest) or ``RandomState.choice`` (the
literal docstring example; slower because numpy converts the list of strings
to an array on every call).

Usage:
    python benchmarks/coupml_baseline.py --players 4 --games 5000
The last line of output is the result dict as JSON.
"""
from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np
from coupml import Coup

DEFAULT_STEP_CAP = 10_000


def play_random_games(
    players: int,
    games: int,
    seed: int | None = None,
    *,
    chooser: str = "python",
    step_cap: int = DEFAULT_STEP_CAP,
) -> dict:
    """Play ``games`` random ``players``-player coupml games; return timing stats.

    A "decision" is one ``Coup.play_action`` call. Games that reach
    ``step_cap`` decisions without finishing are abandoned and counted in
    ``capped`` (their decisions still count towards the totals).
    """
    np_random = np.random.RandomState(seed)
    if chooser == "python":
        choose = random.Random(seed).choice
    elif chooser == "numpy":
        choose = np_random.choice
    else:
        raise ValueError(f"unknown chooser {chooser!r}")

    coup = Coup(players, np_random)
    wins = [0] * players
    decisions = 0
    capped = 0
    max_len = 0

    t0 = time.perf_counter()
    for _ in range(games):
        coup.init_game()
        steps = 0
        while not coup.is_game_over():
            if steps >= step_cap:
                capped += 1
                break
            coup.play_action(choose(coup.get_legal_actions()))
            steps += 1
        else:
            wins[coup.get_state()["game"]["winning_player"]] += 1
        decisions += steps
        if steps > max_len:
            max_len = steps
    seconds = time.perf_counter() - t0

    finished = sum(wins)
    assert finished + capped == games, (finished, capped, games)
    return {
        "players": players,
        "games": games,
        "seconds": seconds,
        "games_per_s": games / seconds,
        "decisions_per_s": decisions / seconds,
        "decisions": decisions,
        "decisions_per_game": decisions / games,
        "max_decisions_in_a_game": max_len,
        "finished": finished,
        "capped": capped,
        "wins_by_seat": wins,
        "chooser": chooser,
        "seed": seed,
    }


def main(argv: list[str] | None = None) -> None:
    import coupml
    from importlib.metadata import version
    import platform

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--chooser", choices=("python", "numpy"), default="python",
                   help="RNG used to pick among legal actions (default: python)")
    p.add_argument("--step-cap", type=int, default=DEFAULT_STEP_CAP)
    args = p.parse_args(argv)

    print(f"coupml {version('coupml')} ({coupml.__file__}), numpy {np.__version__}, "
          f"Python {platform.python_version()}")
    result = play_random_games(args.players, args.games, args.seed,
                               chooser=args.chooser, step_cap=args.step_cap)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
