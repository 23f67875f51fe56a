"""What the pages read of the ratings: a kind's leaderboard, a player's public
page, their reliability, the rating history chart of the statistics page, and
the "+23, now 1,612" of a rated game in the dashboard.

Every read is a fixed number of queries whatever the number of players or games
(``tests/ratings/test_pages.py`` counts them at two sizes): the leaderboard reads
its top rows from one index in order (``Rating``'s ``rating_leaderboard``) and
counts the reader's place on the same index.

Names on these public pages are the players' display names; a player who has
none is "Player 12" here, never the start of their address, which only the
people at their own tables see.
"""

from django.contrib.auth import get_user_model
from django.db.models import Count, Q, Sum
from django.urls import reverse
from django.utils.formats import get_format
from django.utils.translation import gettext as _

from games.kinds import KINDS
from games.models import Game, SeatResult
from ratings.models import Rating, RatingChange
from ratings.skill import ESTABLISHED

LEADERBOARD_SIZE = 100
HISTORY_POINTS = 40  # the latest rated games drawn in a kind's history chart
# The history chart's drawing area, in the units of its viewBox (templates/ratings/_history.html).
CHART_WIDTH, CHART_TOP, CHART_BOTTOM = 280, 10, 110


def public_name(user) -> str:
    """How a player is named on the public pages (see the module): ``user`` with
    its profile read."""
    profile = getattr(user, "profile", None)
    return named(user.pk, profile.display_name if profile is not None else "")


def named(user_id: int, display_name: str) -> str:
    return display_name or _("Player %(number)d") % {"number": user_id}


def rating_text(shown: int, separator: str | None = None) -> str:
    """A rating as the reader's language writes a number: "1,612", "1.612" (every
    language of the site groups digits by three). ``separator``: the language's,
    when the caller writes many ratings and looked it up once."""
    if separator is None:
        separator = get_format("THOUSAND_SEPARATOR")
    return f"{shown:,}".replace(",", separator)


def rating_change_text(before: int, after: int) -> str:
    """ "+23, now 1,612": a rated game's change to a player's rating."""
    change = after - before
    signed = f"+{change}" if change > 0 else (f"−{-change}" if change < 0 else "±0")
    return _("%(change)s, now %(rating)s") % {"change": signed, "rating": rating_text(after)}


def established(kind: str):
    return Rating.objects.filter(kind=kind, games__gte=ESTABLISHED)


def leaderboard(kind: str, reader) -> dict:
    """The ``LEADERBOARD_SIZE`` best established players of ``kind`` (a key of
    ``KINDS``), and where ``reader`` (signed in or not) stands: three queries
    (two for a reader signed out)."""
    board = established(kind)
    # Plain values rather than rows with their users and profiles: a hundred of
    # each would cost more to build than the query.
    top = board.order_by("-shown", "user_id").values_list("user_id", "shown", "games", "user__profile__display_name")
    # A hundred rows are written with one look-up of the separator and of the
    # players' address, not a hundred of each (they cost more than the query).
    separator = get_format("THOUSAND_SEPARATOR")
    player_url = reverse("player", args=[0]).removesuffix("0/")
    rows = [
        {
            "place": place,
            "name": named(user_id, display_name),
            "url": f"{player_url}{user_id}/",
            "rating": rating_text(shown, separator),
            "games": games,
            "you": user_id == reader.pk,
        }
        for place, (user_id, shown, games, display_name) in enumerate(top[:LEADERBOARD_SIZE], start=1)
    ]
    mine = _readers_rating(kind, reader)
    # The number of players and, for an established reader, how many are ahead of
    # them: one pass over the board for both.
    counts = {"players": Count("pk")}
    if mine is not None and not mine.provisional:
        counts["ahead"] = Count("pk", filter=Q(shown__gt=mine.shown) | Q(shown=mine.shown, user_id__lt=mine.user_id))
    counted = board.aggregate(**counts)
    return {
        "kind": kind,
        "name": KINDS[kind].name,
        "kinds": [{"kind": key, "name": game_kind.name} for key, game_kind in KINDS.items()],
        "rows": rows,
        "players": counted["players"],
        "mine": _readers_place(mine, counted.get("ahead", 0) + 1) if mine else None,
        "established": ESTABLISHED,
        "size": LEADERBOARD_SIZE,
    }


def _readers_rating(kind: str, reader) -> Rating | None:
    """The reader's rating at ``kind``: None when signed out or never rated there."""
    if not reader.is_authenticated:
        return None
    return Rating.objects.filter(kind=kind, user=reader).first()


