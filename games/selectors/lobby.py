"""Reading the lobby: the open games gathering players, a page at a time.

A page costs the same two queries however many games are open: one counts the
games the filters match, one reads the page's games with their hosts and the
seats taken (subqueries run for the page's rows only).
Both read ``OpenGame``, a narrow table holding the listed games alone, in the
order of its primary key.

Most readings find both in the cache instead, under the lobby's version: the
version changes whenever a game enters or leaves the lobby or a seat is taken or
freed, so a listing is never stale in what it offers; only a host's finish rate
may lag, by ``CACHE_SECONDS`` at most. The reader's own seats are read apart,
one small query.
"""

from uuid import uuid4

from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db import transaction
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce

from games.models import OpenGame, Seat, SeatResult

PER_PAGE = 20
CACHE_SECONDS = 60
VERSION_KEY = "lobby:version"


def open_games(
    *, kind: str = "", seat_count: int | None = None, turn_seconds: int | None = None, language: str = ""
) -> QuerySet[OpenGame]:
    """The open games that match the filters given, oldest first: the nearest to
    their host's deadline are the first to fill."""
    games = OpenGame.objects.all()
    if kind:
        games = games.filter(kind=kind)
    if seat_count is not None:
        games = games.filter(seat_count=seat_count)
    if turn_seconds is not None:
        games = games.filter(turn_seconds=turn_seconds)
    if language:
        games = games.filter(language=language)
    return games.order_by("game_id")


def lobby_changed() -> None:
    """The lobby's listings changed: pages read from now on are built afresh. Once
    now, and again at commit: a page read in between sees the rows as they were,
    and must not be kept under the new version."""
    _new_version()
    transaction.on_commit(_new_version)


def _new_version() -> None:
    cache.set(VERSION_KEY, uuid4().hex, None)


def _version() -> str:
    """The lobby's version; a new one when none is kept (any new one is fresh)."""
    version = cache.get(VERSION_KEY)
    if version is None:
        version = uuid4().hex
        cache.set(VERSION_KEY, version, None)
    return version


def lobby_page(filters: dict, *, page: str | None, reader) -> tuple[Page, list[OpenGame]]:
    """Page ``page`` of the open games matching ``filters`` (``open_games``' keyword
    arguments), and its games, each with its game and host, ``taken`` (seats taken),
    ``seated`` (whether ``reader``, None when signed out, has one) and the host's
    ``host_joined`` and ``host_abandoned`` finished games."""
    filters_key = ":".join(f"{name}={value}" for name, value in sorted(filters.items()))
    key = f"lobby:{_version()}:{filters_key}"
    count = cache.get(f"{key}:count")
    if count is None:
        count = open_games(**filters).count()
        cache.set(f"{key}:count", count, CACHE_SECONDS)
    found = Paginator(range(count), PER_PAGE).get_page(page)
    rows = cache.get(f"{key}:page:{found.number}")
    if rows is None:
        rows = _page_rows(open_games(**filters), found)
        cache.set(f"{key}:page:{found.number}", rows, CACHE_SECONDS)
    seated = set()
    if reader is not None and rows:
        ids = [row.game_id for row in rows]
        seated = set(Seat.objects.filter(user=reader, game_id__in=ids).order_by().values_list("game_id", flat=True))
    for row in rows:
        row.seated = row.game_id in seated
    return found, rows


def _page_rows(games: QuerySet[OpenGame], found: Page) -> list[OpenGame]:
    """The games of page ``found`` among ``games``, with what the lobby shows of them.
    The page is found among the ids alone, by a subquery on the narrow table's
    index, and only its rows are joined: a page deep in the list costs no more
    joins than the first."""
    first = (found.number - 1) * PER_PAGE
    ids = games.values_list("game_id", flat=True)[first : first + PER_PAGE]
    taken = Seat.objects.filter(game=OuterRef("game_id")).order_by().values("game").annotate(n=Count("pk")).values("n")
    # The host's reliability, beside their name: the finished games they joined, and
    # those they left (resigned, or to a stand-in bot).
    results = SeatResult.objects.filter(user=OuterRef("game__host_id")).order_by().values("user")
    joined = results.annotate(n=Count("pk")).values("n")
    abandoned = results.filter(abandoned=True).annotate(n=Count("pk")).values("n")
    rows = (
        OpenGame.objects.filter(game_id__in=ids)
        .select_related("game__host__profile")
        .annotate(
            taken=Subquery(taken, output_field=IntegerField()),
            host_joined=Coalesce(Subquery(joined, output_field=IntegerField()), 0),
            host_abandoned=Coalesce(Subquery(abandoned, output_field=IntegerField()), 0),
        )
        .order_by("game_id")
    )
    return list(rows)
