"""Thin Celery tasks: they take ids, call a service or an email function, and are
safe to run twice (every write they cause is version-checked)."""

from smtplib import SMTPException

from celery import shared_task
from django.db.models import F
from django.utils import timezone

from . import emails, services
from .models import Game

EMAIL_RETRY = {"autoretry_for": (SMTPException, OSError), "retry_backoff": 30, "max_retries": 8}


@shared_task(ignore_result=True)
def expire_deadline(game_id: int, version: int) -> bool:
    game = Game.objects.filter(pk=game_id).first()
    return game is not None and services.deadline_expire(game=game, version=version)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Expire every deadline that has passed (run every minute by beat)."""
    due = Game.objects.filter(status=Game.Status.ACTIVE, deadline_at__lte=timezone.now())
    return sum(services.deadline_expire(game=game, version=game.version) for game in due)


@shared_task(ignore_result=True)
def send_reminders() -> int:
    """Remind the awaited players once per decision, when a quarter of its time is left."""
    sent = 0
    now = timezone.now()
    for game in Game.objects.filter(status=Game.Status.ACTIVE, reminders=True, deadline_at__gt=now).exclude(
        reminded_version=F("version")
    ):
        if (game.deadline_at - now).total_seconds() > game.deadline_seconds / 4:
            continue
        # Claim the reminder atomically: only one sweep (or worker) sends it.
        if Game.objects.filter(pk=game.pk, version=game.version).exclude(reminded_version=game.version).update(
            reminded_version=game.version
        ):
            for seat_id in emails.awaited_seat_ids(game):
                send_reminder.delay(seat_id, game.version)
                sent += 1
    return sent


@shared_task(ignore_result=True, **EMAIL_RETRY)
def send_invitation(invitation_id: int) -> None:
    emails.send_invitation(invitation_id)


@shared_task(ignore_result=True, **EMAIL_RETRY)
def send_reminder(seat_id: int, version: int) -> None:
    emails.send_reminder(seat_id, version)


@shared_task(ignore_result=True)
def game_advanced(game_id: int, before: int, after: int) -> None:
    """Events ``before``..``after`` were appended: queue the emails they call for."""
    for name, arguments in emails.emails_for_update(game_id, before, after):
        send_update.delay(name, *arguments)


@shared_task(ignore_result=True, **EMAIL_RETRY)
def send_update(name: str, *arguments) -> None:
    emails.UPDATE_EMAILS[name](*arguments)


@shared_task(ignore_result=True, **EMAIL_RETRY)
def send_reply_unclear(seat_id: int, line: str, problem: str, reading: str = "") -> None:
    emails.send_reply_unclear(seat_id, line=line, problem=problem, reading=reading)


@shared_task(ignore_result=True, **EMAIL_RETRY)
def announce_extension(game_id: int, seat_id: int) -> None:
    emails.send_extension(game_id, seat_id)


@shared_task(ignore_result=True)
def send_digests() -> int:
    """Once a day (beat): queue a digest for every player who chose one and sits at a
    game in play (``emails.send_digest`` skips those no game waits for). Each player
    is first claimed for the day in the shared cache, so a repeated or redelivered
    run sends nobody a second digest."""
    from django.core.cache import cache

    from accounts.models import EmailMode

    from .models import Seat

    day = timezone.now().date().isoformat()
    user_ids = (
        Seat.objects.filter(game__status=Game.Status.ACTIVE, user__profile__email_mode=EmailMode.DIGEST)
        .order_by("user_id")  # not Seat's default ordering, which would defeat distinct()
        .values_list("user_id", flat=True)
        .distinct()
    )
    queued = 0
    for user_id in user_ids:
        if cache.add(f"digest:{day}:{user_id}", True, timeout=2 * 24 * 3600):
            send_digest.delay(user_id)
            queued += 1
    return queued


@shared_task(ignore_result=True, **EMAIL_RETRY)
def send_digest(user_id: int) -> None:
    emails.send_digest(user_id)
