"""Computer players: pure Python, like the engine, and blind to hidden cards.

A bot answers a decision from its seat's knowledge only (``knowledge.py``): the
events as that seat may see them, folded, and checked against the seat's view.
It never receives the game's state, so no hidden card can reach its choice
(tests/bots/test_view_only.py). ``players.py`` has the levels every kind has
(``default``: the deadline's answer; ``easy``: a few readable rules; ``strong``:
Monte Carlo over the worlds the seat cannot tell apart), and each kind's own
``bots.py`` (``games/kinds/<kind>/bots.py``) what it adds: its knowledge tracker,
its easy rules, and any level of its own (classic Coup's adapter of coupml's
rule-based AI). ``arena.py`` plays matches between levels; ``opinions.py`` weighs a
seat's past decision for the replay's second opinion. A game kind offers its
levels through its ``bots`` part (``Bots``).
"""

import random
from importlib import import_module

from games.bots.knowledge import Budget, SeatKnowledge
from games.bots.players import DefaultPlayer, EasyPlayer, StrongPlayer
from games.kinds import PACKAGES, rules_of

COMMON_LEVELS = ("default", "easy", "strong")


class UnknownBotLevel(ValueError):
    """A bot level that the game kind does not have."""


def levels_of(kind: str) -> tuple:
    """The bot levels of ``kind``, weakest first (the extras last)."""
    return COMMON_LEVELS + tuple(_extra_levels(kind))


def _kind_bots(kind: str):
    """``kind``'s own module for the bots: its knowledge tracker, easy rules,
    playouts and any levels it adds (``EXTRA_LEVELS``, each with its module)."""
    return import_module(f"{PACKAGES[kind]}.bots")


def _extra_levels(kind: str) -> dict[str, str]:
    """The levels ``kind`` adds to the common ones, by name → module: none unless it says."""
    return getattr(_kind_bots(kind), "EXTRA_LEVELS", {})


def bot_for(kind: str, level: str):
    """The bot of ``level`` for ``kind``; raises ``UnknownBotLevel`` with the levels
    there are, or ``ImportError`` saying which package a level needs."""
    if level not in levels_of(kind):
        raise UnknownBotLevel(f"There is no {level!r} bot for {kind}; the levels are: {', '.join(levels_of(kind))}.")
    extra = _extra_levels(kind)
    if level in extra:
        return import_module(extra[level]).Player()
    if level == "default":
        return DefaultPlayer()
    playouts = _kind_bots(kind).PLAYOUTS
    return EasyPlayer(playouts) if level == "easy" else StrongPlayer(playouts)


def knowledge_for(kind: str, seat: str) -> SeatKnowledge:
    """An empty knowledge of a game of ``kind`` for ``seat``: feed it every event
    of the game with ``observe_events`` (it keeps what the seat may see)."""
    tracker = _kind_bots(kind).Tracker()
    return SeatKnowledge(rules_of(kind), tracker, seat)


class Bots:
    """A kind's computer players, as its ``GameKind.bots`` part: loaded only when asked for."""

    def __init__(self, kind: str):
        self.kind = kind

    @property
    def levels(self) -> tuple:
        """The levels a seat of this kind can be given, weakest first: "default" (the
        deadline's answers), "easy" (a few readable rules), "strong" (Monte Carlo over
        the hands it cannot see), and any the kind adds (classic Coup: "treason")."""
        return levels_of(self.kind)

    def bot(self, level: str):
        """The computer player of ``level``: see ``bot_for``."""
        return bot_for(self.kind, level)

    def knowledge(self, seat: str) -> SeatKnowledge:
        """An empty knowledge of a game of this kind for ``seat``: see ``knowledge_for``."""
        return knowledge_for(self.kind, seat)


def decide(bot, knowledge: SeatKnowledge, view: dict, rng: random.Random, budget: Budget) -> dict:
    """``bot``'s answer for its seat, from its knowledge, checked against ``view``
    (the game's view for that seat) first."""
    knowledge.check(view)
    return bot.choose(knowledge, rng, budget)


__all__ = ["Bots", "Budget", "SeatKnowledge", "UnknownBotLevel", "bot_for", "decide", "knowledge_for", "levels_of"]
