"""Replays of finished games.

A replay steps through a finished game one history sentence at a time, with
every hand shown: once a game is over nothing in it is secret any more, so each
step's table is the engine's omniscient view (``omniscient_view(state)``). That view
must never reach the page of a game still in play, so ``replay_context`` refuses
one (and the view answers 404 before asking).

A step is one sentence of the history (``pages.with_seat_changes``: the kind's
sentences, told to the viewing player so "You drew: Duke" reads as it did during
the game, and the bots taking seats over). Its table is the state
folded up to the event of the next sentence, so the bookkeeping that follows a
sentence (who is awaited, a shuffle) is part of it. The log is read and folded
once per request, only as far as the step shown: cheap for a single game.
"""

from games.kinds import KINDS
from games.models import Game
from games.selectors import events_of, own_names, player_names, seats_of, stand_ins_of
from games.web.pages import with_seat_changes


class ReplayRefused(Exception):
    """A replay was asked of a game that is not finished: it would show hands."""


def replayable(game: Game) -> bool:
    """Only a finished game may be replayed: a replay shows every hand."""
    return game.status == Game.Status.FINISHED


def step_number(raw, count: int) -> int:
    """The step asked for in the query string (1-based), kept within the game."""
    try:
        number = int(raw)
    except (TypeError, ValueError):
        return 1
    return min(max(number, 1), max(count, 1))


def replay_context(game: Game, seat, step) -> dict:
    """The template context of step ``step`` of ``game``'s replay, for ``seat``'s player."""
    if not replayable(game):
        raise ReplayRefused(game.pk)
    game_kind = KINDS[game.kind]
    seats = seats_of(game)
    names = player_names(game, seats)
    stored = events_of(game)
    events = [{**payload, "seq": seq} for seq, payload in stored]
    told = game_kind.history.lines(events, seat.player, own_names(seats), stand_ins_of(game, seats))
    lines = with_seat_changes(game, told, seats=seats)
    count = len(lines)
    number = step_number(step, count)
    until = lines[number].seq if number < count else None  # the event of the next sentence
    state = game_kind.rules.replay(payload for seq, payload in stored if until is None or seq < until)
    view = game_kind.rules.omniscient_view(state)  # the game is over
    return {
        "game": game,
        "seat": seat,
        "step": number,
        "count": count,
        "line": lines[number - 1] if lines else None,
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < count else None,
        "lines": [{"number": index, "text": line.text, "turn": line.turn} for index, line in enumerate(lines, 1)],
        "game_name": game_kind.name,
        "variants": game_kind.about.variant_names(game.variants),
        "replay_template": game_kind.templates.replay,
        "winner": _winners(view, names),
        **game_kind.templates.replay_context(game, view, seat.player, names),
    }


def _winners(view: dict, names: dict) -> str | None:
    winner: str | list[str] | None = view.get("winner")
    winners = winner if isinstance(winner, list) else [winner] if winner else []
    return ", ".join(names.get(w, w) for w in winners) or None
