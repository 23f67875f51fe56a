"""What a service refuses, said so that a page or an email may show it."""

from contextlib import contextmanager

from django.db import OperationalError
from django.utils.translation import gettext as _

from games.engine import IllegalMove
from games.models import Game
from games.selectors import player_names
from games.translation import translate_illegal_move


class ServiceError(Exception):
    """A request the service refuses; ``message`` is translated and safe to show."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotSeated(ServiceError):
    """The user has no seat at the game (or there is no such game): a page answers
    as for a game that does not exist."""


class DecisionPassed(ServiceError):
    """The decision the player answered is no longer awaited (stale or lost a race)."""


def engine_call(call, game: Game | None = None):
    """Run an engine call, turning a rules refusal into a translated ServiceError."""
    try:
        return call()
    except IllegalMove as error:
        names = player_names(game) if game is not None else {}
        raise ServiceError(translate_illegal_move(error, names)) from None


@contextmanager
def busy_database_refused():
    """A write the database could not take in time (SQLite still locked after its
    busy timeout) is refused with a message, its transaction rolled back: the
    player is told to try again rather than shown an error page."""
    try:
        yield
    except OperationalError as error:
        if "locked" not in str(error) and "busy" not in str(error):
            raise
        raise ServiceError(_("The table was busy and your answer was not played: please answer again.")) from None
