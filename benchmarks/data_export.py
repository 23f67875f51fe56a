"""The size of a long-time player's data export, and the time a worker takes to build it.

    DATABASE_URL=postgres://... python benchmarks/data_export.py [--finished 1000] [--active 20]

Builds, inside one transaction that is rolled back at the end (nothing stays in the
database, no email or task leaves), a player with ``--finished`` finished games
(real random games of every variant, their results recorded as when a game ends:
``benchmarks/dashboard.py``) and ``--active`` games in play, with a line of table
talk in each, then builds their export as the worker does
(``accounts.export.data_archive``) and prints the zip's size, the size of the JSON
inside it, and the time it took; then deletes the account (``accounts.leaving``:
its active games resigned or handed to stand-in bots) and prints the time that
took. The last line is JSON. Point DATABASE_URL at a
migrated scratch database (``--migrate`` migrates it first).
"""

import argparse
import io
import json
import os
import random
import sys
import time
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coupsite.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from accounts.export import data_archive  # noqa: E402
from accounts.leaving import account_delete  # noqa: E402
from benchmarks.dashboard import Rollback, build_active, build_finished, make_users  # noqa: E402
from games.models import ChatMessage, Game  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--finished", type=int, default=1000)
    parser.add_argument("--active", type=int, default=20)
    parser.add_argument("--opponents", type=int, default=15)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--migrate", action="store_true", help="migrate the database first")
    args = parser.parse_args(argv)
    if args.migrate:
        call_command("migrate", verbosity=0)
    setup_test_environment()  # email stays in memory
    rng = random.Random(args.seed)
    result = {"finished": args.finished, "active": args.active}
    try:
        with transaction.atomic():
            me, *others = make_users(f"{int(time.time())}x{rng.randint(0, 9999)}", args.opponents + 1)
            build_finished(rng, me, others, args.finished)
            build_active(rng, me, others, args.active)
            ChatMessage.objects.bulk_create(
                ChatMessage(game=game, user=me, text="Well played, everyone: same time next week?")
                for game in Game.objects.filter(seats__user=me)
            )
            start = time.perf_counter()
            archive = data_archive(me)
            result["build_s"] = round(time.perf_counter() - start, 1)
            with zipfile.ZipFile(io.BytesIO(archive)) as opened:
                data = opened.read("data.json")
                games = len(json.loads(data)["games"])
            result["games_in_export"] = games
            result["zip_bytes"] = len(archive)
            result["json_bytes"] = len(data)
            print(
                f"export of a player with {games} games: zip {len(archive) / 1e6:.2f} MB "
                f"(data.json {len(data) / 1e6:.1f} MB), built in {result['build_s']} s"
            )
            start = time.perf_counter()
            account_delete(user=me)
            result["delete_s"] = round(time.perf_counter() - start, 2)
            print(f"deleting that account took {result['delete_s']} s")
            raise Rollback
    except Rollback:
        pass
    print(json.dumps(result))


if __name__ == "__main__":
    main()
