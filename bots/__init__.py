"""Computer players: pure Python, like the engine, and blind to hidden cards.

A bot answers a decision from its seat's knowledge only (``knowledge.py``): the
events as that seat may see them, folded, and checked against the seat's view.
It never receives the game's state, so no hidden card can reach its choice
(tests/bots/test_view_only.py). ``players.py`` has the levels every kind has
(``default``: the deadline's answer; ``easy``: a few readable rules; ``strong``:
Monte Carlo over the worlds the seat cannot tell apart), ``coup.py`` and
``kobayakawa.py`` what each kind adds (its knowledge tracker and easy rules),
``treason.py`` the classic-Coup adapter of coupml's rule-based AI, ``arena.py``
matches between levels. A game kind lists its levels in ``GameKind.bot_levels``
and hands one out with ``GameKind.bot(level)``.
"""

import random
from importlib import import_module

from games.kinds import rules_of

from .knowledge import Budget, SeatKnowledge
from .players import DefaultPlayer, EasyPlayer, StrongPlayer

# Each kind's module of knowledge and easy rules, and its levels beyond the common three.
KIND_MODULES = {"coup": "bots.coup", "kobayakawa": "bots.kobayakawa"}
COMMON_LEVELS = ("default", "easy", "strong")
EXTRA_LEVELS = {"coup": ("treason",), "kobayakawa": ()}


class UnknownBotLevel(ValueError):
    """A bot level that the game kind does not have."""


def levels_of(kind: str) -> tuple:
    """The bot levels of ``kind``, weakest first (the extras last)."""
    return COMMON_LEVELS + EXTRA_LEVELS[kind]


def bot_for(kind: str, level: str):
    """The bot of ``level`` for ``kind``; raises ``UnknownBotLevel`` with the levels
    there are, or ``ImportError`` saying which package a level needs."""
    if level not in levels_of(kind):
        raise UnknownBotLevel(f"There is no {level!r} bot for {kind}; the levels are: {', '.join(levels_of(kind))}.")
    if level == "treason":
        return import_module("bots.treason").TreasonPlayer()
    if level == "default":
        return DefaultPlayer()
    playouts = import_module(KIND_MODULES[kind]).PLAYOUTS
    return EasyPlayer(playouts) if level == "easy" else StrongPlayer(playouts)


def knowledge_for(kind: str, seat: str) -> SeatKnowledge:
    """An empty knowledge of a game of ``kind`` for ``seat``: feed it every event
    of the game with ``observe_events`` (it keeps what the seat may see)."""
    tracker = import_module(KIND_MODULES[kind]).Tracker()
    return SeatKnowledge(rules_of(kind), tracker, seat)


def decide(bot, knowledge: SeatKnowledge, view: dict, rng: random.Random, budget: Budget) -> dict:
    """``bot``'s answer for its seat, from its knowledge, checked against ``view``
    (the game's view for that seat) first."""
    knowledge.check(view)
    return bot.choose(knowledge, rng, budget)


__all__ = ["Budget", "SeatKnowledge", "UnknownBotLevel", "bot_for", "decide", "knowledge_for", "levels_of"]
