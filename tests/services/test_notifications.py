"""The transactional outbox (outbox/services.py): what a move calls for is stored
with the move and reaches Celery even when the broker was down when it was made."""

import ast
import base64
import json
import re
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

import psycopg
import pytest
import redis
from django.db import connection, transaction
from django.urls import reverse
from django.utils import timezone

from coupsite.celery import app
from games import tasks
from games.mail import emails
from games.models import Game
from games.services import notifications, play
from outbox import services as outbox
from outbox import tasks as outbox_tasks
from outbox.models import Message
from tests.players import awaited, make_player, started_game
from tests.redis_server import RedisServer
from tests.worker import database_url, wait_for


@pytest.fixture
def private_broker(celery_workers, monkeypatch, tmp_path):
    """This process and the test's workers use a Redis broker the test can stop."""
    server = RedisServer(tmp_path)
    server.start()
    celery_workers.env["CELERY_BROKER_URL"] = server.url
    monkeypatch.setattr(app.conf, "broker_url", server.url)
    monkeypatch.setattr(outbox, "_paused_until", 0.0)
    app._after_fork()  # drop the connections to the usual broker, as Celery does in a new process
    yield server
    monkeypatch.undo()
    app._after_fork()
    if server.process.poll() is None:
        server.stop()


@pytest.fixture
def handed(monkeypatch) -> list:
    """The messages handed to a broker that takes them all and runs none."""
    taken = []
    monkeypatch.setattr(outbox, "_hand_over", taken.append)
    return taken


def game_number(mail) -> int:
    return int(re.search(r"#(\d+)", mail.subject).group(1))


def decide(client, game, user, command):
    client.force_login(user)
    version = awaited(game)[game.seats.get(user=user).player][1]
    return client.post(reverse("game_decide", args=[game.pk]), {"version": version, "command": json.dumps(command)})


def test_moves_made_while_the_broker_is_down_succeed_and_each_email_leaves_once_it_is_back(
    private_broker, celery_workers, smtp, client
):
    celery_workers.start(deadlines=["deadlines"], default=["celery"])
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    games = [started_game(ana, ben, cai) for _ in range(2)]
    celery_workers.drain()
    assert len(smtp.messages) == 6  # each game: Ana is asked, Ben and Cai told it started
    smtp.clear()

    private_broker.stop()
    for game in games:
        response = decide(client, game, ana, {"act": "tax"})
        assert response.status_code == 302
        assert client.get(response.url).status_code == 200
    for game in games:
        assert {name: kind for name, (kind, _version) in awaited(game).items()} == {"p2": "respond", "p3": "respond"}
    # One message per move (its emails). The first click found the broker down; the
    # second left its message to the relay without trying (outbox.PAUSE_AFTER_REFUSAL).
    assert [(m.task, m.attempts) for m in Message.objects.order_by("pk")] == [("games.tasks.games_advanced", 1)] * 1 + [
        ("games.tasks.games_advanced", 0)
    ]
    assert "refused" in Message.objects.order_by("pk").first().last_error

    private_broker.start()
    outbox_tasks.relay.delay()  # what beat sends every few seconds
    celery_workers.drain()
    # Ben and Cai are asked to respond in each game: four emails, each sent once.
    assert sorted((mail.to[0], game_number(mail)) for mail in smtp.messages) == sorted(
        (user.email, game.pk) for game in games for user in (ben, cai)
    )
    assert not Message.objects.exists()


def test_a_refused_message_waits_with_its_error_and_the_relay_hands_it_over(private_broker, celery_workers, smtp):
    ana, ben = make_player("Ana"), make_player("Ben")
    private_broker.stop()
    game = started_game(ana, ben)
    [message] = Message.objects.all()
    assert (message.task, message.args) == ("games.tasks.games_advanced", [[[game.pk, 0, game.version]]])
    assert message.attempts == 1 and message.last_error
    assert outbox.relay() == 0  # still down: it waits
    assert Message.objects.get().attempts == 2

    private_broker.start()
    celery_workers.start(default=["celery"])
    assert outbox.relay() == 1
    celery_workers.drain()
    assert sorted((mail.to[0], game_number(mail)) for mail in smtp.messages) == [
        (ana.email, game.pk),
        (ben.email, game.pk),
    ]
    assert not Message.objects.exists()


