"""The site under load: gunicorn as in production, 50 signed-in clients, and the
three background paths that scale with the number of games.

    python benchmarks/load.py [--clients 50] [--seconds 15] [--slices 5] [--pace 1] [--port 0]
        [--database-url postgres://postgres@127.0.0.1:5432/postgres]
        [--redis-url redis://127.0.0.1:6379/14] [--sweep-budget 90]

(`make bench` runs it.) It needs a PostgreSQL server where it may create a
database and an empty Redis database; it makes everything it uses and removes it
at the end, also after an error or Ctrl-C: it creates a scratch database
(``coup_load_<pid>``) on the server of ``--database-url`` (migrated, static files
collected into a temporary folder), refuses to run unless the Redis database of
``--redis-url`` is empty and flushes it at the end, and starts
``gunicorn coupsite.wsgi --workers 3`` on 127.0.0.1 (a free port unless
``--port``) with DEBUG off and a random SECRET_KEY, beside the outbox relay process
(``manage.py outbox_relay``), as docker compose runs them: every process of the run
leaves its hand-overs to the relay (``OUTBOX_RELAY_PROCESS``). No Celery worker
runs: the tasks the relay hands over wait in Redis until the flush (how many calls
the moves' messages became is printed).

The games are made through the services (``games.services.gathering``) and played
through the engine (``games.kinds.KINDS``): a never-ending Coup where every turn is
Foreign Aid, blocked by a Duke claim that everybody allows, appended to the log by
``games.services.play.events_append``. Clients are signed in by sessions made for
them (``Client.force_login``), each its own session cookie, over keep-alive
``http.client`` connections (gunicorn's sync workers close each one after its
answer, as in production).

Figures, the last line being the same as JSON:

hello_rps       requests a second of the cheapest signed-in request: the game page's
                poll when nothing changed (``/games/<pk>/table?since=..&clock=..``,
                the URL read from the page, then from each decision's answer, as
                the browser's live part does; a 204 after the whole middleware stack,
                the session, the user, the game and its seat, no template). This is
                the baseline the other rates are compared with.
page_rps        game pages (``/games/<pk>/``) a second, each client its own ~20-event
                4-player game; page_p99_ms the 99th percentile of their latency.
decide_rps      decisions a second, posted as the page's htmx form posts them
                (``/games/<pk>/decide``: command JSON, decision version, CSRF token
                from the page, ``HX-Request``), each client playing every seat of its
                own game; only moves the answer shows made count (the live partial
                carries the game's new version); refused or failed posts are counted
                apart, and the moves are checked against the games' versions in the
                database. decide_p99_ms their 99th percentile latency.
                The rates are measured with every client sending back to back (the
                most the server takes), --seconds in all for each, in --slices turns
                of hello, page and decide in rotation: each rate is the median of its
                turns' rates (the machine's other load then moves all three alike);
                the p99 latencies under a bounded load, each
                client sending one request every --pace seconds (1: 50 a second in
                all), since at full speed a request's wait is only the queue of the
                others (clients over rate) and tells nothing of the server.
page_1000_vs_20 CPU time (time.process_time, in this process through Django's test
                client) of rendering a 1,000-event game's page over a 20-event game's,
                medians of many renders, the same player and table.
sweep_10000_s   wall time for one worker process (``games.tasks.sweep_deadlines``
                called until no deadline has passed) to expire 10,000 4-player games
                whose deadlines have passed (cloned from one started game). When it
                exceeds --sweep-budget the worker is stopped and the time is
                extrapolated from the games it expired (said so in the output).
email_vs_plain  CPU time of the fan-out a claim in a 10-player game causes (``games.tasks.
                games_advanced`` for its events, then each task it queued in the
                outbox, the ``send_decision`` of each player who may challenge, run
                here on the locmem email backend, then rolled back) divided by the
                9 emails it sends, over the CPU time of one plain templated email
                (the invitation's subject, text and HTML templates rendered from a
                fixed context, no database, + EmailMultiAlternatives.send, same backend).

Targets are printed beside the figures: decide_rps and page_rps at least half of
hello_rps, p99 under 300 ms with 50 clients, page_1000_vs_20 at most 1.3,
sweep_10000_s under 30 s, email_vs_plain at most 3. The machine's other load moves
the rates; compare the ratios of one run.
"""

