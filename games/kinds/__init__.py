"""Game kinds: the contract every game fulfils (``GameKind``) and the one registry.

Each game lives in its own folder here, ``games/kinds/<kind>/``: ``engine/`` (its
rules, pure Python), its words, its statistics, its templates and template tags,
and ``kind.py``, which puts them together as the object ``KIND``. The platform
(services, pages, emails, replies, the dashboard) reaches a game only through
that object, found by name in ``KINDS``; the engine's own tools (the scenario
runner, random playouts, the benchmark) reach a game's rules through
``rules_of``.

The registry is this package's ``__init__`` because the kinds are its
subpackages: a third game is a new folder beside the others and one line in
``PACKAGES``. Importing a kind's engine imports this module first, so it stays
pure Python and loads each kind's Django half (``kind.py``) only when the
platform asks for it: the scenario runner and the benchmark never import Django.
Each kind is also a Django app (``APPS``, listed in the settings) because Django
finds templates and template tag libraries only in installed apps.
"""

from collections.abc import Iterator, Mapping
from functools import cache
from importlib import import_module
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from games.engine.events import Event

# The one registry: each game kind's name (stored in ``Game.kind``) and its package.
PACKAGES = {
    "coup": "games.kinds.coup",
    "kobayakawa": "games.kinds.kobayakawa",
}
KIND_NAMES = tuple(PACKAGES)
# The game a new game is unless the host picks another: the first registered.
DEFAULT_KIND = KIND_NAMES[0]
APPS = tuple(PACKAGES.values())


