"""Coup's statistics: the characters each player claimed, their claims challenged
and bluffs caught, the challenges they made and won, counted once from a finished
game's log (``games/services/results.py`` stores them per seat), and the panel of
the statistics page that shows their sums."""

from collections import Counter, defaultdict

from django.utils.translation import gettext_lazy as _

from games.kinds.coup.engine.cards import table_for
from games.kinds.stats import KindStats, Panel, Split


class CoupStats(KindStats):
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
        counts = defaultdict(Counter)
        table = table_for(frozenset())
        challenge = None  # (challenger, claimant) while a challenge is open
        for event in events:
            kind, data = event.type, event.data
            if kind == "coup.game.started":
                table = table_for(frozenset(data.get("variants", ())))
            elif kind == "coup.action.declared":
                if data["action"] in table.claims or data["action"] == "embezzle":
                    counts[data["player"]]["claims"] += 1
            elif kind in ("coup.blocked", "coup.inheritance.claimed"):
                counts[data["player"]]["claims"] += 1
            elif kind == "coup.challenged":
                counts[data["player"]]["challenges_made"] += 1
                counts[data["claimant"]]["claims_challenged"] += 1
                challenge = (data["player"], data["claimant"])
            elif kind == "coup.claim.proved":
                challenge = None
            elif kind == "coup.claim.conceded" and challenge:
                challenger, claimant = challenge
                counts[challenger]["challenges_won"] += 1
                counts[claimant]["bluffs_caught"] += 1
                challenge = None
            elif kind == "coup.player.resigned" and challenge and challenge[1] == data["player"]:
                counts[challenge[0]]["challenges_won"] += 1  # the claim counts as conceded
                challenge = None
        return counts


STATS = CoupStats()
