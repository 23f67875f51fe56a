"""The history's turns as the game page and the history page list them
(``{% load history_turns %}{% history_turns turns %}``, ``turns`` from
``games.web.pages.turns``): written here rather than in a template, since a page
lists tens of lines and a template's loop costs more than the rest of its
history (the markup is the same)."""

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe

register = template.Library()


@register.simple_tag
def history_turns(turns: list[dict]) -> str:
    """Each turn an ordered list, the latest first and marked so; a line starting a
    turn marked too; each line's text escaped."""
    parts = []
    for index, turn in enumerate(turns):
        lines = "".join(
            f'<li data-seq="{line.seq}"{' class="turn-start"' if line.turn else ""}>{conditional_escape(line.text)}</li>'
            for line in turn["lines"]
        )
        parts.append(f'\n  <ol class="turn{" turn--latest" if index == 0 else ""}">\n    {lines}\n  </ol>\n')
    return mark_safe("".join(parts) + "\n")