import argparse
import functools
import http.client
import json
import os
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from html import unescape
from pathlib import Path
from urllib.parse import urlencode, urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGETS = {
    "decide_rps": "≥ 0.5 × hello_rps",
    "page_rps": "≥ 0.5 × hello_rps",
    "page_p99_ms": "< 300 ms",
    "decide_p99_ms": "< 300 ms",
    "page_1000_vs_20": "≤ 1.3",
    "sweep_10000_s": "< 30 s",
    "email_vs_plain": "≤ 3",
}
LONG = 7 * 24 * 3600  # turn and response time: no deadline falls due while measuring
SWEEP_WORKER = "--sweep-worker"


# --- the scratch database, Redis database and server --------------------------------


def admin_connection(server_url: str):
    import psycopg

    parts = urlsplit(server_url)
    return psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True)


def database_url(server_url: str, name: str) -> str:
    return urlunsplit(urlsplit(server_url)._replace(path=f"/{name}"))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, server: subprocess.Popen, log_path: Path, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited ({server.returncode}):\n{log_path.read_text()[-3000:]}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"gunicorn did not listen on {port} within {seconds} s")


class Scratch:
    """Everything the run makes, removed by ``close`` whatever happened."""

    def __init__(self, args):
        import redis

        self.args = args
        self.db_name = f"coup_load_{os.getpid()}"
        self.redis = redis.Redis.from_url(args.redis_url)
        self.static_root = Path(tempfile.mkdtemp(prefix="coup-load-static-"))
        self.log_path = self.static_root.with_name(self.static_root.name + ".gunicorn.log")
        self.server = None
        self.relay = None
        self.db_created = False
        self.redis_used = False

    def open(self) -> dict:
        if self.redis.dbsize():
            raise SystemExit(f"{self.args.redis_url} is not empty: give --redis-url an unused Redis database.")
        self.redis_used = True
        with admin_connection(self.args.database_url) as connection:
            connection.execute(f'CREATE DATABASE "{self.db_name}"')
        self.db_created = True
        self.port = self.args.port or free_port()
        env = {
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "HTTPS": "0",  # plain HTTP on 127.0.0.1, no TLS proxy in front
            "DATABASE_URL": database_url(self.args.database_url, self.db_name),
            "REDIS_URL": self.args.redis_url,
            "CELERY_BROKER_URL": "",
            "OUTBOX_RELAY_PROCESS": "1",  # as docker compose runs every process of the site
            "SITE_URL": f"http://127.0.0.1:{self.port}",
            "STATIC_ROOT": str(self.static_root),
            "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
            "LOG_LEVEL": "WARNING",
            "DJANGO_SETTINGS_MODULE": "coupsite.settings",
        }
        os.environ.update(env)
        return env

    def start_server(self) -> None:
        """gunicorn and the outbox relay, as docker compose runs them."""
        self.log = self.log_path.open("w")
        self.relay = subprocess.Popen(
            [sys.executable, "manage.py", "outbox_relay"],
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.server = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "coupsite.wsgi", "--workers", "3", "--bind", f"127.0.0.1:{self.port}"],
            cwd=ROOT,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        wait_for_port(self.port, self.server, self.log_path)

    def stop_server(self) -> None:
        for process in (self.server, self.relay):
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()

    def close(self) -> None:
        self.stop_server()
        if "django" in sys.modules:
            from django.db import connections

            connections.close_all()
        if self.db_created:
            with admin_connection(self.args.database_url) as connection:
                connection.execute(f'DROP DATABASE IF EXISTS "{self.db_name}" WITH (FORCE)')
        if self.redis_used:
            self.redis.flushdb()
        shutil.rmtree(self.static_root, ignore_errors=True)
        if self.log_path.exists():
            self.log_path.unlink()


# --- games, made through the services and played through the engine -------------------


def endless_choice(options: list) -> dict:
    """Foreign Aid, blocked by a Duke claim, allowed by everybody: a turn that
    changes nothing, so the game never ends and nothing is drawn."""
    for act, extra in (("foreign_aid", {}), ("block", {"as": "duke"}), ("allow", {})):
        for option in options:
            if option["act"] == act and all(option.get(key) == value for key, value in extra.items()):
                return option
    raise RuntimeError(f"no endless answer among {options}")


