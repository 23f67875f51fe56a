"""Where the engine's randomness comes from.

Every random outcome is decided here when a command is handled and then written
into the events, so replaying a log never asks the dealer again.
"""

import random
import secrets
from typing import Protocol


class Dealer(Protocol):
    """What the rules ask of every dealer below."""

    scripted: bool
    """Whether its outcomes are fixed by a scenario's text rather than drawn."""

    def shuffle(self, cards: list) -> list:
        """A new list of ``cards`` in the order the dealer gives them."""

    def pick(self, options: list):
        """One of ``options``."""


class LiveDealer:
    """Real games: cryptographically strong shuffles and picks."""

    scripted = False

    def __init__(self):
        self._random: random.Random = secrets.SystemRandom()

    def shuffle(self, cards: list) -> list:
        shuffled = list(cards)
        self._random.shuffle(shuffled)
        return shuffled

    def pick(self, options: list):
        return self._random.choice(options)


class SeededDealer(LiveDealer):
    """Reproducible random games for benchmarks and property tests."""

    def __init__(self, seed):
        self._random = random.Random(seed)


class ScriptedDealer:
    """Scenario files: decks are never shuffled and picks take the
    alphabetically first option, so a scenario's outcome is fixed by its text."""

    scripted = True

    def shuffle(self, cards: list) -> list:
        return list(cards)

    def pick(self, options: list):
        return min(options)


class PlayoutDealer(LiveDealer):
    """Simulations and the benchmark: draws from the random source it is given
    (reproducible, and shared with the playout's other draws, so that replaying a
    playout takes one reseeding), with a shuffle that sorts by random keys (as
    uniform, and several times faster than ``random.shuffle`` for a short deck:
    playouts shuffle the court often)."""

    def __init__(self, source: random.Random):
        self._random = source
        self._key = lambda card, rand=source.random: rand()

    def shuffle(self, cards: list) -> list:
        return sorted(cards, key=self._key)
