"""Real Celery worker processes for tests whose behaviour depends on them.

Each worker runs ``celery -A coupsite worker`` against the test database, the test
run's Redis (or a broker the test names) and the session's SMTP server. Tests using
them need committed data, so they use ``transactional_db``.

``celery_worker`` starts the production shape: one worker for the deadline queue
alone and one for every other task. ``celery_workers`` starts none: the test
starts (and stops) the ones it needs.
"""

import base64
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from celery.canvas import Signature
from django.conf import settings
from django.db import connection

from coupsite.celery import app

ROOT = Path(__file__).resolve().parent.parent


def database_url() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


# `manage.py outbox_relay OPTIONS...` with the pause after a refusal given first, in seconds.
RELAY_WITH_PAUSE = """
import sys
import django
django.setup()
from django.core.management import call_command
from outbox import services
services.PAUSE_AFTER_REFUSAL = float(sys.argv[1])
call_command("outbox_relay", *sys.argv[2:])
"""


class Workers:
    """The worker processes of one test, each consuming the queues it was given."""

    def __init__(self, smtp_server, folder: Path, broker_url: str):
        self.folder = folder
        self.broker_url = broker_url
        self.env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            "CELERY_BROKER_URL": broker_url,
            "EMAIL_HOST": smtp_server.mailbox.host,
            "EMAIL_PORT": str(smtp_server.mailbox.port),
            "CELERY_TASK_ALWAYS_EAGER": "0",
            # Bots answer at once and think briefly: a test plays whole games.
            "BOT_DELAY_SECONDS": "0",
            "BOT_BUDGET_SECONDS": "0.02",
        }
        self.running: dict[str, subprocess.Popen] = {}
        self.relay: subprocess.Popen | None = None

    def start(self, *, beat: bool = False, pool: str = "solo", **queues_by_label: list[str]) -> None:
        """Start a worker per label, consuming its queues, and wait until all are
        ready. ``beat``: each runs beat too (``--beat``), as a small site's one worker
        does; ``pool``: Celery's ``--pool`` (``prefork`` runs tasks in child processes)."""
        logs = {}
        for label, queues in queues_by_label.items():
            logs[label] = self.folder / f"worker-{label}.log"
            embedded = ["--beat", "--schedule", str(self.folder / f"beat-{label}")] if beat else []
            self.running[label] = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "coupsite",
                    "worker",
                    *embedded,
                    f"--pool={pool}",
                    "--loglevel=INFO",
                    "--without-mingle",
                    "--without-gossip",
                    "--without-heartbeat",
                    "-Q",
                    ",".join(queues),
                    "-n",
                    self.name(label),
                ],
                cwd=ROOT,
                env=self.env,
                stdout=logs[label].open("w"),
                stderr=subprocess.STDOUT,
            )
        for label, log in logs.items():
            _wait_until_ready(self.running[label], log)

    def start_relay(self, *options: str, pause_after_refusal: float | None = None) -> None:
        """The outbox relay process (``manage.py outbox_relay`` with ``options``), as a
        deployment with ``OUTBOX_RELAY_PROCESS`` runs it, once it listens; stopped
        with the workers. ``pause_after_refusal``: the seconds it leaves the broker
        alone after a refusal, instead of ``outbox.services.PAUSE_AFTER_REFUSAL``."""
        log = self.folder / "relay.log"
        if pause_after_refusal is None:
            command = [sys.executable, "manage.py", "outbox_relay", *options]
        else:
            command = [sys.executable, "-c", RELAY_WITH_PAUSE, str(pause_after_refusal), *options]
        self.relay = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**self.env, "OUTBOX_RELAY_PROCESS": "1"},
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
        )
        _wait_until_ready(self.relay, log, says="The outbox relay listens")

    def name(self, label: str) -> str:
        return f"{label}-{os.getpid()}@tests"

    def stop(self, *labels: str) -> None:
        """Stop these workers: all are told at once, so their warm shutdowns overlap."""
        workers = [self.running.pop(label) for label in labels]
        for worker in workers:
            worker.terminate()
        for worker in workers:
            worker.wait(timeout=20)

    def stop_all(self) -> None:
        self.stop(*self.running)
        if self.relay is not None:
            self.relay.terminate()
            self.relay.wait(timeout=20)

    def drain(self, *calls: Signature, timeout: float = 60.0) -> None:
        """Wait until every task queued so far, and every task those queued, has
        run: no message waits in the outbox or the broker and no worker holds one,
        twice in a row. Given ``calls`` (``task.s(...)``), only those count: wait
        until none of them waits or is held, whatever else does (a game whose clock
        runs has a deadline task waiting at every moment)."""
        wanted = {_call(call.task, call.args, call.kwargs) for call in calls}
        deadline = time.monotonic() + timeout
        quiet = 0
        while quiet < 2:
            if time.monotonic() > deadline:
                raise AssertionError(f"the workers still had tasks after {timeout} s")
            quiet = quiet + 1 if not self._waiting(wanted) else 0
            time.sleep(0.2)

    def scheduled(self, call: Signature) -> bool:
        """Whether a worker holds ``call`` (``task.s(...)``) until its time comes (its ETA)."""
        wanted = _call(call.task, call.args, call.kwargs)
        replies = self._inspect().scheduled() or {}
        return any(_request_call(entry["request"]) == wanted for entries in replies.values() for entry in entries)

    def _waiting(self, wanted: set[tuple]) -> bool:
        """Whether a task call waits in the outbox or the broker or is held by a
        worker; only those ``wanted`` count, unless it is empty."""
        return any(call is UNANSWERED or not wanted or call in wanted for call in self._calls())

    def _calls(self):
        """Each task call waiting in the outbox or the broker or held by a worker (a
        worker that does not answer is ``UNANSWERED``: it may hold any), looked up
        as they are asked for, so a question answered by the first costs no more.
        A message the outbox holds for later (an email waiting for its reader's
        morning, ``outbox.services.HELD_BEYOND``) is no worker's yet."""
        from django.utils import timezone

        from outbox.models import Message
        from outbox.services import HELD_BEYOND

        waiting = (
            Message.objects.filter(published_at=None)
            .exclude(eta__gt=timezone.now() + HELD_BEYOND)
            .values_list("task", "args", "kwargs")
        )
        for message in waiting.iterator():
            yield _call(*message)
        with app.connection_for_write() as broker:
            client = broker.default_channel.client
            for queue in (settings.CELERY_TASK_DEFAULT_QUEUE, settings.DEADLINE_QUEUE):
                for entry in client.lrange(queue, 0, -1):
                    yield _broker_call(entry)
        inspect = self._inspect()
        for held in (inspect.active, inspect.reserved, inspect.scheduled):
            replies = held()
            if replies is None or len(replies) < len(self.running):
                yield UNANSWERED
                return
            for entries in replies.values():
                for entry in entries:
                    yield _request_call(entry.get("request", entry))  # a scheduled one is wrapped with its ETA

    def _inspect(self):
        return app.control.inspect(destination=[self.name(label) for label in self.running], timeout=2.0)


