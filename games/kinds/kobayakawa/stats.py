"""Kobayakawa's statistics of a finished game (``games/services/results.py`` stores
them per seat): the players' medals, which rank everyone after the winners.
Kobayakawa has no claims or challenges to count."""

from games.kinds.stats import Stats


class KobayakawaStats(Stats):
    def count(self, tally, events: list, state) -> None:
        """Add Kobayakawa's scores to ``tally``: each player's medals at the end."""
        tally.scores = {p.name: p.medals for p in state.players}
