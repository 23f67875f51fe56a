"""The deadline sweep at scale: the time one sweep takes for many expired games.

    DATABASE_URL=postgres://... REDIS_URL=redis://... python benchmarks/sweep.py [--games 10000] [--migrate]

Starts one 4-player game through the services, copies it ``--games`` times (its
rows, seats and event log, bulk-inserted) with deadlines already passed, then
runs the Celery task ``games.tasks.sweep_deadlines`` once in this process, as
beat's worker would, committing as it goes, and prints the seconds it took and
per game, as JSON. The emails the sweep calls for are handed to the broker
(``REDIS_URL``) and purged from it afterwards; no worker runs them.

The games stay in the database (the event log cannot be deleted), swept: their
next deadline is a day away, so a later run sweeps only its own. Point
DATABASE_URL at a scratch PostgreSQL database (``--migrate`` migrates it first).
"""

import argparse
import json
import os
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coupsite.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from coupsite.celery import app  # noqa: E402
from games import tasks  # noqa: E402
from games.models import Game  # noqa: E402
from tests.players import expired_copies, make_player, started_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--migrate", action="store_true", help="migrate the database first")
    arguments = parser.parse_args()
    if arguments.migrate:
        call_command("migrate", verbosity=0)
    tag = uuid.uuid4().hex[:8]
    with transaction.atomic():
        model = started_game(*(make_player(f"Sweep{tag}{index}") for index in range(4)))
    build = time.perf_counter()
    copies = expired_copies(model, arguments.games)
    build = time.perf_counter() - build
    app.control.purge()  # the model game's emails

    start = time.perf_counter()
    swept = tasks.sweep_deadlines()
    seconds = time.perf_counter() - start
    advanced = Game.objects.filter(pk__in=copies, version__gt=model.version).count()
    app.control.purge()
    print(json.dumps({
        "games": arguments.games, "swept": swept, "advanced": advanced, "build_s": round(build, 1),
        "sweep_s": round(seconds, 2), "ms_per_game": round(1000 * seconds / arguments.games, 2),
        "database": connection.vendor,
    }))


if __name__ == "__main__":
    main()