def _readers_place(rating: Rating, place: int) -> dict:
    """The reader's own line above the board: their rating and place, or how many
    rated games they still need to join it."""
    mine = {"rating": rating_text(rating.shown), "games": rating.games, "provisional": rating.provisional}
    if rating.provisional:
        return {**mine, "place": None, "games_left": ESTABLISHED - rating.games}
    return {**mine, "place": place}


def public_player(user_id: int):
    """The person whose public page is asked for, with their profile; None for an
    unknown id, a bot or a closed account."""
    return (
        get_user_model()
        .objects.select_related("profile")
        .filter(pk=user_id, is_active=True)
        .exclude(profile__bot_level__gt="")
        .first()
    )


def reliability(user) -> dict:
    """How reliably ``user`` plays: of the finished games they joined, the share
    they finished themselves (neither resigning nor left to a stand-in bot at the
    end), and the decisions they let the clock answer. One query."""
    counted = SeatResult.objects.filter(user=user).aggregate(
        joined=Count("pk"),
        abandoned=Count("pk", filter=Q(abandoned=True)),
        missed=Sum("deadlines_missed", default=0),
    )
    joined = counted["joined"]
    return {
        "joined": joined,
        "finished": joined - counted["abandoned"],
        "finish_rate": finish_rate(joined, counted["abandoned"]),
        "deadlines_missed": counted["missed"],
    }


def finish_rate(joined: int, abandoned: int) -> int | None:
    """The percentage of the ``joined`` finished games a player played to the end
    themselves (None: none finished yet)."""
    return round(100 * (joined - abandoned) / joined) if joined else None


def player_page(user) -> dict:
    """A person's public page: their name, their rating at each game with their
    place, games played, reliability and latest public games; never their address. Four queries and
    one per game kind they are established at."""
    ratings = []
    for rating in Rating.objects.filter(user=user).order_by("kind"):
        if rating.kind not in KINDS:
            continue
        place = None
        if not rating.provisional:
            ahead = Q(shown__gt=rating.shown) | Q(shown=rating.shown, user_id__lt=user.pk)
            place = established(rating.kind).filter(ahead).count() + 1
        ratings.append(
            {
                "kind": rating.kind,
                "name": KINDS[rating.kind].name,
                "rating": rating_text(rating.shown),
                "games": rating.games,
                "provisional": rating.provisional,
                "place": place,
            }
        )
    return {
        "player": user,
        "name": public_name(user),
        "ratings": ratings,
        "reliability": reliability(user),
        "public_games": public_games_of(user),
    }


# The public games a player's page lists, newest first.
PUBLIC_GAMES_LISTED = 10


def public_games_of(user) -> list[dict]:
    """The latest public games ``user`` sat at, under way or over, each with the
    address anyone may watch it at: never a private or unlisted game. One query."""
    games = (
        Game.objects.filter(seats__user=user, visibility=Game.Visibility.PUBLIC)
        .exclude(status__in=[Game.Status.GATHERING, Game.Status.CANCELLED])
        .order_by("-started_at", "-pk")
        .only("pk", "kind", "status", "started_at")[:PUBLIC_GAMES_LISTED]
    )
    return [
        {
            "name": KINDS[game.kind].name if game.kind in KINDS else game.kind,
            "status": game.get_status_display(),
            "started_at": game.started_at,
            "url": reverse("game_watch", args=[game.pk]),
        }
        for game in games
    ]


def rating_history(user) -> list[dict]:
    """A chart per game kind of ``user``'s rating after each of their latest
    ``HISTORY_POINTS`` rated games (the oldest first): each point's place in the
    chart's drawing area, worked out here, and its words. One query per kind
    they are rated at, and one for the kinds."""
    charts = []
    kinds = Rating.objects.filter(user=user).order_by("kind").values_list("kind", flat=True)
    for kind in kinds:
        if kind not in KINDS:
            continue
        changes = list(
            RatingChange.objects.filter(user=user, kind=kind)
            .order_by("-id")
            .values("shown_before", "shown_after", "finished_at")[:HISTORY_POINTS]
        )[::-1]
        values = [changes[0]["shown_before"]] + [change["shown_after"] for change in changes]
        low, high = min(values), max(values)
        span = max(high - low, 1)
        step = CHART_WIDTH / max(len(values) - 1, 1)
        points = [
            {
                "x": round(10 + index * step),
                "y": round(CHART_BOTTOM - (value - low) * (CHART_BOTTOM - CHART_TOP) / span),
                "rating": rating_text(value),
                "when": changes[index - 1]["finished_at"] if index else None,
            }
            for index, value in enumerate(values)
        ]
        charts.append(
            {
                "kind": kind,
                "name": KINDS[kind].name,
                "points": points,
                "line": " ".join(f"{point['x']},{point['y']}" for point in points),
                "low": rating_text(low),
                "high": rating_text(high),
                "now": rating_text(values[-1]),
            }
        )
    return charts
