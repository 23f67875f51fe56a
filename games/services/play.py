"""Play: a player's decision, a resignation, a deadline's default answers, table
talk; and appending the engine's events to the log, the one way a game moves on.

A decision is applied under a lock on the game row (``select_for_update``),
checked against the decision version the player saw, asked of the engine, and its
events appended in the same transaction, with the tasks they call for
(``notifications``), which reach Celery once it commits.

Appending is prepared in memory (``events_prepare``, ``timeout_prepare``) and
written apart (``advances_write``, ``timeouts_write``), so that one click, one
deadline's task and a chunk of the minute sweep (``deadlines_sweep``) follow the
same rules and differ only in how many games they write at once.
"""

import json
from collections import defaultdict
from dataclasses import dataclass
from datetime import timedelta
from typing import NamedTuple

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from coupsite.rows import rows_insert, rows_update
from games.chain import events_chain
from games.engine.seats import seat_position
from games.kinds import KINDS
from games.models import ChatMessage, Event, Game, Seat, SeatChange
from games.selectors import game_state, seat_of
from games.services import clock, notifications
from games.services.attention import game_isolated
from games.services.errors import DecisionPassed, ServiceError, busy_database_refused, engine_call
from games.services.locks import locked_for_play, locked_table
from games.services.results import game_results_record
from ratings.services import game_rate

CHAT_MAX_LENGTH = 1000
# A bot stands in for a player after this many deadlines missed in a row, unless
# the host chose otherwise (0: never).
DEFAULT_TAKEOVER = 2
# Expired games taken per transaction by the sweep (``deadlines_sweep``).
SWEEP_CHUNK = 200


class Played(NamedTuple):
    """A game as a move left it: the row as updated under the lock, its seats, the
    engine state after the move and the events it appended (each with its ``seq``),
    enough to show the table without reading any of it again."""

    game: Game
    seats: list[Seat]
    state: object
    appended: list


def decision_submit(*, game: Game | int, user, command: dict, version: int) -> Played:
    """``user`` answers their awaited decision, as they saw it at ``version``. A
    player a bot stands in for is back by answering. ``game`` may be only its id
    (``locked_table``): a click reads the game once, under the lock; ``NotSeated``
    when the user has no seat at it."""
    with busy_database_refused(), transaction.atomic():
        game, seats, seat, state = locked_table(game, user)
        # Back before the answer: the history names them, not their bot, for it.
        returning = bool(seat.stand_in)
        if returning:
            seat_returned(game, seat)
        appended = decision_apply(game, seat, state, command, version, seats=seats)
        if not returning and seat.missed_deadlines:
            seat.missed_deadlines = 0
            seat.save(update_fields=["missed_deadlines"])
    return Played(game, seats, state, appended)


def decision_apply(game: Game, seat: Seat, state, command: dict, version: int, *, seats: list | None = None) -> list:
    """``seat`` answers its awaited decision of ``version`` (``game`` locked): a
    person's click or reply, or a bot's answer, alike. ``seats``: all of the
    game's seats, when the caller read them under the lock. Returns the events
    appended, as stored (``Advance.appended``)."""
    rules = KINDS[game.kind].rules
    awaited = {name: decision_version for name, _decision, decision_version in rules.awaiting(state)}
    if awaited.get(seat.player) != version:
        raise DecisionPassed(_("That decision has already passed; here is the game as it stands now."))
    command = {key: value for key, value in command.items() if key != "player"}
    events = engine_call(lambda: rules.play(state, seat.player, {**command, "version": version}), game)
    return events_append(game, state, events, seats=seats).appended


def seat_returned(game: Game, seat: Seat) -> None:
    """``seat``'s player is back (``game`` locked): the bot standing in leaves, and
    the history says so; bots already queued for the seat find it played by a person."""
    seat.stand_in, seat.stand_in_told, seat.missed_deadlines = "", False, 0
    seat.save(update_fields=["stand_in", "stand_in_told", "missed_deadlines"])
    SeatChange.objects.create(game=game, seat=seat, version=game.version, change=SeatChange.Change.BACK)
    seat.last_change = game.version  # as ``seats_of`` reads it, for the answer shown from these seats


