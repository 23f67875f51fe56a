"""Every write to a game goes through here: views, emails and deadlines stay thin.

A decision is applied under a lock on the game row (``select_for_update``),
checked against the decision version the player saw, asked of the engine, and its
events appended in the same transaction. The tasks it calls for (emails, the next
deadline) are written in that transaction too, through the outbox
(``outbox/services.py``), and reach Celery once it commits, even when the broker
is down at that moment.
"""

import logging
import secrets
import traceback
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.mail import address_opt_out, mail_refused
from accounts.models import AddressOptOut, profile_of
from outbox import services as outbox

from . import tasks
from .engine import IllegalMove
from .kinds import KINDS
from .models import ChatMessage, Event, Game, Invitation, Seat, player_name
from .replays import rematch_of
from .results import game_results_record
from .selectors import game_state, player_names, seat_of
from .translation import translate_illegal_move

log = logging.getLogger(__name__)

CHAT_MAX_LENGTH = 1000
# Invitations are emails from our domain to addresses someone typed: enough to
# fill any game (and replace a few who decline), not enough to send spam.
INVITATIONS_PER_GAME = 20
INVITATIONS_PER_DAY = 30
PROMPT_EXPIRY_WITHIN = timedelta(minutes=30)


class ServiceError(Exception):
    """A request the service refuses; ``message`` is translated and safe to show."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class DecisionPassed(ServiceError):
    """The decision the player answered is no longer awaited (stale or lost a race)."""


# ---- gathering players ------------------------------------------------------------


def game_create(
    *,
    host,
    variants: list,
    seat_count: int,
    turn_seconds: int,
    response_seconds: int,
    reminders: bool = True,
    first: str = Game.First.RANDOM,
    first_faction: str = "loyalist",
    kind: str = "coup",
    first_user=None,
) -> Game:
    """A new game gathering players, ``host`` in the first seat. ``first`` says who
    starts; ``Game.First.PLAYER`` names ``first_user`` (a rematch's previous winner)."""
    engine = KINDS.get(kind)
    if engine is None:
        raise ServiceError(_("Unknown game."))
    _check(lambda: engine.check_config([player_name(i) for i in range(seat_count)], variants))
    if first not in Game.First.values or (first == Game.First.PLAYER) != (first_user is not None):
        raise ServiceError(_("Choose who starts."))
    if turn_seconds <= 0 or response_seconds <= 0:
        raise ServiceError(_("Choose a time control."))
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind,
            host=host,
            seat_count=seat_count,
            options={
                "variants": sorted(variants),
                "first": first,
                "first_faction": first_faction,
                **({"first_user": first_user.pk} if first_user is not None else {}),
            },
            turn_seconds=turn_seconds,
            response_seconds=response_seconds,
            reminders=reminders,
        )
        Seat.objects.create(game=game, user=host, position=0)
    return game


def invitation_send(*, game: Game, by, email: str) -> Invitation:
    """The host invites ``email`` to their gathering game, within the limits:
    ``INVITATIONS_PER_GAME`` per game, ``INVITATIONS_PER_DAY`` addresses per host
    in any 24 hours, never an address invited already or that asked for none."""
    email = email.strip()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)  # counts the game's invitations once
        get_user_model().objects.select_for_update().get(pk=by.pk)  # and the host's of the day
        if game.host_id != by.pk:
            raise ServiceError(_("Only the host can invite players."))
        if game.status != Game.Status.GATHERING:
            raise ServiceError(_("This game is no longer gathering players."))
        if mail_refused(email, invitation=True):
            raise ServiceError(_("%(email)s asked not to receive invitations.") % {"email": email})
        if game.invitations.filter(email__iexact=email, status=Invitation.Status.PENDING).exists():
            raise ServiceError(_("%(email)s is already invited to this game.") % {"email": email})
        _check_invitation_limits(game, by)
        invitation = Invitation.objects.create(game=game, email=email, invited_by=by)
    outbox.send(tasks.send_invitation.s(invitation.pk))
    return invitation