def test_the_message_commits_and_rolls_back_with_the_move(ana, ben, django_capture_on_commit_callbacks):
    game = started_game(ana, ben)
    Message.objects.all().delete()
    version = awaited(game)["p1"][1]
    with pytest.raises(RuntimeError), transaction.atomic():
        play.decision_submit(game=game, user=ana, command={"act": "income"}, version=version)
        assert Message.objects.filter(task="games.tasks.games_advanced").count() == 1
        raise RuntimeError("the move's transaction fails after it")
    assert not Message.objects.exists() and Game.objects.get(pk=game.pk).version == game.version


def test_the_relay_leaves_a_message_to_its_writer_until_the_lease_runs_out(
    ana, handed, django_capture_on_commit_callbacks
):
    # The writer commits and dies before its hand-over (its callbacks never run).
    with django_capture_on_commit_callbacks(execute=False), transaction.atomic():
        outbox.send(tasks.games_advanced.s([[1, 0, 1]]))
    message = Message.objects.get()
    assert timezone.now() < message.handing_until <= timezone.now() + outbox.HANDING_LEASE
    assert outbox.relay() == 0 and handed == []  # the writer may still be handing it over

    Message.objects.update(handing_until=timezone.now() - timedelta(seconds=1))
    assert outbox.relay() == 1  # the lease ran out: the writer is gone
    assert [(m.task, m.args) for m in handed] == [("games.tasks.games_advanced", [[[1, 0, 1]]])]
    assert not Message.objects.exists()


def test_a_writer_hands_its_message_over_and_deletes_it_in_one_statement(
    ana, handed, django_capture_on_commit_callbacks, django_assert_num_queries
):
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        outbox.send(tasks.games_advanced.s([[1, 0, 1]]))
    with django_assert_num_queries(1):
        for callback in callbacks:
            callback()
    assert len(handed) == 1 and not Message.objects.exists()


def test_a_keyed_message_is_queued_once_until_its_task_starts(ana):
    with transaction.atomic():
        for _ in range(3):
            notifications.preferences_changed(user=ana)
    [message] = Message.objects.all()
    assert message.key == f"standing-answers:{ana.pk}"

    outbox.release(message.key)  # the task started: a later change is queued again
    notifications.preferences_changed(user=ana)
    assert Message.objects.count() == 1 and Message.objects.get().pk != message.pk