def deadline_expire(*, game: Game, version: int) -> bool:
    """The deadline of the decisions awaited at ``version`` has passed: apply their
    defaults. Returns False, changing nothing, when the game has moved on since,
    is paused, or its deadline was extended: so a late, duplicate or redelivered
    task is harmless, and a player's answer racing the expiry gives one outcome."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.version != version or not _deadline_passed(game, timezone.now()):
            return False
        timeouts_write([timeout_prepare(game, list(game.seats.select_related("user__profile")))])
    return True


def deadlines_sweep(*, chunk: int = SWEEP_CHUNK, chunk_done=lambda: None) -> int:
    """Apply the defaults of every decision whose deadline passed before this
    call; returns how many games moved on. Games are taken ``chunk`` at a time,
    each chunk in a transaction of its own: locked with SKIP LOCKED, so sweeps
    running at once share the work and never take the same game (nor wait for a
    game a player is moving), its events inserted together, one message queueing
    the emails of all. A game whose expiry fails is rolled back alone (its own
    savepoint), marked for attention and not taken again by this sweep; the next
    one tries it again. ``chunk_done()`` is called after each chunk commits.

    SQLite has no row locks, but a transaction there holds the database's write
    lock from its start, so a chunk is never read stale."""
    now = timezone.now()
    set_aside: set[int] = set()
    swept = 0
    while True:
        with transaction.atomic():
            games = list(
                Game.objects.select_for_update(skip_locked=True)
                .filter(status=Game.Status.ACTIVE, deadline_at__lte=now)
                .exclude(pk__in=set_aside)
                .order_by("deadline_at")[:chunk]
            )
            if not games:
                return swept
            seats = defaultdict(list)
            for seat in Seat.objects.filter(game__in=games).select_related("user__profile"):
                seats[seat.game_id].append(seat)
            timeouts = []
            for game in games:
                timeout = game_isolated(game, "deadline", _timeout_savepointed, seats=seats[game.pk])
                if timeout is None:
                    set_aside.add(game.pk)
                else:
                    timeouts.append(timeout)
            timeouts_write(timeouts)
            swept += len(timeouts)
        chunk_done()


def _timeout_savepointed(*, game: Game, seats: list) -> "Timeout":
    """``timeout_prepare`` in a savepoint, so that a game failing undoes only its own writes."""
    with transaction.atomic():
        return timeout_prepare(game, seats)


def _deadline_passed(game: Game, now) -> bool:
    """The same test as the sweep's query, for a game locked by its id."""
    return game.status == Game.Status.ACTIVE and game.deadline_at is not None and game.deadline_at <= now


@dataclass
class Timeout:
    """A deadline applied to one locked game, ready to be written with others."""

    advance: "Advance"
    missed: list  # the seats whose players missed it


def timeout_prepare(game: Game, seats: list) -> Timeout:
    """Apply the default answers of the decisions ``game`` (locked, its deadline
    passed) awaits, with the deadlines missed by their players, in memory;
    ``seats`` are all of its seats, with their users' profiles."""
    rules = KINDS[game.kind].rules
    state = game_state(game)
    missed = {name for name, _decision, _version in rules.awaiting(state)}
    events = rules.timeout(state)
    # A bot taking a seat over does so once the default answers are played, before
    # the next turn they lead to: the history tells it right after the deadline
    # that caused it, and from then on names the bot for the seat's moves.
    turn_event = KINDS[game.kind].history.turn_event
    after = next((index for index, event in enumerate(events) if event.type == turn_event), len(events))
    takeover_at = game.version + after
    advance = events_prepare(game, state, events, seats=seats)
    return Timeout(advance=advance, missed=deadlines_missed(game, seats, missed, takeover_at))


def timeouts_write(timeouts: list[Timeout]) -> None:
    """Write prepared deadlines (``timeout_prepare``), their games still locked."""
    missed = [seat.pk for timeout in timeouts for seat in timeout.missed]
    if missed:
        Seat.objects.filter(pk__in=missed).update(missed_deadlines=F("missed_deadlines") + 1)
    advances_write([timeout.advance for timeout in timeouts])


