"""The clock of a game in play: when its deadline falls, a prompt expiry for a
short one, pausing and resuming, holding it for a player who is away, a player's
extra time, and claiming a reminder. Expiring a deadline applies the engine's
default answers: that is play (``play.deadline_expire``).

The clock stops for two reasons that do not know of each other: the host's pause
(``paused_remaining``: the time left then) and a hold while a player the game
awaits is on holiday and no bot plays for them (``clock_held``). It runs again
only once neither holds it, whichever ends first. A hold gives the decisions it
held a full period of time when it ends: the player back from holiday may not
read their email at once, and the others' time was stopped too. So a game both
paused and held keeps no time of its own but the pause's, which the hold's end
sets to that full period."""

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import profile_of
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
        game.paused_remaining = _time_left(game)
        game.deadline_at = None
        game.save(update_fields=["paused_remaining", "deadline_at"])


def game_resume(*, game: Game, by) -> None:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.host_id != by.pk:
            raise ServiceError(_("Only the host can resume the game."))
        if game.status != Game.Status.ACTIVE or game.paused_remaining is None:
            raise ServiceError(_("The game is not paused."))
        if not game.clock_held:  # else the hold's end starts it
            game.deadline_at = timezone.now() + game.paused_remaining
            schedule_deadline(game)
        game.paused_remaining = None
        game.save(update_fields=["paused_remaining", "deadline_at"])


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


def clock_restart(game: Game, state, seats: list) -> None:
    """After new events (``game`` locked, not over; ``seats``: all of its seats,
    with their players' profiles): the decisions now awaited get their full time,
    kept aside while the game is paused, and held while one of them waits for a
    player who is away."""
    game.deadline_seconds = _seconds_to_answer(game, state)
    deadline = timedelta(seconds=game.deadline_seconds)
    game.clock_held = awaits_away(game, state, seats)
    if game.paused_remaining is not None:
        game.paused_remaining = deadline
    elif game.clock_held:
        game.deadline_at = None
    else:
        game.deadline_at = timezone.now() + deadline
        schedule_deadline(game)


def clock_hold_check(game: Game, state, seats: list) -> None:
    """Hold ``game``'s clock (locked, in play) while a decision it awaits is a
    player's who is away with no bot playing for them, and let it run again once
    none is: the start and end of a holiday, a bot taking a seat over or leaving
    it."""
    held = awaits_away(game, state, seats)
    if held == game.clock_held:
        return
    game.clock_held = held
    if held:
        game.deadline_at = None
    elif game.paused_remaining is not None:
        game.paused_remaining = timedelta(seconds=game.deadline_seconds)
    else:
        game.deadline_at = timezone.now() + timedelta(seconds=game.deadline_seconds)
        schedule_deadline(game)
    game.save(update_fields=["clock_held", "deadline_at", "paused_remaining"])


def awaits_away(game: Game, state, seats: list) -> bool:
    """Whether ``game`` awaits now a player away on holiday with no bot playing
    for them (``seats``: all of its seats, with their profiles)."""
    awaited = {name for name, _decision, _version in KINDS[game.kind].rules.awaiting(state)}
    return any(
        seat.player in awaited and not seat.bot_level and profile_of(seat.user).away_until is not None for seat in seats
    )


def _time_left(game: Game) -> timedelta:
    """The time the decisions awaited have left, the clock running or not."""
    if game.deadline_at is not None:
        return max(game.deadline_at - timezone.now(), timedelta(0))
    if game.paused_remaining is not None:
        return game.paused_remaining
    return timedelta(seconds=game.deadline_seconds)  # held: what the hold's end gives


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