def test_a_keyed_message_whose_task_never_started_is_handed_over_again(ana, handed, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        notifications.preferences_changed(user=ana)
    assert len(handed) == 1 and Message.objects.get().published_at is not None
    assert outbox.relay() == 0  # taken by the broker, its task not started yet: nothing to do

    Message.objects.update(published_at=timezone.now() - outbox.KEY_HELD_AT_MOST - timedelta(minutes=1))
    assert outbox.relay() == 1  # lost on the way (a broker restarted empty): handed over again
    assert len(handed) == 2


def test_the_messages_a_transaction_keeps_are_handed_over_after_its_commit(
    ana, ben, handed, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        outbox.send(tasks.games_advanced.s([[1, 0, 1]]))
        with pytest.raises(RuntimeError), transaction.atomic():
            outbox.send(tasks.games_advanced.s([[2, 0, 1]]))
            raise RuntimeError("this part of the change is undone")
        notifications.preferences_changed(user=ana)
        notifications.preferences_changed(user=ben)
    assert [(message.task, message.args) for message in handed] == [
        ("games.tasks.games_advanced", [[[1, 0, 1]]]),
        ("games.tasks.give_standing_answers", [ana.pk]),
        ("games.tasks.give_standing_answers", [ben.pk]),
    ]
    # Taken: the plain message is gone, the keyed ones wait, marked, for their tasks.
    assert sorted(Message.objects.values_list("key", flat=True)) == [
        f"standing-answers:{ana.pk}",
        f"standing-answers:{ben.pk}",
    ]
    assert not Message.objects.filter(published_at=None).exists()


def test_one_message_can_carry_a_chunk_of_games(ana, ben, cai, smtp, django_capture_on_commit_callbacks):
    games = [started_game(ana, ben), started_game(ben, cai)]
    updates = [[game.pk, 0, game.version] for game in games]
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        outbox.send(tasks.games_advanced.s(updates))
    # Each game: the first player is asked, the other told it started.
    assert sorted((mail.to[0], game_number(mail)) for mail in smtp.messages) == sorted(
        [(ana.email, games[0].pk), (ben.email, games[0].pk), (ben.email, games[1].pk), (cai.email, games[1].pk)]
    )


def test_a_message_naming_no_known_task_waits_and_holds_up_nothing(ana, handed):
    Message.objects.create(task="games.tasks.renamed_since", args=[1])
    with transaction.atomic():
        notifications.preferences_changed(user=ana)  # written after it
    assert outbox.relay() == 1
    assert [message.task for message in handed] == ["games.tasks.give_standing_answers"]
    stuck = Message.objects.get(task="games.tasks.renamed_since")
    assert (stuck.attempts, stuck.last_error) == (1, "no such task")


# --- the names the services queue tasks by ----------------------------------------------

SERVICES = Path(__file__).resolve().parents[2] / "games" / "services"


def calls_in_the_services(callee: str) -> list[ast.Call]:
    """Every call in the services' source whose callee is written ``callee``."""
    return [
        node
        for path in sorted(SERVICES.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Call) and ast.unparse(node.func) == callee
    ]


def test_every_task_the_services_queue_by_name_is_registered():
    """The services queue a task only through ``notifications._queue``, each call
    naming its task written out; each name is a task the worker registers."""
    import games.tasks  # noqa: F401 (registers every task, the emails' too, as the worker's autodiscovery does)

    assert len(calls_in_the_services("outbox.send")) == 1  # the one in _queue
    queued = calls_in_the_services("_queue")
    assert all(isinstance(call.args[0], ast.Constant) for call in queued)
    names = {call.args[0].value for call in queued}
    assert {"games.tasks.send_invitation", "games.tasks.games_advanced"} <= names  # the parser finds them
    assert {name for name in names if name not in app.tasks} == set()


# --- the relay as a process of its own (OUTBOX_RELAY_PROCESS) -------------------------


def test_with_a_relay_process_writers_hand_over_nothing_and_one_run_joins_the_waiting_moves(
    ana, handed, settings, django_capture_on_commit_callbacks
):
    settings.OUTBOX_RELAY_PROCESS = True
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        for update in ([1, 0, 2], [2, 5, 6], [1, 2, 3]):
            with transaction.atomic():  # three moves, each committed alone
                outbox.send(tasks.games_advanced.s([update]))
        outbox.send(emails.send_started.s(7))
        outbox.send(tasks.games_advanced.s([[3, 0, 1]]), eta=timezone.now())
        notifications.preferences_changed(user=ana)
    assert callbacks == [] and handed == [] and Message.objects.count() == 6

    assert outbox.relay() == 6
    # The moves' updates in one call, where the first was; a timed call, a keyed one
    # and another task's each stay their own.
    assert [(message.task, message.args) for message in handed] == [
        ("games.tasks.games_advanced", [[[1, 0, 2], [2, 5, 6], [1, 2, 3]]]),
        ("games.tasks.send_started", [7]),
        ("games.tasks.games_advanced", [[[3, 0, 1]]]),
        ("games.tasks.give_standing_answers", [ana.pk]),
    ]
    assert list(Message.objects.values_list("key", flat=True)) == [f"standing-answers:{ana.pk}"]


def test_a_joined_call_the_broker_refused_leaves_each_of_its_messages_waiting(private_broker, celery_workers, settings):
    settings.OUTBOX_RELAY_PROCESS = True
    for update in ([1, 0, 2], [2, 0, 1]):
        with transaction.atomic():
            outbox.send(tasks.games_advanced.s([update]))
    private_broker.stop()
    assert outbox.relay() == 0
    assert [(m.attempts, "refused" in m.last_error) for m in Message.objects.order_by("pk")] == [(1, True)] * 2

    private_broker.start()
    assert outbox.relay() == 2 and not Message.objects.exists()
    [call] = redis.Redis.from_url(private_broker.url).lrange("celery", 0, -1)
    args, _kwargs, _embed = json.loads(base64.b64decode(json.loads(call)["body"]))
    assert args == [[[1, 0, 2], [2, 0, 1]]]  # one call for both


def test_a_commit_that_writes_a_message_wakes_the_relay_once(transactional_db):
    with psycopg.connect(database_url().replace("postgres://", "postgresql://"), autocommit=True) as relay_side:
        relay_side.execute(f"LISTEN {outbox.RELAY_CHANNEL}")
        with pytest.raises(RuntimeError), transaction.atomic():
            outbox.send(tasks.games_advanced.s([[1, 0, 1]]))
            raise RuntimeError("undone: nothing was written")
        with transaction.atomic():
            for update in ([1, 0, 1], [2, 0, 1]):
                outbox.send(tasks.games_advanced.s([update]))
        woken = list(relay_side.notifies(timeout=10, stop_after=1)) + list(relay_side.notifies(timeout=0.5))
    assert [wake.channel for wake in woken] == [outbox.RELAY_CHANNEL]


def test_the_relay_process_woken_by_a_commit_hands_over_what_the_site_wrote_and_the_emails_leave(
    celery_workers, smtp, handed, settings
):
    settings.OUTBOX_RELAY_PROCESS = True
    celery_workers.start(default=["celery"])
    celery_workers.start_relay("--looks-every", "3600")  # only a commit's NOTIFY wakes it within the test
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben)
    celery_workers.drain()
    assert handed == []  # nothing from this process: the relay process handed it over
    assert sorted((mail.to[0], game_number(mail)) for mail in smtp.messages) == [
        (ana.email, game.pk),
        (ben.email, game.pk),
    ]
    assert not Message.objects.exists()


def test_while_the_broker_is_down_the_relay_process_tries_once_a_pause_not_once_a_commit(
    private_broker, celery_workers, settings
):
    settings.OUTBOX_RELAY_PROCESS = True
    pause = 2.0  # the relay's pause after a refusal, shorter here than outbox.PAUSE_AFTER_REFUSAL
    celery_workers.start_relay("--looks-every", "3600", pause_after_refusal=pause)
    private_broker.stop()

    def moved(game_id):
        with transaction.atomic():
            outbox.send(tasks.games_advanced.s([[game_id, 0, 1]]))

    before = time.monotonic()
    moved(1)
    wait_for(lambda: Message.objects.filter(attempts=1).exists())  # refused: the pause begins
    moved(2)
    moved(3)
    # Each commit woke the relay. Its next try, with the broker still down, comes at
    # the end of the pause and is one for all three: their calls joined into one, refused.
    wait_for(lambda: Message.objects.filter(attempts__gt=1).exists(), timeout=pause + 20)
    assert time.monotonic() - before >= pause
    assert list(Message.objects.order_by("pk").values_list("attempts", flat=True)) == [2, 1, 1]

    private_broker.start()
    moved(4)  # its wake is taken once the relay's second pause is over: that run hands all four over
    wait_for(lambda: not Message.objects.exists(), timeout=pause + 20)


def test_the_relay_process_that_lost_the_database_connects_and_listens_again(
    celery_workers, settings, transactional_db
):
    settings.OUTBOX_RELAY_PROCESS = True
    celery_workers.start_relay("--looks-every", "3600")
    backend = int(re.search(r"backend (\d+)", (celery_workers.folder / "relay.log").read_text()).group(1))
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [backend])  # as a database restart would
    wait_for(lambda: (celery_workers.folder / "relay.log").read_text().count("listens for commits") == 2)

    with transaction.atomic():
        outbox.send(tasks.games_advanced.s([[1, 0, 1]]))
    wait_for(lambda: not Message.objects.exists())  # woken on the new connection