def deadlines_missed(game: Game, seats: list, players: set, version: int) -> list[Seat]:
    """The people awaited as ``players`` let a deadline pass (``game`` locked):
    count it on their ``seats`` in memory and return those seats (the caller adds
    the one to their stored count), and hand the seats that reached the game's
    limit in a row to a bot, from ``version`` on."""
    limit = game.options.get("takeover", DEFAULT_TAKEOVER)
    missing = [seat for seat in seats if seat.player in players and not seat.bot_level]
    for seat in missing:
        seat.missed_deadlines += 1
        if limit and seat.missed_deadlines >= limit:
            stand_in_begin(game, seat, SeatChange.Change.MISSED, version)
    return missing


def stand_in_begin(game: Game, seat: Seat, change: str, version: int | None = None) -> None:
    """A bot plays ``seat`` (``game`` locked) until its player is back, from
    ``version`` on (the game's: now); they are told once, unless it plays while
    they are on holiday, which they know of, or for good since they left the site."""
    version = game.version if version is None else version
    away = change in (SeatChange.Change.AWAY, SeatChange.Change.LEFT)
    seat.stand_in = settings.BOT_STAND_IN_LEVEL
    seat.stand_in_told = away  # no email of what the bot played either
    seat.save(update_fields=["stand_in", "stand_in_told"])
    SeatChange.objects.create(game=game, seat=seat, version=version, change=change)
    seat.last_change = version  # as ``seats_of`` reads it, for the answer shown from these seats
    if not away:
        notifications.stand_in_began(seat)


def game_resign(*, game: Game, user) -> None:
    with busy_database_refused(), transaction.atomic():
        game, seat, state = locked_for_play(game, user)
        rules = KINDS[game.kind].rules
        events_append(game, state, engine_call(lambda: rules.resign(state, seat.player), game))


def chat_post(*, game: Game, user, text: str) -> ChatMessage:
    """Say ``text`` at ``game``'s table, as one of its players."""
    text = chat_text_checked(user, text)
    if seat_of(game, user) is None:
        raise ServiceError(_("Only players of this game can talk at its table."))
    return ChatMessage.objects.create(game=game, user=user, text=text)


def chat_text_checked(user, text: str) -> str:
    """``text`` stripped, once it is something, short enough, and ``user`` has not
    said too much in the last minute, in any chat (``CHAT_MESSAGES_PER_MINUTE``)."""
    text = text.strip()
    if not text:
        raise ServiceError(_("Write something first."))
    if len(text) > CHAT_MAX_LENGTH:
        raise ServiceError(_("Keep table talk under %(count)d characters.") % {"count": CHAT_MAX_LENGTH})
    recent = ChatMessage.objects.filter(user=user, created_at__gt=timezone.now() - timedelta(minutes=1))
    if recent.count() >= settings.CHAT_MESSAGES_PER_MINUTE:
        raise ServiceError(
            _("You are writing faster than %(count)d messages a minute: wait a moment, then send it again.")
            % {"count": settings.CHAT_MESSAGES_PER_MINUTE}
        )
    return text


def events_append(game: Game, state, events, *, changed: tuple = (), seats: list | None = None) -> "Advance":
    """Append ``events`` (already applied to ``state``) to the locked ``game``,
    restart its clock, and after the commit tell the players. ``changed``: other
    columns of ``game`` the caller set, written with it; ``seats``: all of its
    seats, when the caller read them under the lock."""
    advance = events_prepare(game, state, events, seats=seats)
    advance.fields += changed
    advances_write([advance])
    return advance


@dataclass
class Advance:
    """Events appended to one locked game, prepared in memory (``events_prepare``)
    and written with others (``advances_write``)."""

    game: Game
    before: int  # the game's version before the events
    rows: list  # the events' rows, not yet inserted
    fields: tuple  # the columns of the game the events changed
    awaiting: list  # the decisions awaited after them (none once the game is over)
    seats: list | None  # the game's seats with their users' profiles, when the caller has them

    @property
    def appended(self) -> list:
        """The events as the log gives them back once stored, each with its ``seq``
        (``games.history``): through JSON, as the database keeps them."""
        stored = json.loads(json.dumps([row.payload for row in self.rows]))
        return [{**payload, "seq": row.seq} for row, payload in zip(self.rows, stored, strict=True)]