def endless_moves(rules, state, count: int):
    """The next ``count`` decisions of the endless game from ``state`` (played on
    it): (player, decision version, command, events)."""
    for _move in range(count):
        player, _decision, version = rules.awaiting(state)[0]
        command = {
            key: value for key, value in endless_choice(rules.options(state, player)).items() if key != "version"
        }
        yield player, version, command, rules.play(state, player, {**command, "version": version})


def make_users(tag: str, count: int) -> list:
    from django.contrib.auth import get_user_model

    model = get_user_model()
    return [
        model.objects.create_user(username=f"{tag}{index}", email=f"{tag}{index}@example.com", password=None)
        for index in range(count)
    ]


def started_game(users: list):
    from games.services import gathering

    host, *others = users
    game = gathering.game_create(
        host=host, variants=[], seat_count=len(users), turn_seconds=LONG, response_seconds=LONG
    )
    for user in others:
        gathering.seat_join(game=game, user=user, join_token=game.join_token)
    return gathering.game_start(game=game, by=host)


def advanced(game, events_at_least: int):
    """``game`` played on (the endless turn) until its log holds ``events_at_least``
    events, appended as a move's are."""
    from django.db import transaction

    from games.kinds import KINDS
    from games.models import Game
    from games.services.play import events_append

    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        rules = KINDS[game.kind].rules
        state = rules.load(game.snapshot)
        events = []
        while game.version + len(events) < events_at_least:
            for *_decision, produced in endless_moves(rules, state, 1):
                events += produced
        events_append(game, state, events)
    return game


def session_cookie(user) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


# --- the HTTP clients ------------------------------------------------------------------


class Browser:
    """One player's browser: its own session cookie (and CSRF cookie once a page set
    it), one keep-alive connection."""

    def __init__(self, port: int, session: str):
        from django.conf import settings

        self.port = port
        self.cookies = {settings.SESSION_COOKIE_NAME: session}
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.csrf_field = ""

    def request(self, method: str, path: str, body: str | None = None, headers: dict | None = None):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), **(headers or {})}
        for attempt in (1, 2):
            try:
                self.connection.request(method, path, body=body, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
                break
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self.connection.close()  # the server closed the kept connection: once more on a new one
                if attempt == 2:
                    raise
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, data

    def page(self, game_id: int) -> bytes:
        from django.conf import settings

        status, body = self.request("GET", f"/games/{game_id}/")
        if status != 200:
            raise RuntimeError(f"game page {game_id}: HTTP {status}")
        match = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body)
        if match:
            self.csrf_field = match.group(1).decode()
        elif settings.CSRF_COOKIE_NAME in self.cookies:  # Django also takes the cookie's own value
            self.csrf_field = self.cookies[settings.CSRF_COOKIE_NAME]
        return body

    def decide(self, game_id: int, version: int, command: str):
        """Post a decision as the game page does (htmx, from its form): (status, body)."""
        form = {"csrfmiddlewaretoken": self.csrf_field, "version": str(version), "command": command}
        return self.request(
            "POST",
            f"/games/{game_id}/decide",
            body=urlencode(form),
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "HX-Request": "true",
                "Origin": f"http://127.0.0.1:{self.port}",
                "Referer": f"http://127.0.0.1:{self.port}/games/{game_id}/",
            },
        )


def poll_url(body: bytes) -> str:
    """The URL a game page, or its live part, polls (the game's version and clock in it)."""
    match = re.search(rb'hx-get="(/games/\d+/table\?[^"]*)"', body)
    if not match:
        raise RuntimeError("no polling URL in the answer")
    return unescape(match.group(1).decode())


