"""The statistics a kind keeps of a finished game beyond what every game has."""


class Stats:
    """A kind's own counters: none by default."""

    def count(self, tally, events: list, state) -> None:
        """Add the kind's counters of a finished game's ``events`` and final
        ``state`` to ``tally`` (a ``results.Tally``)."""
