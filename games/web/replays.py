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

A step also lists the viewer's own decisions made during it, each with the strong
bot's second opinion on it (``games.services.opinions``): asked for, waiting for
a worker, or weighed. Their words are read from the viewer's own view at that
decision, never the omniscient one: the opinion says what the seat could know.
"""

from games.bots.opinions import SeatDecision, seat_decisions
from games.engine.events import Event as EngineEvent
from games.kinds import KINDS
from games.models import Game, SecondOpinion
from games.selectors import events_of, own_names, player_names, seats_of, stand_ins_of
from games.selectors.opinions import second_opinions_of
from games.services.opinions import seat_decision
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
    decisions = seat_decisions(
        game_kind.rules, [EngineEvent.from_json(payload) for _seq, payload in stored], seat.player
    )
    starts = [line.seq for line in lines]
    here = [
        decision for decision in decisions.values() if count and step_of(starts, stored[decision.upto - 1][0]) == number
    ]
    steps_decided = {step_of(starts, stored[decision.upto - 1][0]) for decision in decisions.values()}
    return {
        "game": game,
        "seat": seat,
        "step": number,
        "count": count,
        "line": lines[number - 1] if lines else None,
        "previous": number - 1 if number > 1 else None,
        "next": number + 1 if number < count else None,
        "lines": [
            {"number": index, "text": line.text, "turn": line.turn, "decided": index in steps_decided}
            for index, line in enumerate(lines, 1)
        ],
        "decisions": opinions_of(game, seat, here, names),
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


def step_of(starts: list[int], seq: int) -> int:
    """The step during which event ``seq`` happened: the last whose sentence was told by then."""
    return max(1, sum(1 for start in starts if start <= seq))


def opinions_of(game: Game, seat, decisions: list[SeatDecision], names: dict) -> list[dict]:
    """The template context of ``decisions`` of ``seat`` with their second opinions."""
    asked = second_opinions_of(game, seat, [decision.version for decision in decisions])
    return [opinion_context(game, seat, decision, asked.get(decision.version), names) for decision in decisions]


def second_opinion_context(game: Game, seat, version: int) -> dict:
    """The template context of ``seat``'s decision ``version`` with the bot's opinion
    on it; raises ``ServiceError`` (``seat_decision``) before the game is over or
    when the decision is not the seat's."""
    decision = seat_decision(game, seat, version)
    opinion = second_opinions_of(game, seat, [version]).get(version)
    return opinion_context(game, seat, decision, opinion, player_names(game))


def opinion_context(game: Game, seat, decision: SeatDecision, opinion: SecondOpinion | None, names: dict) -> dict:
    """One decision of ``seat`` and the bot's opinion on it, in words read from the
    seat's own view then: what it asked, and once weighed each option's label and
    score (a share of the simulated games, in percent), the bot's choice marked.
    Its choice may score a little less than another option (``outscored``): the
    bot keeps to the easy player's answer unless another beats it clearly."""
    words = KINDS[game.kind].words
    context = {
        "game": game,
        "version": decision.version,
        "asks": words.waits_for(decision.kind, decision.view, seat.player, names),
        "asked": opinion is not None,
    }
    weighed: list[dict] | None = opinion.weighed if opinion is not None else None
    if opinion is None or weighed is None:
        return context
    labeler = words.labeler(decision.view, seat.player, names, game.variants)
    top = max(range(len(weighed)), key=lambda index: weighed[index]["score"])
    choice = next((index for index, option in enumerate(weighed) if option.get("chosen")), top)
    options = [
        {
            "label": words.option_label(option["option"], labeler, decision.kind),
            "percent": round(100 * option["score"]),
            "best": index == choice,
        }
        for index, option in enumerate(weighed)
    ]
    return {
        **context,
        "weighed": options,
        "choice": options[choice]["label"],
        "outscored": weighed[top]["score"] > weighed[choice]["score"],
        "worlds": opinion.worlds,
    }
