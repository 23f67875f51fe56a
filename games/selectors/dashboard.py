"""The signed-in player's home page: where am I needed, and how have I done lately?

The games waiting for the player, ordered by deadline, each with what it waits for
("Respond to Ben's Tax") and a button to it; their other games in play (whose
turn, the last action, the time left); invitations to answer; games still
gathering players; the latest results and a summary. Six queries whatever the
player's history (``tests/web/test_dashboard.py`` counts them;
``benchmarks/dashboard.py`` times a player with 1,000 finished games and 20 in play).

"Waiting for me" reads each game's cached ``snapshot`` (the engine state at its
current version, kept equal to a replay by the services), loaded in the one query
that fetches the player's open games, and asks the engine ``awaiting`` and
``view``: nothing is stored twice, so nothing can disagree with the game page, and
20 snapshots load in well under a millisecond each. What a seat is asked is still
only read through ``view(state, player)``, the door state leaves the engine by,
and put in words by the game's kind (``waits_for``, ``last_action``).

A game whose state cannot be read is listed apart, with the error, for the view
to have it marked for an operator (reading writes nothing).
"""

from datetime import datetime
from typing import TYPE_CHECKING, TypedDict

from django.core.cache import cache
from django.db.models import Count, F, OuterRef, Prefetch, Q, Subquery
from django.utils.translation import gettext as _

from games.engine.seats import seat_player
from games.kinds import KINDS
from games.models import Event, Game, Invitation, Seat, SeatResult
from games.selectors import GameUnreadable, Table, away_of, display_name, game_state
from games.selectors.results import game_name, past_rows, percent, results_of, variant_names

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations

RECENT_RESULTS = 5


class _LastAction(TypedDict):
    """What ``_open_games`` adds to each game: its last action's stored payload and time."""

    last_action: dict | None
    last_action_at: datetime | None


def last_action_types() -> list[str]:
    """The events that start a turn's action, in every game: "the last action"."""
    return [t for game_kind in KINDS.values() for t in game_kind.history.last_action_types]


def home(user) -> dict:
    """The dashboard on the home page. A game whose state cannot be read is listed
    in ``attention`` (with its ``error``); the others are shown as usual."""
    waiting: list[dict] = []
    active: list[dict] = []
    gathering: list[dict] = []
    attention: list[dict] = []
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
            attention.append(
                {"game": game, "name": game_name(game.kind), "players": list(names.values()), "error": error}
            )
            continue
        (waiting if row["waits_for"] and not row["stand_in"] else active).append(row)
    # Nearest deadline first; a paused clock (no deadline) after every running one.
    waiting.sort(key=lambda row: (row["game"].deadline_at is None, row["game"].deadline_at or 0, row["game"].pk))
    recent = results_of(user)[:RECENT_RESULTS]
    summary = SeatResult.objects.filter(user=user).aggregate(played=Count("pk"), won=Count("pk", filter=Q(place=1)))
    return {
        "waiting": waiting,
        "active": active,
        "gathering": gathering,
        "attention": attention,
        "invitations": _invitations(user),
        "recent": past_rows(recent, user),
        "summary": {**summary, "rate": percent(summary["won"], summary["played"])},
        "games_waiting": len(waiting),  # the tab's title counts them (context_processors.games_waiting)
    }


# Whom a game awaits at a version never changes: kept by game and version for the
# count in every player's tab title, shared by all the game's players.
AWAITED_SECONDS = 3600


def _awaited_key(game_id: int, version: int) -> str:
    return f"awaited:{game_id}:{version}"


def games_waiting_count(user, seen: Table | None = None) -> int:
    """How many games wait for a decision of ``user`` (those the dashboard lists
    under "Waiting for you": not those a bot plays for them), for the count in the
    tab's title. One query, and one more for the snapshots of the games that moved
    since anyone counted them (``seen``: a table the caller holds, whose game's
    awaited players it already knows)."""
    seats = list(
        Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE, stand_in="").values_list(
            "game_id", "game__version", "position"
        )
    )
    known: dict[str, list[str]] = {}
    if seen is not None:
        known[_awaited_key(seen.game.pk, seen.game.version)] = sorted(seen.awaiting)
        cache.set_many(known, AWAITED_SECONDS)
    keys = [_awaited_key(game_id, version) for game_id, version, _position in seats]
    awaited = {**cache.get_many([key for key in keys if key not in known]), **known}
    moved = [game_id for (game_id, _version, _position), key in zip(seats, keys, strict=True) if key not in awaited]
    fresh: dict[int, list[str]] = {}
    for game in Game.objects.filter(pk__in=moved) if moved else ():
        try:
            state = game_state(game)
        except GameUnreadable:
            continue  # listed apart on the dashboard, for an operator
        fresh[game.pk] = sorted(name for name, _decision, _version in KINDS[game.kind].rules.awaiting(state))
        cache.set(_awaited_key(game.pk, game.version), fresh[game.pk], AWAITED_SECONDS)
    # A game that moved again between the two reads counts as it is now.
    return sum(
        seat_player(position) in awaited.get(key, fresh.get(game_id, ()))
        for (game_id, _version, position), key in zip(seats, keys, strict=True)
    )


def _open_games(user) -> "list[WithAnnotations[Game, _LastAction]]":
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


def _active_row(game: "WithAnnotations[Game, _LastAction]", seat: Seat, names: dict) -> dict:
    game_kind = KINDS[game.kind]
    state = game_state(game)
    view = game_kind.rules.view(state, seat.player)
    awaited = {name: decision for name, decision, _version in game_kind.rules.awaiting(state)}
    turn = view.get("turn")
    others = [names.get(name, name) for name in awaited if name != seat.player and name != turn]
    return {
        "game": game,
        "name": game_name(game.kind),
        "variants": variant_names(game.kind, game.variants),
        "players": [names[s.player] for s in game.seats.all()],
        "waits_for": game_kind.words.waits_for(awaited[seat.player], view, seat.player, names)
        if seat.player in awaited
        else "",
        "turn": (_("Your turn") if turn == seat.player else _("%(player)s's turn") % {"player": names.get(turn, turn)})
        if turn
        else "",
        "also_waiting": others,
        "last_action": game_kind.history.last_action(game.last_action, names, seat.player),
        "last_action_at": game.last_action_at,
        "paused": game.paused_remaining is not None,
        "stand_in": bool(seat.stand_in),  # a bot answers for this player until they are back
        "away": away_of(list(game.seats.all()), seat.player),  # the others on holiday
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
