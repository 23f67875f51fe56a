"""The tasks a change calls for (emails, the next deadline, standing answers),
queued through the outbox (``outbox/services.py``) in the transaction of that
change, so they reach Celery once it commits, even when the broker is down then.

Tasks are named here, not imported: ``games.tasks`` and the emails
(``games.mail.emails``) call the services, so the services may not import them back.
Each is queued by ``_queue`` under its registered name, written out in the call, and
a test reads those calls and checks that each names a task the worker registered.

An email to a player in their quiet night waits for their morning (``held_until``):
each email to a player is queued with the moment it says, here and in
``games.tasks`` (the emails of a game's update). The outbox keeps a message due that
far ahead until it is nearly due (``outbox.services.HELD_BEYOND``), and the email,
sent then, reads the game then: a decision passed meanwhile sends nothing.
"""

from datetime import timedelta

from celery import signature
from django.conf import settings
from django.db import models
from django.utils import timezone

from accounts.models import Profile, profile_of
from accounts.selectors import account_of_address
from games.models import Game, Invitation, Seat
from outbox import services as outbox


def held_until(profile: Profile | None, *, deadline=None, now=None):
    """When an email to ``profile``'s player leaves: None, at once, or the end of the
    quiet night they are in (``Profile.morning_after``). An email asking them for a
    decision (its ``deadline``; a reminder too) leaves at once when that deadline
    falls before their morning: the game's clock never waits for anyone's night."""
    if profile is None:
        return None
    morning = profile.morning_after(now or timezone.now())
    if morning is None or (deadline is not None and deadline <= morning):
        return None
    return morning


def seat_profiles(seat_ids) -> dict[int, Profile | None]:
    """The profiles of the players of ``seat_ids``, read in one query (None for an
    account that has no profile yet, which has the defaults: no quiet nights)."""
    if not seat_ids:
        return {}
    profiles = Profile.objects.filter(user__seats__pk__in=list(seat_ids)).annotate(seat_id=models.F("user__seats__pk"))
    found = {profile.seat_id: profile for profile in profiles}
    return {seat_id: found.get(seat_id) for seat_id in seat_ids}


def _queue(task: str, *args, eta=None, key: str | None = None, **kwargs) -> None:
    """Queue the task registered as ``task`` with ``args`` and ``kwargs`` (``eta`` and
    ``key``: see ``outbox.services.send``)."""
    outbox.send(signature(task, args=args, kwargs=kwargs), eta=eta, key=key)


def invitation_created(invitation: Invitation) -> None:
    """An invitation to an account (a rematch's, or one that has the typed address)
    waits for the end of its player's night."""
    account = invitation.invited_account or account_of_address(invitation.email)
    eta = held_until(profile_of(account)) if account is not None else None
    _queue("games.tasks.send_invitation", invitation.pk, eta=eta)


def open_game_unfilled(game_id: int) -> None:
    """Offer the host of an open game that did not fill in time bots for its empty seats."""
    _queue("games.tasks.send_open_game_unfilled", game_id)


def open_game_cancelled(game: Game) -> None:
    """Tell the players of an open game that never started that it is cancelled."""
    _queue("games.tasks.send_open_game_cancelled", game.pk)


def games_advanced(updates: list) -> None:
    """Each ``(game, before)``: events ``before``..``game.version`` were appended;
    email the players. One message for them all, however many games."""
    _queue("games.tasks.games_advanced", [[game.pk, before, game.version] for game, before in updates])


def deadline_due(game: Game) -> None:
    """Expire ``game``'s deadline at its moment (the minute sweep is the fallback)."""
    _queue("games.tasks.expire_deadline", game.pk, game.version, eta=game.deadline_at)


def bot_called(game: Game, seat: Seat, version: int) -> None:
    """The bot playing ``seat`` answers its decision of ``version``, after the
    configured pause (``BOT_DELAY_SECONDS``), so a table of bots plays at a pace
    people can follow."""
    eta = timezone.now() + timedelta(seconds=settings.BOT_DELAY_SECONDS) if settings.BOT_DELAY_SECONDS else None
    _queue("games.tasks.bot_answer", game.pk, seat.pk, version, eta=eta)


