"""Broker outages, the production way: how long after Redis is back each move's
email arrives.

    python benchmarks/broker_outage.py [--outages 8] [--lengths 3,30,90,200]
        [--database-url postgres://postgres@127.0.0.1:5432/postgres] [--persist]

It starts, each on a free port of 127.0.0.1: a Redis server of its own (cache and
broker; nothing persisted unless ``--persist``, which keeps an RDB file as a stock
Redis does, so a restart brings the queues back), an SMTP server (aiosmtpd,
``tests/mailcatcher.py``), ``gunicorn coupsite.wsgi --workers 3`` and one
``celery -A coupsite worker -B`` (both queues, beat embedded, the default pool),
against a scratch database (``coup_outage_drill_<pid>``, migrated, dropped at the
end). The players and their two-seat games are made through the services.

First some traffic with Redis up (moves, each player's email awaited). Then, for
each outage: a few moves in other games (their tasks are in the worker as Redis
stops), Redis stopped, one move posted over HTTP as a browser posts it, Redis
stopped for the outage's length (``--lengths``, in turn), started again; the delay
from that moment to the awaited player's email at the SMTP server is measured.
At the end, after the relay and the worker had time to do everything twice, the
emails are counted by what they tell (the decision they ask for): none twice.

Prints one line per outage, then the figures: the most and the median seconds from
Redis's return to the email, the emails missing (not there within 30 s), those sent
twice, and the HTTP statuses the moves were answered with (all 200). ``--keep``
keeps the folder of the worker's and gunicorn's logs (its path is printed).
"""

import argparse
import os
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.load import (  # noqa: E402 (the project's root must be on the path first)
    Browser,
    admin_connection,
    database_url,
    free_port,
    session_cookie,
    wait_for_port,
)
from tests.redis_server import RedisServer  # noqa: E402

BOUND = 30.0  # seconds from the broker's return within which every email must leave
WAIT_AT_MOST = 120.0


