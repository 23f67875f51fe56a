"""Who has a game's page open: the page and each of its polls mark the player
present for a while, so that a decision asked of them waits for them there
before its email goes out (``games.tasks``). Kept in the shared cache: a
player's presence is soon stale, and losing it only sends an email sooner."""

from django.core.cache import cache

from ..models import Seat

# Longer than a poll's interval, even in a background tab whose timers a
# browser slows to once a minute.
PRESENT_FOR_SECONDS = 75


def seat_seen(*, seat: Seat) -> None:
    """``seat``'s player has the game's page open now."""
    cache.set(_key(seat.pk), True, PRESENT_FOR_SECONDS)


def seat_present(seat_id: int) -> bool:
    """Whether the player of the seat ``seat_id`` had the game's page open lately."""
    return bool(cache.get(_key(seat_id)))


def _key(seat_id: int) -> str:
    return f"games.presence:{seat_id}"
