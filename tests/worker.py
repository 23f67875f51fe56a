"""A real Celery worker process for tests whose behaviour depends on one.

The worker runs ``celery -A coupsite worker`` against the test database, the
test run's Redis and the session's SMTP server. Tests using it need committed
data, so they use ``transactional_db``.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection

from coupsite.celery import app

ROOT = Path(__file__).resolve().parent.parent


def _database_url() -> str:
    db = connection.settings_dict
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.fixture
def celery_worker(transactional_db, smtp_server, tmp_path):
    """Start a worker (with beat off: tests call the sweeps themselves) and make
    this process queue tasks for it instead of running them eagerly."""
    if not os.environ.get("REDIS_URL"):
        pytest.fail("the worker tests need REDIS_URL (make test sets it)")
    app.control.purge()
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "EMAIL_HOST": smtp_server.mailbox.host,
        "EMAIL_PORT": str(smtp_server.mailbox.port),
        "CELERY_TASK_ALWAYS_EAGER": "0",
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "coupsite", "worker", "--pool=solo", "--loglevel=INFO",
         "--without-mingle", "--without-gossip", "--without-heartbeat", "-n", f"test-{os.getpid()}@%h"],
        cwd=ROOT, env=env, stdout=log.open("w"), stderr=subprocess.STDOUT,
    )
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        _wait_until_ready(worker, log)
        yield worker
    finally:
        app.conf.task_always_eager = eager
        worker.terminate()
        worker.wait(timeout=20)
        app.control.purge()


def _wait_until_ready(worker, log: Path, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            pytest.fail(f"the Celery worker exited:\n{log.read_text()}")
        if " ready." in log.read_text():
            return
        time.sleep(0.2)
    pytest.fail(f"the Celery worker did not start in {timeout} s:\n{log.read_text()}")


def wait_for(condition, timeout: float = 30.0, interval: float = 0.2):
    """Poll ``condition`` until it returns something truthy; fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = condition()
        if result:
            return result
        time.sleep(interval)
    raise AssertionError(f"gave up waiting after {timeout} s")
