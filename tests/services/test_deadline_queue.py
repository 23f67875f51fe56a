"""Deadlines have a Celery queue and a worker of their own, and a player's repeated
standing-answer toggles make one task: a flood of chores never delays a game's clock."""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from coupsite.celery import app
from games import tasks
from games.models import Event, Game
from games.services import notifications
from outbox.models import Message
from tests.players import awaited, make_player, profile_form_data, started_game
from tests.worker import wait_for

TOGGLERS = 300


def queued(queue: str) -> int:
    with app.connection_for_write() as broker:
        return broker.default_channel.client.llen(queue)


def test_deadlines_and_their_sweep_are_routed_to_the_deadline_queue_and_nothing_else_is():
    def queue_of(name):
        return app.amqp.router.route({}, name)["queue"].name

    assert settings.DEADLINE_QUEUE == "deadlines"
    assert queue_of("games.tasks.expire_deadline") == queue_of("games.tasks.sweep_deadlines") == "deadlines"
    for name in (
        "games.tasks.send_decision",
        "games.tasks.send_decisions",
        "games.tasks.send_started",
        "games.tasks.games_advanced",
        "games.tasks.give_standing_answers",
        "games.tasks.send_reminders",
        "games.tasks.send_digests",
        "outbox.tasks.relay",
    ):
        assert queue_of(name) == settings.CELERY_TASK_DEFAULT_QUEUE == "celery"


def test_a_hundred_toggles_by_one_player_queue_one_task(celery_workers, client):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben)
    before = queued("celery")  # the emails of the start, waiting like everything else
    client.force_login(ana)
    for toggle in range(100):
        data = profile_form_data(ana, always_prove="on" if toggle % 2 == 0 else None)
        assert client.post(reverse("profile"), data).status_code == 302
    assert queued("celery") == before + 1  # one give_standing_answers; no worker has taken it yet
    assert Message.objects.get().task == "games.tasks.give_standing_answers"  # held until the task starts

    celery_workers.start(default=["celery"])
    celery_workers.drain()
    # The task read the profile as it ended (the last toggle turned proving off) and
    # gave it to the game once.
    stored = Event.objects.filter(game=game, type="coup.standing.set").order_by("seq")
    assert [event.payload["secret"]["prove"] for event in stored] == [False]
    assert not Message.objects.exists()


def test_a_deadline_is_applied_while_hundreds_of_toggles_wait(celery_workers):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben, turn_seconds=3600)
    before = queued("celery")  # the emails of the start, waiting like everything else
    # Hundreds of players toggle their standing answers: as many tasks, which no
    # coalescing can merge, queued before the deadline falls due.
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"toggler{number}", email=f"toggler{number}@example.com")
        for number in range(TOGGLERS)
    )
    for user in users:
        notifications.preferences_changed(user=user)
    assert queued("celery") == before + TOGGLERS
    version = Game.objects.get(pk=game.pk).version
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    tasks.sweep_deadlines.delay()  # as beat does every minute

    # The deadline worker applies it at once, whatever waits on the default queue.
    celery_workers.start(deadlines=["deadlines"])
    wait_for(lambda: Game.objects.get(pk=game.pk).version > version)
    assert awaited(game) == {"p2": ("turn", awaited(game)["p2"][1])}  # Ana's Income was played for her
    # Every toggle still waits, and the emails of the expiry (handed over just after its commit).
    wait_for(lambda: queued("celery") == before + TOGGLERS + 1, timeout=10)

    celery_workers.start(default=["celery"])
    celery_workers.drain(timeout=180)
    assert queued("celery") == 0 and not Message.objects.exists()