class Drill:
    def __init__(self, args):
        self.args = args
        self.folder = Path(tempfile.mkdtemp(prefix="coup-outage-"))
        self.db_name = f"coup_outage_drill_{os.getpid()}"
        self.processes: list[subprocess.Popen] = []
        self.db_created = False
        self.redis = RedisServer(self.folder, persist=args.persist)
        self.smtp = None

    def open(self) -> None:
        from tests.mailcatcher import SMTPServer

        with admin_connection(self.args.database_url) as connection:
            connection.execute(f'CREATE DATABASE "{self.db_name}"')
        self.db_created = True
        self.redis.start()
        self.smtp_server = SMTPServer()
        self.smtp = self.smtp_server.start()
        self.port = free_port()
        site = {
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "HTTPS": "0",
            "DATABASE_URL": database_url(self.args.database_url, self.db_name),
            "REDIS_URL": self.redis.url,
            "CELERY_BROKER_URL": "",
            "OUTBOX_RELAY_PROCESS": "0",
            "SITE_URL": f"http://127.0.0.1:{self.port}",
            "STATIC_ROOT": str(self.folder / "static"),
            "EMAIL_HOST": self.smtp.host,
            "EMAIL_PORT": str(self.smtp.port),
            "VERP_BOUNCES": "0",
            "DJANGO_SETTINGS_MODULE": "coupsite.settings",
        }
        self.env = {**os.environ, **site}
        os.environ.update(site)  # this process makes the players and games in the same database
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)

    def start_site(self) -> None:
        self.web_log = self.folder / "gunicorn.log"
        self.worker_log = self.folder / "worker.log"
        self.processes.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "gunicorn",
                    "coupsite.wsgi",
                    "--workers",
                    "3",
                    "--bind",
                    f"127.0.0.1:{self.port}",
                ],
                cwd=ROOT,
                env=self.env,
                stdout=self.web_log.open("w"),
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )
        wait_for_port(self.port, self.processes[-1], self.web_log)
        self.processes.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "coupsite",
                    "worker",
                    "-B",
                    "--loglevel=INFO",
                    "--schedule",
                    str(self.folder / "celerybeat-schedule"),
                ],
                cwd=ROOT,
                env=self.env,
                stdout=self.worker_log.open("w"),
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )
        deadline = time.monotonic() + 60
        while " ready." not in self.worker_log.read_text():
            if time.monotonic() > deadline or self.processes[-1].poll() is not None:
                raise SystemExit(f"the worker did not start:\n{self.worker_log.read_text()[-3000:]}")
            time.sleep(0.2)

    def close(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        if self.redis.process is not None and self.redis.process.poll() is None:
            self.redis.stop()
        if self.smtp is not None:
            self.smtp_server.stop()
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        if self.db_created:
            with admin_connection(self.args.database_url) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        if not self.args.keep:
            shutil.rmtree(self.folder, ignore_errors=True)


class Table:
    """A two-seat game and its players' browsers; each move is Income, so the other
    player is asked next."""

    def __init__(self, drill: Drill, index: int):
        from tests.players import make_player, started_game

        self.drill = drill
        self.users = [make_player(f"P{index}a"), make_player(f"P{index}b")]
        self.game = started_game(*self.users, turn_seconds=7 * 86400, response_seconds=7 * 86400)
        self.statuses: list[int] = []
        self.browsers = {user.pk: Browser(drill.port, session_cookie(user)) for user in self.users}

    def awaited_user(self):
        from games.engine.seats import seat_position
        from tests.players import awaited

        [(player, (_kind, version))] = awaited(self.game).items()
        return self.game.seats.get(position=seat_position(player)).user, version

    def prepare(self) -> None:
        """The awaited player's browser opens the game's page (its CSRF token)."""
        user, _version = self.awaited_user()
        self.browsers[user.pk].page(self.game.pk)

    def move(self) -> object:
        """The awaited player takes Income over HTTP, from the page ``prepare``
        opened; returns the next awaited user."""
        user, version = self.awaited_user()
        status, _body = self.browsers[user.pk].decide(self.game.pk, version, '{"act": "income"}')
        self.statuses.append(status)
        nxt, nxt_version = self.awaited_user()
        if nxt_version <= version:
            raise SystemExit(f"the move in game {self.game.pk} was not made")
        return nxt


def arrival(smtp, address: str, count: int, timeout: float) -> float | None:
    """The monotonic time the ``count``-th email to ``address`` arrived, or None."""
    try:
        return smtp.wait_for(to=address, count=count, timeout=timeout).arrived
    except AssertionError:
        return None


def what_it_tells(email) -> tuple:
    """What ``email`` is about: the decision it asks for (seat, version, read from its
    answer links), else its recipient and subject. Two emails about one thing are one
    too many; a player asked twice in one game gets two of the same subject."""
    from games.mail.tokens import read_answer_token

    for link in email.links:
        if match := re.search(r"/a/([^/]+)/", link):
            token = read_answer_token(match.group(1))
            return token["s"], token["v"]
    return email.to[0], email.subject


def run(args, drill: Drill) -> dict:
    drill.open()
    drill.start_site()
    tables = [Table(drill, index) for index in range(args.outages + 3)]
    # Traffic first: the games' start emails, then a move in each of the spare games.
    for table in tables:
        for user in table.users:
            if arrival(drill.smtp, user.email, 1, 60) is None:
                raise SystemExit(f"no start email to {user.email}")
    spare = tables[args.outages :]
    for table in spare:
        table.prepare()
        user = table.move()
        if arrival(drill.smtp, user.email, 2, 60) is None:
            raise SystemExit(f"no email to {user.email} with the broker up")
    lengths = [float(length) for length in args.lengths.split(",")]
    delays = []
    for index, table in enumerate(tables[: args.outages]):
        length = lengths[index % len(lengths)]
        table.prepare()
        for spare_table in spare:
            spare_table.prepare()
        for spare_table in spare:  # their tasks are in the worker as Redis stops
            spare_table.move()
        drill.redis.stop()
        stopped = time.monotonic()
        user = table.move()
        time.sleep(max(0.0, length - (time.monotonic() - stopped)))
        drill.redis.start()
        back = time.monotonic()
        got = arrival(drill.smtp, user.email, 2, WAIT_AT_MOST)
        delay = None if got is None else got - back
        delays.append(delay)
        print(
            f"outage {index + 1}: {length:.0f} s, game {table.game.pk}, email to {user.email}: "
            + ("NOT ARRIVED" if delay is None else f"{delay:.1f} s after Redis was back")
            + f" (at {time.strftime('%H:%M:%S')})",
            flush=True,
        )
    time.sleep(args.settle)
    counts = Counter(what_it_tells(email) for email in drill.smtp.messages)
    doubled = {key: count for key, count in counts.items() if count > 1}
    arrived = [delay for delay in delays if delay is not None]
    return {
        "outages": len(delays),
        "missing": sum(delay is None or delay > BOUND for delay in delays),
        "max_delay_s": round(max(arrived), 1) if arrived else None,
        "median_delay_s": round(statistics.median(arrived), 1) if arrived else None,
        "doubled": len(doubled),
        "answers": dict(Counter(status for table in tables for status in table.statuses)),
        "doubled_examples": list(doubled.items())[:5],
        "worker_log": str(drill.worker_log),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outages", type=int, default=8)
    parser.add_argument("--lengths", default="3,30,90,200", help="outage lengths in seconds, taken in turn")
    parser.add_argument("--settle", type=float, default=30, help="seconds waited before counting the emails")
    parser.add_argument("--persist", action="store_true", help="Redis keeps an RDB file across restarts")
    parser.add_argument("--keep", action="store_true", help="keep the logs' folder")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
    )
    args = parser.parse_args(argv)
    drill = Drill(args)
    try:
        figures = run(args, drill)
    finally:
        drill.close()
    print(figures)


if __name__ == "__main__":
    main()
