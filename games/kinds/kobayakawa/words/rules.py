"""Kobayakawa's rules for players: the rules summary of every game page and the
card reference always at hand on the table."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.kinds.base import About
from games.kinds.kobayakawa.engine.rules import (
    BET,
    CARDS,
    LAST_ROUND_BET,
    LAST_ROUND_CENTRE,
    START_CENTRE,
    START_MEDALS,
)
from games.kinds.kobayakawa.words.names import medals


class KobayakawaAbout(About):
    seats_note = gettext_lazy("Kobayakawa: 3 to 6")
    resign_note = gettext_lazy("Your medals leave the game and the game goes on without you.")

    def rules_summary(self, variants=()) -> list[str]:
        return [
            _(
                "Kobayakawa is played with cards numbered 1 to 15. Each player starts with 4 medals; 8 more lie in "
                "the centre. Each round every player is dealt one card face down and the next card is turned face "
                "up: the Kobayakawa card."
            ),
            _(
                "In turn order, each player either draws the top card, keeps one of their two cards and discards "
                "the other face up, or flips the top card onto the Kobayakawa card, replacing its value."
            ),
            _(
                "Then, in turn order, each player bets a medal or passes. The bettors show their cards; the bettor "
                "with the lowest card adds the Kobayakawa value to it. The highest total wins (a tie goes to the "
                "earlier player); a lone bettor wins without showing. The winner takes every bet and one medal "
                "from the centre. If nobody bets, the round is dealt again."
            ),
            _(
                "When only 2 medals are left in the centre, the round is the last: a bet costs 2 medals (or your "
                "only one) and the winner takes both. A player with no medals is out. Most medals at the end wins; "
                "equal most is a shared win."
            ),
        ]


def reference() -> dict:
    """The card reference always at hand on the table: the cards, what each answer
    does and costs, how a round is scored, and the medals. Rules only: the same
    for every viewer."""
    low, high = CARDS[0], CARDS[-1]
    # A showdown worked through: the lowest card plus the Kobayakawa card beats both higher cards.
    lowest, middle, highest, kobayakawa = 3, 9, 12, 10
    return {
        "cards": [
            _("%(count)d cards, numbered %(low)d to %(high)d, one of each.")
            % {"count": len(CARDS), "low": low, "high": high},
            _("Your card: face down, only you see it. Discards: face up, in front of whoever discarded them."),
            _(
                "The Kobayakawa card: face up in the centre. At the showdown its value goes to the bettor with the "
                "lowest card."
            ),
        ],
        "turn": [
            {
                "term": _("Draw"),
                "text": _(
                    "Take the top card, then keep one of your two cards and discard the other face up: everyone "
                    "sees the card you let go."
                ),
            },
            {
                "term": _("Flip"),
                "text": _(
                    "Turn the top card face up onto the Kobayakawa card: its number becomes the Kobayakawa value. "
                    "Your own card does not change."
                ),
            },
        ],
        "bets": [
            {
                "term": _("Bet"),
                "text": _(
                    "Costs %(bet)s; in the last round %(last)s, or your only medal. Only bettors can win the round."
                )
                % {"bet": medals(BET), "last": medals(LAST_ROUND_BET)},
            },
            {"term": _("Pass"), "text": _("Costs nothing; you sit the showdown out.")},
        ],
        "scoring": [
            _("Every bettor shows their card. A lone bettor wins without showing it."),
            _("The bettor with the lowest card adds the Kobayakawa value to it."),
            _("The highest total wins; a tie goes to the earlier player in turn order."),
            _(
                "The winner takes back their bet, takes every other bet, and takes %(centre)s from the centre (in "
                "the last round, both)."
            )
            % {"centre": medals(1)},
            _("If nobody bets, the round is dealt again with the same first player; the centre keeps its medals."),
        ],
        "example": _(
            "Example: the bettors hold %(lowest)d, %(middle)d and %(highest)d and the Kobayakawa card is "
            "%(kobayakawa)d. The %(lowest)d becomes %(total)d and beats %(highest)d: its holder wins."
        )
        % {
            "lowest": lowest,
            "middle": middle,
            "highest": highest,
            "kobayakawa": kobayakawa,
            "total": lowest + kobayakawa,
        },
        "medals": [
            _("At the start: %(each)s each, %(centre)s in the centre.")
            % {"each": medals(START_MEDALS), "centre": medals(START_CENTRE)},
            _("When %(centre)s remain in the centre, the round is the last.") % {"centre": medals(LAST_ROUND_CENTRE)},
            _("A player left with no medals is out."),
            _("After the last round, the most medals wins; equal most is a shared win."),
        ],
    }
