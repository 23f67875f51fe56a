"""The holiday sweep in a real Celery worker (Redis, PostgreSQL): it begins a
holiday whose first day has come, no deadline of the player away expires however
short, and it ends the holiday after its last day, when the clock runs again and
the deadline passes as usual."""

import time
from datetime import timedelta

from django.utils import timezone

from accounts.models import Holiday, Profile
from games import tasks
from games.models import Game
from games.services import holidays
from tests.players import make_player, started_game
from tests.worker import wait_for


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_the_sweep_begins_and_ends_a_holiday_and_no_deadline_passes_meanwhile(transactional_db, celery_worker):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben, takeover=0, turn_seconds=3, response_seconds=3)  # Ana's turn first
    tomorrow = timezone.now().date() + timedelta(days=1)
    holiday = holidays.holiday_plan(user=ana, first_day=tomorrow, last_day=tomorrow)
    # Her first day comes: the planned start is moved to now, as the calendar would.
    Holiday.objects.filter(pk=holiday.pk).update(starts_at=timezone.now())
    tasks.sweep_holidays.delay()
    wait_for(lambda: fresh(game).clock_held)
    version = fresh(game).version
    assert Profile.objects.get(user=ana).away_until is not None

    time.sleep(5)  # past her 3 seconds: the deadline task queued at the start finds the clock held
    tasks.sweep_deadlines.delay()
    celery_worker.drain(tasks.sweep_deadlines.s(), tasks.expire_deadline.s(game.pk, version))
    assert fresh(game).version == version and fresh(game).deadline_at is None

    # Her last day is over.
    Holiday.objects.filter(pk=holiday.pk).update(ends_at=timezone.now())
    tasks.sweep_holidays.delay()
    wait_for(lambda: Holiday.objects.get(pk=holiday.pk).status == Holiday.Status.OVER)
    assert Profile.objects.get(user=ana).away_until is None
    # The clock runs again, with her 3 seconds, and her turn passes by itself.
    wait_for(lambda: fresh(game).version > version, timeout=30)
