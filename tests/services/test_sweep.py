"""The minute sweep of expired deadlines at scale: chunks of games per transaction,
one insert of events and one email message per chunk, a failing game set aside
alone, one sweep running at a time, and sweeps running at once sharing the work."""

import logging
import os
import subprocess
import sys

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import tasks
from games.models import Event, Game, Seat, SeatChange
from games.services import play
from outbox.models import Message
from tests.players import expired_copies, make_player, started_game
from tests.services.test_attention import break_timeout
from tests.worker import ROOT, database_url


@pytest.fixture
def model(db):
    """A 4-player game in play, its first player's turn awaited."""
    return started_game(*(make_player(name) for name in ("Ana", "Ben", "Cai", "Dora")))


def one_timeout(model: Game) -> list[str]:
    """The event types one expiry of ``model``'s deadline appends (played on a copy)."""
    [copy] = expired_copies(model, 1)
    assert play.deadline_expire(game=Game(pk=copy), version=model.version)
    appended = Event.objects.filter(game_id=copy, seq__gte=model.version).order_by("seq")
    return list(appended.values_list("type", flat=True))


def advanced_updates() -> list:
    """The (game, before, after) updates of every games_advanced message waiting, one list per message."""
    return [message.args[0] for message in Message.objects.filter(task="games.tasks.games_advanced").order_by("pk")]


def assert_advanced_once(model: Game, ids: list[int], timeout: list[str]) -> None:
    after = model.version + len(timeout)
    assert dict(Game.objects.filter(pk__in=ids).values_list("pk", "version")) == {pk: after for pk in ids}
    for pk in ids:
        types = Event.objects.filter(game_id=pk, seq__gte=model.version).order_by("seq").values_list("type", flat=True)
        assert list(types) == timeout
        seqs = Event.objects.filter(game_id=pk).order_by("seq").values_list("seq", flat=True)
        assert list(seqs) == list(range(after))
    assert not Game.objects.filter(pk__in=ids).exclude(attention="").exists()
    assert Game.objects.filter(pk__in=ids, deadline_at__gt=timezone.now()).count() == len(ids)


def test_the_sweep_writes_each_chunk_with_one_insert_of_events_and_one_email_message(model):
    timeout = one_timeout(model)
    Message.objects.all().delete()
    ids = expired_copies(model, 5)

    with CaptureQueriesContext(connection) as queries:
        assert play.deadlines_sweep(chunk=2) == 5

    assert_advanced_once(model, ids, timeout)
    inserts = [query for query in queries.captured_queries if query["sql"].startswith('INSERT INTO "games_event"')]
    assert len(inserts) == 3  # chunks of 2, 2 and 1 games
    game_updates = [query for query in queries.captured_queries if query["sql"].startswith('UPDATE "games_game"')]
    assert len(game_updates) == 3  # each chunk's games in one statement
    updates = advanced_updates()
    assert [len(chunk) for chunk in updates] == [2, 2, 1]
    assert sorted(game for chunk in updates for game, _before, _after in chunk) == sorted(ids)
    assert {(before, after) for chunk in updates for _game, before, after in chunk} == {
        (model.version, model.version + len(timeout))
    }
    # The players awaited missed one deadline each; nobody else did.
    missed = dict(Seat.objects.filter(game_id__in=ids).values_list("position", "missed_deadlines").distinct())
    assert missed == {0: 1, 1: 0, 2: 0, 3: 0}


def test_a_game_failing_in_a_chunk_is_set_aside_and_the_rest_of_its_chunk_is_written(model, caplog):
    timeout = one_timeout(model)
    Message.objects.all().delete()
    first, broken, *rest = expired_copies(model, 5)
    break_timeout(Game(pk=broken))

    with caplog.at_level(logging.WARNING, logger="games.services"):
        assert play.deadlines_sweep(chunk=2) == 4

    assert_advanced_once(model, [first, *rest], timeout)
    broken = Game.objects.get(pk=broken)
    assert (broken.version, broken.attention) == (model.version, "deadline: IndexError")
    assert not Event.objects.filter(game=broken, seq__gte=model.version).exists()
    assert not Seat.objects.filter(game=broken, missed_deadlines__gt=0).exists()  # its savepoint was undone
    # Marked once, and not taken again by the later chunks of this sweep.
    assert [record.getMessage().split(" (")[0] for record in caplog.records] == [f"Game {broken.pk} needs attention"]
    assert sorted(game for chunk in advanced_updates() for game, _b, _a in chunk) == sorted([first, *rest])


