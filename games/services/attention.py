"""Games that need an operator: one game failing inside a loop over many (the
sweep, the reminders, emails, standing preferences) is set aside, not the loop."""

import logging
import traceback

from django.utils import timezone

from games.models import Game

log = logging.getLogger(__name__)


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
            f"\n{type(link).__name__} raised at:\n"
            + "".join(traceback.format_list(traceback.extract_tb(link.__traceback__)))
            for link in chain
        )
        log.error("Game %s needs attention (%s)%s", game_id, reason, where)
    else:
        log.warning("Game %s still needs attention (%s)", game_id, reason)
