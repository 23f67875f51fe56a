"""Who has a game's page open: the page and each of its polls mark the player
present for a while, so that a decision asked of them waits for them there
before its email goes out (``games.tasks``). Kept in the shared cache: a
player's presence is soon stale, and losing it only sends an email sooner."""

from django.core.cache import cache

from games.models import Seat

# Longer than a poll's interval, even in a background tab whose timers a
# browser slows to once a minute.
PRESENT_FOR_SECONDS = 75


def seat_seen(*, seat: Seat) -> None:
    """``seat``'s player has the game's page open now."""
    cache.set(_key(seat.pk), True, PRESENT_FOR_SECONDS)


def seats_present(seat_ids) -> set[int]:
    """Those of ``seat_ids`` whose player had the game's page open lately (one read
    of the cache for them all)."""
    keys = {_key(seat_id): seat_id for seat_id in seat_ids}
    return {keys[key] for key, present in cache.get_many(keys).items() if present}


def _key(seat_id: int) -> str:
    return f"games.presence:{seat_id}"
