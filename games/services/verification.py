"""Every game's log checked end to end, and its snapshot against it.

A game's ``snapshot`` is a cache of its log and must always equal a full replay
(docs/services.md). ``games_verify`` checks every game that has one and reports each
whose log is broken (a gap in its sequence numbers, an event naming a seat the game
does not have, a row that does not match the log's hash chain, ``games.chain``), or
whose snapshot differs from a replay, or whose log cannot be replayed, and marks it
for attention: ``manage.py verify_games`` prints them, and beat runs
``tasks.verify_games`` daily.
"""

import json
from dataclasses import dataclass

from django.db.models import Prefetch

from games.chain import event_hash
from games.engine.seats import seat_player
from games.kinds import KINDS
from games.models import Event, Game, Seat
from games.services.attention import game_attention_mark

# What the check reads of a game: its log's length and head, with the snapshot they go with.
VERIFIED_FIELDS = ("pk", "kind", "version", "log_hash", "snapshot")


@dataclass(frozen=True)
class Mismatch:
    game_id: int
    kind: str
    version: int
    problem: str  # for the operator, in English like the rest of the admin


def games_verify() -> tuple[int, list[Mismatch]]:
    """(how many games were checked, those whose log or snapshot is not right)."""
    checked, mismatches = 0, []
    games = (
        Game.objects.filter(snapshot__isnull=False)
        .only(*VERIFIED_FIELDS)
        .prefetch_related(Prefetch("seats", Seat.objects.only("game_id", "position")))
        .order_by("pk")
    )
    for game in games.iterator(chunk_size=100):
        checked += 1
        problem = _problem(game)
        if problem is not None:
            mismatches.append(Mismatch(game.pk, game.kind, game.version, problem))
            game_attention_mark(game_id=game.pk, during=f"verification: {problem}")
    return checked, mismatches


def _problem(game: Game) -> str | None:
    # The game row read is the state at its version; events appended since (a move
    # made meanwhile) are left out, so a live game never differs.
    rows = list(
        Event.objects.filter(game=game, seq__lt=game.version)
        .order_by("seq")
        .values_list("seq", "type", "payload", "hash")
    )
    problem = _log_problem(game, rows)
    if problem is not None:
        return problem
    try:
        rules = KINDS[game.kind].rules
        replayed = json.loads(json.dumps(rules.dump(rules.replay([payload for _seq, _type, payload, _hash in rows]))))
    except Exception:  # whatever the engine cannot replay is reported, not raised
        return "its log cannot be replayed"
    if replayed != game.snapshot:
        return "its snapshot differs from a replay of its log"
    return None


def _log_problem(game: Game, rows: list) -> str | None:
    """What is wrong with the log's rows ``(seq, type, payload, hash)`` read up to the
    game's version, in order: a missing sequence number, an event naming a player
    who has no seat (its actor, or one it shows a secret to), a row whose hash does
    not follow from the one before it, or a last hash other than the game's."""
    expected_seq = 0
    for seq, _type, _payload, _hash in rows:
        if seq != expected_seq:
            return f"its log has no event {expected_seq} (the next is {seq})"
        expected_seq += 1
    if len(rows) != game.version:
        return f"its log has {len(rows)} events, its version says {game.version}"
    seated = {seat_player(seat.position) for seat in game.seats.all()}
    head = ""
    for seq, event_type, payload, stored_hash in rows:
        named = {payload.get("data", {}).get("player"), *payload.get("seen_by", ())} - {None}
        if not named <= seated:
            return f"its event {seq} names {', '.join(sorted(named - seated))}, who has no seat"
        head = event_hash(head, game_id=game.pk, seq=seq, type=event_type, payload=payload)
        if head != stored_hash:
            return f"its event {seq} does not match the log's hash chain: the row was changed"
    if head != game.log_hash:
        return "its last event's hash is not the game's: the log was changed"
    return None
