"""Kobayakawa as the platform sees it: its rules (``engine/``) and its parts, in
words (``words/``) and templates (``templates/kobayakawa/``); see
``games.kinds.base`` for what each part answers. It keeps no statistics of its own
beyond what every game has (places and moves), nor preferences per player."""

from django.utils.translation import gettext_lazy

from games.kinds.base import GameKind
from games.kinds.kobayakawa.engine import RULES
from games.kinds.kobayakawa.words.decisions import KobayakawaWords
from games.kinds.kobayakawa.words.history import KobayakawaHistory
from games.kinds.kobayakawa.words.replies import KobayakawaReplies
from games.kinds.kobayakawa.words.rules import KobayakawaAbout
from games.kinds.kobayakawa.words.tables import KobayakawaTemplates

KIND = GameKind(
    name=gettext_lazy("Kobayakawa"),
    rules=RULES,
    about=KobayakawaAbout(),
    words=KobayakawaWords(),
    history=KobayakawaHistory(),
    replies=KobayakawaReplies(),
    templates=KobayakawaTemplates(),
)