def _check_invitation_limits(game: Game, by) -> None:
    """Refuse one more invitation to a typed address when the game, or the host
    over the last 24 hours, has sent as many as allowed."""
    if game.invitations.count() >= INVITATIONS_PER_GAME:
        raise ServiceError(
            _("This game has sent %(count)d invitations, the most one game may send. Share its link instead.")
            % {"count": INVITATIONS_PER_GAME}
        )
    since = timezone.now() - timedelta(days=1)
    if Invitation.objects.filter(invited_by=by, created_at__gte=since).exclude(email="").count() >= INVITATIONS_PER_DAY:
        raise ServiceError(
            _("You have sent %(count)d invitations in the last 24 hours, the most we allow. Try again tomorrow.")
            % {"count": INVITATIONS_PER_DAY}
        )


def _invitation_to_account(*, game: Game, by, user) -> Invitation:
    """Invite ``user``'s account (a rematch): they accept or decline like any
    invitation, and nobody sees the address it is emailed to."""
    invitation = Invitation.objects.create(game=game, email="", user=user, invited_by=by)
    outbox.send(tasks.send_invitation.s(invitation.pk))
    return invitation


def invitation_respond(*, token: str, user, accept: bool) -> Seat | None:
    """Accept (take a seat; needs an account) or decline an invitation. Its link
    was sent to the address, so declining needs no account: whoever holds it may
    decline, and the address is then never invited again. A rematch's invitation
    is answered by the account it invites only."""
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().filter(token=token).first()
        if invitation is None:
            raise ServiceError(_("This invitation link is not valid."))
        if invitation.status != Invitation.Status.PENDING:
            raise ServiceError(_("This invitation has already been answered."))
        invited = invitation.invited_account
        if invited is not None and (user is None or user.pk != invited.pk):
            raise ServiceError(_("This invitation is for another player."))
        if accept and user is None:
            raise ServiceError(_("Sign in or create an account to accept."))
        invitation.status = Invitation.Status.ACCEPTED if accept else Invitation.Status.DECLINED
        invitation.user = user
        invitation.responded_at = timezone.now()
        invitation.save(update_fields=["status", "user", "responded_at"])
        if not accept and invited is None:
            # Whoever declines for an address speaks for it: nobody invites it again.
            address_opt_out(address=invitation.email, scope=AddressOptOut.Scope.INVITATIONS)
        return _take_seat(invitation.game, user) if accept else None


def seat_join(*, game: Game, user, join_token: str) -> Seat:
    if not secrets.compare_digest(join_token, game.join_token):
        raise ServiceError(_("This invitation link is not valid."))
    with transaction.atomic():
        return _take_seat(game, user)


def _take_seat(game: Game, user) -> Seat:
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.GATHERING:
        raise ServiceError(_("This game is no longer gathering players."))
    taken = set(game.seats.values_list("position", flat=True))
    if game.seats.filter(user=user).exists():
        raise ServiceError(_("You already have a seat at this game."))
    free = [position for position in range(game.seat_count) if position not in taken]
    if not free:
        raise ServiceError(_("This game is full."))
    return Seat.objects.create(game=game, user=user, position=free[0])


def seat_leave(*, game: Game, user) -> None:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.GATHERING:
            raise ServiceError(_("The game has started; resign instead."))
        if game.host_id == user.pk:
            raise ServiceError(_("The host cannot leave; cancel the game instead."))
        deleted, _rows = game.seats.filter(user=user).delete()
        if not deleted:
            raise ServiceError(_("You have no seat at this game."))


def game_cancel(*, game: Game, by) -> None:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.host_id != by.pk:
            raise ServiceError(_("Only the host can cancel the game."))
        if game.status != Game.Status.GATHERING:
            raise ServiceError(_("Only a game that has not started can be cancelled."))
        game.status = Game.Status.CANCELLED
        game.save(update_fields=["status"])


def game_start(*, game: Game, by) -> Game:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.host_id != by.pk:
            raise ServiceError(_("Only the host can start the game."))
        if game.status != Game.Status.GATHERING:
            raise ServiceError(_("This game has already started."))
        seats = list(game.seats.select_related("user__profile"))
        if len(seats) != game.seat_count:
            raise ServiceError(_("Wait until every seat is taken."))
        players = [seat.player for seat in seats]
        first = _first_player(game, seats)
        engine = KINDS[game.kind]
        events = _check(
            lambda: engine.setup(
                players=players,
                variants=game.variants,
                first=first,
                options=game.options,
            )
        )
        state = engine.new_state()
        for event in events:
            engine.apply(state, event)
        for seat in seats:
            events += _standing_answers(game, state, seat, changed=False)
        game.status = Game.Status.ACTIVE
        game.started_at = timezone.now()
        _append(game, state, events)
    return game


