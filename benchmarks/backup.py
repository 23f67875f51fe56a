"""How long a backup and its restore take, and how large the backup is, for a site
of many finished games.

    python benchmarks/backup.py [--games 10000] [--logs 200]
        [--database-url postgres://postgres@127.0.0.1:5432/postgres]

It needs a PostgreSQL server where it may create databases: it creates two scratch
databases (``coup_backup_bench_<pid>`` and ``…_restored``) and drops both at the
end, also after an error or Ctrl-C. The first is migrated, then filled quickly, in
bulk (COPY), with ``--games`` finished games between 50 players: each game is one
of ``--logs`` real random games played to their end by the engine (2 to 6 players,
classic and variants), with its seats, its snapshot and its whole log, each event
linked in the game's hash chain as the site links it (``games.chain``). Per-seat
results and ratings are left out: small beside the logs.

Then, each as an operator runs it (``manage.py`` in a process of its own, so the
times include Django's start): ``backup`` of the first database, ``restore`` into
the second, and ``verify_games`` on the restored copy (every log's sequence, seats
and hash chain, and a full replay of every game). Prints each figure, the last line
as JSON, with the time Django takes to start (``manage.py shell``), which each includes.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PLAYERS = 50
CHUNK = 1000  # games inserted per transaction


def database_url(server_url: str, name: str) -> str:
    return urlunsplit(urlsplit(server_url)._replace(path=f"/{name}"))


def manage(*arguments: str, url: str) -> float:
    """Run ``manage.py`` with ``arguments`` on the database at ``url``; its wall time in seconds."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": url, "DEBUG": "1"},
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def fill(games: int, logs: int) -> int:
    """Insert ``games`` finished games into the database Django is set up on; returns the events written."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from benchmarks.dashboard import VARIANT_SETS, random_log
    from games.chain import event_hash
    from games.engine.seats import seat_position
    from games.kinds import KINDS
    from games.models import Game, Seat

    rules = KINDS["coup"].rules
    rng = random.Random(27)
    templates = []
    for _log in range(logs):
        variants = rng.choice(VARIANT_SETS)
        events, state = random_log(rng, rng.randint(2, 6), variants)
        payloads = [json.loads(json.dumps(event.to_json())) for event in events]
        templates.append((sorted(variants), payloads, rules.dump(state), seat_position(state.winner)))
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"player{index}", email=f"player{index}@example.com") for index in range(PLAYERS)
    )
    now = timezone.now()
    written = 0
    for first in range(0, games, CHUNK):
        with transaction.atomic():
            made = []
            for index in range(first, min(games, first + CHUNK)):
                variants, payloads, snapshot, winner = templates[index % logs]
                table = rng.sample(users, len(snapshot["players"]))
                finished = now - timedelta(hours=index)
                game = Game(
                    kind="coup",
                    host=table[0],
                    seat_count=len(table),
                    status=Game.Status.FINISHED,
                    options={"variants": variants, "first": "random"},
                    turn_seconds=86400,
                    response_seconds=28800,
                    version=len(payloads),
                    snapshot=snapshot,
                    started_at=finished - timedelta(days=3),
                    finished_at=finished,
                    winner=table[winner],
                )
                made.append((game, table, payloads))
            Game.objects.bulk_create([game for game, _table, _payloads in made])
            Seat.objects.bulk_create(
                Seat(game=game, user=user, position=position)
                for game, table, _payloads in made
                for position, user in enumerate(table)
            )
            copy_sql = "COPY games_event (game_id, seq, type, payload, hash, created_at) FROM STDIN"
            with connection.cursor() as cursor, cursor.copy(copy_sql) as copy:
                for game, _table, payloads in made:
                    head = ""
                    for seq, payload in enumerate(payloads):
                        head = event_hash(head, game_id=game.pk, seq=seq, type=payload["type"], payload=payload)
                        copy.write_row((game.pk, seq, payload["type"], json.dumps(payload), head, game.finished_at))
                    game.log_hash = head
                    written += len(payloads)
            Game.objects.bulk_update([game for game, _table, _payloads in made], ["log_hash"])
    return written


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10000)
    parser.add_argument("--logs", type=int, default=200, help="distinct random games the games are copies of")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
        help="a PostgreSQL server where the scratch databases may be created (its path is ignored)",
    )
    args = parser.parse_args(argv)
    source, restored = f"coup_backup_bench_{os.getpid()}", f"coup_backup_bench_{os.getpid()}_restored"
    server = urlunsplit(urlsplit(args.database_url)._replace(path="/postgres"))
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{source}"')
        admin.execute(f'CREATE DATABASE "{restored}"')
    try:
        figures = measure(args, database_url(args.database_url, source), database_url(args.database_url, restored))
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{source}" WITH (FORCE)')
            admin.execute(f'DROP DATABASE IF EXISTS "{restored}" WITH (FORCE)')
    print(json.dumps(figures))


def measure(args, source_url: str, restored_url: str) -> dict:
    manage("migrate", "--verbosity=0", url=source_url)
    os.environ.update({"DATABASE_URL": source_url, "DEBUG": "1", "DJANGO_SETTINGS_MODULE": "coupsite.settings"})
    import django

    django.setup()
    start = time.perf_counter()
    events = fill(args.games, args.logs)
    print(f"filled: {args.games} finished games, {events} events, in {time.perf_counter() - start:.1f} s", flush=True)
    start_s = manage("shell", "--command=pass", url=source_url)
    print(f"Django's start alone (included in each figure below): {start_s:.1f} s", flush=True)
    with tempfile.TemporaryDirectory(prefix="coup-backup-bench-") as folder:
        dump = Path(folder) / "site.dump"
        backup_s = manage("backup", str(dump), url=source_url)
        size_mb = dump.stat().st_size / 1e6
        print(f"backup:  {backup_s:.1f} s, {size_mb:.1f} MB", flush=True)
        restore_s = manage("restore", str(dump), url=restored_url)
        print(f"restore: {restore_s:.1f} s", flush=True)
    verify_s = manage("verify_games", url=restored_url)
    print(f"verify_games on the restored copy: {verify_s:.1f} s", flush=True)
    return {
        "games": args.games,
        "start_s": round(start_s, 2),
        "events": events,
        "backup_s": round(backup_s, 2),
        "backup_mb": round(size_mb, 1),
        "restore_s": round(restore_s, 2),
        "verify_s": round(verify_s, 1),
    }


if __name__ == "__main__":
    main()
