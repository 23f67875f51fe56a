"""The signed-in player's finished games: the past games page, the statistics page,
and a finished game's final order.

Finished games are never replayed here: ``games/services/results.py`` stores a
``SeatResult`` per seat once, when the game ends, and these are aggregate queries
over those rows, a fixed number per page whatever the player's history
(``tests/web/test_dashboard.py`` counts them):

- ``past_games``: finished games, newest first, paginated and filtered by game,
  variant and opponent.
- ``statistics``: games played and won, win rates by game, variant and player
  count, and by company (games with people played on one's own, those a bot
  played in part for one, practice games against bots), one's own moves apart
  from a bot's made for one, head-to-head records, the last months, and each game's own panels (Coup:
  challenges and bluffs) from the counters its kind declares (``games/kinds/stats.py``).

The numbers are returned as they are; the charts' templates draw them. Dates are
rendered with Django's time-zone-aware template filters, so they follow the time
zone activated for the request.
"""

from collections import Counter
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import Count, F, IntegerField, OuterRef, Prefetch, Q, Subquery, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, TruncMonth
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.kinds import KINDS, variant_name
from games.models import Game, SeatResult
from games.selectors import display_name
from ratings.models import RatingChange
from ratings.selectors import rating_change_text

PAST_PER_PAGE = 20
HEAD_TO_HEAD = 8  # the most frequent opponents shown
MONTHS = 12  # the months of the activity chart
CLASSIC = "classic"  # the variant filter's value for games without variants


def game_name(kind) -> str:
    return str(KINDS[kind].name)


def variant_names(kind, variants) -> list[str]:
    return KINDS[kind].about.variant_names(variants)


def percent(part, whole) -> int | None:
    return round(100 * part / whole) if whole else None


def _kinds_with_variants() -> list[str]:
    """The games whose games without variants are "Classic" ones (a game that has
    no variants is never counted or filtered as Classic)."""
    return [name for name, game_kind in KINDS.items() if game_kind.rules.variants]


def final_order(game: Game) -> list[str]:
    """The names of a finished game's players, first place first."""
    return [display_name(result.user) for result in game.results.select_related("user__profile").order_by("place")]


# ---- past games --------------------------------------------------------------------------


def results_of(user, *, kind="", variant="", opponent=None):
    """The user's results, newest first, with their game, every seat's result
    (place, name) prefetched and the user's rating before and after it (a rated
    game): two queries per page, whatever the page."""
    results = SeatResult.objects.filter(user=user)
    if kind:
        results = results.filter(kind=kind)
    if variant == CLASSIC:
        results = results.filter(variants="", kind__in=_kinds_with_variants())
    elif variant:
        results = results.filter(variants__contains=f",{variant},")
    if opponent is not None:
        results = results.filter(game__in=SeatResult.objects.filter(user_id=opponent).values("game"))
    everyone = SeatResult.objects.select_related("user__profile").order_by("place", "seat__position")
    change = RatingChange.objects.filter(game=OuterRef("game_id"), user=OuterRef("user_id"))
    return (
        results.annotate(
            rating_before=Subquery(change.values("shown_before")[:1]),
            rating_after=Subquery(change.values("shown_after")[:1]),
        )
        .select_related("game")
        .defer("game__snapshot", "game__options")
        .prefetch_related(Prefetch("game__results", queryset=everyone, to_attr="table"))
        .order_by("-finished_at", "-game_id")
    )


def past_rows(results, user) -> list[dict]:
    return [_past_row(result, user) for result in results]


def _past_row(result: SeatResult, user) -> dict:
    game = result.game
    table = getattr(game, "table", [])
    length = (game.finished_at - game.started_at) if game.finished_at and game.started_at else None
    days = length.days if length is not None else None
    return {
        "game": game,
        "result": result,
        "name": game_name(result.kind),
        "variants": variant_names(result.kind, [v for v in result.variants.split(",") if v]),
        "players": [
            {"name": display_name(other.user), "you": other.user_id == user.pk, "place": other.place} for other in table
        ],
        "outcome": _outcome(result),
        "won": result.place == 1,
        "days": ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
        if days
        else (_("under a day") if days == 0 else ""),
        "moves": ngettext("%(count)d move", "%(count)d moves", game.moves) % {"count": game.moves}
        if game.moves is not None
        else "",
        "replay_url": reverse("game_replay", args=[game.pk]),
        "rating": _rating_change(result),
    }


def _rating_change(result: SeatResult) -> str:
    """How the game moved the player's rating ("+23, now 1,612"), "" if it was not
    rated (``results_of`` annotates the numbers)."""
    before, after = getattr(result, "rating_before", None), getattr(result, "rating_after", None)
    return rating_change_text(before, after) if before is not None and after is not None else ""


