"""Kobayakawa's names for players: medals (cards are plain numbers)."""

from django.utils.translation import ngettext


def medals(count) -> str:
    return ngettext("%(count)d medal", "%(count)d medals", count) % {"count": count}