UNANSWERED = object()  # stands for the calls a worker that did not answer may hold


def _call(task: str, args, kwargs) -> tuple:
    """A task call, comparable wherever it is found: in the outbox, the broker or a worker."""
    return task, json.dumps(list(args)), json.dumps(dict(kwargs or {}), sort_keys=True)


def _broker_call(entry: bytes) -> tuple:
    """The call a message waiting in a Redis queue makes (Celery's message protocol 2)."""
    message = json.loads(entry)
    args, kwargs, _embed = json.loads(base64.b64decode(message["body"]))
    return _call(message["headers"]["task"], args, kwargs)


def _request_call(request: dict) -> tuple:
    """The call of a task request a worker reports (``inspect``)."""
    return _call(request["name"], request["args"], request["kwargs"])


@pytest.fixture
def celery_workers(transactional_db, smtp_server, tmp_path):
    """Workers the test starts itself (``celery_workers.start(label=[queue, ...])``),
    stopped at its end; meanwhile this process queues tasks for them instead of
    running them eagerly."""
    if not os.environ.get("REDIS_URL"):
        pytest.fail("the worker tests need REDIS_URL (tests/settings.py sets one unless it is set empty)")
    app.control.purge()
    workers = Workers(smtp_server, tmp_path, app.conf.broker_url)
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        yield workers
    finally:
        app.conf.task_always_eager = eager
        workers.stop_all()
        app.control.purge()


@pytest.fixture
def celery_worker(celery_workers):
    """The production shape: a worker for the deadline queue alone, and one for
    every other task (emails, reminders, the outbox relay, standing answers)."""
    celery_workers.start(deadlines=[settings.DEADLINE_QUEUE], default=[settings.CELERY_TASK_DEFAULT_QUEUE])
    return celery_workers


def _wait_until_ready(process, log: Path, timeout: float = 60.0, says: str = " ready."):
    """Until the ``process`` (a Celery worker, or the relay: what ``says`` it is
    ready) logged that it is ready."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"{process.args} exited:\n{log.read_text()}")
        if says in log.read_text():
            return
        time.sleep(0.2)
    pytest.fail(f"{process.args} was not ready in {timeout} s:\n{log.read_text()}")


def wait_for(condition, timeout: float = 30.0, interval: float = 0.2):
    """Poll ``condition`` until it returns something truthy; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(interval)
    raise AssertionError(f"gave up waiting after {timeout} s")
