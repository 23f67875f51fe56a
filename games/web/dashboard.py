"""The signed-in player's dashboard: where am I needed, and how have I done?

Three pages, each built with a fixed number of queries whatever the player's
history (``tests/web/test_dashboard.py`` counts them; ``benchmarks/dashboard.py``
times a player with 1,000 finished games and 20 in play):

- ``home``: the games waiting for the player, ordered by deadline, each with what
  it waits for ("Respond to Ben's Tax") and a button to it; their other games in
  play (whose turn, the last action, the time left); invitations to answer; games
  still gathering players; the latest results and a summary.
- ``past_games``: finished games, newest first, paginated and filtered by game,
  variant and opponent.
- ``statistics``: games played and won, win rates by game, variant and player
  count, head-to-head records, and each game's own panels (Coup: challenges and
  bluffs) from the counters its kind declares (``games/kinds/stats.py``), with
  small SVG charts.

"Waiting for me" reads each game's cached ``snapshot`` (the engine state at its
current version, kept equal to a replay by the services), loaded in the one query
that fetches the player's open games, and asks the engine ``awaiting`` and
``view``: nothing is stored twice, so nothing can disagree with the game page, and
20 snapshots load in well under a millisecond each. What a seat is asked is still
only read through ``view(state, player)``, the door state leaves the engine by,
and put in words by the game's kind (``waits_for``, ``last_action``).

Finished games are never replayed here: ``games/services/results.py`` stores a
``SeatResult`` per seat once, when the game ends, and the statistics are aggregate
queries over those rows. Dates are rendered with Django's time-zone-aware
template filters, so they follow the time zone activated for the request.
"""

from collections import Counter
from datetime import timedelta

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
from games.models import Event, Game, Invitation, Seat, SeatResult
from games.selectors import GameUnreadable, display_name, game_state
from games.services.attention import game_attention_mark
from games.web.forms import number_in

PAST_PER_PAGE = 20
RECENT_RESULTS = 5
HEAD_TO_HEAD = 8  # the most frequent opponents shown
MONTHS = 12  # the months of the activity chart
CLASSIC = "classic"  # the variant filter's value for games without variants


def game_name(kind) -> str:
    return str(KINDS[kind].name)


def variant_names(kind, variants) -> list[str]:
    return KINDS[kind].variant_names(variants)


def _kinds_with_variants() -> list[str]:
    """The games whose games without variants are "Classic" ones (a game that has
    no variants is never counted or filtered as Classic)."""
    return [name for name, kind in KINDS.items() if kind.variant_ids]


def last_action_types() -> list[str]:
    """The events that start a turn's action, in every game: "the last action"."""
    return [t for kind in KINDS.values() for t in kind.last_action_types]


# ---- the home page -----------------------------------------------------------------------


def home(user) -> dict:
    """The dashboard on the home page (six queries). A game whose state cannot be
    read is listed as needing attention; the others are shown as usual."""
    waiting, active, gathering, attention = [], [], [], []
    for game in _open_games(user):
        seats = list(game.seats.all())
        names = {seat.player: display_name(seat.user) for seat in seats}
        mine = next(seat for seat in seats if seat.user_id == user.pk)
        if game.status == Game.Status.GATHERING:
            gathering.append(_gathering_row(game, seats, names, user))
            continue
        try:
            row = _active_row(game, mine, names)
        except GameUnreadable as error:
            game_attention_mark(game_id=game.pk, during="reading", error=error)
            attention.append({"game": game, "name": game_name(game.kind), "players": list(names.values())})
            continue
        (waiting if row["waits_for"] and not row["stand_in"] else active).append(row)
    # Nearest deadline first; a paused clock (no deadline) after every running one.
    waiting.sort(key=lambda row: (row["game"].deadline_at is None, row["game"].deadline_at or 0, row["game"].pk))
    recent = _results(user)[:RECENT_RESULTS]
    summary = SeatResult.objects.filter(user=user).aggregate(played=Count("pk"), won=Count("pk", filter=Q(place=1)))
    return {
        "waiting": waiting,
        "active": active,
        "gathering": gathering,
        "attention": attention,
        "invitations": _invitations(user),
        "recent": _past_rows(recent, user),
        "summary": {**summary, "rate": _percent(summary["won"], summary["played"])},
    }


