"""A game kind as the platform sees it (``GameKind``), and the parts it is made of
that are not words (those are in ``games.kinds.words``).

A kind is its rules (pure Python, ``games.engine.common.Rules``) and a few parts,
each answering one kind of question, so that a caller names the part it needs
and a game writes only what differs from the defaults here:

- ``rules``: setup, play, views, who is awaited, who won (the engine);
- ``about``: the game and its variants in words, for the create form and the rules
  panel (``About``);
- ``words``: each decision in words, its buttons and prompts (``words.Words``);
- ``history``: the story of a game told event by event (``words.History``);
- ``replies``: answers written in a reply by email (``words.Replies``);
- ``templates``: the kind's templates and the context they read (``Templates``);
- ``stats``: the kind's own counters of a finished game (``games.kinds.stats.Stats``);
- ``forms``: the create form's choices and the per-player preferences the kind
  keeps (``Forms``);
- ``bots``: the computer players (``games.bots.Bots``).

Player names inside a game are the engine's (``p1``, ``p2``...); ``names``
arguments map them to the names shown. A ``view`` is what ``rules.view(state,
viewer)`` returns: the only door through which state leaves the engine, and all
that words and templates may read.
"""

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from games.bots import Bots
from games.engine.common import Rules
from games.kinds.stats import Stats
from games.kinds.words import History, Replies, Words


class About(ABC):
    """The game and its variants in words: the create form's notes and choices, the
    rules summary of every game page. Translated at call time."""

    seats_note: Any
    """How many players a game seats, for the create form ("Kobayakawa: 3 to 6")."""

    resign_note: Any
    """What resigning does, said before the player confirms it."""

    variants_note: Any = None
    """What the create form says of the kind's variants; None for a game without any."""

    def variant_choices(self) -> list[tuple[str, str]]:
        """``(id, "Name — one line")`` of each variant, for the create form."""
        return []

    def variant_names(self, variants) -> list[str]:
        """The names of ``variants`` (a game with variants played without any says
        so: "Classic"); none for a game without variants."""
        return []

    @abstractmethod
    def rules_summary(self, variants=()) -> list[str]:
        """The short rules of a game with ``variants``, a paragraph each."""


class Templates:
    """The kind's templates and what they read. Each template is found by its name
    in the kind's template folder (``games/kinds/<kind>/templates/<folder>/``):

    - ``_situation.html``: the page block above the buttons (the move being resolved);
    - ``_table.html``: the table, the viewer's hand and every seat;
    - ``_replay_table.html``: a finished game's table, every hand shown;
    - ``_answer.html``: what a one-click answer's page shows of the player's hand;
    - ``emails/_situation.{txt,html}`` and ``emails/_table.{txt,html}``: the same
      blocks in an email.

    A kind sets ``folder`` and the context functions; ``reference`` (a block under the
    rules) and ``stylesheet`` (a static file linked on every page) are optional."""

    folder: str
    reference: str | None = None
    stylesheet: str | None = None
    email_table_reads: tuple[str, ...] = ("table",)
    """The keys of ``email_context`` that the email table block reads, and nothing
    else: the emails of one update render it once for each distinct value of these."""

    @property
    def situation(self) -> str:
        return f"{self.folder}/_situation.html"

    @property
    def table(self) -> str:
        return f"{self.folder}/_table.html"

    @property
    def replay(self) -> str:
        return f"{self.folder}/_replay_table.html"

    @property
    def answer(self) -> str:
        return f"{self.folder}/_answer.html"

    @property
    def email_situation(self) -> tuple[str, str]:
        """(text template, HTML template)."""
        return f"{self.folder}/emails/_situation.txt", f"{self.folder}/emails/_situation.html"

    @property
    def email_table(self) -> tuple[str, str]:
        """(text template, HTML template)."""
        return f"{self.folder}/emails/_table.txt", f"{self.folder}/emails/_table.html"

    def table_context(self, view: dict, viewer: str | None, names: dict, game, users: dict, awaiting: dict) -> dict:
        """The game page's context for ``table`` and ``situation``, from ``viewer``'s view."""
        raise NotImplementedError

    def replay_context(self, game, view: dict, viewer: str, names: dict) -> dict:
        """A finished game's replay context (every hand shown), from the omniscient view."""
        raise NotImplementedError

    def email_context(self, view: dict, viewer: str, names: dict) -> dict:
        """An email's context for the email blocks, from ``viewer``'s view."""
        raise NotImplementedError

    def static_context(self, variants) -> dict:
        """What ``reference`` shows whatever the state (Coup: the characters)."""
        return {}


class Forms:
    """What the kind adds to the platform's forms: none of its own by default."""

    def create_fields(self) -> dict:
        """The create form's choices only this kind has: ``{option: form field}``.
        Each answer is stored in the game's options under its name, for
        ``rules.setup`` to read; a rematch keeps it. Names are unique across kinds."""
        return {}

    def player_preferences(self, user) -> dict:
        """``user``'s preferences as ``rules.set_preferences`` takes them; empty for
        a kind that keeps none. A game gets them when it starts, if any is set, and
        again each time the player changes them."""
        return {}

    def preferences_form(self, user, data=None) -> Any:
        """The profile page's section for the kind's preferences: a bound form
        (``data`` is the POST) with ``legend``, ``intro``, ``has_changed()`` and
        ``save()``; None for a kind that keeps none."""
        return None


@dataclass(frozen=True, eq=False)
class GameKind:
    """A game as the platform sees it: its name and its parts (see the module's
    docstring). The registry (``games.kinds.KINDS``) hands out one per kind."""

    name: Any
    """The game's name as players read it (a lazily translated string)."""
    rules: Rules
    about: About
    words: Words
    history: History
    replies: Replies
    templates: Templates
    stats: Stats = field(default_factory=Stats)
    forms: Forms = field(default_factory=Forms)
    bots: Bots = field(init=False)

    def __post_init__(self):
        object.__setattr__(self, "bots", Bots(self.rules.kind))

    @property
    def id(self) -> str:
        """The stable id stored in ``Game.kind`` and prefixing its event types ("coup")."""
        return self.rules.kind
