"""The dashboard of a long-time player: render time and query count.

    DATABASE_URL=postgres://... python benchmarks/dashboard.py [--finished 1000] [--active 20] [--rounds 20]

Builds, inside one transaction that is rolled back at the end (nothing stays in the
database, no email or task leaves), a player with ``--finished`` finished games,
each a real random game whose log is stored and whose results are recorded by
``games.services.results`` as when a game ends, and ``--active`` games in play started
and played through the services. Then renders the home dashboard, the past games
page and the statistics page ``--rounds`` times each as that player and prints
the median and worst render time and the number of queries of each. The last
line is JSON. Point DATABASE_URL at a migrated scratch database (``--migrate``
migrates it first).
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

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import profile_of  # noqa: E402
from benchmarks.pages import render  # noqa: E402
from games.chain import events_chain  # noqa: E402
from games.engine.dealer import SeededDealer  # noqa: E402
from games.engine.seats import seat_players, seat_position  # noqa: E402
from games.kinds import KINDS  # noqa: E402
from games.models import Event, Game, Seat  # noqa: E402
from games.selectors import game_state  # noqa: E402
from games.services import gathering, play  # noqa: E402
from games.services.results import game_results_record  # noqa: E402

VARIANT_SETS = [(), (), ("inquisitor",), ("lawyer", "patron"), ("factions",), ("declared_coup",)]
PAGES = {
    "home": "/",
    "past": "/games/past/",
    "past_filtered": "/games/past/?variant=inquisitor&page=2",
    "stats": "/stats/",
}


class Rollback(Exception):
    pass


def make_users(tag: str, count: int):
    users = []
    for index in range(count):
        name = f"bench{tag}u{index}"
        user = get_user_model().objects.create_user(username=name, email=f"{name}@example.com", password=None)
        profile = profile_of(user)
        profile.display_name = f"Player {index}" if index else "Me"
        profile.save()
        users.append(user)
    return users


def random_log(rng, players: int, variants) -> list:
    """A random legal game to its end, seats named as the service names them."""
    rules = KINDS["coup"].rules
    dealer = SeededDealer(rng.random())
    names = seat_players(players)
    events = rules.setup(dealer=dealer, players=names, variants=list(variants), first=rng.choice(names))
    state = rules.new_state()
    for event in events:
        rules.apply(state, event)
    while not rules.is_over(state):
        name = rng.choice(rules.awaiting(state))[0]
        events += rules.play(state, name, rng.choice(rules.options(state, name)), dealer)
    return events, state


def build_finished(rng, me, others, count: int) -> float:
    """``count`` finished games of ``me``; returns the seconds recording results took."""
    rules = KINDS["coup"].rules
    now = timezone.now()
    recording = 0.0
    for index in range(count):
        variants = rng.choice(VARIANT_SETS)
        players = 2 if "two_player_draft" in variants else rng.choice((2, 3, 3, 4, 4, 5, 6))
        table = [me, *rng.sample(others, players - 1)]
        events, state = random_log(rng, players, variants)
        finished = now - timedelta(days=index * 0.7, hours=rng.random() * 20)
        winner = table[seat_position(state.winner)]
        game = Game.objects.create(
            kind="coup",
            host=me,
            seat_count=players,
            status=Game.Status.FINISHED,
            options={"variants": sorted(variants), "first": "random"},
            turn_seconds=86400,
            response_seconds=28800,
            version=len(events),
            snapshot=rules.dump(state),
            started_at=finished - timedelta(days=rng.randint(0, 9)),
            finished_at=finished,
            winner=winner,
        )
        Seat.objects.bulk_create(Seat(game=game, user=user, position=position) for position, user in enumerate(table))
        rows = [Event(game=game, seq=seq, type=event.type, payload=event.to_json()) for seq, event in enumerate(events)]
        events_chain(game, rows)
        Event.objects.bulk_create(rows)
        game.save(update_fields=["log_hash"])
        start = time.perf_counter()
        game_results_record(game=game)
        game.save(update_fields=["moves"])
        recording += time.perf_counter() - start
    return recording


def build_active(rng, me, others, count: int) -> None:
    for _game in range(count):
        table = rng.sample(others, rng.randint(1, 4))
        game = gathering.game_create(
            host=me,
            variants=list(rng.choice(VARIANT_SETS)),
            seat_count=1 + len(table),
            turn_seconds=86400,
            response_seconds=28800,
        )
        for user in table:
            gathering.seat_join(game=game, user=user, join_token=game.join_token)
        game = gathering.game_start(game=game, by=me)
        users = {seat.player: seat.user for seat in game.seats.all()}
        for _move in range(rng.randint(0, 12)):
            game.refresh_from_db()
            state = game_state(game)
            rules = KINDS[game.kind].rules
            if rules.is_over(state):
                break
            name, _decision, version = rng.choice(rules.awaiting(state))
            command = rng.choice(rules.options(state, name))
            play.decision_submit(game=game, user=users[name], command=command, version=version)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finished", type=int, default=1000)
    parser.add_argument("--active", type=int, default=20)
    parser.add_argument("--opponents", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--migrate", action="store_true", help="migrate the database first")
    args = parser.parse_args(argv)
    if args.migrate:
        call_command("migrate", verbosity=0)
    setup_test_environment()  # the test client's host is allowed; email stays in memory
    rng = random.Random(args.seed)
    result = {"finished": args.finished, "active": args.active}
    try:
        with transaction.atomic():
            start = time.perf_counter()
            me, *others = make_users(f"{int(time.time())}x{rng.randint(0, 9999)}", args.opponents + 1)
            recording = build_finished(rng, me, others, args.finished)
            build_active(rng, me, others, args.active)
            result["build_s"] = round(time.perf_counter() - start, 1)
            result["results_ms_per_game"] = round(recording / max(args.finished, 1) * 1000, 2)
            print(
                f"built {args.finished} finished and {args.active} active games in {result['build_s']} s; "
                f"recording results took {result['results_ms_per_game']} ms a game"
            )
            client = Client()
            client.force_login(me)
            for name, url in PAGES.items():
                result[name] = render(client, url, args.rounds)
                print(
                    f"{name:14} {url:40} median {result[name]['median_ms']:7.1f} ms  "
                    f"max {result[name]['max_ms']:7.1f} ms  queries {result[name]['queries']}"
                )
            raise Rollback
    except Rollback:
        pass
    print(json.dumps(result))


if __name__ == "__main__":
    main()