class Player:
    """One load client: the four browsers of the four seats of its own game, and the
    script of the game's next decisions (the engine, played from the game's state)."""

    def __init__(self, port: int, game, sessions: dict, script: list):
        self.game_id = game.pk
        self.browsers = {player: Browser(port, session) for player, session in sessions.items()}
        self.script = script  # (player, version, command JSON, version after)
        self.done = 0  # script steps answered
        first = next(iter(self.browsers))
        self.viewer = self.browsers[first]

    def prepare(self) -> None:
        """Open the page in each browser (its CSRF token and cookie), and read from
        the first one the URL it polls."""
        for browser in self.browsers.values():
            body = browser.page(self.game_id)
            if browser is self.viewer:
                self.poll_url = poll_url(body)
            if not browser.csrf_field:
                raise RuntimeError(f"game {self.game_id}: no CSRF token on the page")

    def hello(self) -> bool:
        status, _body = self.viewer.request("GET", self.poll_url, headers={"HX-Request": "true"})
        return status == 204

    def page(self) -> bool:
        status, body = self.viewer.request("GET", f"/games/{self.game_id}/")
        return status == 200 and b'id="live"' in body

    def decide(self) -> bool:
        if self.done >= len(self.script):
            raise RuntimeError("script exhausted")
        player, version, command, after = self.script[self.done]
        status, body = self.browsers[player].decide(self.game_id, version, command)
        # The live partial the answer swaps in carries the game's version (its poll URL
        # and data-version): the move was made when it shows the version after it.
        made = status == 200 and re.search(rb'(?:data-version="|since=)%d\b' % after, body) is not None
        if made:
            self.done += 1
            self.poll_url = poll_url(body)  # as the swapped-in partial polls from now on
        return made


def load(players: list, action: str, seconds: float, pace: float = 0) -> dict:
    """Every player repeats ``action`` for ``seconds``, all at once: back to back
    (``pace`` 0, the most the server can take), or once every ``pace`` seconds
    each, the players' turns spread evenly over that period (a bounded load)."""
    results = [None] * len(players)
    start_line = threading.Barrier(len(players) + 1)

    def run(index, player):
        latencies, failed, errors = [], 0, []
        start_line.wait()
        began = time.perf_counter()
        stop = began + seconds
        due = began + pace * index / len(players)
        while (now := time.perf_counter()) < stop:
            if pace:
                if now < due:
                    time.sleep(min(due, stop) - now)
                    continue
                due += pace
            try:
                ok = getattr(player, action)()
            except Exception as error:  # counted apart, the client goes on
                errors.append(repr(error))
                if "script exhausted" in repr(error):
                    break
                continue
            latencies.append(time.perf_counter() - now)
            failed += not ok
        results[index] = (latencies, failed, errors)

    threads = [threading.Thread(target=run, args=(index, player), daemon=True) for index, player in enumerate(players)]
    for thread in threads:
        thread.start()
    start_line.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    latencies = sorted(x for result in results for x in result[0])
    failed = sum(result[1] for result in results)
    errors = [error for result in results for error in result[2]]
    made = len(latencies) - failed
    return {
        "rps": made / elapsed,
        "made": made,
        "refused": failed,
        "errors": len(errors),
        "first_error": errors[0] if errors else "",
        "seconds": elapsed,
        **latency_figures(latencies),
    }


def rates(players: list, names: tuple, seconds: float, slices: int) -> dict:
    """The full-speed rate of each request in ``names``, measured in ``slices``
    turns of ``seconds / slices`` each, the names taking turns: the median of its
    turns' rates, so that a change in the machine's other load during the run
    moves every name alike instead of the one measured at that moment."""
    turns = {name: [] for name in names}
    for _slice in range(slices):
        for name in names:
            turns[name].append(load(players, name, seconds / slices))
    results = {}
    for name, measured in turns.items():
        median = statistics.median(result["rps"] for result in measured)
        errors = [result["first_error"] for result in measured if result["first_error"]]
        results[name] = {
            "rps": median,
            "slice_rps": [round(result["rps"], 1) for result in measured],
            **{count: sum(result[count] for result in measured) for count in ("made", "refused", "errors", "seconds")},
            "first_error": errors[0] if errors else "",
            **latency_figures(sorted(x for result in measured for x in result["latencies"])),
        }
        report_load(name, results[name])
        print(f"        rates of its {slices} turns: {results[name]['slice_rps']} (median {median:.1f})", flush=True)
    return results


