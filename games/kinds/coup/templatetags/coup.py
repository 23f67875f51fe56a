"""Coup's card faces and names for its templates (``{% load coup %}``)."""

from django import template
from django.utils.html import format_html
from django.utils.translation import gettext

from games.kinds.coup.words.names import card_ability
from games.kinds.coup.words.names import card_name as _card_name

register = template.Library()

# The data attribute that marks a card of each mode; any other mode is a rules
# illustration (data-character).
CARD_MARKS = {"hand": "data-card", "drawn": "data-card", "revealed": "data-revealed", "shown": "data-shown"}


@register.simple_tag
def card(card_id, mode="public", size=""):
    """One card face. ``mode`` decides the data attribute that marks it:
    "hand" (the viewer's own face-down card: data-card), "drawn" (drawn in an
    exchange, the viewer's own: data-card too), "revealed" (lost, face up:
    data-revealed), "shown" (shown in an examination: data-shown), "public"
    (a rules illustration: data-character). Written here rather than in a
    template: a table shows up to a dozen cards, and a template per card cost
    more than the rest of the table's seats."""
    ability = "" if size == "small" else format_html('<span class="card__ability">{}</span>', card_ability(card_id))
    # A lost card is struck through and greyed for the eye; the words say it for a
    # screen reader, and tell it from a card of the same character still in play.
    lost = format_html(' <span class="visually-hidden">{}</span>', gettext("(lost)")) if mode == "revealed" else ""
    return format_html(
        '<div class="card card--{id} card--{mode}{size}" {mark}="{id}">\n'
        '  <svg class="card__emblem" viewBox="0 0 40 40" aria-hidden="true" focusable="false">'
        '<use href="#emblem-{id}"></use></svg>\n'
        '  <span class="card__name">{name}{lost}</span>\n'
        "  {ability}\n"
        "</div>\n",
        id=card_id,
        mode=mode,
        size=f" card--{size}" if size else "",
        mark=CARD_MARKS.get(mode, "data-character"),
        name=_card_name(card_id),
        lost=lost,
        ability=ability,
    )


@register.filter
def card_name(card_id):
    return _card_name(card_id)
