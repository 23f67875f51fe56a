"""Play: a player's decision, a resignation, a deadline's default answers, table
talk; and appending the engine's events to the log, the one way a game moves on.

A decision is applied under a lock on the game row (``select_for_update``),
checked against the decision version the player saw, asked of the engine, and its
events appended in the same transaction, with the tasks they call for
(``notifications``), which reach Celery once it commits.
"""

from typing import NamedTuple

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..engine.seats import seat_position
from ..kinds import KINDS
from ..models import ChatMessage, Event, Game, Seat, SeatChange
from ..selectors import game_state, seat_of
from . import clock, notifications
from .errors import DecisionPassed, ServiceError, busy_database_refused, engine_call
from .locks import locked_for_play, locked_table
from .results import game_results_record

CHAT_MAX_LENGTH = 1000
# A bot stands in for a player after this many deadlines missed in a row, unless
# the host chose otherwise (0: never).
DEFAULT_TAKEOVER = 2


class Played(NamedTuple):
    """A game as a move left it: the row as updated under the lock, its seats and
    the engine state after the move, enough to show the table without reading it again."""

    game: Game
    seats: list[Seat]
    state: object


def decision_submit(*, game: Game, user, command: dict, version: int) -> Played:
    """``user`` answers their awaited decision, as they saw it at ``version``. A
    player a bot stands in for is back by answering."""
    with busy_database_refused(), transaction.atomic():
        game, seats, seat, state = locked_table(game, user)
        decision_apply(game, seat, state, command, version)
        if seat.stand_in:
            seat_returned(game, seat)
        elif seat.missed_deadlines:
            seat.missed_deadlines = 0
            seat.save(update_fields=["missed_deadlines"])
    return Played(game, seats, state)


def decision_apply(game: Game, seat: Seat, state, command: dict, version: int) -> None:
    """``seat`` answers its awaited decision of ``version`` (``game`` locked): a
    person's click or reply, or a bot's answer, alike."""
    engine = KINDS[game.kind]
    awaited = {name: decision_version for name, _kind, decision_version in engine.awaiting(state)}
    if awaited.get(seat.player) != version:
        raise DecisionPassed(_("That decision has already passed; here is the game as it stands now."))
    command = {key: value for key, value in command.items() if key != "player"}
    events = engine_call(lambda: engine.play(state, seat.player, {**command, "version": version}), game)
    events_append(game, state, events)


def seat_returned(game: Game, seat: Seat) -> None:
    """``seat``'s player is back (``game`` locked): the bot standing in leaves, and
    the history says so; bots already queued for the seat find it played by a person."""
    seat.stand_in, seat.stand_in_told, seat.missed_deadlines = "", False, 0
    seat.save(update_fields=["stand_in", "stand_in_told", "missed_deadlines"])
    SeatChange.objects.create(game=game, seat=seat, version=game.version, change=SeatChange.Change.BACK)


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
        missed = {name for name, _kind, _version in engine.awaiting(state)}
        events = engine.timeout(state)
        deadlines_missed(game, missed)
        events_append(game, state, events)
    return True


def deadlines_missed(game: Game, players: set) -> None:
    """The people awaited by ``players`` let a deadline pass (``game`` locked): count
    it, and hand the seats that reached the game's limit in a row to a bot."""
    limit = game.options.get("takeover", DEFAULT_TAKEOVER)
    for seat in game.seats.select_related("user__profile"):
        if seat.player not in players or seat.bot_level:
            continue
        seat.missed_deadlines += 1
        seat.save(update_fields=["missed_deadlines"])
        if limit and seat.missed_deadlines >= limit:
            stand_in_begin(game, seat, SeatChange.Change.MISSED)


def stand_in_begin(game: Game, seat: Seat, change: str) -> None:
    """A bot plays ``seat`` (``game`` locked) until its player is back; they are told once."""
    seat.stand_in = settings.BOT_STAND_IN_LEVEL
    seat.stand_in_told = False
    seat.save(update_fields=["stand_in", "stand_in_told"])
    SeatChange.objects.create(game=game, seat=seat, version=game.version, change=change)
    notifications.stand_in_began(seat)


def game_resign(*, game: Game, user) -> None:
    with busy_database_refused(), transaction.atomic():
        game, seat, state = locked_for_play(game, user)
        engine = KINDS[game.kind]
        events_append(game, state, engine_call(lambda: engine.resign(state, seat.player), game))


def chat_post(*, game: Game, user, text: str) -> ChatMessage:
    text = text.strip()
    if not text:
        raise ServiceError(_("Write something first."))
    if len(text) > CHAT_MAX_LENGTH:
        raise ServiceError(_("Keep table talk under %(count)d characters.") % {"count": CHAT_MAX_LENGTH})
    if seat_of(game, user) is None:
        raise ServiceError(_("Only players of this game can talk at its table."))
    return ChatMessage.objects.create(game=game, user=user, text=text)


def events_append(game: Game, state, events) -> None:
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
        winner = game.seats.filter(position=seat_position(winners[0])).first() if winners else None
        game.winner = winner.user if winner else None
        game_results_record(game=game)  # per-seat results for the dashboard, read once from the log
    else:
        clock.clock_restart(game, state)
    game.save()
    notifications.game_advanced(game, before=before)
    if game.status == Game.Status.ACTIVE:
        _bots_called(game, engine.awaiting(state))


def _bots_called(game: Game, awaiting: list) -> None:
    """Queue an answer from each bot that plays a seat now awaited."""
    versions = {name: version for name, _kind, version in awaiting}
    for seat in game.seats.select_related("user__profile"):
        if seat.player in versions and seat.bot_level:
            notifications.bot_called(game, seat, versions[seat.player])


def events_append_keeping_clock(game: Game, state, events, *, awaited: list) -> None:
    """``events_append``, but when the events answered nothing (the decisions
    ``awaited`` before them are still the ones awaited), the clock keeps running
    as it was: a change of preferences gives nobody more time, nor a second
    reminder."""
    kept = (game.deadline_at, game.deadline_seconds, game.paused_remaining, game.reminded_version, game.version)
    events_append(game, state, events)
    if game.status != Game.Status.ACTIVE or KINDS[game.kind].awaiting(state) != awaited:
        return
    game.deadline_at, game.deadline_seconds, game.paused_remaining, reminded, version = kept
    if reminded == version:
        game.reminded_version = game.version  # already reminded of these decisions
    game.save(update_fields=["deadline_at", "deadline_seconds", "paused_remaining", "reminded_version"])
    if game.deadline_at is not None:
        clock.schedule_deadline(game)