def second_opinion_asked(opinion) -> None:
    """A worker weighs the second opinion a player asked for on the replay."""
    _queue("games.tasks.give_second_opinion", opinion.pk)


def stand_in_began(seat: Seat) -> None:
    """Tell ``seat``'s player that a bot plays for them until they are back."""
    _queue("games.tasks.send_stand_in", seat.pk, "began", eta=held_until(profile_of(seat.user)))


def stand_in_played(seat: Seat) -> None:
    """Tell ``seat``'s player that the bot answered a decision of theirs (the first time)."""
    _queue("games.tasks.send_stand_in", seat.pk, "played", eta=held_until(profile_of(seat.user)))


def decision_after_holiday(seat: Seat, version: int) -> None:
    """Ask ``seat``'s player, back from holiday, for their decision of ``version``."""
    _queue("games.tasks.send_decision_after_holiday", seat.pk, version)


def extension_granted(game: Game, seat: Seat) -> None:
    """Tell the table that ``seat``'s player took their extra time: those awake now
    in one task, each player in their quiet night at their morning."""
    by_moment: dict = {}
    for seat_id, profile in seat_profiles(game.seats.values_list("pk", flat=True)).items():
        by_moment.setdefault(held_until(profile), []).append(seat_id)
    for eta, seat_ids in by_moment.items():
        _queue("games.tasks.announce_extension", game.pk, seat.pk, to=sorted(seat_ids), eta=eta)


def reminder_moment(game: Game, *, at) -> None:
    """Remind ``game``'s awaited players at ``at`` (the minute sweep is the fallback)."""
    _queue("games.tasks.remind_game", game.pk, game.version, eta=at)


def reminders_due(game: Game, seat_ids) -> None:
    """Remind the players of ``seat_ids`` of ``game``'s decisions, each at once or,
    when the deadline leaves time, at the end of their quiet night."""
    for seat_id, profile in seat_profiles(seat_ids).items():
        eta = held_until(profile, deadline=game.deadline_at)
        _queue("games.tasks.send_reminder", seat_id, game.version, eta=eta)


def mail_test_requested(*, user) -> None:
    """``user`` asked for a test email, to see that mail reaches their address again."""
    _queue("games.tasks.send_mail_test", user.pk)


def data_export_requested(export) -> None:
    """A player asked for their data (``accounts.export``): a worker builds it."""
    _queue("games.tasks.build_data_export", export.pk)


def data_export_ready(export) -> None:
    """A player's data is ready: the email with its link."""
    _queue("games.tasks.send_data_export_ready", export.pk)


def deletion_code_requested(*, user, code: str) -> None:
    """The code that confirms deleting ``user``'s account, for one without a password."""
    _queue("games.tasks.send_deletion_code", user.pk, code)


def preferences_changed(*, user) -> None:
    """``user`` saved new preferences for a game kind (call it in the transaction
    that saved them): queue ``tasks.give_standing_answers``, unless one is queued
    that has not started, which will read them anyway. A thousand toggles make one task."""
    _queue("games.tasks.give_standing_answers", user.pk, key=preferences_key(user.pk))


def preferences_key(user_id: int) -> str:
    return f"standing-answers:{user_id}"


def reply_unclear(seat: Seat, *, line: str, problem: str, reading: str) -> None:
    """Tell ``seat``'s player that their reply ``line`` was not played, and why."""
    _queue("games.tasks.send_reply_unclear", seat.pk, line=line, problem=problem, reading=reading)


def seat_notified(*, seat: Seat, version: int) -> None:
    """``seat``'s player was emailed the game as of ``version``: the next email's
    news starts there."""
    seats_notified(seat_ids=[seat.pk], version=version)


def seats_notified(*, seat_ids: list[int], version: int) -> None:
    """The players of ``seat_ids`` were emailed the game as of ``version`` (one update
    for a batch of emails)."""
    if seat_ids:
        Seat.objects.filter(pk__in=seat_ids, notified_version__lt=version).update(notified_version=version)
