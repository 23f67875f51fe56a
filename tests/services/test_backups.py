"""A backup restores: ``manage.py backup`` of a database holding games in play,
``manage.py restore`` into a new database, whose every log verifies, whose pages
and decisions are served, and whose waiting emails and passed deadlines reach the
players through a broker that lost everything (real PostgreSQL, Redis, Celery
workers and SMTP). A restore refuses a database that is not empty, and a file that
is missing or not a backup, changing nothing."""

import contextlib
import json
import os
import sqlite3
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from coupsite.celery import app
from games.models import Event, Game
from outbox.models import Message
from tests.players import awaited, make_player, started_game
from tests.worker import ROOT, database_url

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def new_database():
    """The name of a new, empty PostgreSQL database beside the test database, dropped afterwards."""
    name = f"{connection.settings_dict['NAME']}_restored"
    with _server() as server:
        server.execute(f'DROP DATABASE IF EXISTS "{name}"')
        server.execute(f'CREATE DATABASE "{name}"')
    yield name
    with _server() as server:
        server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _server() -> psycopg.Connection:
    settings = connection.settings_dict
    return psycopg.connect(
        dbname="postgres",
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        password=settings["PASSWORD"] or None,
        autocommit=True,
    )


@contextlib.contextmanager
def connected_to(name: str):
    """This process's database is ``name`` meanwhile: the site as it runs on a restored copy."""
    original = connection.settings_dict["NAME"]
    connection.close()
    connection.settings_dict["NAME"] = name
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict["NAME"] = original


def _tables() -> int:
    return len(connection.introspection.table_names())


def test_a_backup_restores_games_that_verify_play_on_and_email_their_players(
    celery_workers, smtp, settings, tmp_path, new_database, client
):
    # The site as docker compose runs it: each move's messages wait in the outbox
    # for the relay process, and the broker holds what was handed over.
    settings.OUTBOX_RELAY_PROCESS = True
    ana, ben, cai, dora = (make_player(name) for name in ("Ana", "Ben", "Cai", "Dora"))
    played = started_game(ana, ben)
    client.force_login(ana)
    income = {"command": json.dumps({"act": "income"}), "version": awaited(played)["p1"][1]}
    assert client.post(reverse("game_decide", args=[played.pk]), income).status_code in (200, 302)
    late = started_game(cai, dora)
    Game.objects.filter(pk=late.pk).update(deadline_at=timezone.now() - timedelta(minutes=5))
    waiting = Message.objects.count()
    assert waiting > 0
    backup = tmp_path / "site.dump"
    call_command("backup", backup)

    # The server is lost: its broker and cache with it.
    app.control.purge()
    cache.clear()
    with connected_to(new_database):
        call_command("restore", backup)
        assert Message.objects.count() == waiting
        call_command("verify_games")  # raises unless every log and snapshot is right
        assert Game.objects.get(pk=late.pk).version == late.version

        # The relay hands over the emails the outbox kept, and the minute's sweep
        # applies the deadline that passed: beat's tasks, run by real workers.
        celery_workers.env["DATABASE_URL"] = database_url()
        celery_workers.start(deadlines=[settings.DEADLINE_QUEUE], default=[settings.CELERY_TASK_DEFAULT_QUEUE])
        app.send_task("outbox.tasks.relay")
        app.send_task("games.tasks.sweep_deadlines", queue=settings.DEADLINE_QUEUE)
        smtp.wait_for(to="ben@example.com", subject_contains=f"Your move: Choose an action — Coup #{played.pk}")
        # Cai was awaited first: Dora is asked only once his deadline is applied.
        smtp.wait_for(
            to="dora@example.com", subject_contains=f"Your move: Choose an action — Coup #{late.pk}", timeout=30
        )
        assert Game.objects.get(pk=late.pk).version > late.version

        # The restored site serves the game's page and takes Ben's decision.
        client.force_login(ben)
        page = client.get(reverse("game", args=[played.pk]))
        assert page.status_code == 200
        assert reverse("game_decide", args=[played.pk]) in page.content.decode()
        version = Game.objects.get(pk=played.pk).version
        income = {"command": json.dumps({"act": "income"}), "version": awaited(played)["p2"][1]}
        assert client.post(reverse("game_decide", args=[played.pk]), income).status_code in (200, 302)
        assert Game.objects.get(pk=played.pk).version > version
        call_command("verify_games")
    # The original is as the backup left it.
    assert Game.objects.get(pk=played.pk).version == version


