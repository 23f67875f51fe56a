"""Coup as the platform sees it: its rules (``engine/``) and its parts, in words
(``words/``), templates (``templates/coup/``), statistics (``stats.py``) and forms
(``forms.py``: each player's standing answers, kept in ``models.py``); see
``games.kinds.base`` for what each part answers."""

from django.utils.translation import gettext_lazy

from games.kinds.base import GameKind
from games.kinds.coup.engine import RULES
from games.kinds.coup.forms import CoupForms
from games.kinds.coup.stats import CoupStats
from games.kinds.coup.words.decisions import CoupWords
from games.kinds.coup.words.history import CoupHistory
from games.kinds.coup.words.replies import CoupReplies
from games.kinds.coup.words.rules import CoupAbout
from games.kinds.coup.words.tables import CoupTemplates

KIND = GameKind(
    name=gettext_lazy("Coup"),
    rules=RULES,
    about=CoupAbout(),
    words=CoupWords(),
    history=CoupHistory(),
    replies=CoupReplies(),
    templates=CoupTemplates(),
    stats=CoupStats(),
    forms=CoupForms(),
)
