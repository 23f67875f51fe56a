"""How each player did in a finished game, worked out once from its event log.

When a game ends, ``services.play.events_prepare`` calls ``game_results_record``: it reads the
game's log one last time and stores a ``SeatResult`` per seat and the game's total
``moves``. The dashboard and the statistics then read those rows with aggregate
queries, so a player with 1,000 finished games costs no replay per request. Games
finished before this existed get theirs from ``manage.py record_results``.

What is stored, the same way for every game (this module knows none):

- **place**: from the rules' ``standings`` of the final state, groups of players
  from first place on. A player's place is 1 more than the number of players in
  the groups before theirs, so players tied share it (Coup: the winner, then the
  reverse order of elimination; Kobayakawa: the winners, then by medals).
- **moves**: decisions the player answered (a deadline's default answer counts: the
  game moved on their behalf); resigning is not a move. Read from the engine's own
  ``awaiting()`` before and after each event. Those a bot answered while standing in
  for the player (``selectors.stand_in_periods``) are ``stand_in_moves``, apart.
- **with_bots**: whether bots had seats of their own (a practice game).
- **deadlines_missed**: the player's decisions the clock answered (the engine marks
  the first event of each such answer ``timed_out``), a bot standing in or not.
- **abandoned**: the player did not finish the game themselves: they resigned, or a
  bot was still standing in for them when it ended. The finish rate on the
  player's public page counts these (``ratings.selectors.reliability``).
- **counters**: the kind's own counts (its ``stats``, ``games/kinds/stats.py``:
  Coup's claims, challenges and bluffs caught), every counter it declares, 0 when
  the player scored none; nothing for a kind that counts nothing.
"""

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from accounts.models import profile_of
from games.engine.events import Event as EngineEvent
from games.kinds import KINDS
from games.models import Event, Game, SeatResult
from games.selectors import stand_in_periods


def variants_key(variants) -> str:
    """How ``SeatResult.variants`` stores a game's variants: ",a,b," sorted, so a
    filter on one is ``variants__contains=",a,"`` on every database; "" is classic."""
    return "".join(f",{v}" for v in sorted(variants)) + "," if variants else ""


@dataclass
class Outcome:
    """What a finished game's log says of each player, by engine name."""

    places: dict[str, int]
    moves: Counter
    stand_in_moves: Counter
    counts: dict[str, Counter]  # as the kind's stats count them
    counters: tuple[str, ...]  # the names the kind's stats declare
    deadlines_missed: Counter
    abandoned: set[str]  # resigned, or still played by a stand-in bot at the end

    def counters_of(self, player: str) -> dict[str, int]:
        """Every counter of ``player`` (0 for those they never scored)."""
        counts = self.counts.get(player, Counter())
        return {name: counts[name] for name in self.counters}


def places_of(standings: list[list[str]]) -> dict[str, int]:
    """Player → place, from ``standings`` (groups from first place on): players tied
    share a place, and the next group's place counts them all (1, 2, 2, 4)."""
    places: dict[str, int] = {}
    for group in standings:
        first = len(places) + 1
        places |= dict.fromkeys(group, first)
    return places


def outcome(kind: str, payloads, stand_ins: dict | None = None) -> Outcome:
    """Fold a stored log (JSON payloads, in order) into its ``Outcome``; no database,
    so tests feed it events. ``stand_ins``: player → ``(first, end)`` of each time a
    bot played for them (``selectors.stand_in_periods``)."""
    game_kind = KINDS[kind]
    rules = game_kind.rules
    state = rules.new_state()
    moves: Counter[str] = Counter()
    stand_in_moves: Counter[str] = Counter()
    deadlines_missed: Counter[str] = Counter()
    resigned: set[str] = set()
    events = []
    for seq, payload in enumerate(payloads):
        event = EngineEvent.from_json(payload)
        events.append(event)
        before = {name: version for name, _decision, version in rules.awaiting(state)}
        rules.apply(state, event)
        player = event.data.get("player")
        if player is not None and event.data.get("timed_out"):
            deadlines_missed[player] += 1
        if player is not None and event.type.endswith(".resigned"):
            resigned.add(player)
        if player in before and not event.type.endswith(".resigned"):
            after = {name: version for name, _decision, version in rules.awaiting(state)}
            if after.get(player) != before[player]:
                periods = (stand_ins or {}).get(player, ())
                stood_in = any(first <= seq and (end is None or seq < end) for first, end in periods)
                (stand_in_moves if stood_in else moves)[player] += 1
    return Outcome(
        places=places_of(rules.standings(state)),
        moves=moves,
        stand_in_moves=stand_in_moves,
        counts=game_kind.stats.count(events),
        counters=game_kind.stats.counters,
        deadlines_missed=deadlines_missed,
        abandoned=resigned
        | {player for player, periods in (stand_ins or {}).items() if periods and periods[-1][1] is None},
    )


def game_results_record(*, game: Game, appended: Sequence[Event] = ()) -> list[SeatResult]:
    """Store ``game``'s per-seat results and set ``game.moves`` (the caller saves
    the game). Replaces any results stored before, so it can be run again.

    Precondition: ``game`` is finished and its log is written, but for the rows
    ``appended`` after it, which are not inserted yet (inside
    ``services.play.events_prepare``: the same transaction, with the game row locked)."""
    stored = Event.objects.filter(game=game).order_by("seq").values_list("payload", flat=True)
    seats = list(game.seats.select_related("user__profile"))
    periods = stand_in_periods(game, seats)
    result = outcome(game.kind, [*stored, *(row.payload for row in appended)], periods)
    finished_at = game.finished_at or game.events.order_by("-seq").values_list("created_at", flat=True).first()
    assert finished_at is not None, "a finished game has events"
    with_bots = any(profile_of(seat.user).bot_level for seat in seats)
    variants = variants_key(game.variants)
    rows = [
        SeatResult(
            seat=seat,
            game=game,
            user_id=seat.user_id,
            kind=game.kind,
            variants=variants,
            players=len(seats),
            finished_at=finished_at,
            place=result.places.get(seat.player),
            moves=result.moves[seat.player],
            stand_in_moves=result.stand_in_moves[seat.player],
            with_bots=with_bots,
            counters=result.counters_of(seat.player),
            deadlines_missed=result.deadlines_missed[seat.player],
            abandoned=seat.player in result.abandoned,
        )
        for seat in seats
    ]
    with transaction.atomic():
        SeatResult.objects.filter(game=game).delete()
        SeatResult.objects.bulk_create(rows)
    game.moves = sum(result.moves.values()) + sum(result.stand_in_moves.values())
    return rows


def results_backfill(*, recompute: bool = False) -> int:
    """Record the results of finished games that have none (every finished game
    with ``recompute``). Returns how many games were recorded."""
    games = Game.objects.filter(status=Game.Status.FINISHED).order_by("pk")
    if not recompute:
        games = games.filter(results__isnull=True)
    done = 0
    for pk in games.values_list("pk", flat=True).distinct():
        with transaction.atomic():
            game = Game.objects.select_for_update().get(pk=pk)
            game_results_record(game=game)
            game.save(update_fields=["moves"])
        done += 1
    return done
