"""Quiet nights: during a player's night (22:00 to 07:00 in their zone unless they
chose other hours) news, reminders and the decisions that can wait leave at their
morning; a decision whose deadline falls before it is asked at once. The clock never
waits. Held emails wait in the outbox, and are read again when they leave."""

import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import profile_of
from games.mail import emails
from games.models import Game, Seat
from games.services import clock, gathering, notifications, play, spectators
from outbox import services as outbox
from outbox.models import Message
from tests.players import awaited, gathering_game, make_player, started_game
from tests.worker import wait_for

SAO_PAULO = "America/Sao_Paulo"
MADRID = "Europe/Madrid"


def _instant(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def _quiet(user, zone: str = "UTC", *, night_from: int = 22, morning: int = 7, on: bool = True):
    profile = profile_of(user)
    profile.time_zone, profile.quiet_nights = zone, on
    profile.quiet_from, profile.quiet_until = night_from, morning
    profile.save()
    return profile


def _night_now(user, zone: str = SAO_PAULO, hours: int = 3):
    """Quiet nights for ``user`` in ``zone`` that began this hour there and end
    ``hours`` later, so that the test runs in their night whatever the real time;
    returns the end of that night."""
    local = timezone.now().astimezone(zoneinfo.ZoneInfo(zone))
    _quiet(user, zone, night_from=local.hour, morning=(local.hour + hours) % 24)
    return local.replace(minute=0, second=0, microsecond=0) + timedelta(hours=hours)


def _held(task: str) -> list[Message]:
    return list(Message.objects.filter(task=f"games.tasks.{task}").order_by("pk"))


# ---- when an email leaves ------------------------------------------------------------------


def test_a_sao_paulo_player_at_half_past_eleven_hears_the_news_at_seven_their_time(ana):
    profile = _quiet(ana, SAO_PAULO)
    # 02:30 UTC on 28 November is 23:30 on the 27th in São Paulo (UTC-3).
    morning = notifications.held_until(profile, now=_instant("2026-11-28T02:30"))
    assert morning == _instant("2026-11-28T10:00")  # 07:00 there
    assert morning.astimezone(profile.zone).strftime("%d %H:%M") == "28 07:00"


def test_madrid_and_sao_paulo_differ_at_the_same_instant(ana, ben):
    madrid, sao_paulo = _quiet(ana, MADRID), _quiet(ben, SAO_PAULO)
    at = _instant("2026-11-27T22:30")  # 23:30 in Madrid (UTC+1), 19:30 in São Paulo
    assert notifications.held_until(madrid, now=at) == _instant("2026-11-28T06:00")
    assert notifications.held_until(sao_paulo, now=at) is None
    at = _instant("2026-11-28T04:00")  # 05:00 in Madrid, 01:00 in São Paulo: both asleep
    assert notifications.held_until(madrid, now=at) == _instant("2026-11-28T06:00")
    assert notifications.held_until(sao_paulo, now=at) == _instant("2026-11-28T10:00")
    at = _instant("2026-11-28T06:00")  # 07:00 in Madrid: morning
    assert notifications.held_until(madrid, now=at) is None


def test_a_decision_waits_for_the_morning_only_when_its_deadline_does(ana):
    profile = _quiet(ana, SAO_PAULO)
    at, morning = _instant("2026-11-28T02:30"), _instant("2026-11-28T10:00")
    assert notifications.held_until(profile, deadline=morning - timedelta(minutes=1), now=at) is None
    assert notifications.held_until(profile, deadline=morning + timedelta(hours=8), now=at) == morning


def test_a_player_without_quiet_nights_is_written_to_at_any_hour(ana):
    profile = _quiet(ana, SAO_PAULO, on=False)
    assert notifications.held_until(profile, now=_instant("2026-11-28T02:30")) is None


def test_a_night_within_one_day_and_a_night_of_no_hours(ana):
    profile = _quiet(ana, MADRID, night_from=1, morning=9)
    assert notifications.held_until(profile, now=_instant("2026-11-27T23:30")) is None  # 00:30 there
    assert notifications.held_until(profile, now=_instant("2026-11-28T02:00")) == _instant("2026-11-28T08:00")
    profile = _quiet(ana, MADRID, night_from=7, morning=7)
    assert notifications.held_until(profile, now=_instant("2026-11-28T06:30")) is None


# ---- what is queued ------------------------------------------------------------------------


def test_emails_to_a_player_in_their_night_wait_in_the_outbox_for_their_morning(
    ana, ben, django_capture_on_commit_callbacks
):
    morning = _night_now(ana)
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(ben, ana)  # Ben moves first: Ana hears of the start
    [started] = _held("send_started")
    assert started.eta == morning and started.args == [game.seats.get(user=ana).pk]
    assert started.published_at is None  # not in the broker: a worker would hold it for hours


def test_a_reminder_waits_for_the_morning_unless_the_deadline_comes_first(
    ana, ben, cai, django_capture_on_commit_callbacks
):
    morning = _night_now(ana, hours=3)
    _night_now(cai, hours=3)
    patient = started_game(ana, ben, reminders=True)  # a day to answer
    urgent = started_game(cai, ben, reminders=True, turn_seconds=3600)
    Message.objects.all().delete()
    for game, user in ((patient, ana), (urgent, cai)):
        clock.reminder_claim(game=game, seat_ids=[game.seats.get(user=user).pk])
    held, at_once = (
        Message.objects.get(task="games.tasks.send_reminder", args__0=game.seats.get(user=user).pk)
        for game, user in ((patient, ana), (urgent, cai))
    )
    assert held.eta == morning
    assert at_once.eta is None


def test_the_table_hears_of_an_extension_each_at_their_own_hour(ana, ben, cai, django_capture_on_commit_callbacks):
    morning = _night_now(cai, MADRID)
    game = started_game(ana, ben, cai)
    Message.objects.all().delete()
    mail_before = len(mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        clock.time_extend(game=game, user=ana)  # Ana's turn
    seats = {seat.user_id: seat.pk for seat in game.seats.all()}
    told_now = {m.to[0] for m in mail.outbox[mail_before:] if "took extra time" in m.subject}
    assert told_now == {ana.email, ben.email}
    [held] = _held("announce_extension")
    assert held.eta == morning and held.kwargs == {"to": [seats[cai.pk]]}


def test_a_follower_in_their_night_hears_the_result_at_their_morning(ana, ben, django_capture_on_commit_callbacks):
    sleeper, awake = make_player("Sleeper"), make_player("Awake")
    morning = _night_now(sleeper)
    game = started_game(ana, ben, visibility=Game.Visibility.PUBLIC)
    for follower in (sleeper, awake):
        spectators.game_follow(game=game, user=follower, follow=True)
    mail_before = len(mail.outbox)
    with django_capture_on_commit_callbacks(execute=True):
        play.game_resign(game=game, user=ben)
    told_now = {m.to[0] for m in mail.outbox[mail_before:] if "Game over" in m.subject}
    assert awake.email in told_now and sleeper.email not in told_now
    [held] = _held("send_followed_result")
    assert held.eta == morning and held.args == [game.pk, sleeper.pk]
    emails.send_followed_result(*held.args)  # the morning's task: the sleeper alone is told
    told_then = [m.to[0] for m in mail.outbox[mail_before:] if "Game over" in m.subject]
    assert told_then.count(sleeper.email) == 1 and told_then.count(awake.email) == 1


def test_an_invitation_to_an_account_in_its_night_waits_and_one_to_an_unknown_address_goes(ana, cai):
    morning = _night_now(cai)
    game = gathering_game(ana, seats=3)
    Message.objects.all().delete()
    for address in (cai.email, "stranger@example.com"):
        gathering.invitation_send(game=game, by=ana, email=address)
    held, at_once = _held("send_invitation")
    assert (held.eta, at_once.eta) == (morning, None)


def test_a_message_held_for_the_morning_is_handed_to_the_broker_only_when_nearly_due(ana, monkeypatch, settings):
    settings.OUTBOX_RELAY_PROCESS = True  # the relay hands every message over
    handed = []
    monkeypatch.setattr(outbox, "_hand_over", handed.append)
    later = timezone.now() + outbox.HELD_BEYOND + timedelta(minutes=5)
    soon = timezone.now() + outbox.HELD_BEYOND - timedelta(minutes=5)
    for eta in (later, soon):
        notifications._queue("games.tasks.send_started", 1, eta=eta)
    assert outbox.relay() == 1
    assert [message.eta for message in handed] == [soon]
    assert [message.eta for message in Message.objects.all()] == [later]


# ---- with a real worker and mail server -----------------------------------------------------


def _decision_held(seat: Seat) -> Message:
    [message] = [message for message in _held("send_decision") if message.args[0] == seat.pk]
    return message


def _morning_comes(message: Message, worker) -> None:
    """The clock reaches the morning ``message`` waits for."""
    Message.objects.filter(pk=message.pk).update(eta=timezone.now())
    outbox.relay()
    worker.drain()


@pytest.mark.django_db(transaction=True)
def test_the_worker_sends_news_at_the_morning_and_a_player_without_quiet_nights_at_once(celery_worker, smtp):
    ana, ben = make_player("Ana"), make_player("Ben")
    morning = _night_now(ana)
    _quiet(ben, SAO_PAULO, on=False)
    game = started_game(ben, ana)
    celery_worker.drain()  # every task but those held for a morning
    [asked] = wait_for(lambda: smtp.to(ben.email))
    assert asked.subject.startswith("Your move")
    assert smtp.to(ana.email) == []
    [started] = _held("send_started")
    assert started.eta == morning
    _morning_comes(started, celery_worker)
    [news] = smtp.to(ana.email)
    assert news.subject.startswith("Started") and f"#{game.pk}" in news.subject


@pytest.mark.django_db(transaction=True)
def test_a_decision_due_before_the_morning_goes_now_and_one_due_after_waits(celery_worker, smtp):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    for user in (ana, cai):
        _night_now(user, hours=3)
    urgent = started_game(ana, ben, turn_seconds=3600)  # Ana's turn ends in an hour: before her morning
    patient = started_game(cai, ben)  # Cai's turn lasts a day
    celery_worker.drain()
    [asked] = wait_for(lambda: smtp.to(ana.email))
    assert asked.subject.startswith("Your move") and f"#{urgent.pk}" in asked.subject
    assert smtp.to(cai.email) == []
    held = _decision_held(patient.seats.get(user=cai))
    assert held.eta > timezone.now() + timedelta(hours=1)
    _morning_comes(held, celery_worker)
    [asked] = smtp.to(cai.email)
    assert asked.subject.startswith("Your move") and f"#{patient.pk}" in asked.subject


@pytest.mark.django_db(transaction=True)
def test_a_decision_answered_before_the_morning_is_not_asked_then(celery_worker, smtp):
    ana, ben = make_player("Ana"), make_player("Ben")
    _night_now(ana)
    game = started_game(ana, ben)
    celery_worker.drain()
    held = _decision_held(game.seats.get(user=ana))
    _decision, version = awaited(game)[game.seats.get(user=ana).player]
    play.decision_submit(game=game, user=ana, command={"act": "income"}, version=version)  # from the page, awake
    assert game.deadline_at is not None  # the clock ran all along
    _morning_comes(held, celery_worker)
    assert [m for m in smtp.to(ana.email) if m.subject.startswith("Your move")] == []