def test_the_sweep_hands_a_seat_to_a_bot_after_its_second_missed_deadline_and_calls_the_bot(model):
    [pk] = expired_copies(model, 1)
    Seat.objects.filter(game_id=pk, position=0).update(missed_deadlines=1)
    Message.objects.all().delete()

    assert play.deadlines_sweep() == 1

    seat = Seat.objects.get(game_id=pk, position=0)
    assert (seat.missed_deadlines, seat.stand_in) == (2, "easy")
    assert list(SeatChange.objects.filter(game_id=pk).values_list("change", flat=True)) == ["missed"]
    # Ana's turn was played for her (Income), then Ben's turn is awaited: no bot for him,
    # and the stand-in is told to the player.
    assert not Message.objects.filter(task="games.tasks.bot_answer").exists()
    assert Message.objects.filter(task="games.tasks.send_stand_in", args=[seat.pk, "began"]).exists()


def test_a_sweep_still_running_holds_the_lock_and_a_second_returns_at_once(model):
    [pk] = expired_copies(model, 1)
    cache.delete(tasks.SWEEP_LOCK)
    assert cache.add(tasks.SWEEP_LOCK, "a running sweep", timeout=tasks.SWEEP_LOCK_SECONDS)
    try:
        assert tasks.sweep_deadlines() == 0
        assert Game.objects.get(pk=pk).version == model.version  # left to the running sweep
        assert cache.get(tasks.SWEEP_LOCK) == "a running sweep"  # and its lock with it
    finally:
        cache.delete(tasks.SWEEP_LOCK)

    assert tasks.sweep_deadlines() == 1  # once it is over, the next sweep runs
    assert cache.get(tasks.SWEEP_LOCK) is None  # and frees the lock when it ends
    [again] = expired_copies(model, 1)
    assert tasks.sweep_deadlines() == 1
    assert Game.objects.get(pk=again).version > model.version


SWEEPER = """
import os, sys, time
import django
django.setup()
from games.services import play
print("ready", flush=True)
while not os.path.exists(sys.argv[1]):
    time.sleep(0.005)
print(play.deadlines_sweep(chunk=int(sys.argv[2])), flush=True)
"""


def test_two_sweeps_at_the_same_moment_advance_every_game_exactly_once(transactional_db, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("row locks: PostgreSQL")
    model = started_game(*(make_player(name) for name in ("Ana", "Ben", "Cai", "Dora")))
    timeout = one_timeout(model)
    Message.objects.all().delete()
    ids = expired_copies(model, 400)
    go = tmp_path / "go"
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "coupsite.settings",
        "DATABASE_URL": database_url(),
        # A broker that refuses at once: the sweeps' email messages stay in the outbox,
        # where this test reads them (the relay would hand them over later).
        "CELERY_BROKER_URL": "redis://127.0.0.1:1/0",
    }
    sweepers = [
        subprocess.Popen(
            [sys.executable, "-c", SWEEPER, str(go), "25"],
            cwd=ROOT,
            env=environment,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        for sweeper in sweepers:
            assert sweeper.stdout.readline().strip() == "ready", sweeper.stderr.read()
        go.touch()  # both start sweeping now
        results = [sweeper.communicate(timeout=120) for sweeper in sweepers]
    finally:
        for sweeper in sweepers:
            if sweeper.poll() is None:
                sweeper.kill()
    swept = [int(out.strip()) for out, _err in results]

    assert sum(swept) == len(ids) and all(swept), (swept, [err for _out, err in results])  # both took a share
    assert_advanced_once(model, ids, timeout)
    updates = advanced_updates()
    assert sorted(game for chunk in updates for game, _b, _a in chunk) == sorted(ids)  # each game once
    assert all(len(chunk) <= 25 for chunk in updates) and len(updates) >= len(ids) // 25