@runtime_checkable
class GameKind(Protocol):
    """Everything a game kind provides, each member declared once.

    A ``state`` is the kind's own engine state: only the kind reads it. A
    ``view`` is what ``view(state, viewer)`` returns: the only door through which
    state leaves the engine, and all that the words and tables below may read.
    Player names inside a game are the engine's (``p1``, ``p2``...); ``names`` maps
    them to the names shown.
    """

    # ---- what it is -------------------------------------------------------------------------

    kind: str
    """The stable id stored in ``Game.kind`` and prefixing its event types ("coup")."""

    name: Any
    """The game's name as players read it (a lazily translated string)."""

    min_players: int
    """The fewest players a game of this kind seats."""

    max_players: int
    """The most players a game of this kind seats."""

    variant_ids: tuple
    """The variants the create form offers for this kind, in order (none: it has none)."""

    seats_note: Any
    """How many players a game seats, for the create form ("Kobayakawa: 3 to 6")."""

    variants_note: Any
    """What the create form says of the kind's variants, or None when it has none."""

    def variant_choices(self) -> list[tuple[str, str]]:
        """``(id, "Name — one line")`` of each variant, for the create form, in the
        active language."""

    def create_fields(self) -> dict:
        """The create form's choices only this kind has: ``{option: form field}``
        (Coup: the first player's faction). Each answer is stored in the game's
        options under its name, for ``setup`` to read; a rematch keeps it. Names
        are unique across kinds, like variant ids."""

    def check_config(self, players: list, variants) -> None:
        """Refuse (``IllegalMove``) a game a host may not create: the number of
        players, the variants and how they combine. The create form reports it."""

    # ---- the rules: setup, the fold, play ---------------------------------------------------

    def setup(self, *, players: list, first: str, variants=(), options: dict | None = None, dealer=None) -> list:
        """The events that start a game of ``players`` (engine names, in seat
        order) with ``first`` to play: the deal, drawn by ``dealer`` (a live one by
        default). ``options`` are the game's stored options; the kind reads those it
        knows (Coup: ``first_faction``)."""

    def new_state(self) -> Any:
        """An empty state, before any event."""

    def apply(self, state, event: "Event") -> None:
        """Fold one event into ``state``: the only way a state changes."""

    def replay(self, events) -> Any:
        """The state folded from ``events`` (engine ``Event`` objects or stored JSON)."""

    def dump(self, state) -> dict:
        """``state`` as JSON, for the snapshot cached beside the event log."""

    def load(self, data: dict) -> Any:
        """A state from ``dump``'s JSON; always equal to a replay of the log."""

    def play(self, state, player: str, command: dict, dealer=None) -> list:
        """``player`` answers their awaited decision with ``command`` (one of their
        ``options``, with the decision's ``version`` if given). Returns the events,
        already applied to ``state``; raises ``IllegalMove``, leaving ``state``
        unchanged, when the rules forbid it."""

    def resign(self, state, player: str, dealer=None) -> list:
        """``player`` leaves the game for good; returns the events, applied."""

    def timeout(self, state, dealer=None) -> list:
        """The deadline passed: every decision awaited gets its default answer."""

    def default_answer(self, state, player: str, dealer=None) -> dict:
        """What a deadline answers for ``player``'s awaited decision."""

    def options(self, state, player: str) -> list[dict]:
        """``player``'s legal answers now (none when nothing is asked of them). Each
        is a command ``play`` accepts; it may also carry its consequence (the
        coins a Steal takes, the medals a bet costs) so the words never work a
        rule out again. Shared dicts: read or copy them, never change them."""

    def awaiting(self, state) -> list[tuple[str, str, int]]:
        """``(player, decision kind, version)`` of every decision awaited, in seat order."""

    def is_over(self, state) -> bool:
        """Whether the game has ended."""

    def winners(self, state) -> list[str]:
        """Who won (several for a shared win; none while the game goes on)."""

    def set_preferences(self, state, player: str, preferences: dict, dealer=None) -> list:
        """Give ``player``'s standing preferences (``player_preferences``) to the
        game; a preference may answer an awaited decision at once. Returns the
        events, applied; none for a kind whose players keep no preferences."""

    # ---- preferences each player keeps for the kind, outside any game -------------------

    def player_preferences(self, user) -> dict:
        """``user``'s preferences as ``set_preferences`` takes them (Coup: its
        standing answers); empty for a kind that keeps none. A game gets them when
        it starts, if any is set, and again each time the player changes them."""

    def preferences_form(self, user, data=None) -> Any:
        """The profile page's section for this kind's preferences: a bound form
        (``data`` is the POST) with ``legend``, ``intro``, ``has_changed()`` and
        ``save()``; or None for a kind that keeps none."""

    # ---- computer players ----------------------------------------------------------------------

    bot_levels: tuple
    """The computer players a seat of this kind can be given, by level name,
    weakest first: "default" (the deadline's answers), "easy" (a few readable
    rules), "strong" (Monte Carlo over the hands it cannot see), and any the kind
    adds (classic Coup: "treason")."""

    def bot(self, level: str) -> Any:
        """The computer player of ``level`` (``games/bots/``, with the kind's own
        ``bots.py``). It answers from its seat's knowledge only, never from the
        state: ``bots.decide(bot, bots.knowledge_for(kind, seat) fed with every
        event, view(state, seat), rng, bots.Budget(seconds))``. Raises
        ``bots.UnknownBotLevel`` (a
        ``ValueError`` naming the levels there are) for a level not in
        ``bot_levels``, and ``ImportError`` when the level needs a package that is
        not installed ("treason": the ``bench`` extra)."""

    # ---- what leaves the engine --------------------------------------------------------------

    def view(self, state, viewer: str) -> dict:
        """Everything ``viewer`` may know of the game, as plain JSON: the only door
        through which state reaches a page, an email or a log. A name that is no
        player's sees only what is public."""

    def omniscient_view(self, state) -> dict:
        """Every card, the deck in order: for finished-game replays and scenario
        files only, never for a game in play."""

    # ---- words ------------------------------------------------------------------------------

    def decision_prompt(self, decision: str) -> str:
        """What a decision asks, as a sentence ending ("choose your action")."""

    def onlooker_prompt(self, decision: str) -> str:
        """What a decision asks, said of another player ("choose an action"): the
        words of the table and the replay for every seat but the reader's."""

    def waits_for(self, decision: str, view: dict, viewer: str, names: dict) -> str:
        """What the game waits for from ``viewer``, as a button says it ("Respond to
        Ben's Tax"): the dashboard's words."""

    def labeler(self, view: dict, viewer: str, names: dict, variants) -> Any:
        """What ``option_label`` needs to know of the table, read from ``view``."""

    def option_label(self, option: dict, labeler, decision: str) -> str:
        """The words on the button of ``option``, with its consequence ("Steal from
        Ben — take 2 coins (claims Captain)")."""

    def option_style(self, option: dict) -> str:
        """How its button looks: "plain", "quiet", "risky" or "attack"."""

    def option_group(self, option: dict, decision: str) -> str:
        """The heading ``option``'s button is grouped under ("" for one group)."""

    def history_lines(self, events, viewer: str | None, names: dict) -> list:
        """The story of the game as ``viewer`` may know it: a ``words.Line`` per
        sentence, built only from each event's fields ``viewer`` may see."""

    def history_story(self, viewer: str | None, names: dict) -> Any:
        """A story not told yet (a ``words.Story``): what the tellers keep to word
        the next event. Picklable: ``games.history`` caches it between requests."""

    def history_continued(self, story, events) -> list:
        """The ``words.Line`` of ``events``, the log's next ones, for ``story`` (which
        it updates): telling a log in two parts gives the lines of telling it whole."""

    last_action_types: tuple
    """The event types that start a player's move, for the dashboard's "last action"."""

    def last_action(self, payload: dict | None, names: dict, viewer: str) -> str:
        """A stored event of ``last_action_types`` in words ("Ben: Steal, on Ana")."""

    out_events: frozenset
    """The event types that put a player out of the game (their email says so)."""

    def reply_word(self, option: dict, names: dict) -> str:
        """How to write ``option`` in a reply by email ("block duke")."""

    def read_reply(self, line: str, table: dict, variants) -> Any:
        """The option a line written in a reply names, or why none: a ``words.Reply``."""

    def rules_summary(self, variants=()) -> list[str]:
        """The short rules of a game with ``variants``, a paragraph each."""

    def variant_names(self, variants) -> list[str]:
        """The names of ``variants`` ("Classic" when a game that has variants is played
        without any; none for a game without variants)."""

    resign_note: Any
    """What resigning does, said before the player confirms it."""

    # ---- tables and templates -----------------------------------------------------------

    def table(self, view: dict, viewer: str | None, names: dict, game, users: dict, awaiting: dict) -> dict:
        """The game page's context for the kind's templates, from ``viewer``'s view."""

    def replay_table(self, game, view: dict, viewer: str, names: dict) -> dict:
        """A finished game's replay context (every hand shown), from the omniscient view."""

    def email_context(self, view: dict, viewer: str, names: dict) -> dict:
        """An email's context for the kind's email blocks, from ``viewer``'s view."""

    def static_context(self, variants) -> dict:
        """What the kind's page templates show whatever the state (Coup: the characters)."""

    situation_template: str
    """The page block above the buttons: the move being resolved."""

    table_template: str
    """The page block of the table: the viewer's hand and every seat."""

    replay_template: str
    """The replay's table, every hand shown."""

    answer_template: str
    """The block of a one-click answer's page: what the player holds."""

    stylesheet: str | None
    """A static file of the kind's own styles (Coup: its characters' colours),
    linked on every page, or None."""

    reference_template: str | None
    """A block under the rules of the game page (Coup: the characters' cards), or None."""

    email_situation: tuple[str, str]
    """The email block of the situation: (text template, HTML template)."""

    email_table: tuple[str, str]
    """The email block of the table: (text template, HTML template)."""

    email_table_reads: tuple[str, ...]
    """The keys of the email context (``email_context``) that the table block reads,
    and nothing else: the emails of one update render it once for each distinct
    value of these (``games.mail.emails``)."""

    # ---- statistics ---------------------------------------------------------------------------

    def stats(self, tally, events: list, state) -> None:
        """Add the kind's own counters to ``tally`` (a ``results.Tally``) from a
        finished game's ``events`` and final ``state``: claims, challenges and the
        order players went out (Coup); the scores that rank the others (Kobayakawa)."""


