"""Fixtures shared by every test package."""

import copy
import importlib
import os
from urllib.parse import urlsplit, urlunsplit

import pytest
import yaml
from django.urls import clear_url_caches

from tests.mailcatcher import Mailbox, SMTPServer
from tests.players import make_player, started_game
from tests.worker import ROOT, celery_worker, celery_workers  # noqa: F401 (fixtures for every test package)


def redis_database(url: str, offset: int) -> str:
    """``url`` with its database number (the path, 0 when absent) moved up by ``offset``."""
    parts = urlsplit(url)
    number = int(parts.path.strip("/") or 0) + offset
    return urlunsplit(parts._replace(path=f"/{number}"))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config, specs):
    """Under pytest-xdist (``-n``), worker k starts with REDIS_URL naming the Redis
    database of REDIS_URL plus k, before Django reads its settings: its cache, its
    broker and the Celery workers it starts see no other worker's keys (a
    ``cache.clear()`` empties only its own). pytest-django already gives each worker
    a test database of its own; SMTP and live-server ports are picked free."""
    base = os.environ.get("REDIS_URL")
    if base:
        for number, spec in enumerate(specs):
            spec.env["REDIS_URL"] = redis_database(base, number)


# Thousands of quick engine and scenario tests, run last: under xdist's work stealing the
# slow browser, worker and fuzz tests start first on both processes, and the quick ones
# fill whichever process finishes early, instead of one slow test ending the run alone.
QUICK_FOLDERS = ("tests/engine/", "tests/kinds/")


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.nodeid.startswith(QUICK_FOLDERS))


@pytest.fixture(autouse=True, scope="session")
def _cache_emptied_first():
    """Each test process starts from an empty cache and broker (its own Redis
    database): what an earlier run left there, such as a player marked present on
    a seat whose id this run gives again, would change what this run's emails do."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def _lobby_read_afresh():
    """Each test reads the lobby from its own database: the database rolls back
    between tests, the lobby's cached pages would not."""
    from django.core.cache import cache

    from games.selectors.lobby import VERSION_KEY

    cache.delete(VERSION_KEY)


@pytest.fixture(autouse=True, scope="session")
def _mailbox_folder_of_the_test_process(tmp_path_factory):
    """Email from tests that do not collect it (no ``smtp``) goes to a Maildir of this
    test process rather than var/mailbox/, which `make run` and every other test
    process would share."""
    from django.conf import settings

    mailers = copy.deepcopy(settings.MAILERS)
    for alias, config in mailers.items():
        if "file_path" in config.get("OPTIONS", {}):
            config["OPTIONS"]["file_path"] = str(tmp_path_factory.mktemp(f"mailbox-{alias}"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(settings, "MAILERS", mailers)
        yield


@pytest.fixture(autouse=True, scope="session")
def _tasks_run_in_process():
    """Tasks run where they are queued unless a test starts a real worker
    (``celery_worker``), so no test leaves tasks in the broker for another."""
    from coupsite.celery import app

    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True  # a failing task fails the test that queued it
    yield


@pytest.fixture(autouse=True, scope="session")
def _flush_past_the_event_log_guard():
    """The event log refuses TRUNCATE (a trigger, games migration 0006), and Django
    empties the database after each transactional test with one. The test suite's
    flush, and nothing else, runs with PostgreSQL's own switch for such maintenance,
    which only a superuser may set: ``session_replication_role = replica`` (triggers
    off), for that one transaction."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    sql_flush = DatabaseOperations.sql_flush

    def sql_flush_past_triggers(self, *args, **kwargs):
        statements = sql_flush(self, *args, **kwargs)
        return ["SET LOCAL session_replication_role = replica", *statements] if statements else statements

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(DatabaseOperations, "sql_flush", sql_flush_past_triggers)
        yield


@pytest.fixture(scope="session")
def compose() -> dict:
    """The docker compose stack, as docker-compose.yml declares it."""
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


@pytest.fixture(scope="session")
def smtp_server():
    """One real SMTP server (aiosmtpd) on a free 127.0.0.1 port for the whole run."""
    server = SMTPServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture
def smtp(smtp_server, settings) -> Mailbox:
    """Send this test's email over real SMTP and collect it.

    Every ``MAILERS`` alias points at the session's aiosmtpd server for the test (the
    live server thread sees it too); the mailbox starts empty. Use ``smtp.messages``,
    ``smtp.to(address)`` or ``smtp.wait_for(to=..., subject_contains=...)``; each
    message has ``.subject``, ``.to``, ``.text``, ``.html``, ``.links`` and ``.message``.
    """
    mailbox = smtp_server.mailbox
    mailbox.clear()
    aliases = set(getattr(settings, "MAILERS", {})) | {"default"}
    settings.MAILERS = {alias: mailbox.mailer_config() for alias in aliases}
    yield mailbox
    mailbox.clear()


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Hash passwords cheaply: each sign-up and login otherwise spends ~1 s in PBKDF2."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _bots_answer_at_once(settings):
    """Bots answer without their pause and think briefly, as in the test workers."""
    settings.BOT_DELAY_SECONDS = 0
    settings.BOT_BUDGET_SECONDS = 0.02


@pytest.fixture
def ana(db):
    return make_player("Ana")


@pytest.fixture
def ben(db):
    return make_player("Ben")


@pytest.fixture
def cai(db):
    return make_player("Cai")


@pytest.fixture
def dora(db):
    return make_player("Dora")


@pytest.fixture
def game(ana, ben, cai):
    """Ana (host, plays first), Ben and Cai in a classic game that has just started."""
    return started_game(ana, ben, cai)


def _reload_urls():
    import coupsite.urls

    importlib.reload(coupsite.urls)
    clear_url_caches()


@pytest.fixture
def routes_with(settings):
    """``routes_with(NAME=value, ...)``: change settings that coupsite/urls.py reads
    when it is imported (DEBUG, INBOUND_ESP) and route as it then declares; the
    settings and the routes are as before after the test."""
    saved = {}

    def apply(**overrides):
        for name, value in overrides.items():
            saved.setdefault(name, getattr(settings, name))
            setattr(settings, name, value)
        _reload_urls()

    yield apply
    if saved:
        for name, value in saved.items():
            setattr(settings, name, value)
        _reload_urls()
