"""Coup's statistics of a finished game (``games/results.py`` stores them per seat):
the characters each player claimed, their claims challenged and bluffs caught,
the challenges they made and won, and the order players went out (the last one
knocked out comes second)."""

from games.kinds.coup.engine.cards import table_for
from games.kinds.stats import Stats


class CoupStats(Stats):
    def count(self, tally, events: list, state) -> None:
        """Add Coup's counters of ``events`` (a finished game's log) to ``tally``."""
        _count(tally, events)


def _count(tally, events: list) -> None:
    table = table_for(frozenset())
    challenge = None  # (challenger, claimant) while a challenge is open
    for event in events:
        kind, data = event.type, event.data
        if kind == "coup.game.started":
            table = table_for(frozenset(data.get("variants", ())))
        elif kind == "coup.action.declared":
            # An action claims a character, or (Embezzlement) to hold none.
            if data["action"] in table.claims or data["action"] == "embezzle":
                tally.claims[data["player"]] += 1
        elif kind in ("coup.blocked", "coup.inheritance.claimed"):
            tally.claims[data["player"]] += 1
        elif kind == "coup.challenged":
            tally.challenges_made[data["player"]] += 1
            tally.claims_challenged[data["claimant"]] += 1
            challenge = (data["player"], data["claimant"])
        elif kind == "coup.claim.proved":
            challenge = None
        elif kind == "coup.claim.conceded" and challenge:
            challenger, claimant = challenge
            tally.challenges_won[challenger] += 1
            tally.bluffs_caught[claimant] += 1
            challenge = None
        elif kind == "coup.player.resigned" and challenge and challenge[1] == data["player"]:
            tally.challenges_won[challenge[0]] += 1  # the claim counts as conceded
            challenge = None
        elif kind == "coup.player.eliminated":
            tally.eliminated.append(data["player"])
