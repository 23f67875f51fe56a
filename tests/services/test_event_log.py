"""The event log is append-only against everyone but a superuser: its triggers
refuse UPDATE, DELETE and TRUNCATE, the site's own database role may only read and
append to it, and ``verify_games`` checks every log (its sequence, its seats, its hash
chain) and every snapshot against its log."""

import io
import json
import secrets

import pytest
from django.core.management import CommandError, call_command
from django.db import connection, transaction
from django.db.utils import DatabaseError

from games.chain import event_hash
from games.kinds import KINDS
from games.models import Event, Game, Seat
from games.services import play
from games.services.verification import VERIFIED_FIELDS, _problem, games_verify
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
    stale = Game.objects.only(*VERIFIED_FIELDS).get(pk=game.pk)
    play.decision_submit(game=game, user=ana, command={"act": "income"}, version=awaited(game)["p1"][1])
    assert _problem(stale) is None
    assert games_verify() == (1, [])


def _verify(capsys) -> str:
    call_command("verify_games")
    return capsys.readouterr().out


@pytest.fixture
def log_editable_by_hand(db):
    """The event log's row triggers set aside for this test's transaction, as a
    superuser going around them would: what ``verify_games`` must then find."""
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_event DISABLE TRIGGER games_event_append_only")
    yield
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # no check may wait while the table is altered
        cursor.execute("ALTER TABLE games_event ENABLE TRIGGER games_event_append_only")


def test_each_event_stores_its_link_in_its_games_hash_chain(ana, ben):
    game = started_game(ana, ben)
    play.decision_submit(game=game, user=ana, command={"act": "income"}, version=awaited(game)["p1"][1])
    game.refresh_from_db()
    head = ""
    for event in game.events.order_by("seq"):
        head = event_hash(head, game_id=game.pk, seq=event.seq, type=event.type, payload=event.payload)
        assert event.hash == head
    assert game.log_hash == head and len(head) == 64


def test_verify_games_finds_an_event_altered_by_hand(ana, ben, cai, capsys, log_editable_by_hand):
    fine, altered = started_game(ana, ben), started_game(ben, cai)
    dealt = altered.events.get(type="coup.hand.dealt", payload__data__player="p2")
    better = ["duke", "duke"] if dealt.payload["secret"]["cards"] != ["duke", "duke"] else ["captain", "captain"]
    with connection.cursor() as cursor:  # Cai's hand made better, the snapshot left as it was
        cursor.execute(
            "UPDATE games_event SET payload = jsonb_set(payload, '{secret,cards}', %s) WHERE id = %s",
            [json.dumps(better), dealt.pk],
        )
    with pytest.raises(CommandError, match="1 of 2 games do not match their logs"):
        _verify(capsys)
    out = capsys.readouterr().out
    assert f"game {altered.pk} (coup, version {altered.version}): its event {dealt.seq} does not match" in out
    assert f"game {fine.pk} " not in out
    altered.refresh_from_db()
    assert altered.attention.startswith(f"verification: its event {dealt.seq} does not match the log's hash chain")


def test_verify_games_finds_a_hash_rewritten_with_its_row(ana, ben, capsys, log_editable_by_hand):
    """Whoever also rewrites the altered row's hash breaks the link of the next."""
    game = started_game(ana, ben)
    first = game.events.get(seq=0)
    forged = {**first.payload, "data": {**first.payload["data"], "forged": True}}
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE games_event SET payload = %s, hash = %s WHERE id = %s",
            [json.dumps(forged), event_hash("", game_id=game.pk, seq=0, type=first.type, payload=forged), first.pk],
        )
    with pytest.raises(CommandError):
        _verify(capsys)
    assert "its event 1 does not match the log's hash chain" in capsys.readouterr().out


def test_verify_games_finds_a_gap_in_a_log(ana, ben, capsys, log_editable_by_hand):
    game = started_game(ana, ben)
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM games_event WHERE game_id = %s AND seq = 2", [game.pk])
    with pytest.raises(CommandError):
        _verify(capsys)
    assert f"game {game.pk} (coup, version {game.version}): its log has no event 2 (the next is 3)" in (
        capsys.readouterr().out
    )


def test_verify_games_finds_a_log_cut_short_of_its_head(ana, ben, capsys, log_editable_by_hand):
    game = started_game(ana, ben)
    with connection.cursor() as cursor:  # the last event gone, the game's version lowered to match
        cursor.execute("DELETE FROM games_event WHERE game_id = %s AND seq = %s", [game.pk, game.version - 1])
    rules = KINDS["coup"].rules
    shorter = rules.replay(list(game.events.order_by("seq").values_list("payload", flat=True)))
    Game.objects.filter(pk=game.pk).update(version=game.version - 1, snapshot=rules.dump(shorter))
    with pytest.raises(CommandError):
        _verify(capsys)
    assert "its last event's hash is not the game's: the log was changed" in capsys.readouterr().out


def test_verify_games_finds_an_event_of_a_seat_the_game_does_not_have(ana, ben, capsys, log_editable_by_hand):
    game = started_game(ana, ben)
    Seat.objects.filter(game=game, position=1).delete()  # Ben's seat gone, his events still in the log
    with pytest.raises(CommandError):
        _verify(capsys)
    assert "names p2, who has no seat" in capsys.readouterr().out
