"""The clock of a game in play: when its deadline falls, a prompt expiry for a
short one, pausing and resuming, a player's extra time, and claiming a reminder.
Expiring a deadline applies the engine's default answers: that is play
(``play.deadline_expire``)."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.kinds import KINDS
from games.models import Game
from games.services import notifications
from games.services.errors import ServiceError
from games.services.locks import locked_for_play

PROMPT_EXPIRY_WITHIN = timedelta(minutes=30)


def game_pause(*, game: Game, by) -> None:
    """The host stops the clock; nothing expires until the game is resumed."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.host_id != by.pk:
            raise ServiceError(_("Only the host can pause the game."))
        if game.status != Game.Status.ACTIVE or game.paused_remaining is not None:
            raise ServiceError(_("Only a running game can be paused."))
        assert game.deadline_at is not None, "a running game has a deadline"
        game.paused_remaining = max(game.deadline_at - timezone.now(), timedelta(0))
        game.deadline_at = None
        game.save(update_fields=["paused_remaining", "deadline_at"])


def game_resume(*, game: Game, by) -> None:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.host_id != by.pk:
            raise ServiceError(_("Only the host can resume the game."))
        if game.status != Game.Status.ACTIVE or game.paused_remaining is None:
            raise ServiceError(_("The game is not paused."))
        game.deadline_at = timezone.now() + game.paused_remaining
        game.paused_remaining = None
        game.save(update_fields=["paused_remaining", "deadline_at"])
        schedule_deadline(game)


def time_extend(*, game: Game, user) -> None:
    """A player who is awaited asks the table for more time: the current deadline
    moves by one more full period. Granted once per player per game."""
    with transaction.atomic():
        game, seat, state = locked_for_play(game, user)
        if seat.extension_used:
            raise ServiceError(_("You have already had your extra time in this game."))
        if seat.player not in {name for name, _decision, _version in KINDS[game.kind].rules.awaiting(state)}:
            raise ServiceError(_("The game is not waiting for you."))
        if game.deadline_at is None:
            raise ServiceError(_("The clock is paused."))
        seat.extension_used = True
        seat.save(update_fields=["extension_used"])
        game.deadline_at += timedelta(seconds=game.deadline_seconds)
        game.save(update_fields=["deadline_at"])
        schedule_deadline(game)
        notifications.extension_granted(game, seat)


def clock_restart(game: Game, state) -> None:
    """After new events (``game`` locked, not over): the decisions now awaited get
    their full time, kept aside while the game is paused."""
    game.deadline_seconds = _seconds_to_answer(game, state)
    deadline = timedelta(seconds=game.deadline_seconds)
    if game.paused_remaining is not None:
        game.paused_remaining = deadline
    else:
        game.deadline_at = timezone.now() + deadline
        schedule_deadline(game)


def schedule_deadline(game: Game) -> None:
    """Queue a task for the moment the deadline passes, and one for the moment of
    its reminder, when that is soon. Long deadlines are left to the minute sweeps
    alone: a Redis broker redelivers tasks held longer than its visibility
    timeout, and a sweep needs no such care."""
    assert game.deadline_at is not None, "scheduled only once the deadline is set"
    if game.deadline_at - timezone.now() <= PROMPT_EXPIRY_WITHIN:
        notifications.deadline_due(game)
        if reminds(game):
            notifications.reminder_moment(game, at=reminder_at(game))


def reminds(game: Game) -> bool:
    """Whether ``game``'s awaited players are reminded of their current decisions:
    the host chose reminders, and the reminder would leave them time to answer
    (``settings.REMINDER_LEAST_NOTICE``)."""
    return game.reminders and game.deadline_seconds >= _least_time_reminded()


def _least_time_reminded() -> float:
    """The shortest decision whose reminder, a quarter of its time before the
    deadline, leaves the least notice."""
    return 4 * settings.REMINDER_LEAST_NOTICE


def reminder_at(game: Game) -> datetime:
    """When the awaited players are reminded: a quarter of their time before the deadline."""
    assert game.deadline_at is not None, "asked only of a running clock"
    return game.deadline_at - timedelta(seconds=game.deadline_seconds / 4)


# A task timed for the reminder may start a moment before it by the worker's clock.
REMINDER_EARLY_BY = timedelta(seconds=1)


def reminder_is_due(game: Game, *, now=None) -> bool:
    """``game``'s awaited players are to be reminded now: in play, reminded
    (``reminds``), not yet reminded of these decisions, and a quarter of their time left."""
    now = now or timezone.now()
    return (
        game.status == Game.Status.ACTIVE
        and reminds(game)
        and game.reminded_version != game.version
        and game.deadline_at is not None
        and reminder_at(game) <= now + REMINDER_EARLY_BY
        and now < game.deadline_at
    )


def reminders_due(*, now=None):
    """The games whose awaited players are to be reminded now (``reminder_is_due``)."""
    now = now or timezone.now()
    due = Game.objects.filter(
        status=Game.Status.ACTIVE, reminders=True, deadline_at__gt=now, deadline_seconds__gte=_least_time_reminded()
    ).exclude(reminded_version=models.F("version"))
    return [game for game in due if reminder_is_due(game, now=now)]


def reminder_claim(*, game: Game, seat_ids) -> int:
    """Remind the players of ``seat_ids`` (those ``game`` awaits) once for the
    decisions of ``game.version``. The claim is made in the transaction that
    queues the emails: only one sweep (or worker) sends them, and a claim is never
    made without its emails. Returns how many were queued (0: claimed already)."""
    with transaction.atomic():
        claimed = Game.objects.filter(pk=game.pk, version=game.version).exclude(reminded_version=game.version)
        if not claimed.update(reminded_version=game.version):
            return 0
        notifications.reminders_due(game, seat_ids)
    return len(seat_ids)


def _seconds_to_answer(game: Game, state) -> int:
    """A player's own turn gets the turn time; every other decision the response time."""
    kinds = {decision for _player, decision, _version in KINDS[game.kind].rules.awaiting(state)}
    return game.turn_seconds if "turn" in kinds else game.response_seconds