def _outcome(result: SeatResult) -> str:
    if result.place == 1:
        return pgettext("the result of a game", "Won")
    if result.place:
        return _("Place %(place)d of %(players)d") % {"place": result.place, "players": result.players}
    return _("Finished")


def past_games(user, *, game: str = "", variant: str = "", opponent: int | None = None, page=None) -> dict:
    """Finished games, newest first, ``PAST_PER_PAGE`` a page, filtered by ``game``
    (a kind), ``variant`` and ``opponent`` (a user id); a value the player has no
    game with is ignored."""
    groups = _groups(user)
    opponents = _opponents(user)
    kinds = sorted({group["kind"] for group in groups})
    variants = sorted({v for group in groups for v in group["variants"].split(",") if v})
    kind = game if game in kinds else ""
    if variant not in variants and variant != CLASSIC:
        variant = ""
    if opponent not in {o["user"].pk for o in opponents}:
        opponent = None
    shown = Paginator(results_of(user, kind=kind, variant=variant, opponent=opponent), PAST_PER_PAGE).get_page(page)
    query = {key: value for key, value in (("game", kind), ("variant", variant), ("opponent", opponent)) if value}
    return {
        "page": shown,
        "rows": past_rows(shown.object_list, user),
        "filters": {
            "games": [(k, game_name(k)) for k in kinds],
            "variants": [(CLASSIC, _("Classic"))] + [(v, variant_name(v)) for v in variants],
            "opponents": [(o["user"].pk, o["name"]) for o in opponents],
            "game": kind,
            "variant": variant,
            "opponent": opponent,
            "active": bool(query),
        },
        "query": "&".join(f"{key}={value}" for key, value in query.items()),
    }


# ---- statistics --------------------------------------------------------------------------


def _counted(counter: str) -> str:
    """The name of a kind's counter summed in ``_groups`` (apart from the sums every
    game has: ``games``, ``wins``)."""
    return f"counted_{counter}"


def _groups(user) -> list[Mapping[str, Any]]:
    """The user's results grouped by game, variants and player count: games, wins and
    every kind's counters summed (one query; a few dozen rows at most). A group's
    sum of a counter its kind does not keep is None."""
    counters = {name for game_kind in KINDS.values() for name in game_kind.stats.counters}
    return list(
        SeatResult.objects.filter(user=user)
        .values("kind", "variants", "players")
        .annotate(
            games=Count("pk"),
            wins=Count("pk", filter=Q(place=1)),
            **{_counted(name): Sum(Cast(KT(f"counters__{name}"), IntegerField())) for name in sorted(counters)},
        )
        .order_by("kind", "variants", "players")
    )


def _opponents(user, limit=None) -> list[dict]:
    """Everyone the user finished a game with, most frequent first: games together,
    and how often each finished ahead of the other (one query). People only: a bot
    account plays one seat of one game, so it is no opponent to follow."""
    mine = "game_results__game__results"
    users = (
        get_user_model()
        .objects.filter(**{f"{mine}__user": user})
        .exclude(pk=user.pk)
        .filter(profile__bot_level="")
        .annotate(
            games=Count("game_results"),
            ahead=Count("game_results", filter=Q(**{f"{mine}__place__lt": F("game_results__place")})),
            behind=Count("game_results", filter=Q(game_results__place__lt=F(f"{mine}__place"))),
        )
        .select_related("profile")
        .order_by("-games", "pk")
    )
    if limit:
        users = users[:limit]
    return [
        {
            "user": u,
            "name": display_name(u),
            "games": u.games,
            "ahead": u.ahead,
            "behind": u.behind,
            "rate": percent(u.ahead, u.games),
        }
        for u in users
    ]


def statistics(user) -> dict:
    """Everything on the statistics page (four queries)."""
    groups = _groups(user)
    by_kind: dict[str, dict] = {}
    by_variant: dict[str, dict] = {}
    by_players: dict[int, dict] = {}
    with_variants = _kinds_with_variants()
    for group in groups:
        _add(by_kind, group["kind"], group)
        classic = [CLASSIC] if group["kind"] in with_variants else []
        for variant in [v for v in group["variants"].split(",") if v] or classic:
            _add(by_variant, variant, group)
        _add(by_players, group["players"], group)
    games, wins = sum(group["games"] for group in groups), sum(group["wins"] for group in groups)
    months, top = _months(user)
    return {
        "total": {"games": games, "wins": wins, "rate": percent(wins, games)},
        "by_game": [_rate_row(game_name(kind), counts) for kind, counts in sorted(by_kind.items())],
        "by_variant": [
            _rate_row(_("Classic") if v == CLASSIC else variant_name(v), counts)
            for v, counts in sorted(by_variant.items(), key=lambda item: (item[0] != CLASSIC, item[0]))
        ],
        "by_players": [
            {
                **_rate_row(ngettext("%(count)d player", "%(count)d players", n) % {"count": n}, counts),
                "fair": percent(1, n),
            }
            for n, counts in sorted(by_players.items())
        ],
        **_company(user),
        "opponents": _opponents(user, HEAD_TO_HEAD),
        "months": months,
        "busiest_month": top,
        "panels": _panels(groups),
    }


