"""Computer players at the table: a bot seated in the waiting room, a practice game
against bots, a bot standing in for a player who is away (``play.deadlines_missed``
hands a seat over after missed deadlines; here a player asks for it, or says they
are back), and a bot's answer.

A bot answers through the same door as a click (``play.decision_apply``), from a
Celery task queued after the commit (``notifications.bot_called``), never inside a
web request: the game row locked and the decision's version checked, so a bot
racing its returning player or a deadline gives one outcome. It decides from its
seat's knowledge only: the game's events as that seat may see them, folded
(``GameKind.bots.knowledge``), checked against the seat's view.
"""

import random

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from games.bots import Budget, decide
from games.engine.events import Event as EngineEvent
from games.kinds import DEFAULT_KIND, KINDS
from games.models import Game, Seat, SeatChange
from games.selectors import game_state
from games.services import notifications
from games.services.clock import clock_hold_check
from games.services.errors import DecisionPassed, ServiceError
from games.services.gathering import bot_take_seat, game_create, game_start
from games.services.locks import locked_table
from games.services.play import decision_apply, seat_returned, stand_in_begin

# The levels a table can seat: the arena's baseline ("default") and the adapter of
# an outside AI ("treason", an optional package) are for measuring bots, not for play.
SEATED_LEVELS = ("easy", "strong")
# A practice game's time controls: a day, the bots answer within seconds anyway.
PRACTICE_SECONDS = 24 * 3600


def bot_seat(*, game: Game, by, level: str) -> Seat:
    """The host seats a bot of ``level`` in the waiting room."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.host_id != by.pk:
            raise ServiceError(_("Only the host can seat a bot."))
        _check_level(locked.kind, level)
        return bot_take_seat(locked, level)


def practice_start(*, host, kind: str = DEFAULT_KIND, seat_count: int, level: str, variants=()) -> Game:
    """A game of ``host`` against ``seat_count - 1`` bots of ``level``, started."""
    _check_level(kind, level)
    with transaction.atomic():
        game = game_create(
            host=host,
            kind=kind,
            variants=list(variants),
            seat_count=seat_count,
            turn_seconds=PRACTICE_SECONDS,
            response_seconds=PRACTICE_SECONDS,
            reminders=False,
        )
        for _seat in range(seat_count - 1):
            bot_seat(game=game, by=host, level=level)
        return game_start(game=game, by=host)


def _check_level(kind: str, level: str) -> None:
    if kind not in KINDS or level not in SEATED_LEVELS or level not in KINDS[kind].bots.levels:
        raise ServiceError(_("There is no bot of that level for this game."))


def stand_in_ask(*, game: Game, user) -> None:
    """ "Play for me until I'm back": a bot plays ``user``'s seat (and a clock held
    for them while away runs again: the bot answers)."""
    with transaction.atomic():
        game, seats, seat, state = locked_table(game, user)
        if seat.stand_in:
            raise ServiceError(_("A bot already plays for you."))
        stand_in_begin(game, seat, SeatChange.Change.ASKED)
        clock_hold_check(game, state, seats)
        awaiting = {name: version for name, _decision, version in KINDS[game.kind].rules.awaiting(state)}
        if seat.player in awaiting:
            notifications.bot_called(game, seat, awaiting[seat.player])


def stand_in_end(*, game: Game, user) -> None:
    """ "I'm back": ``user`` plays their seat again (while on holiday, its clock
    then waits for them)."""
    with transaction.atomic():
        game, seats, seat, state = locked_table(game, user)
        if not seat.stand_in:
            raise ServiceError(_("No bot plays for you."))
        seat_returned(game, seat)
        clock_hold_check(game, state, seats)


def bot_answer(*, game: Game, seat_id: int, version: int) -> None:
    """The bot playing seat ``seat_id`` answers its decision of ``version``. Raises
    ``ServiceError`` when the game is not in play, ``DecisionPassed`` when the
    decision was answered (by its returning player, a deadline, an earlier run of
    this task) or a person plays the seat now."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            raise ServiceError(_("This game is not in play; a bot has nothing to answer."))
        seat = Seat.objects.select_related("user__profile").get(pk=seat_id, game=game)
        level = seat.bot_level
        if not level:
            raise DecisionPassed(_("A person plays this seat now."))
        state = game_state(game)
        game_kind = KINDS[game.kind]
        if {name: v for name, _decision, v in game_kind.rules.awaiting(state)}.get(seat.player) != version:
            raise DecisionPassed(_("That decision has already passed; here is the game as it stands now."))
        knowledge = game_kind.bots.knowledge(seat.player)
        knowledge.observe_events(
            EngineEvent.from_json(payload) for payload in game.events.order_by("seq").values_list("payload", flat=True)
        )
        thinking = random.Random(f"{game.pk}:{seat.pk}:{version}")
        budget = Budget(seconds=settings.BOT_BUDGET_SECONDS)
        answer = decide(
            game_kind.bots.bot(level), knowledge, game_kind.rules.view(state, seat.player), thinking, budget
        )
        decision_apply(game, seat, state, answer, version)
        if seat.stand_in and not seat.stand_in_told:
            Seat.objects.filter(pk=seat.pk).update(stand_in_told=True)
            notifications.stand_in_played(seat)
