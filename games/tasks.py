"""Thin Celery tasks: they take ids, call a service or an email function, and are
safe to run twice (every write they cause is version-checked).

The services queue these by name (``services/notifications.py``), through the
outbox, in the transaction of the change that calls for them: their registered
names (``games.tasks.<function>``) are part of the stored outbox and of the
settings, so they stay. Each email is a task of its own, registered under the same
names by ``games.mail.emails`` (imported here, as the worker imports this module).
``expire_deadline``, ``sweep_deadlines`` and ``remind_game`` run on the deadline
queue (settings ``CELERY_TASK_ROUTES``)."""

import uuid
import zoneinfo
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from accounts.bounces import sent_emails_forget
from accounts.export import data_export_build, data_exports_forget
from accounts.models import EmailMode, Profile
from games.mail import emails
from games.models import Game
from games.services import (
    bots,
    clock,
    holidays,
    lobby,
    notifications,
    opinions,
    play,
    preferences,
    presence,
    verification,
)
from games.services.attention import game_isolated
from games.services.errors import ServiceError
from games.services.notifications import preferences_key
from outbox import services as outbox

SWEEP_LOCK = "sweep-deadlines"
SWEEP_LOCK_SECONDS = 300


@shared_task(ignore_result=True)
def expire_deadline(game_id: int, version: int) -> bool:
    game = Game.objects.filter(pk=game_id).first()
    return game is not None and bool(game_isolated(game, "deadline", play.deadline_expire, version=version))


@shared_task(ignore_result=True)
def bot_answer(game_id: int, seat_id: int, version: int) -> bool:
    """The bot playing a seat answers its decision of ``version``: nothing (False)
    when the game, or that decision, has moved on since it was queued."""
    game = Game.objects.filter(pk=game_id).first()
    return game is not None and bool(game_isolated(game, "bot", _bot_answered, seat_id=seat_id, version=version))


def _bot_answered(*, game: Game, seat_id: int, version: int) -> bool:
    try:
        bots.bot_answer(game=game, seat_id=seat_id, version=version)
    except ServiceError:  # the decision passed, a person plays the seat, or the game ended
        return False
    return True


@shared_task(ignore_result=True)
def build_data_export(export_id: int) -> bool:
    """Build a player's data to download (``accounts.export``), then email its link."""
    return data_export_build(export_id=export_id)


@shared_task(ignore_result=True)
def give_second_opinion(opinion_id: int) -> bool:
    """Weigh a second opinion asked for on a replay: nothing (False) when it is
    gone or already weighed."""
    return opinions.second_opinion_give(opinion_id=opinion_id)


@shared_task(ignore_result=True)
def sweep_deadlines() -> int:
    """Expire every deadline that has passed (run every minute by beat), a chunk
    of games per transaction (``play.deadlines_sweep``); a game whose expiry
    fails is logged and marked for attention, and the others are swept. Returns
    how many games moved on: 0 at once when a sweep is still running, which
    holds the lock ``SWEEP_LOCK`` in the shared cache (Redis) until it ends.

    The lock is in Redis, not a PostgreSQL advisory lock: an advisory lock
    belongs to a server session, which PgBouncer in transaction mode does not
    keep for a client, and the embedded SQLite has none. The lock only saves a
    second worker the trouble: sweeps that do overlap (the lock expired during a
    very long run) still never apply a deadline twice, since each locks the games
    it takes and skips those another holds. While a sweep runs it renews the lock
    after every chunk, so a worker that died frees it within ``SWEEP_LOCK_SECONDS``."""
    token = uuid.uuid4().hex
    if not cache.add(SWEEP_LOCK, token, timeout=SWEEP_LOCK_SECONDS):
        return 0
    try:
        return play.deadlines_sweep(chunk_done=lambda: cache.touch(SWEEP_LOCK, SWEEP_LOCK_SECONDS))
    finally:
        if cache.get(SWEEP_LOCK) == token:  # not a later sweep's, taken after ours expired
            cache.delete(SWEEP_LOCK)


@shared_task(ignore_result=True)
def sweep_holidays() -> int:
    """Begin the holidays whose first day has come and end those whose last has
    passed (run every minute by beat): their players' games hold or release
    their clocks, or seat or dismiss their stand-in bots (``holidays.holidays_sweep``)."""
    return holidays.holidays_sweep()


@shared_task(ignore_result=True)
def send_reminders() -> int:
    """Remind the awaited players once per decision, when a quarter of their time is left."""
    return sum(game_isolated(game, "reminder", _remind) or 0 for game in clock.reminders_due())


@shared_task(ignore_result=True)
def remind_game(game_id: int, version: int) -> int:
    """At a game's reminder moment (queued with the deadline): remind its awaited
    players, unless the game moved on or was reminded already (by the sweep)."""
    game = Game.objects.filter(pk=game_id, version=version).first()
    if game is None or not clock.reminder_is_due(game):
        return 0
    return game_isolated(game, "reminder", _remind) or 0


def _remind(*, game: Game) -> int:
    """Remind the awaited players who do not have the game's page open."""
    awaited = emails.awaited_seat_ids(game)
    present = presence.seats_present(awaited)
    return clock.reminder_claim(game=game, seat_ids=[seat_id for seat_id in awaited if seat_id not in present])