def _company(user) -> dict:
    """Games and wins with people, played on one's own or in part by a bot standing
    in for one, and practice games against bots, kept apart; and the moves one made
    apart from those a bot made for one (one query)."""
    with_people, own = Q(with_bots=False), Q(stand_in_moves=0)
    groups = {
        "own": with_people & own,
        "helped": with_people & ~own,
        "practice": Q(with_bots=True),
    }
    counted = SeatResult.objects.filter(user=user).aggregate(
        **{f"{name}_games": Count("pk", filter=where) for name, where in groups.items()},
        **{f"{name}_wins": Count("pk", filter=where & Q(place=1)) for name, where in groups.items()},
        own_moves=Sum("moves", default=0),
        stand_in_moves=Sum("stand_in_moves", default=0),
    )
    labels = {
        "own": _("With people, every move your own"),
        "helped": _("With people, a bot playing for you at times"),
        "practice": _("Practice against bots"),
    }
    return {
        "by_company": [
            _rate_row(label, {"games": counted[f"{name}_games"], "wins": counted[f"{name}_wins"]})
            for name, label in labels.items()
            if counted[f"{name}_games"]
        ],
        "moves": {"own": counted["own_moves"], "stand_in": counted["stand_in_moves"]},
    }


def _add(into: dict, key, group: Mapping[str, Any]) -> None:
    counts = into.setdefault(key, {"games": 0, "wins": 0})
    counts["games"] += group["games"]
    counts["wins"] += group["wins"]


def _rate_row(label: str, counts: dict) -> dict:
    return {
        "label": label,
        "games": counts["games"],
        "wins": counts["wins"],
        "rate": percent(counts["wins"], counts["games"]),
    }


def _panels(groups) -> list[dict]:
    """The panels of each game the user played, as its kind's ``stats`` declares
    them, from its counters summed over the user's games of it."""
    totals: dict[str, Counter] = {}
    for group in groups:
        counted = totals.setdefault(group["kind"], Counter())
        for name in KINDS[group["kind"]].stats.counters:
            counted[name] += group[_counted(name)] or 0
    return [
        {"title": panel.title, "splits": [_split(split, counted) for split in panel.splits]}
        for kind, counted in sorted(totals.items())
        for panel in KINDS[kind].stats.panels
    ]


def _split(split, counted: Counter) -> dict:
    """A line of a panel: ``split.part`` of ``split.whole``, in words and as a bar."""
    part, whole = counted[split.part], counted[split.whole]
    rate = percent(part, whole)
    return {
        "text": split.text % {"part": part, "whole": whole, "rate": rate or 0},
        "part": part,
        "whole": whole,
        "rest": whole - part,
        "rate": rate,
        "part_label": split.part_label,
        "rest_label": split.rest_label,
    }


def _months(user) -> tuple[list[dict], int]:
    """Games played and won in each of the last ``MONTHS`` months, in the current
    time zone (one query), and the most played in any of them (at least 1)."""
    now = timezone.localtime()
    first = now.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    starts = [first]
    for _index in range(MONTHS - 1):
        starts.insert(0, (starts[0] - timedelta(days=1)).replace(day=1))
    counts = {
        timezone.localtime(row["month"]).date().replace(day=1): row
        for row in SeatResult.objects.filter(user=user, finished_at__gte=starts[0])
        .annotate(month=TruncMonth("finished_at"))
        .values("month")
        .annotate(games=Count("pk"), wins=Count("pk", filter=Q(place=1)))
        .order_by("month")
    }
    unplayed: dict[str, int] = {}
    months: list[dict[str, Any]] = [
        {
            "start": start,
            "games": counts.get(start.date(), unplayed).get("games", 0),
            "wins": counts.get(start.date(), unplayed).get("wins", 0),
        }
        for start in starts
    ]
    return months, max((month["games"] for month in months), default=0) or 1