class _Registry(Mapping):
    """``KINDS[name]``: the ``GameKind`` of that name, loaded on first use."""

    def __getitem__(self, kind: str) -> GameKind:
        if kind not in PACKAGES:
            raise KeyError(kind)
        return _load(kind)

    def __iter__(self) -> Iterator[str]:
        return iter(PACKAGES)

    def __len__(self) -> int:
        return len(PACKAGES)


@cache
def _load(kind: str) -> GameKind:
    return import_module(f"{PACKAGES[kind]}.kind").KIND


KINDS = _Registry()


def rules_of(kind: str):
    """The pure-Python rules of a kind (the engine half of its ``GameKind``)."""
    return import_module(f"{PACKAGES[kind]}.engine").RULES


def kind_choices() -> list[tuple[str, Any]]:
    """``(kind, name)`` of every game, for the create form."""
    return [(kind.kind, kind.name) for kind in KINDS.values()]


def variant_choices() -> list[tuple[str, str]]:
    """Every kind's variants, for the create form (ids are unique across kinds)."""
    return [choice for kind in KINDS.values() for choice in kind.variant_choices()]


def variant_name(variant: str) -> str:
    """The name of a variant of whichever kind offers it (the dashboard lists the
    variants of every game together)."""
    for kind in KINDS.values():
        if variant in kind.variant_ids:
            return kind.variant_names([variant])[0]
    return variant
