"""The event log is append-only against everyone but a superuser: its triggers
refuse UPDATE, DELETE and TRUNCATE, the site's own database role may only read and
append to it, and ``verify_games`` checks every snapshot against its log."""

import io
import secrets

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.db.utils import DatabaseError

from games.models import Event, Game
from games.services import play
from games.services.verification import _problem, games_verify
from tests.players import awaited, started_game


def refused(statement: str, params=()) -> str:
    """Run ``statement`` in a savepoint; return the database's refusal."""
    with pytest.raises(DatabaseError) as refusal, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement, params)
    return str(refusal.value)


def test_the_owner_cannot_truncate_the_event_log(game):
    count = Event.objects.count()
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # as after a commit: no check left pending
    assert "append-only: TRUNCATE is not allowed" in refused("TRUNCATE games_event")
    assert "append-only: TRUNCATE is not allowed" in refused("TRUNCATE games_game CASCADE")  # nor through its games
    assert Event.objects.count() == count > 0


@pytest.fixture
def site_role(db, monkeypatch):
    """A role made the way docker compose makes the site's (``grant_site_role
    --login``; rolled back with the test), and this connection acting as it until
    the test's transaction ends."""
    role = f"coup_site_test_{secrets.token_hex(4)}"
    monkeypatch.setenv("SITE_DB_PASSWORD", "it's a secret")
    call_command("grant_site_role", role, "--login", stdout=io.StringIO())
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolcanlogin, rolsuper, rolcreaterole FROM pg_roles WHERE rolname = %s", [role])
        assert cursor.fetchone() == (True, False, False)
        cursor.execute(f"SET LOCAL ROLE {role}")
    return role


def test_the_site_role_plays_a_game_but_may_only_read_and_append_events(ana, ben, site_role):
    game = started_game(ana, ben)  # every table the site uses, events appended
    play.decision_submit(game=game, user=ana, command={"act": "income"}, version=awaited(game)["p1"][1])
    event = Event.objects.filter(game=game).last()

    for statement in (
        "UPDATE games_event SET type = 'forged' WHERE id = %s",
        "DELETE FROM games_event WHERE id = %s",
    ):
        assert "permission denied for table games_event" in refused(statement, [event.pk])
    assert "permission denied for table games_event" in refused("TRUNCATE games_event")
    assert "must be owner of" in refused("DROP TRIGGER games_event_append_only ON games_event")
    assert "must be owner of" in refused("ALTER TABLE games_event DISABLE TRIGGER ALL")
    assert Event.objects.get(pk=event.pk).type == event.type
    assert Game.objects.get(pk=game.pk).version == Event.objects.filter(game=game).count()


def test_verify_games_reports_each_game_whose_snapshot_differs_from_its_log(ana, ben, cai, capsys):
    fine, corrupted = started_game(ana, ben), started_game(ben, cai)
    out = _verify(capsys)
    assert out == f"All {Game.objects.filter(snapshot__isnull=False).count()} games match their logs.\n"

    snapshot = Game.objects.get(pk=corrupted.pk).snapshot
    snapshot["players"][0]["coins"] += 5
    Game.objects.filter(pk=corrupted.pk).update(snapshot=snapshot)
    with pytest.raises(CommandError, match="1 of 2 games do not match their logs"):
        _verify(capsys)
    out = capsys.readouterr().out
    assert (
        f"game {corrupted.pk} (coup, version {corrupted.version}): its snapshot differs from a replay of its log" in out
    )
    assert f"game {fine.pk} " not in out
    corrupted.refresh_from_db()
    assert corrupted.attention == "verification: its snapshot differs from a replay of its log"


def test_verify_games_reports_a_log_that_cannot_be_replayed(ana, ben, capsys):
    game = started_game(ana, ben)
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)  # claims an event the log lacks
    with pytest.raises(CommandError):
        _verify(capsys)
    assert f"its log has {game.version} events, its version says {game.version + 1}" in capsys.readouterr().out


def test_a_move_made_while_verifying_is_no_difference(ana, ben):
    """The check replays the log up to the version read with the snapshot."""
    game = started_game(ana, ben)
    stale = Game.objects.only("pk", "kind", "version", "snapshot").get(pk=game.pk)
    play.decision_submit(game=game, user=ana, command={"act": "income"}, version=awaited(game)["p1"][1])
    assert _problem(stale) is None
    assert games_verify() == (1, [])


def _verify(capsys) -> str:
    call_command("verify_games")
    return capsys.readouterr().out
