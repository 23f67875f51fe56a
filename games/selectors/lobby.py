"""Reading the lobby: the open games gathering players, a page at a time.

A page costs the same two queries however many games are open: one counts the
games the filters match, one reads the page's games with their hosts, the seats
taken and whether the reader has one (subqueries run for the page's rows only).
Both read ``OpenGame``, a narrow table holding the listed games alone, in the
order of its primary key.
"""

from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce

from games.models import OpenGame, Seat, SeatResult

PER_PAGE = 20


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


def lobby_page(games: QuerySet[OpenGame], *, page: str | None, reader) -> tuple[Page, list[OpenGame]]:
    """Page ``page`` of ``games`` (``open_games``), and its games, each with its
    game and host, ``taken`` (seats taken), ``seated`` (whether ``reader``, None
    when signed out, has one) and the host's ``host_joined`` and ``host_abandoned``
    finished games. The page is found among the ids alone, by a
    subquery on the narrow table's index, and only its rows are joined: a page
    deep in the list costs no more joins than the first."""
    found = Paginator(games.values_list("game_id", flat=True), PER_PAGE).get_page(page)
    taken = Seat.objects.filter(game=OuterRef("game_id")).order_by().values("game").annotate(n=Count("pk")).values("n")
    seated = Exists(Seat.objects.filter(game=OuterRef("game_id"), user=reader)) if reader is not None else Value(False)
    # The host's reliability, beside their name: the finished games they joined, and
    # those they left (resigned, or to a stand-in bot).
    results = SeatResult.objects.filter(user=OuterRef("game__host_id")).order_by().values("user")
    joined = results.annotate(n=Count("pk")).values("n")
    abandoned = results.filter(abandoned=True).annotate(n=Count("pk")).values("n")
    rows = (
        OpenGame.objects.filter(game_id__in=found.object_list)
        .select_related("game__host__profile")
        .annotate(
            taken=Subquery(taken, output_field=IntegerField()),
            seated=seated,
            host_joined=Coalesce(Subquery(joined, output_field=IntegerField()), 0),
            host_abandoned=Coalesce(Subquery(abandoned, output_field=IntegerField()), 0),
        )
        .order_by("game_id")
    )
    return found, list(rows)