def events_prepare(game: Game, state, events, *, seats: list | None = None) -> Advance:
    """``game`` (locked) after ``events`` (already applied to ``state``): its new
    version, snapshot and clock, or its end and results (the one write made here).
    Nothing else is written until ``advances_write``. A decision the events leave
    with one answer everyone can see (``Rules.forced``) is played here, with them,
    rather than asked."""
    rules = KINDS[game.kind].rules
    events = [*events, *rules.forced(state)]
    before = game.version
    rows = [
        Event(game=game, seq=before + index, type=event.type, payload=event.to_json())
        for index, event in enumerate(events)
    ]
    events_chain(game, rows)
    game.version += len(events)
    game.snapshot = rules.dump(state)
    if rules.is_over(state):
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        game.deadline_at = game.paused_remaining = None
        game.clock_held = False
        # A shared win (Kobayakawa) names its first winner here; the per-seat
        # results give every winner first place.
        winners = rules.winners(state)
        winner = game.seats.filter(position=seat_position(winners[0])).first() if winners else None
        game.winner = winner.user if winner else None
        results = game_results_record(game=game, appended=rows)  # per-seat results, read once from the log
        game_rate(game=game, results=results)  # a rated game moves its people's ratings
        return Advance(game, before, rows, FINISHED_FIELDS, [], seats)
    if seats is None:  # read once for the clock and the bots called (``_bots_called``)
        seats = list(game.seats.select_related("user__profile"))
    clock.clock_restart(game, state, seats)
    return Advance(game, before, rows, CLOCK_FIELDS, rules.awaiting(state), seats)


# The columns of a game that appending events changes (``events_prepare``):
# written alone, so that a mark for attention or a reminder's claim, made
# without the game's lock, is never overwritten.
CLOCK_FIELDS = ("version", "log_hash", "snapshot", "deadline_at", "deadline_seconds", "paused_remaining", "clock_held")
FINISHED_FIELDS = (
    "version",
    "log_hash",
    "snapshot",
    "status",
    "finished_at",
    "deadline_at",
    "paused_remaining",
    "clock_held",
    "winner",
    "moves",
)


def advances_write(advances: list[Advance]) -> None:
    """Write prepared events (``events_prepare``), their games still locked: all
    events in one insert, the changed columns of all games in one update for each
    set of columns (``rows_update``), one message for the emails of all, and a
    call to each bot now awaited."""
    if not advances:
        return
    rows_insert([row for advance in advances for row in advance.rows])
    games = defaultdict(list)  # by the columns changed
    for advance in advances:
        games[advance.fields].append(advance.game)
    for fields, changed in games.items():
        rows_update(changed, fields)
    notifications.games_advanced([(advance.game, advance.before) for advance in advances])
    for advance in advances:
        if advance.awaiting:
            _bots_called(advance)


def _bots_called(advance: Advance) -> None:
    """Queue an answer from each bot that plays a seat now awaited."""
    versions = {name: version for name, _kind, version in advance.awaiting}
    seats = advance.seats if advance.seats is not None else advance.game.seats.select_related("user__profile")
    for seat in seats:
        if seat.player in versions and seat.bot_level:
            notifications.bot_called(advance.game, seat, versions[seat.player])


def events_append_keeping_clock(game: Game, state, events, *, awaited: list) -> None:
    """``events_append``, but when the events answered nothing (the decisions
    ``awaited`` before them are still the ones awaited), the clock keeps running
    as it was: a change of preferences gives nobody more time, nor a second
    reminder."""
    kept = (
        game.deadline_at,
        game.deadline_seconds,
        game.paused_remaining,
        game.clock_held,
        game.reminded_version,
        game.version,
    )
    events_append(game, state, events)
    if game.status != Game.Status.ACTIVE or KINDS[game.kind].rules.awaiting(state) != awaited:
        return
    game.deadline_at, game.deadline_seconds, game.paused_remaining, game.clock_held, reminded, version = kept
    if reminded == version:
        game.reminded_version = game.version  # already reminded of these decisions
    game.save(update_fields=["deadline_at", "deadline_seconds", "paused_remaining", "clock_held", "reminded_version"])
    if game.deadline_at is not None:
        clock.schedule_deadline(game)
