"""Side-by-side speed of random games: this engine against ``coupml``.

    python benchmarks/engine_vs_coupml.py --players 4 --games 3000 --rounds 3

First coupml's two random sources are timed and coupml gets the faster one
(``coupml_baseline.fastest_source``, on a tenth of the games). Then both engines
play the same number of games, alternating in rounds so that the load of a
shared machine falls on both alike; speeds are in CPU time. Prints each round,
then as its last line JSON with the median games per second of each, their
ratio (ours over coupml's) and coupml's random source.
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.coupml_baseline import fastest_source, play_random_games  # noqa: E402
from games.engine.bench import play_games  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    source = fastest_source(args.players, max(1, args.games // 10))
    print(f"coupml's random source: {source} (the faster of numpy's and random.Random's)")
    ours, theirs = [], []
    for round_number in range(args.rounds):
        engine = play_games("coup", args.players, args.games, seed=round_number)
        baseline = play_random_games(args.players, args.games, seed=round_number, source=source)
        ours.append(engine["games_per_s"])
        theirs.append(baseline["games_per_s"])
        print(f"round {round_number + 1}: engine {engine} | coupml {baseline}")
    engine_median, coupml_median = statistics.median(ours), statistics.median(theirs)
    print(
        json.dumps(
            {
                "players": args.players,
                "games": args.games,
                "engine_games_per_s": engine_median,
                "coupml_games_per_s": coupml_median,
                "ratio": round(engine_median / coupml_median, 3),
                "coupml_source": source,
            }
        )
    )


if __name__ == "__main__":
    main()