# Each outage: its length in seconds, and what the worker is doing when the broker
# goes: nothing, holding a task for its ETA, or running a task (sending an email to
# a slow mail server) that ends after the broker is back. A move is made during each.
OUTAGES = [(1, "running"), (8, "holding"), (2, "idle"), (20, "holding"), (3, "running"), (12, "idle")]
EMAILED_WITHIN = 30.0  # seconds after the broker is back
SLOW_MAIL_SERVER = 8.0  # seconds it takes to accept an email, longer than the outage


def test_after_each_of_many_broker_outages_every_move_is_emailed_once_within_30_seconds(
    private_broker, celery_workers, smtp, client, settings
):
    """The production shape of a small site (one worker, both queues, beat inside
    it; Redis its broker and cache) against a Redis the test stops and starts
    again, empty, time after time. The move's page answers meanwhile."""
    settings.CACHES = {**settings.CACHES, "default": {**settings.CACHES["default"], "LOCATION": private_broker.url}}
    celery_workers.env["REDIS_URL"] = private_broker.url
    celery_workers.start(beat=True, pool="prefork", site=["celery", "deadlines"])
    running = sum(doing == "running" for _seconds, doing in OUTAGES)
    hosts = [make_player(f"Host{index}") for index in range(1 + len(OUTAGES) + running)]
    guests = [make_player(f"Guest{index}") for index in range(len(hosts))]
    games = [started_game(host, guest) for host, guest in zip(hosts, guests, strict=True)]
    for guest in guests:
        smtp.wait_for(to=guest.email, subject_contains="Started", timeout=30)
    # Other traffic first: a move and its email.
    decide(client, games[0], hosts[0], {"act": "income"})
    smtp.wait_for(to=guests[0].email, subject_contains="Your move", timeout=30)

    tables = iter(zip(games[1:], hosts[1:], guests[1:], strict=True))
    delays = []
    for seconds, doing in OUTAGES:
        if doing == "holding":  # a task the worker holds until its time (an hour)
            held = outbox_tasks.relay.s()
            held.apply_async(countdown=3600)
            wait_for(lambda held=held: celery_workers.scheduled(held))
        if doing == "running":  # an email the mail server takes its time to accept
            slow_game, slow_host, slow_guest = next(tables)
            smtp.slowness = SLOW_MAIL_SERVER
            receiving = smtp.receiving
            decide(client, slow_game, slow_host, {"act": "income"})
            wait_for(lambda receiving=receiving: smtp.receiving > receiving)
        game, host, guest = next(tables)
        private_broker.stop()
        response = decide(client, game, host, {"act": "income"})
        assert response.status_code == 302
        assert client.get(response.url).status_code == 200
        time.sleep(seconds)
        private_broker.start()
        back = time.monotonic()
        if doing == "running":
            smtp.wait_for(to=slow_guest.email, subject_contains="Your move", timeout=30)
            smtp.slowness = 0.0
        email = smtp.wait_for(to=guest.email, subject_contains="Your move", timeout=EMAILED_WITHIN + 15)
        delays.append(round(email.arrived - back, 1))

    assert max(delays) <= EMAILED_WITHIN, delays
    time.sleep(12)  # beat's relay runs again: nothing is sent twice
    sent = Counter((email.to[0], email.subject) for email in smtp.messages)
    assert [key for key, count in sent.items() if count > 1] == []
    # Each host was asked for the first move; each guest told the game started, then asked.
    assert Counter(address for address, _subject in sent) == {
        **{host.email: 1 for host in hosts},
        **{guest.email: 2 for guest in guests},
    }
    assert not Message.objects.exists()
