"""Every game's snapshot checked against its event log.

A game's ``snapshot`` is a cache of its log and must always equal a full replay
(docs/services.md). ``games_verify`` replays every game that has one and reports each
that differs, or whose log cannot be replayed, and marks it for attention:
``manage.py verify_games`` prints them, and beat runs ``tasks.verify_games`` daily.
"""

import json
from dataclasses import dataclass

from games.kinds import KINDS
from games.models import Event, Game
from games.services.attention import game_attention_mark


@dataclass(frozen=True)
class Mismatch:
    game_id: int
    kind: str
    version: int
    problem: str  # for the operator, in English like the rest of the admin


def games_verify() -> tuple[int, list[Mismatch]]:
    """(how many games were checked, those whose snapshot does not match their log)."""
    checked, mismatches = 0, []
    games = Game.objects.filter(snapshot__isnull=False).only("pk", "kind", "version", "snapshot").order_by("pk")
    for game in games.iterator(chunk_size=100):
        checked += 1
        problem = _problem(game)
        if problem is not None:
            mismatches.append(Mismatch(game.pk, game.kind, game.version, problem))
            game_attention_mark(game_id=game.pk, during=f"verification: {problem}")
    return checked, mismatches


def _problem(game: Game) -> str | None:
    # The snapshot read with the row is the state at its version; events appended
    # since (a move made meanwhile) are left out, so a live game never differs.
    payloads = list(
        Event.objects.filter(game=game, seq__lt=game.version).order_by("seq").values_list("payload", flat=True)
    )
    if len(payloads) != game.version:
        return f"its log has {len(payloads)} events, its version says {game.version}"
    try:
        rules = KINDS[game.kind].rules
        replayed = json.loads(json.dumps(rules.dump(rules.replay(payloads))))
    except Exception:  # whatever the engine cannot replay is reported, not raised
        return "its log cannot be replayed"
    if replayed != game.snapshot:
        return "its snapshot differs from a replay of its log"
    return None
