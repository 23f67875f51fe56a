"""Reading the lobby: the open games still gathering players, a page at a time.

A page costs the same few queries however many games are open: one counts the
games the filters match, one reads the page's games with their terms, hosts and
the seats taken (a subquery per row of the page only), and whether the reader
sits at each.
"""

from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, IntegerField, OuterRef, QuerySet, Subquery, Value

from games.models import Game, Seat

PER_PAGE = 20


def open_games(*, kind: str = "", seat_count: int | None = None, turn_seconds: int | None = None, language: str = ""):
    """The open games gathering players that match the filters given, oldest
    first: the nearest to their host's deadline are the first to fill."""
    games = Game.objects.filter(status=Game.Status.GATHERING, open_game__isnull=False)
    if kind:
        games = games.filter(kind=kind)
    if seat_count is not None:
        games = games.filter(seat_count=seat_count)
    if turn_seconds is not None:
        games = games.filter(turn_seconds=turn_seconds)
    if language:
        games = games.filter(open_game__language=language)
    return games.order_by("created_at", "pk")


def lobby_page(games: QuerySet, *, page: str | None, reader) -> Page:
    """Page ``page`` of ``games`` (``open_games``), each with ``taken`` (seats
    taken) and ``seated`` (whether ``reader``, None when signed out, has one)."""
    taken = Seat.objects.filter(game=OuterRef("pk")).order_by().values("game").annotate(n=Count("pk")).values("n")
    seated = Exists(Seat.objects.filter(game=OuterRef("pk"), user=reader)) if reader is not None else Value(False)
    rows = games.select_related("open_game", "host__profile").annotate(
        taken=Subquery(taken, output_field=IntegerField()), seated=seated
    )
    return Paginator(rows, PER_PAGE).get_page(page)
