"""The history's turns as the game page and the history page list them
(``{% load history_turns %}{% history_turns turns %}``, ``turns`` from
``games.web.pages.turns``): a tag rather than a template loop, since every poll
of the game page lists them and a loop renders them several times slower."""

from django import template
from django.utils.html import format_html, format_html_join

register = template.Library()

TURN = '\n  <ol class="{}">\n    {}\n  </ol>\n'
LINE = '<li data-seq="{}">{}</li>'
TURN_START = '<li data-seq="{}" class="turn-start">{}</li>'


@register.simple_tag
def history_turns(turns: list[dict]) -> str:
    """Each turn an ordered list, the latest first and marked so; a line starting a
    turn marked too; each line's text escaped."""
    return format_html_join(
        "",
        TURN,
        (("turn turn--latest" if index == 0 else "turn", _lines(turn["lines"])) for index, turn in enumerate(turns)),
    )


def _lines(lines: list) -> str:
    """A turn's lines in one ``format_html`` call: a ``LINE`` or ``TURN_START`` per
    line, filled with each line's sequence number and text."""
    return format_html(
        "".join(TURN_START if line.turn else LINE for line in lines),
        *(value for line in lines for value in (line.seq, line.text)),
    )