def latency_figures(latencies: list) -> dict:
    """The median and 99th percentile of ``latencies`` (seconds, sorted), in ms."""
    return {
        "p50_ms": 1000 * latencies[len(latencies) // 2] if latencies else None,
        "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] if latencies else None,
        "latencies": latencies,
    }


def report_load(name: str, result: dict) -> None:
    p50 = f"{result['p50_ms']:.0f}" if result["p50_ms"] is not None else "-"
    p99 = f"{result['p99_ms']:.0f}" if result["p99_ms"] is not None else "-"
    print(
        f"{name:7} {result['rps']:7.1f}/s  ({result['made']} in {result['seconds']:.1f} s)  p50 {p50} ms  "
        f"p99 {p99} ms  refused {result['refused']}  errors {result['errors']} {result['first_error'][:200]}",
        flush=True,
    )


# --- the in-process measures -----------------------------------------------------------


@functools.cache
def task(name: str):
    """A Celery task by its registered name, called here as a worker would. Looked up
    once: importing the default modules runs Django's system checks (Celery's Django
    fixup), which a worker does once at start, not before every task it runs."""
    from coupsite.celery import app

    app.loader.import_default_modules()
    return app.tasks[name]


def page_cpu_ratio(short_game, long_game, user, rounds: int) -> float:
    from django.test import Client

    client = Client(SERVER_NAME="127.0.0.1")
    client.force_login(user)
    times = {short_game.pk: [], long_game.pk: []}
    for _round in range(rounds + 2):
        for game_id, samples in times.items():
            start = time.process_time()
            response = client.get(f"/games/{game_id}/")
            samples.append(time.process_time() - start)
            assert response.status_code == 200, (game_id, response.status_code)
    short, long = (statistics.median(times[game.pk][2:]) for game in (short_game, long_game))
    print(
        f"page CPU: {short_game.version}-event game {short * 1000:.1f} ms, {long_game.version}-event game "
        f"{long * 1000:.1f} ms (median of {rounds} renders each, this process)",
        flush=True,
    )
    return long / short


class Rollback(Exception):
    pass


def email_ratio(rounds: int) -> float:
    """CPU of one claim's decision emails in a 10-player game, per email, over one plain email."""
    from django.core import mail
    from django.core.mail import EmailMultiAlternatives
    from django.db import transaction
    from django.template.loader import render_to_string

    from games.kinds import KINDS
    from games.models import Game
    from games.services import play
    from outbox.models import Message

    users = make_users("mail", 10)
    game = started_game(users)
    rules = KINDS[game.kind].rules
    state = rules.load(game.snapshot)
    player, _decision, version = rules.awaiting(state)[0]
    tax = next(option for option in rules.options(state, player) if option["act"] == "tax")
    before = game.version
    claimant = {seat.player: seat.user for seat in game.seats.select_related("user")}[player]
    play.decision_submit(game=game, user=claimant, command=tax, version=version)
    after = Game.objects.get(pk=game.pk).version
    games_advanced = task("games.tasks.games_advanced")

    def fan_out() -> tuple[float, int]:
        mail.outbox = []
        try:
            with transaction.atomic():  # the outbox's messages are read here, then rolled back
                newest = Message.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
                start = time.process_time()
                games_advanced([[game.pk, before, after]])
                for message in Message.objects.filter(pk__gt=newest).order_by("pk"):  # the sends it queued
                    task(message.task)(*message.args, **message.kwargs)
                spent = time.process_time() - start
                raise Rollback(spent, len(mail.outbox))
        except Rollback as done:
            return done.args

    def plain() -> float:
        """A whole templated email with no game behind it: the invitation's subject,
        text and HTML templates rendered from a fixed context, then sent."""
        mail.outbox = []
        start = time.process_time()
        context = {
            "inviter": "Ana",
            "game": game,
            "game_name": "Coup",
            "link": "http://127.0.0.1/invitations/x/",
            "unsubscribe_url": "http://127.0.0.1/unsubscribe/x/",
        }
        subject = render_to_string("emails/invitation-subject.txt", context).strip()
        message = EmailMultiAlternatives(
            subject, render_to_string("emails/invitation-body.txt", context), to=["someone@example.com"]
        )
        message.attach_alternative(render_to_string("emails/invitation-body.html", context), "text/html")
        message.send()
        return time.process_time() - start

    fan_out(), plain()  # templates and translations loaded
    fan_outs, plains = [], []
    for _round in range(rounds):  # alternated, so that both see the machine's other load alike
        fan_outs.append(fan_out())
        plains += [plain() for _email in range(5)]
    sent = {count for _spent, count in fan_outs}
    if sent != {9}:
        print(f"warning: the claim's fan-out sent {sorted(sent)} emails, not 9", flush=True)
    per_email = statistics.median(spent / max(count, 1) for spent, count in fan_outs)
    single = statistics.median(plains)
    print(
        f"email CPU: {per_email * 1000:.2f} ms per decision email of the fan-out ({sorted(sent)} sent), "
        f"{single * 1000:.2f} ms per plain email (medians)",
        flush=True,
    )
    return per_email / single


def clone_started_games(count: int) -> list:
    """``count`` copies of one started 4-player game, every deadline passed."""
    from games.models import Game
    from tests.players import expired_copies

    return expired_copies(Game.objects.get(pk=started_game(make_users("sweep", 4)).pk), count)


def sweep_worker() -> None:
    """The child process: one Celery worker's sweeps, until no deadline has passed."""
    import django

    django.setup()
    from django.utils import timezone

    from games.models import Game

    sweep = task("games.tasks.sweep_deadlines")
    print("start", flush=True)

    def due() -> int:
        return Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__lte=timezone.now()).count()

    start = time.perf_counter()
    left = due()
    while left:
        sweep()
        left, before = due(), left
        if left >= before:  # games the sweep cannot expire (marked for attention)
            break
    print(f"done {time.perf_counter() - start:.3f}", flush=True)


