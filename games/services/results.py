"""How each player did in a finished game, worked out once from its event log.

When a game ends, ``services.play.events_prepare`` calls ``game_results_record``: it reads the
game's log one last time and stores a ``SeatResult`` per seat (place, decisions
made, claims, challenges, bluffs caught) and the game's total ``moves``. The
dashboard and the statistics then read those rows with aggregate queries, so a
player with 1,000 finished games costs no replay per request. Games finished
before this existed get theirs from ``manage.py record_results``.

What counts:

- **place**: 1 for the winner, then the reverse order of elimination (the last
  player knocked out is 2nd). A game whose kind gives scores (Kobayakawa's medals)
  ranks the others by score, ties sharing a place.
- **moves**: decisions the player answered (a deadline's default answer counts: the
  game moved on their behalf); resigning is not a move. Read from the engine's own
  ``awaiting()`` before and after each event, so it works for every game.
- **claims**, **claims_challenged** / **bluffs_caught**, **challenges_made** /
  **challenges_won**: each kind counts its own (``GameKind.stats``: Coup's in
  ``games/kinds/coup/stats.py``); a game without claims leaves them at 0.
"""

from collections import Counter
from dataclasses import dataclass, field

from django.db import transaction

from games.engine.common import PUBLIC
from games.engine.events import Event as EngineEvent
from games.kinds import KINDS
from games.models import Event, Game, SeatResult

COUNTERS = ("moves", "claims", "claims_challenged", "bluffs_caught", "challenges_made", "challenges_won")


def variants_key(variants) -> str:
    """How ``SeatResult.variants`` stores a game's variants: ",a,b," sorted, so a
    filter on one is ``variants__contains=",a,"`` on every database; "" is classic."""
    return "".join(f",{v}" for v in sorted(variants)) + "," if variants else ""


@dataclass
class Tally:
    """What a log says about each player; no database, so tests feed it events."""

    players: list = field(default_factory=list)
    winners: list = field(default_factory=list)
    eliminated: list = field(default_factory=list)  # in order, the first out first
    scores: dict = field(default_factory=dict)
    moves: Counter = field(default_factory=Counter)
    claims: Counter = field(default_factory=Counter)
    claims_challenged: Counter = field(default_factory=Counter)
    bluffs_caught: Counter = field(default_factory=Counter)
    challenges_made: Counter = field(default_factory=Counter)
    challenges_won: Counter = field(default_factory=Counter)

    def counts(self, player: str) -> dict:
        """The ``SeatResult`` counters of ``player``."""
        return {name: getattr(self, name)[player] for name in COUNTERS}

    def places(self) -> dict:
        """Player → place: winners 1; with scores, the others by score (ties share);
        else survivors next, then the reverse order of elimination."""
        places = {name: 1 for name in self.winners}
        rest = [name for name in self.players if name not in places]
        if rest and all(isinstance(self.scores.get(name), int) for name in rest):
            ranked = sorted(rest, key=lambda name: -self.scores[name])
            for index, name in enumerate(ranked):
                tied = index and self.scores[name] == self.scores[ranked[index - 1]]
                places[name] = places[ranked[index - 1]] if tied else len(self.winners) + index + 1
            return places
        out = [name for name in reversed(self.eliminated) if name in rest]
        order = [name for name in rest if name not in out] + out
        for index, name in enumerate(order):
            places[name] = len(self.winners) + index + 1
        return places


def tally(kind: str, payloads) -> Tally:
    """Fold a stored log (JSON payloads, in order) into a ``Tally``."""
    game_kind = KINDS[kind]
    rules = game_kind.rules
    state = rules.new_state()
    result = Tally()
    events = []
    for payload in payloads:
        event = EngineEvent.from_json(payload)
        events.append(event)
        before = {name: version for name, _decision, version in rules.awaiting(state)}
        rules.apply(state, event)
        player = event.data.get("player")
        if player in before and not event.type.endswith(".resigned"):
            after = {name: version for name, _decision, version in rules.awaiting(state)}
            if after.get(player) != before[player]:
                result.moves[player] += 1
    result.players = [entry["name"] for entry in rules.view(state, PUBLIC)["players"]]
    result.winners = list(rules.winners(state))
    game_kind.stats.count(result, events, state)
    return result


def game_results_record(*, game: Game, appended: list = ()) -> list[SeatResult]:
    """Store ``game``'s per-seat results and set ``game.moves`` (the caller saves
    the game). Replaces any results stored before, so it can be run again.

    Precondition: ``game`` is finished and its log is written, but for the rows
    ``appended`` after it, which are not inserted yet (inside
    ``services.play.events_prepare``: the same transaction, with the game row locked)."""
    stored = Event.objects.filter(game=game).order_by("seq").values_list("payload", flat=True)
    result = tally(game.kind, [*stored, *(row.payload for row in appended)])
    places = result.places()
    finished_at = game.finished_at or game.events.order_by("-seq").values_list("created_at", flat=True).first()
    seats = list(game.seats.all())
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
            place=places.get(seat.player),
            **result.counts(seat.player),
        )
        for seat in seats
    ]
    with transaction.atomic():
        SeatResult.objects.filter(game=game).delete()
        SeatResult.objects.bulk_create(rows)
    game.moves = sum(result.moves.values())
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
