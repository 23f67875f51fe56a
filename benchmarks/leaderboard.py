"""The leaderboard and the public player page with many rated players: server
time and query count per page, and the time a rated game's ending takes.

    DATABASE_URL=postgres://... python benchmarks/leaderboard.py [--players 10000] [--rounds 20]

Builds, inside one transaction that is rolled back at the end (nothing stays in the
database), ``--players`` players with a rating at the default game (skills spread
as a real population's would be: most established, some provisional), then rates
``--games`` finished games among them through ``ratings.services.game_rate`` as
when a game ends, and renders the leaderboard (signed out, as a player in the
middle of it, as a provisional one) and a player's page ``--rounds`` times each,
printing the median and worst server time and the number of queries of each. The
last line is JSON. Point DATABASE_URL at a migrated scratch database
(``--migrate`` migrates it first).
"""

import argparse
import json
import os
import random
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
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from accounts.models import Profile  # noqa: E402
from benchmarks.pages import render  # noqa: E402
from games.kinds import DEFAULT_KIND  # noqa: E402
from games.models import Game, Seat, SeatResult  # noqa: E402
from ratings.models import Rating  # noqa: E402
from ratings.services import game_rate  # noqa: E402
from ratings.skill import ESTABLISHED, Skill  # noqa: E402


class Rollback(Exception):
    pass


def make_players(tag: str, count: int, rng: random.Random) -> list:
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"bench{tag}p{index}", email=f"bench{tag}p{index}@example.com", password="!")
        for index in range(count)
    )
    Profile.objects.bulk_create(Profile(user=user, display_name=f"Player {index}") for index, user in enumerate(users))
    ratings = []
    for user in users:
        games = rng.choice(
            (rng.randint(0, ESTABLISHED - 1), rng.randint(ESTABLISHED, 300), rng.randint(ESTABLISHED, 40))
        )
        skill = Skill(rng.gauss(25, 4), max(8.33 - games * 0.15, 1.0))
        ratings.append(
            Rating(user=user, kind=DEFAULT_KIND, mu=skill.mu, sigma=skill.sigma, shown=skill.shown, games=games)
        )
    Rating.objects.bulk_create(ratings, batch_size=2000)
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {Rating._meta.db_table}")
    return users


def rate_games(rng: random.Random, users: list, count: int) -> float:
    """``count`` finished rated games of 2-6 of ``users``, each rated as it ends;
    returns the milliseconds one took to rate, on average."""
    spent = 0.0
    for _game in range(count):
        table = rng.sample(users, rng.randint(2, 6))
        game = Game.objects.create(
            kind=DEFAULT_KIND,
            host=table[0],
            seat_count=len(table),
            status=Game.Status.FINISHED,
            options={"variants": [], "rated": True},
            turn_seconds=86400,
            response_seconds=28800,
        )
        seats = Seat.objects.bulk_create(Seat(game=game, user=user, position=index) for index, user in enumerate(table))
        places = rng.sample(range(1, len(table) + 1), len(table))
        results = SeatResult.objects.bulk_create(
            SeatResult(
                seat=seat,
                game=game,
                user=seat.user,
                kind=DEFAULT_KIND,
                players=len(table),
                finished_at=game.created_at,
                place=place,
            )
            for seat, place in zip(seats, places, strict=True)
        )
        start = time.perf_counter()
        with transaction.atomic():
            game_rate(game=game, results=results)
        spent += time.perf_counter() - start
    return spent / max(count, 1) * 1000


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--migrate", action="store_true", help="migrate the database first")
    args = parser.parse_args(argv)
    if args.migrate:
        call_command("migrate", verbosity=0)
    setup_test_environment()  # the test client's host is allowed
    rng = random.Random(args.seed)
    result: dict = {"players": args.players}
    try:
        with transaction.atomic():
            start = time.perf_counter()
            users = make_players(f"{int(time.time())}x{rng.randint(0, 9999)}", args.players, rng)
            result["rate_ms_per_game"] = round(rate_games(rng, users, args.games), 2)
            result["build_s"] = round(time.perf_counter() - start, 1)
            print(
                f"built {args.players} rated players in {result['build_s']} s; "
                f"rating a finished game took {result['rate_ms_per_game']} ms"
            )
            ratings = {rating.user_id: rating for rating in Rating.objects.filter(user__in=users, kind=DEFAULT_KIND)}
            ranked = sorted((r for r in ratings.values() if not r.provisional), key=lambda r: (-r.shown, r.user_id))
            middle = ranked[len(ranked) // 2].user
            provisional = next(r.user for r in ratings.values() if r.provisional)
            board = reverse("leaderboard", args=[DEFAULT_KIND])
            pages = {
                "board_signed_out": (None, board),
                "board_middle_player": (middle, board),
                "board_provisional": (provisional, board),
                "player_page": (None, reverse("player", args=[middle.pk])),
            }
            for name, (reader, url) in pages.items():
                client = Client()
                if reader is not None:
                    client.force_login(reader)
                result[name] = render(client, url, args.rounds)
                shown = result[name]
                print(
                    f"{name:20} {url:24} median {shown['median_ms']:6.1f} ms  max {shown['max_ms']:6.1f} ms  "
                    f"(CPU {shown['cpu_median_ms']:5.1f} ms, SQL {shown['sql_median_ms']:5.1f} ms)  "
                    f"queries {shown['queries']}"
                )
            raise Rollback
    except Rollback:
        pass
    print(json.dumps(result))


if __name__ == "__main__":
    main()
