"""A game's name as the dashboard and the game pages write it (``{% load game_names %}``)."""

from django import template

register = template.Library()


@register.filter
def with_variants(name: str, variants: list[str]) -> str:
    """ "Coup · Reformation, Inquisitor"; a game played without variants, or one that
    has none, by its name alone: "Kobayakawa", never "Kobayakawa ·"."""
    return f"{name} · {', '.join(variants)}" if variants else name
