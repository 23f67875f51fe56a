"""Changed columns of many rows written in one statement (``games.services.rows``)."""

from datetime import timedelta

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.models import Game
from games.services.rows import rows_update
from tests.players import expired_copies, make_player, started_game


def test_each_row_gets_its_own_values_of_every_type_and_nothing_else_changes(db):
    ana, ben = make_player("Ana"), make_player("Ben")
    first, second, untouched = (Game.objects.get(pk=pk) for pk in expired_copies(started_game(ana, ben), 3))
    Game.objects.filter(pk=first.pk).update(attention="set by an operator meanwhile")
    finished_at = timezone.now()
    first.version, first.snapshot, first.winner, first.finished_at = 40, {"hands": ["duke"], "n": None}, ben, finished_at
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
    assert queries.captured_queries == []


def test_a_single_row_is_written_alone(db):
    ana, ben = make_player("Ana"), make_player("Ben")
    game, other = (Game.objects.get(pk=pk) for pk in expired_copies(started_game(ana, ben), 2))
    game.version, game.snapshot, game.paused_remaining = 7, {"coins": [2, 3]}, timedelta(seconds=90)

    rows_update([game], ("version", "snapshot", "paused_remaining"))

    stored = Game.objects.get(pk=game.pk)
    assert (stored.version, stored.snapshot, stored.paused_remaining) == (7, {"coins": [2, 3]}, timedelta(seconds=90))
    assert Game.objects.get(pk=other.pk).version == other.version
