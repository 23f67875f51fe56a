"""The clock: deadlines and reminders with a real Celery worker process, Redis and SMTP; pausing and extra time."""

import threading
from datetime import timedelta
from email.utils import parsedate_to_datetime

import pytest
from django.db import connection
from django.utils import timezone

from games import tasks
from games.mail import emails
from games.models import Game
from games.selectors import game_state
from games.services import clock, errors, gathering, play
from tests.players import awaited, make_player
from tests.worker import wait_for


@pytest.fixture
def players(transactional_db):
    return make_player("ana"), make_player("ben"), make_player("cai")


def start(players, seconds=3600, reminders=True):
    ana, ben, cai = players
    game = gathering.game_create(
        host=ana,
        variants=[],
        seat_count=3,
        turn_seconds=seconds,
        response_seconds=seconds,
        reminders=reminders,
        first=Game.First.HOST,
    )
    for user in (ben, cai):
        gathering.seat_join(game=game, user=user, join_token=game.join_token)
    return gathering.game_start(game=game, by=ana)


def fresh(game):
    return Game.objects.get(pk=game.pk)


def make_due(game):
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))


def test_a_short_deadline_expires_on_time_and_applies_the_default(players, celery_worker, smtp):
    game = start(players, seconds=2)
    version = fresh(game).version
    moved = wait_for(lambda: fresh(game).version > version and fresh(game), timeout=30)
    assert game_state(moved).by_name["p1"].coins == 3  # the default turn: Income
    assert awaited(moved)["p2"][0] == "turn"


def test_the_minute_sweep_expires_a_long_deadline(players, celery_worker):
    game = start(players)
    version = fresh(game).version
    make_due(game)
    tasks.sweep_deadlines.delay()
    wait_for(lambda: fresh(game).version > version)
    assert game_state(fresh(game)).by_name["p1"].coins == 3


def players_copy(players):
    """Three more players (a user has one seat per game)."""
    suffix = str(Game.objects.count())
    return tuple(make_player(user.username + suffix) for user in players)


def test_duplicate_expiry_tasks_change_nothing(players, celery_worker):
    game = start(players)
    version = fresh(game).version
    make_due(game)
    for _ in range(3):
        tasks.expire_deadline.delay(game.pk, version)
    tasks.sweep_deadlines.delay()
    celery_worker.drain()
    game = fresh(game)
    assert game_state(game).by_name["p1"].coins == 3  # one Income, not several
    assert game.events.filter(type="coup.turn.started").count() == 2  # Ana's turn, then Ben's


def test_an_answer_racing_the_expiry_gives_one_outcome(players, celery_worker):
    for round_number in range(3):
        game = start(players_copy(players) if round_number else players)
        host = game.host
        version = fresh(game).version
        make_due(game)
        outcome = {}

        def answer():
            try:
                play.decision_submit(game=game, user=host, command={"act": "tax"}, version=version)
                outcome["answer"] = "played"
            except errors.DecisionPassed:
                outcome["answer"] = "passed"
            finally:
                connection.close()

        thread = threading.Thread(target=answer)
        tasks.expire_deadline.delay(game.pk, version)
        thread.start()
        thread.join()
        celery_worker.drain()
        game = fresh(game)
        declared = list(game.events.filter(type="coup.action.declared").values_list("payload__data__action", flat=True))
        # Either Ana's Tax was played (and the expiry found the game moved on), or the
        # expiry played her default Income (and her Tax was told it came too late).
        assert declared == (["tax"] if outcome["answer"] == "played" else ["income"])
        assert list(game.events.values_list("seq", flat=True)) == list(range(game.version))


def test_a_reminder_is_sent_once(players, celery_worker, smtp):
    game = start(players, seconds=3600)
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() + timedelta(minutes=10))
    tasks.send_reminders.delay()
    tasks.send_reminders.delay()
    reminder = smtp.wait_for(to="ana@example.com", subject_contains=f"#{game.pk}", count=2, timeout=30)
    celery_worker.drain()
    tasks.send_reminders.delay()
    celery_worker.drain()
    reminders = [m for m in smtp.to("ana@example.com") if "Reminder" in m.text]
    assert len(reminders) == 1 and reminder
    assert [m for m in smtp.to("ben@example.com") if "Reminder" in m.text] == []