def _first_player(game: Game, seats: list) -> str:
    """Who starts: the host (seat 0), the chosen player (a rematch's previous
    winner), else someone at random (also when the chosen player took no seat)."""
    first = game.options.get("first")
    if first == Game.First.HOST:
        return seats[0].player
    if first == Game.First.PLAYER:
        chosen = next((seat for seat in seats if seat.user_id == game.options.get("first_user")), None)
        if chosen is not None:
            return chosen.player
    return secrets.choice([seat.player for seat in seats])


def game_rematch(*, game: Game, by) -> Game:
    """A new game for the players of the finished ``game``, with the same kind,
    variants, seats and time controls: ``by`` hosts it and invites the others'
    accounts (never showing an address), and the previous winner starts (docs/rules.md
    §1). Asked again (by anyone), it returns the rematch already made rather than
    a second one."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)  # one rematch, even when two ask at once
        if seat_of(game, by) is None:
            raise ServiceError(_("Only players of this game can ask for a rematch."))
        if game.status != Game.Status.FINISHED:
            raise ServiceError(_("A rematch can be asked for once the game is over."))
        existing = rematch_of(game)
        if existing is not None:
            return existing
        winner = game.seats.filter(user_id=game.winner_id).select_related("user").first() if game.winner_id else None
        rematch = game_create(
            host=by,
            kind=game.kind,
            variants=game.variants,
            seat_count=game.seat_count,
            turn_seconds=game.turn_seconds,
            response_seconds=game.response_seconds,
            reminders=game.reminders,
            first=Game.First.PLAYER if winner else Game.First.RANDOM,
            first_user=winner.user if winner else None,
            first_faction=game.options.get("first_faction", "loyalist"),
        )
        rematch.options["rematch_of"] = game.pk
        rematch.save(update_fields=["options"])
        for seat in game.seats.select_related("user").exclude(user=by):
            _invitation_to_account(game=rematch, by=by, user=seat.user)
    return rematch


# ---- playing ------------------------------------------------------------------------


def decision_submit(*, game: Game, user, command: dict, version: int) -> None:
    """``user`` answers their awaited decision, as they saw it at ``version``."""
    with transaction.atomic():
        game, seat, state = _locked_for_play(game, user)
        engine = KINDS[game.kind]
        awaited = {name: decision_version for name, _kind, decision_version in engine.awaiting(state)}
        if awaited.get(seat.player) != version:
            raise DecisionPassed(_("That decision has already passed; here is the game as it stands now."))
        command = {key: value for key, value in command.items() if key != "player"}
        events = _check(lambda: engine.play(state, seat.player, {**command, "version": version}), game)
        _append(game, state, events)


def deadline_expire(*, game: Game, version: int) -> bool:
    """The deadline of the decisions awaited at ``version`` has passed: apply their
    defaults. Returns False, changing nothing, when the game has moved on since,
    is paused, or its deadline was extended: so a late, duplicate or redelivered
    task is harmless, and a player's answer racing the expiry gives one outcome."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.ACTIVE or game.version != version:
            return False
        if game.deadline_at is None or game.deadline_at > timezone.now():
            return False
        engine = KINDS[game.kind]
        state = game_state(game)
        _append(game, state, engine.timeout(state))
    return True


def game_resign(*, game: Game, user) -> None:
    with transaction.atomic():
        game, seat, state = _locked_for_play(game, user)
        engine = KINDS[game.kind]
        _append(game, state, _check(lambda: engine.resign(state, seat.player), game))


