"""Kobayakawa's decisions in words (``engine/decisions.py`` declares their rules):
the label of every answer and the prompts."""

from django.utils.translation import gettext as _

from games.kinds.kobayakawa.engine.decisions import DECISIONS
from games.kinds.kobayakawa.words.names import medals
from games.kinds.words import Words


class Labels:
    """What the labels of an answer need: the viewer's own view."""

    def __init__(self, view, viewer, names, variants=()):
        self.view = view
        self.viewer = viewer
        self.names = names
        self.me: dict = next((p for p in view.get("players", []) if p["name"] == viewer), {})


def _label_draw(option, ctx):
    return _("Draw the top card, then discard one of your two cards")


def _label_flip(option, ctx):
    return _("Flip the top card onto the Kobayakawa card (now %(card)s)") % {"card": ctx.view.get("kobayakawa")}


def _label_discard(option, ctx):
    mine = [c for c in (ctx.me.get("card"), ctx.me.get("drawn")) if isinstance(c, int)]
    others = [c for c in mine if c != option.get("card")]
    if others:
        return _("Discard %(card)s, keep %(kept)s") % {"card": option.get("card"), "kept": others[0]}
    return _("Discard %(card)s") % {"card": option.get("card")}


def _label_bet(option, ctx):
    return _("Bet %(medals)s") % {"medals": medals(option["medals"])}


def _label_pass(option, ctx):
    return _("Pass — keep your medals out of this round")


# A label per answer, by decision.
LABELS = {
    "turn": {"draw": _label_draw, "flip": _label_flip},
    "discard": {"discard": _label_discard},
    "bet": {"bet": _label_bet, "pass": _label_pass},
}
STYLES = {"bet": "risky", "pass": "quiet"}


class KobayakawaWords(Words):
    def decision_prompt(self, decision) -> str:
        return _(DECISIONS[decision].prompt) if decision in DECISIONS else str(decision)

    def labeler(self, view, viewer, names, variants) -> Labels:
        return Labels(view, viewer, names, variants)

    def option_label(self, option, labeler: Labels, decision) -> str:
        act = option.get("act")
        label = LABELS.get(decision, {}).get(act)
        return label(option, labeler) if label else act or "?"

    def option_style(self, option) -> str:
        return STYLES.get(option.get("act"), "plain")
