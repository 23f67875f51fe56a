"""Rows written with SQL built once per model and set of columns (``coupsite.rows``)."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from coupsite.rows import rows_insert, rows_update
from games.models import Event, Game
from outbox.models import Message
from tests.players import expired_copies, make_player, started_game


def test_each_row_gets_its_own_values_of_every_type_and_nothing_else_changes(db):
    ana, ben = make_player("Ana"), make_player("Ben")
    first, second, untouched = (Game.objects.get(pk=pk) for pk in expired_copies(started_game(ana, ben), 3))
    Game.objects.filter(pk=first.pk).update(attention="set by an operator meanwhile")
    finished_at = timezone.now()
    first.version, first.snapshot, first.winner, first.finished_at = (
        40,
        {"hands": ["duke"], "n": None},
        ben,
        finished_at,
    )
    first.paused_remaining, first.status = timedelta(minutes=5, seconds=3), Game.Status.FINISHED
    second.version, second.snapshot, second.winner, second.finished_at = 41, None, None, None
    second.paused_remaining, second.status = None, Game.Status.ACTIVE
    fields = ("version", "snapshot", "winner", "finished_at", "paused_remaining", "status")

    with CaptureQueriesContext(connection) as queries:
        rows_update([first, second], fields)

    expected_statements = 1 if connection.vendor == "postgresql" else 2
    assert len(queries.captured_queries) == expected_statements
    stored = {game.pk: game for game in Game.objects.filter(pk__in=[first.pk, second.pk, untouched.pk])}
    for game in (first, second):
        assert [getattr(stored[game.pk], name) for name in fields] == [getattr(game, name) for name in fields]
    assert stored[first.pk].attention == "set by an operator meanwhile"  # a column not named is left alone
    before = Game.objects.get(pk=untouched.pk)
    assert (before.version, before.snapshot) == (untouched.version, untouched.snapshot)


def test_no_rows_is_no_statement(db):
    with CaptureQueriesContext(connection) as queries:
        rows_update([], ("version",))
        rows_insert([])
    assert queries.captured_queries == []


def test_a_single_row_is_written_alone(db):
    ana, ben = make_player("Ana"), make_player("Ben")
    game, other = (Game.objects.get(pk=pk) for pk in expired_copies(started_game(ana, ben), 2))
    game.version, game.snapshot, game.paused_remaining = 7, {"coins": [2, 3]}, timedelta(seconds=90)

    with CaptureQueriesContext(connection) as queries:
        rows_update([game], ("version", "snapshot", "paused_remaining"))

    assert len(queries.captured_queries) == 1
    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.snapshot, stored.paused_remaining) == (7, {"coins": [2, 3]}, timedelta(seconds=90))
    assert Game.objects.get(pk=other.pk).version == other.version


@pytest.mark.parametrize("count", [1, 3])
def test_inserted_rows_hold_every_column_and_get_their_keys_when_asked(db, count):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben)
    messages = [
        Message(
            task="games.tasks.example",
            args=[index, {"nested": [None, "é"]}],
            kwargs={"k": index},
            eta=timezone.now() if index else None,
        )
        for index in range(count)
    ]
    events = [
        Event(game=game, seq=game.version + index, type="example", payload={"n": index}) for index in range(count)
    ]

    with CaptureQueriesContext(connection) as queries:
        rows_insert(messages, returning_pk=True)
        rows_insert(events)

    assert len(queries.captured_queries) == (2 if connection.vendor == "postgresql" else 2 * count)
    stored = {message.pk: message for message in Message.objects.filter(task="games.tasks.example")}
    assert sorted(stored) == sorted(message.pk for message in messages)  # each instance got its own key
    for message in messages:
        kept = stored[message.pk]
        assert (kept.args, kept.kwargs, kept.eta, kept.key) == (message.args, message.kwargs, message.eta, None)
        assert kept.created_at is not None  # auto_now_add filled in, as save() does
    logged = Event.objects.filter(game=game, type="example").order_by("seq")
    assert [(event.seq, event.payload) for event in logged] == [(game.version + i, {"n": i}) for i in range(count)]