@shared_task(ignore_result=True, merges_calls=True)
def games_advanced(updates: list) -> None:
    """Each ``(game_id, before, after)``: events ``before``..``after`` of that game
    were appended; queue the emails they call for. One message may carry a whole
    chunk of games, and the outbox relay may join the waiting messages' updates
    into one call (``merges_calls``; see ``outbox/services.py``)."""
    for game_id, before, after in updates:
        game = Game.objects.filter(pk=game_id).first()
        if game is not None:
            game_isolated(game, "emails", _queue_update_emails, before=before, after=after)


def _queue_update_emails(*, game: Game, before: int, after: int) -> None:
    """The decision emails of an update leave together, in one task that reads the
    game once (``send_decisions``). A player with the game's page open is asked
    there first: their decision's email is a task of its own that waits
    ``DECISION_EMAIL_DELAY`` seconds and leaves only if the decision is still
    awaited then (``emails.send_decision`` checks). Such a player reads the start
    of the game, or that they are out, on the page: no email tells them.

    A player in their quiet night gets each email at its end
    (``notifications.held_until``), their decision's alone, and checked then like a
    present player's; a decision whose deadline falls before their morning is asked
    at once."""
    update = emails.emails_for_update(game, before, after)
    later = timezone.now() + timedelta(seconds=settings.DECISION_EMAIL_DELAY)
    told = [seat_id for seat_id, _version in update.decisions] + update.started + update.eliminated
    present = presence.seats_present(told)
    profiles = notifications.seat_profiles(told + update.finished)

    def held(seat_id: int, deadline=None):
        return notifications.held_until(profiles[seat_id], deadline=deadline)

    with transaction.atomic():
        now = []
        for seat_id, version in update.decisions:
            present_until = later if seat_id in present else None
            waits = [moment for moment in (present_until, held(seat_id, game.deadline_at)) if moment is not None]
            if waits:
                outbox.send(emails.send_decision.s(seat_id, version), eta=max(waits))
            else:
                now.append([seat_id, version])
        if now:
            outbox.send(emails.send_decisions.s(game.pk, now))
        for seat_id in update.started:
            if seat_id not in present:
                outbox.send(emails.send_started.s(seat_id), eta=held(seat_id))
        for seat_id in update.eliminated:
            if seat_id not in present:
                outbox.send(emails.send_eliminated.s(seat_id), eta=held(seat_id))
        for seat_id in update.finished:
            outbox.send(emails.send_finished.s(seat_id), eta=held(seat_id))
        if update.finished:
            outbox.send(emails.send_followed_result.s(game.pk))


@shared_task(ignore_result=True)
def give_standing_answers(user_id: int) -> int:
    """Give a player's preferences for each game kind, as stored now, to each of
    their games in play. However often they changed them meanwhile, one such task
    is queued at a time (``services.notifications.preferences_changed``)."""
    outbox.release(preferences_key(user_id))
    user = get_user_model().objects.filter(pk=user_id).first()
    return preferences.preferences_give(user=user) if user is not None else 0


@shared_task(ignore_result=True)
def send_digests() -> int:
    """Every hour (beat): the digests due now (``queue_digests``)."""
    return queue_digests(timezone.now())


def queue_digests(now: datetime) -> int:
    """Queue a digest for every player who chose one, sits at a game in play, and
    whose local hour at ``now`` is the hour they chose (``Profile.digest_hour``), so
    each gets it in their own morning (``emails.send_digest`` skips those no game
    waits for). Each player is first claimed for their local day
    (``Profile.digest_sent_on``) in the transaction that queues the digest, so a
    repeated or redelivered run within the hour sends nobody a second one."""
    profiles = (
        Profile.objects.filter(email_mode=EmailMode.DIGEST, user__seats__game__status=Game.Status.ACTIVE)
        .values_list("pk", "user_id", "time_zone", "digest_hour")
        .distinct()
    )
    queued = 0
    for profile_id, user_id, zone, hour in profiles:
        local = now.astimezone(zoneinfo.ZoneInfo(zone))
        if local.hour != hour:
            continue
        with transaction.atomic():
            claimed = (
                Profile.objects.filter(pk=profile_id)
                .exclude(digest_sent_on=local.date())
                .update(digest_sent_on=local.date())
            )
            if claimed:
                outbox.send(emails.send_digest.s(user_id))
                queued += 1
    return queued


@shared_task(ignore_result=True)
def verify_games() -> int:
    """Once a day (beat): replay every game's log and report each game whose
    snapshot differs (logged, and marked for attention)."""
    return len(verification.games_verify()[1])


@shared_task(ignore_result=True)
def forget_sent_emails() -> int:
    """Once a day (beat): forget the emails sent longer ago than any delivery report
    comes back (``accounts.bounces.SENT_EMAILS_KEPT``)."""
    return sent_emails_forget()


@shared_task(ignore_result=True)
def forget_data_exports() -> int:
    """Once a day (beat): delete the players' data exports past their time
    (``accounts.export.EXPORT_KEPT``), whether or not anyone asks for a new one."""
    return data_exports_forget()


@shared_task(ignore_result=True)
def sweep_open_games() -> list[int]:
    """Every ten minutes (beat): offer bots to the hosts of open games past their
    time, and cancel those whose offer has run out (``lobby.open_games_sweep``)."""
    return list(lobby.open_games_sweep())
