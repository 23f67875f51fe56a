"""Coup as the platform sees it: its rules (``engine/``), its words (``words/``),
its templates (``templates/coup/``), its statistics (``stats.py``), each player's
standing answers (``models.py``, edited through ``forms.py``), put together
as the ``GameKind`` the registry hands out (``games/kinds/__init__.py`` declares
each member)."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.kinds.coup.engine import CoupRules
from games.kinds.coup.engine.cards import VARIANTS
from games.kinds.coup.forms import create_fields, standing_answers_form
from games.kinds.coup.models import preferences_of
from games.kinds.coup.stats import STATS
from games.kinds.coup.words import decisions, history, replies, rules, tables


class Coup(CoupRules):
    name = gettext_lazy("Coup")
    variant_ids = VARIANTS
    seats_note = gettext_lazy("Coup: 2 to 10 (from 7 players on, the deck has more copies of each character)")
    variants_note = gettext_lazy("Coup only. Leave all unchecked for the classic game.")
    resign_note = gettext_lazy("Your face-down cards are turned face up and the game goes on without you.")
    out_events = frozenset({"coup.player.eliminated"})
    last_action_types = ("coup.action.declared",)

    stylesheet = "coup/cards.css"
    situation_template = "coup/_situation.html"
    table_template = "coup/_table.html"
    replay_template = "coup/_replay_table.html"
    answer_template = "coup/_answer.html"
    reference_template = "coup/_characters.html"
    email_situation = ("coup/emails/_situation.txt", "coup/emails/_situation.html")
    email_table = ("coup/emails/_table.txt", "coup/emails/_table.html")
    email_table_reads = ("table",)

    variant_choices = staticmethod(rules.variant_choices)
    rules_summary = staticmethod(rules.rules_summary)
    decision_prompt = staticmethod(decisions.decision_prompt)
    onlooker_prompt = staticmethod(decisions.onlooker_prompt)
    labeler = staticmethod(decisions.Context)
    option_label = staticmethod(decisions.option_label)
    option_style = staticmethod(decisions.option_style)
    option_group = staticmethod(decisions.option_group)
    waits_for = staticmethod(decisions.waits_for)
    history_lines = staticmethod(history.lines)
    history_story = staticmethod(history.CoupStory)
    history_continued = staticmethod(history.continued)
    last_action = staticmethod(tables.last_action)
    reply_word = staticmethod(replies.reply_word)
    read_reply = staticmethod(replies.read_reply)
    table = staticmethod(tables.table)
    replay_table = staticmethod(tables.replay_table)
    email_context = staticmethod(tables.email_context)
    stats = STATS
    create_fields = staticmethod(create_fields)
    preferences_form = staticmethod(standing_answers_form)

    @staticmethod
    def player_preferences(user) -> dict:
        return preferences_of(user).as_engine_preferences()

    @staticmethod
    def variant_names(variants) -> list[str]:
        return [rules.variant_name(v) for v in variants] or [_("Classic")]

    @staticmethod
    def static_context(variants) -> dict:
        return {"characters": rules.characters(variants), "reference": rules.reference(variants)}


KIND = Coup()