def sweep_time(ids: list, budget: float) -> float:
    from django.utils import timezone

    from games.models import Game

    worker = subprocess.Popen([sys.executable, __file__, SWEEP_WORKER], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert worker.stdout.readline().strip() == "start"
        began = time.perf_counter()
        lines = []
        reader = threading.Thread(target=lambda: lines.extend(worker.stdout))
        reader.start()
        try:
            worker.wait(timeout=budget)
        except subprocess.TimeoutExpired:
            worker.terminate()
            worker.wait()
            elapsed = time.perf_counter() - began
            left = Game.objects.filter(pk__in=ids, status=Game.Status.ACTIVE, deadline_at__lte=timezone.now()).count()
            expired = len(ids) - left
            estimate = elapsed * len(ids) / max(expired, 1)
            print(
                f"sweep: stopped after {elapsed:.1f} s (--sweep-budget), {expired} of {len(ids)} games expired: "
                f"{estimate:.1f} s for all, EXTRAPOLATED",
                flush=True,
            )
            return estimate
        reader.join()
        done = [line for line in lines if line.startswith("done ")]
        if worker.returncode or not done:
            raise RuntimeError(f"the sweep worker failed ({worker.returncode}): {''.join(lines)[-2000:]}")
        left = Game.objects.filter(pk__in=ids, status=Game.Status.ACTIVE, deadline_at__lte=timezone.now()).count()
        seconds = float(done[0].split()[1])
        print(f"sweep: {len(ids) - left} of {len(ids)} games expired in {seconds:.1f} s by one worker", flush=True)
        return seconds
    finally:
        if worker.poll() is None:
            worker.kill()
            worker.wait()


# --- the run ---------------------------------------------------------------------------


def build_players(count: int, port: int, script_length: int) -> list:
    from games.kinds import KINDS

    players = []
    for index in range(count):
        users = make_users(f"load{index}x", 4)
        game = advanced(started_game(users), 20)
        sessions = {seat.player: session_cookie(seat.user) for seat in game.seats.select_related("user")}
        rules = KINDS[game.kind].rules
        state = rules.load(game.snapshot)
        script, version = [], game.version
        for player, decision, command, events in endless_moves(rules, state, script_length):
            version += len(events)
            script.append((player, decision, json.dumps(command, sort_keys=True, separators=(",", ":")), version))
        players.append(Player(port, game, sessions, script))
    return players


def moves_in_database(players: list) -> int:
    from games.models import Game

    versions = dict(Game.objects.filter(pk__in=[p.game_id for p in players]).values_list("pk", "version"))
    return sum(sum(1 for step in p.script if step[3] <= versions[p.game_id]) for p in players)


def run(args, scratch: Scratch) -> dict:
    scratch.open()
    import django

    django.setup()
    from django.core.management import call_command

    from outbox.models import Message
    from outbox.services import RELAY_LOOKS_EVERY

    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    scratch.start_server()
    print(
        f"scratch database {scratch.db_name} migrated, static files collected, gunicorn (3 workers) on "
        f"127.0.0.1:{scratch.port} in {time.perf_counter() - started:.1f} s",
        flush=True,
    )

    started = time.perf_counter()
    players = build_players(args.clients, scratch.port, args.script)
    ratio_users = make_users("ratio", 4)
    short_game = advanced(started_game(ratio_users), 20)
    long_game = advanced(started_game(ratio_users), 1000)
    print(
        f"built {args.clients} 4-player games of ~{players[0].script[0][3] - 1} events with their "
        f"{4 * args.clients} sessions, and games of {short_game.version} and {long_game.version} events "
        f"in {time.perf_counter() - started:.1f} s",
        flush=True,
    )

    threads = [threading.Thread(target=player.prepare, daemon=True) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    load(players, "hello", 2)  # connections and workers warmed
    results = rates(players, ("hello", "page", "decide"), args.seconds, args.slices)
    bounded = {}
    # Latency is measured under a bounded load: at full speed, 50 clients that never
    # pause keep every request queued behind the others (p99 is then just the
    # number of clients over the rate), which says nothing of a player's wait.
    for name in ("page", "decide"):
        bounded[name] = load(players, name, args.seconds, pace=args.pace)
        report_load(f"{name} at {args.clients / args.pace:.0f}/s", bounded[name])
    in_database = moves_in_database(players)
    shown = results["decide"]["made"] + bounded["decide"]["made"]
    print(
        f"decide: the answers showed {shown} moves, the games' versions in the database "
        f"{in_database}{'' if in_database == shown else ' (MISMATCH)'}",
        flush=True,
    )
    time.sleep(2 * RELAY_LOOKS_EVERY)  # the relay's last run
    print(
        f"relay: the moves' messages reached the broker as {scratch.redis.llen('celery')} calls; "
        f"{Message.objects.count()} wait in the outbox",
        flush=True,
    )
    scratch.stop_server()  # the in-process measures run alone

    page_ratio = page_cpu_ratio(short_game, long_game, ratio_users[0], args.rounds)
    mail_ratio = email_ratio(args.rounds)
    started = time.perf_counter()
    ids = clone_started_games(args.sweep_games)
    print(
        f"cloned {len(ids)} started 4-player games with passed deadlines in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    sweep = sweep_time(ids, args.sweep_budget) * 10000 / len(ids)
    return {
        "hello_rps": round(results["hello"]["rps"], 1),
        "page_rps": round(results["page"]["rps"], 1),
        "decide_rps": round(results["decide"]["rps"], 1),
        "page_p99_ms": round(bounded["page"]["p99_ms"] or 0, 1),
        "decide_p99_ms": round(bounded["decide"]["p99_ms"] or 0, 1),
        "page_1000_vs_20": round(page_ratio, 2),
        "sweep_10000_s": round(sweep, 1),
        "email_vs_plain": round(mail_ratio, 2),
    }


def summary(figures: dict) -> None:
    hello = figures["hello_rps"] or 1
    print("\nfigure            value     target")
    for name, value in figures.items():
        note = TARGETS.get(name, "(baseline)")
        if name in ("decide_rps", "page_rps"):
            note += f"   (= {value / hello:.2f} × hello_rps)"
        print(f"{name:17} {value:<9} {note}")


def interrupted(_signum, _frame):
    raise KeyboardInterrupt  # a terminated run cleans up as after Ctrl-C


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=15, help="length of each HTTP measurement")
    parser.add_argument(
        "--slices",
        type=int,
        default=5,
        help="turns the full-speed rates are measured in, taking turns (their median is the rate)",
    )
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port on 127.0.0.1 (default: a free one)")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres"),
        help="a PostgreSQL server where the scratch database may be created (its path is ignored)",
    )
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14"),
        help="an empty Redis database, flushed at the end",
    )
    parser.add_argument(
        "--pace",
        type=float,
        default=1.0,
        help="seconds between two requests of one client when latency is measured (50 clients: 50/s)",
    )
    parser.add_argument("--rounds", type=int, default=15, help="renders and fan-outs measured in process")
    parser.add_argument("--script", type=int, default=400, help="decisions prepared per client")
    parser.add_argument("--sweep-games", type=int, default=10000)
    parser.add_argument(
        "--sweep-budget",
        type=float,
        default=90,
        help="seconds the sweep may take before it is stopped and extrapolated",
    )
    args = parser.parse_args(argv)

    scratch = Scratch(args)
    signal.signal(signal.SIGTERM, interrupted)
    try:
        figures = run(args, scratch)
    finally:
        scratch.close()
    summary(figures)
    print(json.dumps(figures))


if __name__ == "__main__":
    if sys.argv[1:] == [SWEEP_WORKER]:
        sweep_worker()
    else:
        main()
