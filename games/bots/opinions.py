"""A second opinion: what the strong bot would have done at one of a seat's past
decisions, and how each of the seat's options scored.

The bot is given what the seat knew at that moment and nothing more: the
``SeatKnowledge`` folded from the events up to the decision as that seat may see
them (``Event.visible_to``), checked against the seat's view then, exactly as a
bot at the table decides (tests/bots/test_second_opinion.py redeals the unseen
cards and gets the same answer). The seat's decisions are read from the log by
folding it: each decision the seat was awaited at, with at least two answers to
choose from, taken at the last moment it was still awaited (when the seat knew
the most before answering).
"""

import random
from dataclasses import dataclass

from games.bots.knowledge import Budget, SeatKnowledge


@dataclass(frozen=True)
class SeatDecision:
    """One decision of a seat: its ``version`` (the game's number for it, which
    the table and the emails use too), its ``kind`` ("respond", "turn", ...),
    ``upto`` (how many events of the log came before the answer) and the seat's
    ``view`` then (the game's view for that seat: all the words may read)."""

    version: int
    kind: str
    upto: int
    view: dict


def seat_decisions(rules, events, seat: str) -> dict[int, SeatDecision]:
    """The decisions ``seat`` had to make in the game of ``events`` (engine
    ``Event`` objects, in order), by version, in the order they came."""
    state = rules.new_state()
    found: dict[int, SeatDecision] = {}
    for upto, event in enumerate(events, 1):
        rules.apply(state, event)
        awaited = state.awaiting.get(seat)
        if awaited is not None and len(rules.options(state, seat)) > 1:
            found[awaited.id] = SeatDecision(awaited.id, awaited.kind, upto, rules.view(state, seat))
    return found


def weigh_decision(
    strong, knowledge: SeatKnowledge, view: dict, seed: str, worlds: int
) -> tuple[list[tuple[dict, float]], int]:
    """``strong``'s score of each option of the decision ``knowledge``'s seat
    faces, and the index of the one it would choose, from that knowledge only
    (checked against ``view``, the game's view for the seat). The same ``seed``
    and ``worlds`` give the same scores, on any machine: the budget is a count
    of imagined deals, not a time."""
    knowledge.check(view)
    return strong.weigh(knowledge, random.Random(seed), Budget(seconds=float("inf"), worlds=worlds))
