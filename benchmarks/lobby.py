"""The lobby with many open games: server time and query count per page.

    DATABASE_URL=postgres://... python benchmarks/lobby.py [--games 10000] [--rounds 20]

Builds, inside one transaction that is rolled back at the end (nothing stays in the
database, no email or task leaves), ``--games`` open games gathering players (of
both kinds, three to six seats, every time control and language, one to all but
one seat taken, a third with a minimum rating or finish rate), bulk-inserted as
the services store them, and analyses the tables as PostgreSQL would have by
then. Then requests lobby pages ``--rounds`` times each, as a signed-in player and
as a visitor, through Django's test client (the whole request: middleware,
queries, templates), each read from the lobby's cache as a busy lobby's are, and
read afresh (``:afresh``, as after every seat taken), and prints the median and worst time, the median time in
the database and the number of queries of each, beside the not-found page's for
scale (a busy machine slows every page alike). The last line is JSON. Point DATABASE_URL at a migrated scratch
database (``--migrate`` migrates it first).
"""

import argparse
import json
import os
import random
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coupsite.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import Profile  # noqa: E402
from benchmarks.pages import render  # noqa: E402
from games.models import Game, OpenGame, Seat  # noqa: E402
from games.selectors.lobby import lobby_changed  # noqa: E402
from games.web.forms import TIME_CONTROLS  # noqa: E402

PAGES = {
    # The not-found page, for scale: what a request of a small page costs on this machine now.
    "baseline_not_found": "/no-such-page/",
    "lobby": "/lobby/",
    "lobby_page_100": "/lobby/?page=100",
    "lobby_last_page": "/lobby/?page=last",
    "filtered": "/lobby/?kind=coup&seat_count=4&time_control=day&language=es",
    "filtered_rare": "/lobby/?kind=kobayakawa&seat_count=6&time_control=live&language=pt-br",
}


BASELINES = {PAGES["baseline_not_found"]}


class Rollback(Exception):
    pass


def make_users(tag: str, count: int) -> list:
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"bench{tag}u{index}", email=f"bench{tag}u{index}@example.com")
        for index in range(count)
    )
    Profile.objects.bulk_create(Profile(user=user, display_name=f"Player {index}") for index, user in enumerate(users))
    return users


def build(rng: random.Random, users: list, count: int) -> None:
    """``count`` open games gathering players, a thousand per statement."""
    languages = [code for code, _name in settings.LANGUAGES]
    now = timezone.now()
    for first in range(0, count, 1000):
        specs = []
        for _index in range(min(1000, count - first)):
            kind = rng.choice(["coup", "coup", "kobayakawa"])
            seats = rng.randint(3, 6)
            turn, response = rng.choice(list(TIME_CONTROLS.values()))
            specs.append((kind, seats, turn, response, rng.sample(users, rng.randint(1, seats - 1))))
        games = Game.objects.bulk_create(
            Game(
                kind=kind,
                options={"variants": [], "first": "random", "takeover": 2, "rated": rng.random() < 0.5, "open": True},
                seat_count=seats,
                visibility=Game.Visibility.PUBLIC,
                host=players[0],
                turn_seconds=turn,
                response_seconds=response,
            )
            for kind, seats, turn, response, players in specs
        )
        Seat.objects.bulk_create(
            Seat(game=game, user=user, position=position)
            for game, (*_spec, players) in zip(games, specs, strict=True)
            for position, user in enumerate(players)
        )
        OpenGame.objects.bulk_create(
            OpenGame(
                game=game,
                kind=game.kind,
                seat_count=game.seat_count,
                turn_seconds=game.turn_seconds,
                language=rng.choice(languages),
                min_rating=rng.choice([None, None, None, 1200, 1500]),
                min_finish_rate=rng.choice([None, None, None, 60, 80]),
                fill_by=now + timedelta(days=rng.choice([1, 3, 7])),
            )
            for game in games
        )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--players", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--migrate", action="store_true", help="migrate the database first")
    args = parser.parse_args(argv)
    if args.migrate:
        call_command("migrate", verbosity=0)
    setup_test_environment()  # the test client's host is allowed; email stays in memory
    rng = random.Random(args.seed)
    result: dict = {"games": args.games}
    try:
        with transaction.atomic():
            start = time.perf_counter()
            users = make_users(f"{int(time.time())}x{rng.randint(0, 9999)}", args.players)
            build(rng, users, args.games)
            with connection.cursor() as cursor:
                for table in ("games_game", "games_seat", "games_opengame", "auth_user", "accounts_profile"):
                    cursor.execute(f"ANALYZE {table}")
            result["build_s"] = round(time.perf_counter() - start, 1)
            print(f"built {args.games} open games in {result['build_s']} s")
            reader = Client()
            reader.force_login(users[-1])
            readings = [("player", reader, None), ("visitor", Client(), None), ("player", reader, lobby_changed)]
            for who, client, before in readings:
                for name, url in PAGES.items():
                    if before is not None and url in BASELINES:
                        continue
                    key = f"{who}:{name}" + (":afresh" if before is not None else "")
                    status = 404 if url in BASELINES else 200
                    result[key] = render(client, url, args.rounds, status=status, before=before)
                    print(
                        f"{key:31} {url:72} median {result[key]['median_ms']:6.1f} ms  "
                        f"max {result[key]['max_ms']:6.1f} ms  database {result[key]['sql_median_ms']:5.1f} ms  "
                        f"queries {result[key]['queries']}"
                    )
            raise Rollback
    except Rollback:
        pass
    print(json.dumps(result))


if __name__ == "__main__":
    main()
