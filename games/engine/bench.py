"""Engine benchmark: ``python -m games.engine.bench [--game coup|kobayakawa] --players N --games G [--replay]``.

Plays G random legal games to the end (on the playouts' fast path, as the bots'
simulations do) and prints, as its last line, JSON with
games per second and decisions per second of CPU time (the bots' budget is CPU
time, and on a shared machine others' load inflates wall time, not this) and the
peak resident memory. With
``--replay`` it also times rebuilding a state from logs of 100 and 1,000 events.
"""

import argparse
import json
import random
import resource
import time

from games.engine.dealer import PlayoutDealer
from games.engine.playout import play_out, random_game
from games.kinds import DEFAULT_KIND, KIND_NAMES, rules_of


def play_games(kind: str, players: int, games: int, variants=(), seed: int = 0) -> dict:
    """Random games from the deal to the end on the playouts' fast path (``play_out``,
    the path the bots' simulations take), one random source for all of them."""
    rules = rules_of(kind)  # the game's modules load before the clock starts
    rng = random.Random(seed)
    dealer = PlayoutDealer(rng)
    names = [f"p{i}" for i in range(players)]
    variants = list(variants)
    decisions = 0
    start = time.process_time()
    for _game in range(games):
        state = rules.replay(rules.setup(dealer=dealer, players=names, variants=variants, first=rng.choice(names)))
        decisions += play_out(rules, state, dealer, rng)
    seconds = time.process_time() - start
    return {"games_per_s": round(games / seconds, 1), "decisions_per_s": round(decisions / seconds, 1)}


def replay_times(kind: str) -> dict:
    """Milliseconds to rebuild a state from stored logs of 100 and 1,000 events."""
    rules = rules_of(kind)
    players, choose = rules.long_game  # the most players, and a way to play that makes a long log
    for seed in range(1, 11):  # the first seed is long enough for both games; the others are a safety net
        events = random_game(kind, players, seed=seed, choose=choose)[1]
        if len(events) >= 1000:
            break
    assert len(events) >= 1000, "the patient game is too short to time a 1,000-event replay"
    times = {}
    for size in (100, 1000):
        stored = [event.to_json() for event in events[:size]]
        rounds = max(1, 20_000 // size)
        start = time.perf_counter()
        for _ in range(rounds):
            rules.replay(stored)
        times[f"replay_{size}_events_ms"] = round((time.perf_counter() - start) / rounds * 1000, 3)
    return times


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default=DEFAULT_KIND, choices=sorted(KIND_NAMES))
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--variants", default="", help="comma-separated variant ids")
    parser.add_argument("--replay", action="store_true", help="also time rebuilding states from logs")
    args = parser.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    result = {"players": args.players, "games": args.games}
    result.update(play_games(args.game, args.players, args.games, variants))
    if args.replay:
        result.update(replay_times(args.game))
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