def _open_games(user) -> list[Game]:
    """The user's games in play or gathering players, with their seats (two queries).
    Each carries its last action (``last_action``, a stored event payload, and
    ``last_action_at``) from a subquery, not from reading its log."""
    last = Event.objects.filter(game=OuterRef("pk"), type__in=last_action_types()).order_by("-seq")
    return list(
        Game.objects.filter(seats__user=user, status__in=(Game.Status.ACTIVE, Game.Status.GATHERING))
        .annotate(
            last_action=Subquery(last.values("payload")[:1]),
            last_action_at=Subquery(last.values("created_at")[:1]),
        )
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user__profile")))
        .order_by(F("deadline_at").asc(nulls_last=True), "-created_at")
    )


def _active_row(game: Game, seat: Seat, names: dict) -> dict:
    game_kind = KINDS[game.kind]
    state = game_state(game)
    view = game_kind.view(state, seat.player)
    awaited = {name: kind for name, kind, _version in game_kind.awaiting(state)}
    turn = view.get("turn")
    others = [names.get(name, name) for name in awaited if name != seat.player and name != turn]
    return {
        "game": game,
        "name": game_name(game.kind),
        "variants": variant_names(game.kind, game.variants),
        "players": [names[s.player] for s in game.seats.all()],
        "waits_for": game_kind.waits_for(awaited[seat.player], view, seat.player, names)
        if seat.player in awaited
        else "",
        "turn": (_("Your turn") if turn == seat.player else _("%(player)s's turn") % {"player": names.get(turn, turn)})
        if turn
        else "",
        "also_waiting": others,
        "last_action": game_kind.last_action(game.last_action, names, seat.player),
        "last_action_at": game.last_action_at,
        "paused": game.paused_remaining is not None,
        "stand_in": bool(seat.stand_in),  # a bot answers for this player until they are back
    }


def _gathering_row(game: Game, seats: list, names: dict, user) -> dict:
    return {
        "game": game,
        "name": game_name(game.kind),
        "variants": variant_names(game.kind, game.variants),
        "players": [names[s.player] for s in seats],
        "taken": len(seats),
        "host": game.host_id == user.pk,
        "full": len(seats) >= game.seat_count,
    }


def _invitations(user) -> list[dict]:
    """The pending invitations to the user's account (a rematch) or address."""
    mine = Q(email="", user=user)
    if user.email:
        mine |= Q(email__iexact=user.email)
    pending = (
        Invitation.objects.filter(
            mine,
            status=Invitation.Status.PENDING,
            game__status=Game.Status.GATHERING,
        )
        .exclude(game__seats__user=user)
        .select_related("game", "invited_by__profile")
        .order_by("-created_at")
    )
    return [
        {
            "invitation": invitation,
            "by": display_name(invitation.invited_by),
            "name": game_name(invitation.game.kind),
            "variants": variant_names(invitation.game.kind, invitation.game.variants),
        }
        for invitation in pending
    ]


# ---- past games --------------------------------------------------------------------------


def _results(user, *, kind="", variant="", opponent=None):
    """The user's results, newest first, with their game and every seat's result
    (place, name) prefetched: two queries per page, whatever the page."""
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
    return (
        results.select_related("game")
        .defer("game__snapshot", "game__options")
        .prefetch_related(Prefetch("game__results", queryset=everyone, to_attr="table"))
        .order_by("-finished_at", "-game_id")
    )


def _past_rows(results, user) -> list[dict]:
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
    }


def _outcome(result: SeatResult) -> str:
    if result.place == 1:
        return pgettext("the result of a game", "Won")
    if result.place:
        return _("Place %(place)d of %(players)d") % {"place": result.place, "players": result.players}
    return _("Finished")