def game_pause(*, game: Game, by) -> None:
    """The host stops the clock; nothing expires until the game is resumed."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.host_id != by.pk:
            raise ServiceError(_("Only the host can pause the game."))
        if game.status != Game.Status.ACTIVE or game.paused_remaining is not None:
            raise ServiceError(_("Only a running game can be paused."))
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
        _schedule_deadline(game)


def time_extend(*, game: Game, user) -> None:
    """A player who is awaited asks the table for more time: the current deadline
    moves by one more full period. Granted once per player per game."""
    with transaction.atomic():
        game, seat, state = _locked_for_play(game, user)
        if seat.extension_used:
            raise ServiceError(_("You have already had your extra time in this game."))
        if seat.player not in {name for name, _kind, _version in KINDS[game.kind].awaiting(state)}:
            raise ServiceError(_("The game is not waiting for you."))
        if game.deadline_at is None:
            raise ServiceError(_("The clock is paused."))
        seat.extension_used = True
        seat.save(update_fields=["extension_used"])
        game.deadline_at += timedelta(seconds=game.deadline_seconds)
        game.save(update_fields=["deadline_at"])
        _schedule_deadline(game)
        outbox.send(tasks.announce_extension.s(game.pk, seat.pk))


def standing_answers_changed(*, user) -> None:
    """``user`` saved new standing answers (call it in the transaction that saved
    the profile): queue ``tasks.give_standing_answers``, unless one is queued that
    has not started, which will read them anyway. A thousand toggles make one task."""
    outbox.send(tasks.give_standing_answers.s(user.pk), key=standing_answers_key(user.pk))


def standing_answers_key(user_id: int) -> str:
    return f"standing-answers:{user_id}"


def standing_answers_set(*, user) -> int:
    """Give ``user``'s standing answers (their profile) to the engine of each of
    their games in play, which answers at once any decision of theirs they cover.
    Returns how many games got them; a game that fails is set aside for attention."""
    games = Game.objects.filter(seats__user=user, status=Game.Status.ACTIVE)
    return sum(bool(game_isolated(game, "standing answers", _give_standing_answers, user=user)) for game in games)


def _give_standing_answers(*, game: Game, user) -> bool:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            return False
        seat = game.seats.select_related("user__profile").get(user=user)
        state = game_state(game)
        awaited = KINDS[game.kind].awaiting(state)
        events = _standing_answers(game, state, seat, changed=True)
        if events:
            _append_keeping_clock(game, state, events, awaited=awaited)
        return bool(events)


def chat_post(*, game: Game, user, text: str) -> ChatMessage:
    text = text.strip()
    if not text:
        raise ServiceError(_("Write something first."))
    if len(text) > CHAT_MAX_LENGTH:
        raise ServiceError(_("Keep table talk under %(count)d characters.") % {"count": CHAT_MAX_LENGTH})
    if seat_of(game, user) is None:
        raise ServiceError(_("Only players of this game can talk at its table."))
    return ChatMessage.objects.create(game=game, user=user, text=text)


# ---- games that need attention ---------------------------------------------------------


def game_isolated(game: Game, during: str, call, **arguments):
    """``call(game=game, **arguments)`` for one game of a loop over many (the
    sweep, the reminders, emails, standing answers): when it fails, the game is
    logged and marked for attention, None is returned, and the loop goes on."""
    try:
        return call(game=game, **arguments)
    except Exception as error:  # whatever broke, it must not stop the other games
        game_attention_mark(game_id=game.pk, during=during, error=error)
        return None


def game_attention_mark(*, game_id: int, during: str, error: BaseException | None = None) -> None:
    """Mark ``game_id`` for an operator (admin: Games, "needs attention") because it
    failed ``during`` something (``error``, when an exception says how), and log
    it: in full the first time, then one line each time it fails again. The first
    reason is kept until an operator clears it.

    The log names each exception's type and where it was raised, never its
    message: an error about a game's state may quote a face-down card."""
    chain = []
    while error is not None:
        chain.append(error)
        error = error.__cause__
    reason = (f"{during}: {' from '.join(type(link).__name__ for link in chain)}" if chain else during)[:200]
    if Game.objects.filter(pk=game_id, attention="").update(attention=reason, attention_at=timezone.now()):
        where = "".join(
            f"\n{type(link).__name__} raised at:\n" + "".join(traceback.format_list(traceback.extract_tb(link.__traceback__)))
            for link in chain
        )
        log.error("Game %s needs attention (%s)%s", game_id, reason, where)
    else:
        log.warning("Game %s still needs attention (%s)", game_id, reason)