@pytest.fixture
def worker_reminding_at_short_notice(celery_workers, settings):
    """The production shape of workers, where a reminder needs leave only a second to answer."""
    settings.REMINDER_LEAST_NOTICE = 1
    celery_workers.env["REMINDER_LEAST_NOTICE"] = "1"
    celery_workers.start(deadlines=[settings.DEADLINE_QUEUE], default=[settings.CELERY_TASK_DEFAULT_QUEUE])
    return celery_workers


def test_a_short_time_control_reminds_once_at_its_moment(players, worker_reminding_at_short_notice, smtp):
    """Six seconds to answer: the reminder is due 1.5 s before the deadline, far
    inside the minute between two sweeps; a task timed for it sends it, once."""
    celery_worker = worker_reminding_at_short_notice
    game = start(players, seconds=6)
    deadline = fresh(game).deadline_at
    reminder = smtp.wait_for(to="ana@example.com", subject_contains="Reminder", timeout=30)
    assert parsedate_to_datetime(reminder.message["Date"]) <= deadline  # before the clock played for her
    assert tasks.send_reminders() == 0  # the sweep finds it sent
    wait_for(lambda: fresh(game).version > game.version)  # her decision passed: its reminder can be claimed no more
    ana = game.seats.get(user=players[0])
    # ...and none is on its way: every timed reminder of her decision, and every reminder email to her, has run.
    celery_worker.drain(tasks.remind_game.s(game.pk, game.version), emails.send_reminder.s(ana.pk, game.version))
    assert [m for m in smtp.to("ana@example.com") if "Reminder" in m.subject] == [reminder]


@pytest.mark.parametrize("seconds", [30, 120])
def test_no_reminder_when_it_would_leave_less_than_a_minute_to_answer(players, celery_worker, smtp, seconds):
    """A live game's decisions (30 s, 2 min): a quarter of their time is too little
    for an email to arrive and be read, so none is sent, by the sweep or on time."""
    game = start(players, seconds=seconds)
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() + timedelta(seconds=seconds / 5))
    tasks.send_reminders.delay()
    ana = game.seats.get(user=players[0])
    celery_worker.drain(
        tasks.send_reminders.s(),
        tasks.remind_game.s(game.pk, game.version),
        emails.send_reminder.s(ana.pk, game.version),
    )
    assert [m for m in smtp.to("ana@example.com") if "Reminder" in m.subject] == []


def test_no_reminder_when_the_game_has_them_off(players, celery_worker, smtp):
    game = start(players, seconds=3600, reminders=False)
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() + timedelta(minutes=10))
    tasks.send_reminders.delay()
    celery_worker.drain()
    assert [m for m in smtp.to("ana@example.com") if "Reminder" in m.text] == []


def test_the_host_pauses_and_resumes_the_clock(game, ana, ben):
    game.refresh_from_db()
    with pytest.raises(errors.ServiceError, match="Only the host"):
        clock.game_pause(game=game, by=ben)
    clock.game_pause(game=game, by=ana)
    game.refresh_from_db()
    assert game.deadline_at is None and game.paused_remaining > timedelta(0)
    assert play.deadline_expire(game=game, version=game.version) is False  # nothing expires while paused
    clock.game_resume(game=game, by=ana)
    game.refresh_from_db()
    assert game.paused_remaining is None and game.deadline_at > timezone.now()
    with pytest.raises(errors.ServiceError, match="not paused"):
        clock.game_resume(game=game, by=ana)


def test_a_player_gets_more_time_once(game, ana, ben):
    game.refresh_from_db()
    with pytest.raises(errors.ServiceError, match="not waiting for you"):
        clock.time_extend(game=game, user=ben)
    before = game.deadline_at
    clock.time_extend(game=game, user=ana)
    game.refresh_from_db()
    assert game.deadline_at - before == timedelta(seconds=game.deadline_seconds)
    with pytest.raises(errors.ServiceError, match="already had"):
        clock.time_extend(game=game, user=ana)