def past_games(user, params) -> dict:
    """Finished games, newest first, ``PAST_PER_PAGE`` a page, filtered by the
    query string (``game``, ``variant``, ``opponent``; unknown values are ignored)."""
    groups = _groups(user)
    opponents = _opponents(user)
    kinds = sorted({group["kind"] for group in groups})
    variants = sorted({v for group in groups for v in group["variants"].split(",") if v})
    kind = params.get("game", "") if params.get("game", "") in kinds else ""
    variant = params.get("variant", "")
    if variant not in variants and variant != CLASSIC:
        variant = ""
    opponent = number_in(params.get("opponent", ""))
    if opponent not in {o["user"].pk for o in opponents}:
        opponent = None
    page = Paginator(_results(user, kind=kind, variant=variant, opponent=opponent), PAST_PER_PAGE).get_page(
        params.get("page")
    )
    query = {key: value for key, value in (("game", kind), ("variant", variant), ("opponent", opponent)) if value}
    return {
        "page": page,
        "rows": _past_rows(page.object_list, user),
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


def _groups(user) -> list[dict]:
    """The user's results grouped by game, variants and player count: games, wins and
    every kind's counters summed (one query; a few dozen rows at most). A group's
    sum of a counter its kind does not keep is None."""
    counters = {name for kind in KINDS.values() for name in kind.stats.counters}
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
    and how often each finished ahead of the other (one query)."""
    mine = "game_results__game__results"
    users = (
        get_user_model()
        .objects.filter(**{f"{mine}__user": user})
        .exclude(pk=user.pk)
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
            "rate": _percent(u.ahead, u.games),
        }
        for u in users
    ]


def statistics(user) -> dict:
    """Everything on the statistics page (three queries)."""
    groups = _groups(user)
    by_kind, by_variant, by_players = {}, {}, {}
    with_variants = _kinds_with_variants()
    for group in groups:
        _add(by_kind, group["kind"], group)
        classic = [CLASSIC] if group["kind"] in with_variants else []
        for variant in [v for v in group["variants"].split(",") if v] or classic:
            _add(by_variant, variant, group)
        _add(by_players, group["players"], group)
    games, wins = sum(group["games"] for group in groups), sum(group["wins"] for group in groups)
    return {
        "total": {"games": games, "wins": wins, "rate": _percent(wins, games)},
        "by_game": [_rate_row(game_name(kind), counts) for kind, counts in sorted(by_kind.items())],
        "by_variant": [
            _rate_row(_("Classic") if v == CLASSIC else variant_name(v), counts)
            for v, counts in sorted(by_variant.items(), key=lambda item: (item[0] != CLASSIC, item[0]))
        ],
        "by_players": _bars(
            [
                {
                    **_rate_row(ngettext("%(count)d player", "%(count)d players", n) % {"count": n}, counts),
                    "fair": _percent(1, n),
                }
                for n, counts in sorted(by_players.items())
            ]
        ),
        "opponents": _opponents(user, HEAD_TO_HEAD),
        "months": _months(user),
        "panels": _panels(groups),
    }


# The bar charts' geometry (SVG user units): a label column, then the bars.
BAR_X, BAR_WIDTH, BAR_ROW = 96, 150, 28


def _bars(rows: list[dict]) -> dict:
    """Rows of a horizontal bar chart of rates, with their coordinates."""
    for index, row in enumerate(rows):
        row["y"] = index * BAR_ROW + 4
        row["text_y"] = row["y"] + 15
        row["width"] = round(BAR_WIDTH * (row["rate"] or 0) / 100, 1)
        if row.get("fair") is not None:
            row["fair_x"] = round(BAR_X + BAR_WIDTH * row["fair"] / 100, 1)
    return {"rows": rows, "height": len(rows) * BAR_ROW + 8, "x": BAR_X, "width": BAR_WIDTH, "end": BAR_X + BAR_WIDTH}


def _add(into: dict, key, group: dict) -> None:
    counts = into.setdefault(key, {"games": 0, "wins": 0})
    counts["games"] += group["games"]
    counts["wins"] += group["wins"]


def _rate_row(label: str, counts: dict) -> dict:
    return {
        "label": label,
        "games": counts["games"],
        "wins": counts["wins"],
        "rate": _percent(counts["wins"], counts["games"]),
    }


def _percent(part, whole) -> int | None:
    return round(100 * part / whole) if whole else None


def _panels(groups) -> list[dict]:
    """The panels of each game the user played, as its kind's ``stats`` declares
    them, from its counters summed over the user's games of it."""
    totals = {}
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
    """A line of a panel: ``split.part`` of ``split.whole``, in words and with the
    widths (out of 300) of a stacked bar."""
    part, whole = counted[split.part], counted[split.whole]
    rate = _percent(part, whole)
    width = round(300 * part / whole, 1) if whole else 0
    return {
        "text": split.text % {"part": part, "whole": whole, "rate": rate or 0},
        "part": part,
        "whole": whole,
        "rest": whole - part,
        "rate": rate,
        "width": width,
        "rest_width": 300 - width,
        "part_label": split.part_label,
        "rest_label": split.rest_label,
    }


def _months(user) -> list[dict]:
    """Games played and won in each of the last ``MONTHS`` months, in the current
    time zone (one query), with the bar heights of the chart."""
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
    months = [
        {
            "start": start,
            "games": counts.get(start.date(), {}).get("games", 0),
            "wins": counts.get(start.date(), {}).get("wins", 0),
        }
        for start in starts
    ]
    top = max((month["games"] for month in months), default=0) or 1
    for index, month in enumerate(months):
        month["x"] = index * 25 + 2
        month["height"] = round(100 * month["games"] / top)
        month["won_height"] = round(100 * month["wins"] / top)
        month["y"] = 110 - month["height"]
        month["won_y"] = 110 - month["won_height"]
    return months
