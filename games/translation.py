"""Putting the engine's English messages into the reader's language."""

from django.utils.translation import gettext


def translate_illegal_move(error, names: dict) -> str:
    """``error`` (an engine ``IllegalMove``) in the active language. Player names
    inside the engine (``p1``) become display names; other text parameters (card
    names, decision prompts) are catalogue entries of their own."""
    params = {key: _translated(value, names) for key, value in error.params.items()}
    return gettext(error.template).format(**params)


def _translated(value, names):
    if isinstance(value, str):
        return names.get(value) or gettext(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(_translated(item, names) for item in value)
    return value
