"""Coup's statistics: the characters each player claimed, their claims challenged
and bluffs caught, the challenges they made and won, counted once from a finished
game's log (``games/services/results.py`` stores them per seat), and the panel of
the statistics page that shows their sums."""

from collections import Counter, defaultdict

from django.utils.translation import gettext_lazy as _

from games.kinds.coup.engine.cards import rulebook_for
from games.kinds.stats import Panel, Split, Stats


class _Tally:
    """The counts of one game's log so far, and what the next event needs of it:
    the rulebook of its variants and the challenge open (challenger, claimant)."""

    def __init__(self):
        self.counts: dict[str, Counter] = defaultdict(Counter)
        self.rulebook = rulebook_for(frozenset())
        self.challenge: tuple[str, str] | None = None

    def bluff_caught(self, challenger: str, claimant: str) -> None:
        """The open challenge (``challenger``, ``claimant``) caught a bluff."""
        self.counts[challenger]["challenges_won"] += 1
        self.counts[claimant]["bluffs_caught"] += 1
        self.challenge = None


def _started(tally: _Tally, data: dict) -> None:
    tally.rulebook = rulebook_for(frozenset(data.get("variants", ())))


def _declared(tally: _Tally, data: dict) -> None:
    # An action claims a character, or (Embezzlement) to hold none.
    if tally.rulebook.claims.get(data["action"]) or tally.rulebook.disclaims.get(data["action"]):
        tally.counts[data["player"]]["claims"] += 1


def _claimed(tally: _Tally, data: dict) -> None:
    tally.counts[data["player"]]["claims"] += 1


def _challenged(tally: _Tally, data: dict) -> None:
    tally.counts[data["player"]]["challenges_made"] += 1
    tally.counts[data["claimant"]]["claims_challenged"] += 1
    tally.challenge = (data["player"], data["claimant"])


def _proved(tally: _Tally, data: dict) -> None:
    tally.challenge = None


def _conceded(tally: _Tally, data: dict) -> None:
    if tally.challenge:
        tally.bluff_caught(*tally.challenge)


def _resigned(tally: _Tally, data: dict) -> None:
    if tally.challenge and tally.challenge[1] == data["player"]:
        tally.bluff_caught(*tally.challenge)  # a claimant who resigns while challenged abandons the claim


COUNTED = {
    "coup.game.started": _started,
    "coup.action.declared": _declared,
    "coup.blocked": _claimed,
    "coup.inheritance.claimed": _claimed,
    "coup.challenged": _challenged,
    "coup.claim.proved": _proved,
    "coup.claim.conceded": _conceded,
    "coup.player.resigned": _resigned,
}


class CoupStats(Stats):
    counters = ("claims", "claims_challenged", "bluffs_caught", "challenges_made", "challenges_won")
    panels = (
        Panel(
            title=_("Challenges and bluffs"),
            splits=(
                Split(
                    part="challenges_won",
                    whole="challenges_made",
                    text=_("Your challenges: %(part)s of %(whole)s succeeded (%(rate)s%%)."),
                    part_label=_("succeeded"),
                    rest_label=_("failed"),
                ),
                Split(
                    part="claims_challenged",
                    whole="claims",
                    text=_("Your claims: %(part)s of %(whole)s were challenged (%(rate)s%%)."),
                    part_label=_("challenged"),
                    rest_label=_("unchallenged"),
                ),
                Split(
                    part="bluffs_caught",
                    whole="claims_challenged",
                    text=_("Caught bluffing: %(part)s of your %(whole)s challenged claims (%(rate)s%%)."),
                    part_label=_("caught"),
                    rest_label=_("proved"),
                ),
            ),
        ),
    )

    def count(self, events: list) -> dict[str, Counter]:
        """Claims (an action's character, Embezzlement's claim to hold none, a block, a
        Lawyer's claim to an estate), challenges made and won, claims challenged and
        bluffs caught (a challenged claim conceded, or abandoned by resigning)."""
        tally = _Tally()
        for event in events:
            counted = COUNTED.get(event.type)
            if counted is not None:
                counted(tally, event.data)
        return tally.counts
