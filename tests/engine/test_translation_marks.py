"""The engine marks its text for the catalogues without importing Django: the
project's ``makemessages`` extracts a ``pgettext_noop`` mark under its context,
as ``pgettext`` will look it up."""

import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import load_command_class

from games.engine.errors import gettext_noop, pgettext_noop

ACTIONS = Path(__file__).resolve().parents[2] / "games" / "kinds" / "coup" / "engine" / "actions.py"


def test_the_marks_leave_the_text_as_it_is():
    assert gettext_noop("Duke") == "Duke"
    assert pgettext_noop("action", "Income") == "Income"


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext's xgettext, as make messages does")
def test_makemessages_extracts_the_engines_marks_with_their_context():
    command = load_command_class("games", "makemessages")
    extracted = subprocess.run(
        ["xgettext", "--language=Python", "--output=-", *command.xgettext_options, str(ACTIONS)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert 'msgctxt "action"\nmsgid "Income"' in extracted
    assert 'msgctxt "reply word"\nmsgid "foreign aid"' in extracted
    assert '\nmsgid "Income — take 1 coin"' in extracted  # ``_``, the engine's gettext_noop
