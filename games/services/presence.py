"""Who has a game's page open: the page and each of its polls mark the player
present for a while, so that what the page shows them already waits for them
there before an email tells it (``games.tasks``).

Kept on the seat's row (``Seat.seen_at``), not in a cache: the web server that
marks it and the Celery worker that reads it are separate processes, and the
embedded default (no Redis) has no cache they share; every deployment has the
database. A poll writes the row only when the mark is getting old, so an open
page costs one small update every ``MARK_RENEWED_AFTER`` seconds, not one a poll."""

from datetime import timedelta

from django.utils import timezone

from games.models import Seat

# Longer than a poll's interval, even in a background tab whose timers a
# browser slows to once a minute.
PRESENT_FOR = timedelta(seconds=75)
# A mark younger than this is left as it is: the player stays present until well
# after the poll that would renew it.
MARK_RENEWED_AFTER = timedelta(seconds=20)


def seat_seen(*, seat: Seat) -> None:
    """``seat``'s player has the game's page open now (``seat`` as read with the
    page: its ``seen_at`` tells whether the mark needs renewing)."""
    now = timezone.now()
    if seat.seen_at is None or now - seat.seen_at >= MARK_RENEWED_AFTER:
        Seat.objects.filter(pk=seat.pk).update(seen_at=now)
        seat.seen_at = now


def seats_present(seat_ids) -> set[int]:
    """Those of ``seat_ids`` whose player had the game's page open lately (one query
    for them all)."""
    seat_ids = list(seat_ids)
    if not seat_ids:
        return set()
    present = Seat.objects.filter(pk__in=seat_ids, seen_at__gte=timezone.now() - PRESENT_FOR)
    return set(present.values_list("pk", flat=True))
