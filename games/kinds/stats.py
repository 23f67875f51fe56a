"""What a game kind counts of each player's finished games, and how the statistics
page shows it: the kind's ``stats`` part (``GameKind.stats``), an object of this base.

The platform stores what every game has in ``SeatResult``'s columns (the place,
from the rules' ``standings``, and the decisions made: ``games/services/results.py``),
and each seat's counts of the kind's own ideas in its ``counters`` JSON, under the
names the kind declares here. The statistics page sums them per kind and shows each
kind's ``panels``. The base counts nothing and shows nothing: a kind states only
what it has.
"""

from collections import Counter
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Split:
    """A line of a statistics panel: the sum of the counter ``part`` out of the sum of
    the counter ``whole``, in words (``text``: a lazily translated sentence with
    ``%(part)s``, ``%(whole)s`` and ``%(rate)s``, the percentage) and as a bar whose
    two sides are named ``part_label`` and ``rest_label``."""

    part: str
    whole: str
    text: Any
    part_label: Any
    rest_label: Any


@dataclass(frozen=True)
class Panel:
    """A section of the statistics page: its heading and its lines."""

    title: Any
    splits: tuple[Split, ...]


class Stats:
    counters: tuple[str, ...] = ()
    """The names of the kind's counters, stored per seat (no ``__`` in a name:
    the statistics query reads each as a JSON key path)."""

    panels: tuple[Panel, ...] = ()
    """What the statistics page shows of their sums, in order."""

    def count(self, events: list) -> dict[str, Counter]:
        """Each player's counters in a finished game's ``events`` (engine events, in
        order): ``{player: Counter({counter: number})}``; a counter a player never
        scored may be left out."""
        return {}
