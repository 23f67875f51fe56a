"""Coup's card faces and names for its templates (``{% load coup %}``)."""

from django import template

from ..words.names import card_ability
from ..words.names import card_name as _card_name

register = template.Library()


@register.inclusion_tag("coup/_card.html")
def card(card_id, mode="public", size=""):
    """One card face. ``mode`` decides the data attribute that marks it:
    "hand" (the viewer's own face-down card: data-card), "drawn" (drawn in an
    exchange, the viewer's own: data-card too), "revealed" (lost, face up:
    data-revealed), "shown" (shown in an examination: data-shown), "public"
    (a rules illustration: data-character)."""
    return {
        "id": card_id,
        "name": _card_name(card_id),
        "ability": card_ability(card_id),
        "mode": mode,
        "size": size,
    }


@register.filter
def card_name(card_id):
    return _card_name(card_id)