# ---- internals ------------------------------------------------------------------------


def _locked_for_play(game: Game, user):
    """The game row locked for this transaction, the user's seat and the state."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.ACTIVE:
        raise ServiceError(_("This game is not in play."))
    seat = seat_of(game, user)
    if seat is None:
        raise ServiceError(_("You have no seat at this game."))
    return game, seat, game_state(game)


def _check(call, game: Game | None = None):
    """Run an engine call, turning a rules refusal into a translated ServiceError."""
    try:
        return call()
    except IllegalMove as error:
        names = player_names(game) if game is not None else {}
        raise ServiceError(translate_illegal_move(error, names)) from None


def _append(game: Game, state, events) -> None:
    """Append ``events`` (already applied to ``state``) to the locked ``game``,
    restart its clock, and after the commit tell the players."""
    engine = KINDS[game.kind]
    before = game.version
    Event.objects.bulk_create(
        Event(game=game, seq=game.version + index, type=event.type, payload=event.to_json())
        for index, event in enumerate(events)
    )
    game.version += len(events)
    game.snapshot = engine.dump(state)
    if engine.is_over(state):
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.deadline_at = game.paused_remaining = None
        # A shared win (Kobayakawa) names its first winner here; the per-seat
        # results give every winner first place.
        winners = engine.winners(state)
        winner = game.seats.filter(position=_position_of(winners[0])).first() if winners else None
        game.winner = winner.user if winner else None
        game_results_record(game=game)  # per-seat results for the dashboard, read once from the log
    else:
        game.deadline_seconds = _seconds_to_answer(game, state)
        deadline = timedelta(seconds=game.deadline_seconds)
        if game.paused_remaining is not None:
            game.paused_remaining = deadline
        else:
            game.deadline_at = timezone.now() + deadline
            _schedule_deadline(game)
    game.save()
    outbox.send(tasks.games_advanced.s([[game.pk, before, game.version]]))


def _standing_answers(game: Game, state, seat: Seat, *, changed: bool) -> list:
    """The events that give ``seat``'s standing answers (their profile) to the
    engine, already applied to ``state``. At the start only a player who has some
    needs them; a change (``changed``) is given even when it clears them."""
    profile = profile_of(seat.user)
    lose_first = list(profile.lose_first or [])
    if not changed and not (profile.always_prove or lose_first):
        return []
    engine = KINDS[game.kind]
    preferences = {"always_prove": profile.always_prove, "lose_first": lose_first}
    return _check(lambda: engine.set_preferences(state, seat.player, preferences), game)


def _append_keeping_clock(game: Game, state, events, *, awaited: list) -> None:
    """``_append``, but when the events answered nothing (the decisions
    ``awaited`` before them are still the ones awaited), the clock keeps running
    as it was: a change of preferences gives nobody more time, nor a second
    reminder."""
    kept = (game.deadline_at, game.deadline_seconds, game.paused_remaining, game.reminded_version, game.version)
    _append(game, state, events)
    if game.status != Game.Status.ACTIVE or KINDS[game.kind].awaiting(state) != awaited:
        return
    game.deadline_at, game.deadline_seconds, game.paused_remaining, reminded, version = kept
    if reminded == version:
        game.reminded_version = game.version  # already reminded of these decisions
    game.save(update_fields=["deadline_at", "deadline_seconds", "paused_remaining", "reminded_version"])
    if game.deadline_at is not None:
        _schedule_deadline(game)


def _schedule_deadline(game: Game) -> None:
    """Queue a task for the moment the deadline passes, when that is soon. Long
    deadlines are left to the minute sweep alone: a Redis broker redelivers tasks
    held longer than its visibility timeout, and a sweep needs no such care."""
    if game.deadline_at - timezone.now() <= PROMPT_EXPIRY_WITHIN:
        outbox.send(tasks.expire_deadline.s(game.pk, game.version), eta=game.deadline_at)


def _position_of(player: str) -> int:
    return int(player[1:]) - 1


def _seconds_to_answer(game: Game, state) -> int:
    """A player's own turn gets the turn time; every other decision the response time."""
    kinds = {kind for _player, kind, _version in KINDS[game.kind].awaiting(state)}
    return game.turn_seconds if "turn" in kinds else game.response_seconds
