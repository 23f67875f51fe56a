"""A holiday's start and end for a player with many games in play: time and queries.

    DATABASE_URL=postgres://... python benchmarks/holidays.py [--games 50] [--rounds 5] [--migrate]

Builds, inside one transaction that is rolled back at the end (nothing stays in the
database, no email or task leaves), a player seated at ``--games`` games of two or
three players in play, half of them with stand-in bots and half without; then
``--rounds`` times plans a holiday that starts today (it begins at once: every
game's clock is held or a bot takes the seat) and ends it (the seats given back,
the clocks released, the decisions emailed on return queued). Prints the median
and worst time and the queries of each; the last line is JSON. Point DATABASE_URL
at a migrated scratch database (``--migrate`` migrates it first).
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coupsite.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import profile_of  # noqa: E402
from games.services import gathering, holidays  # noqa: E402


class Rollback(Exception):
    pass


def player(name: str):
    user = get_user_model().objects.create_user(username=name, email=f"{name}@example.com", password=None)
    profile = profile_of(user)
    profile.display_name = name
    profile.save()
    return user


def build(games: int):
    me = player("benchholidayme")
    others = [player(f"benchholiday{index}") for index in range(4)]
    for index in range(games):
        table = others[: 1 + index % 2]
        game = gathering.game_create(
            host=me,
            variants=[],
            seat_count=1 + len(table),
            turn_seconds=86400,
            response_seconds=28800,
            takeover=2 if index % 2 else 0,
        )
        for user in table:
            gathering.seat_join(game=game, user=user, join_token=game.join_token)
        gathering.game_start(game=game, by=me)
    return me


def measure(me, rounds: int) -> dict:
    today = timezone.now().date()
    timings: dict[str, list[float]] = {"begin": [], "end": []}
    queries: dict[str, int] = {}
    for _round in range(rounds):
        with CaptureQueriesContext(connection) as begun:
            start = time.perf_counter()
            holiday = holidays.holiday_plan(user=me, first_day=today, last_day=today)
            timings["begin"].append(time.perf_counter() - start)
        with CaptureQueriesContext(connection) as ended:
            start = time.perf_counter()
            holidays.holiday_end(user=me, holiday_id=holiday.pk)
            timings["end"].append(time.perf_counter() - start)
        queries = {"begin": len(begun.captured_queries), "end": len(ended.captured_queries)}
        holiday.delete()  # frees its day for the next round
    return {
        step: {
            "median_ms": round(statistics.median(times) * 1000, 1),
            "worst_ms": round(max(times) * 1000, 1),
            "queries": queries[step],
        }
        for step, times in timings.items()
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--migrate", action="store_true")
    options = parser.parse_args()
    if options.migrate:
        call_command("migrate", verbosity=0)
    result: dict = {}
    try:
        with transaction.atomic():
            me = build(options.games)
            result = {"games": options.games, **measure(me, options.rounds)}
            raise Rollback
    except Rollback:
        pass
    for step in ("begin", "end"):
        figures = result[step]
        print(
            f"holiday {step} for {options.games} games: median {figures['median_ms']} ms, "
            f"worst {figures['worst_ms']} ms, {figures['queries']} queries"
        )
    print(json.dumps(result))


if __name__ == "__main__":
    main()
