"""The lock every move of a player takes first."""

from django.utils.translation import gettext as _

from accounts.models import profile_of
from games.engine.common import GameState
from games.models import Game, Seat
from games.selectors import game_state, seat_of, seats_of
from games.services.errors import NotSeated, ServiceError


def locked_for_play(game: Game, user) -> tuple[Game, Seat, GameState]:
    """The game row locked for this transaction (call inside one), the user's
    seat and the state; refused when the game is not in play or has no seat of theirs."""
    game, _seats, seat, state = locked_table(game, user)
    return game, seat, state


def locked_table(game: Game | int, user) -> tuple[Game, list[Seat], Seat, GameState]:
    """``locked_for_play`` with every seat of the game too (``seats_of``), read under
    the lock: for a move whose answer shows the table as the move left it. ``game``
    may be only its id, for a caller that has not read it: the lock is then the one
    read. Whether the user has a seat is checked first (``NotSeated``), so that
    nothing else of the game is told to anyone else."""
    try:
        game = Game.objects.select_for_update().get(pk=game if isinstance(game, int) else game.pk)
    except Game.DoesNotExist:
        raise NotSeated(_("You have no seat at this game.")) from None
    seats = seats_of(game)
    seat = seat_of(game, user, seats)
    if seat is None:
        raise NotSeated(_("You have no seat at this game."))
    if profile_of(seat.user).former_number is not None:
        # Links emailed before its player deleted their account play for nobody.
        raise NotSeated(_("This seat's player deleted their account: nobody may play it for them."))
    if game.status != Game.Status.ACTIVE:
        raise ServiceError(_("This game is not in play."))
    return game, seats, seat, game_state(game)
