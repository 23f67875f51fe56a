"""Side-by-side speed of random 4-player games: this engine against ``coupml``.

    python benchmarks/engine_vs_coupml.py --players 4 --games 3000 --rounds 3

Both engines play the same number of games, alternating in rounds so that the
load of a shared machine falls on both alike. Prints each round, then as its last
line JSON with the median games per second of each and their ratio.
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.coupml_baseline import play_random_games  # noqa: E402
from games.engine.bench import play_games  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    ours, theirs = [], []
    for round_number in range(args.rounds):
        engine = play_games("coup", args.players, args.games, seed=round_number)
        baseline = play_random_games(args.players, args.games, seed=round_number)
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
            }
        )
    )


if __name__ == "__main__":
    main()