def test_a_restore_into_a_database_that_is_not_empty_is_refused_unless_it_replaces_it(ana, ben, cai, tmp_path):
    kept = started_game(ana, ben)
    backup = tmp_path / "site.dump"
    call_command("backup", backup)
    later = started_game(ben, cai)
    events = Event.objects.count()
    with pytest.raises(CommandError, match=r"is not empty \(it has \d+ tables\): nothing was restored"):
        call_command("restore", backup)
    assert Event.objects.count() == events

    call_command("restore", backup, "--replace")
    assert list(Game.objects.values_list("pk", flat=True)) == [kept.pk]  # as the backup had it
    assert not Event.objects.filter(game_id=later.pk).exists()
    call_command("verify_games")


def test_a_restore_of_a_missing_or_broken_file_changes_nothing(ana, ben, tmp_path, new_database):
    started_game(ana, ben)
    backup = tmp_path / "site.dump"
    call_command("backup", backup)
    junk = tmp_path / "junk.dump"
    junk.write_text("not a backup")
    cut = tmp_path / "cut.dump"
    cut.write_bytes(backup.read_bytes()[: backup.stat().st_size * 9 // 10])  # its end lost in a copy
    damaged = tmp_path / "damaged.dump"  # its list of contents whole, a table's data garbled
    data = bytearray(backup.read_bytes())
    data[-800:-750] = bytes(byte ^ 0x55 for byte in data[-800:-750])
    damaged.write_bytes(data)
    with connected_to(new_database):
        with pytest.raises(CommandError, match="There is no backup file at"):
            call_command("restore", tmp_path / "missing.dump")
        with pytest.raises(CommandError, match="is not a PostgreSQL backup made by manage.py backup"):
            call_command("restore", junk)
        with pytest.raises(CommandError, match="is not a PostgreSQL backup made by manage.py backup"):
            call_command("restore", cut)
        with pytest.raises(CommandError, match="pg_restore failed, nothing was changed"):
            call_command("restore", damaged)
        assert _tables() == 0
        call_command("restore", backup)
        call_command("verify_games")


def test_a_failed_backup_leaves_no_file(tmp_path):
    with pytest.raises(CommandError, match="pg_dump failed"), connected_to("no_such_database"):
        call_command("backup", tmp_path / "site.dump")
    assert list(tmp_path.iterdir()) == []


def test_the_embedded_sqlite_database_backs_up_and_restores_the_same_way(tmp_path):
    def manage(*arguments: str, database: Path) -> subprocess.CompletedProcess:
        environment = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DEBUG": "1"}
        return subprocess.run(
            [sys.executable, "manage.py", *arguments], cwd=ROOT, env=environment, capture_output=True, text=True
        )

    site, copy = tmp_path / "db.sqlite3", tmp_path / "restored.sqlite3"
    assert manage("migrate", database=site).returncode == 0
    backup = tmp_path / "site.sqlite3.backup"
    assert manage("backup", str(backup), database=site).returncode == 0
    (tmp_path / "junk").write_text("not a backup")
    refused = manage("restore", str(tmp_path / "junk"), database=copy)
    assert "is not a SQLite backup made by manage.py backup" in refused.stderr
    assert manage("restore", str(backup), database=copy).returncode == 0
    assert manage("migrate", "--check", database=copy).returncode == 0  # every migration is there
    again = manage("restore", str(backup), database=copy)
    assert again.returncode == 1 and "is not empty" in again.stderr
    with sqlite3.connect(copy) as restored:  # the log's guards came with it
        triggers = {name for (name,) in restored.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    assert {"games_event_no_update", "games_event_no_delete"} <= triggers
