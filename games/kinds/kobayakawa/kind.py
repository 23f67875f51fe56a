"""Kobayakawa as the platform sees it: its rules (``engine/``), its words
(``words.py``), its templates (``templates/kobayakawa/``), its statistics
(``stats.py``), put together as the ``GameKind`` the registry hands out
(``games/kinds/__init__.py`` declares each member)."""

from django.utils.translation import gettext_lazy

from games.kinds.base import KindBase
from games.kinds.kobayakawa import words
from games.kinds.kobayakawa.engine import KobayakawaRules
from games.kinds.kobayakawa.stats import STATS


class Kobayakawa(KindBase, KobayakawaRules):
    name = gettext_lazy("Kobayakawa")
    resign_note = gettext_lazy("Your medals leave the game and the game goes on without you.")
    seats_note = gettext_lazy("Kobayakawa: 3 to 6")
    out_events = frozenset({"kobayakawa.player.out"})
    last_action_types = (
        "kobayakawa.card.discarded",
        "kobayakawa.card.flipped",
        "kobayakawa.bet.placed",
        "kobayakawa.bet.passed",
    )

    situation_template = "kobayakawa/_situation.html"
    table_template = "kobayakawa/_table.html"
    replay_template = "kobayakawa/_replay_table.html"
    answer_template = "kobayakawa/_answer.html"
    reference_template = "kobayakawa/_reference.html"
    email_situation = ("kobayakawa/emails/_situation.txt", "kobayakawa/emails/_situation.html")
    email_table = ("kobayakawa/emails/_table.txt", "kobayakawa/emails/_table.html")
    email_table_reads = ("table", "centre")

    rules_summary = staticmethod(words.rules_summary)
    decision_prompt = staticmethod(words.decision_prompt)
    labeler = staticmethod(words.Labels)
    option_label = staticmethod(words.option_label)
    option_style = staticmethod(words.option_style)
    waits_for = staticmethod(words.waits_for)
    history_lines = staticmethod(words.history_lines)
    history_story = staticmethod(words.Story)
    history_continued = staticmethod(words.history_continued)
    last_action = staticmethod(words.last_action)
    reply_word = staticmethod(words.reply_word)
    read_reply = staticmethod(words.read_reply)
    table = staticmethod(words.table)
    replay_table = staticmethod(words.replay_table)
    email_context = staticmethod(words.email_context)
    stats = STATS

    @staticmethod
    def static_context(variants) -> dict:
        return {"reference": words.reference()}


KIND = Kobayakawa()
