"""Card visuals and names for the templates."""

from django import template

from games import labels

register = template.Library()


@register.inclusion_tag("games/_card.html")
def card(card_id, mode="public", size=""):
    """One card face. ``mode`` decides the data attribute that marks it:
    "hand" (the viewer's own face-down card: data-card), "drawn" (drawn in an
    exchange, the viewer's own: data-card too), "revealed" (lost, face up:
    data-revealed), "shown" (shown in an examination: data-shown), "public"
    (a rules illustration: data-character)."""
    return {
        "id": card_id,
        "name": labels.card_name(card_id),
        "ability": labels.card_ability(card_id),
        "mode": mode,
        "size": size,
    }


@register.filter
def card_name(card_id):
    return labels.card_name(card_id)
