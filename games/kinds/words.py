"""A game kind's parts made of words, and what they share: each decision in
words (``Words``), the story of a game told event by event (``History``), and
answers written in a reply by email (``Replies``).

A kind's words read only what the engine's ``view(state, viewer)`` and the
viewer's copy of the event log let through, so they cannot show more than the
engine allows: ``tell`` hands each teller only the fields of an event its viewer
may see. Everything is translated at call time: call it inside a request or
under ``translation.override``.
"""

import re
import unicodedata
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from games.engine.events import Event


@dataclass
class Reply:
    """What a line written in a reply means: the one legal ``option`` it names, or
    why it cannot be played (``reason`` for the log, ``problem`` for the player, in
    the active language) and what was read (``understood``)."""

    option: dict | None = None
    reason: str = ""
    problem: str = ""
    understood: str = ""
    candidates: list = field(default_factory=list)


@dataclass
class Line:
    """One sentence of the history; ``turn`` marks the start of a new turn and
    ``actor`` is the player whose own move it tells (None for what happened to a
    player, the game's own events and answers the clock gave), so an email's news
    can leave out what its reader did and still tell what befell them."""

    seq: int
    text: str
    kind: str  # the event type
    turn: bool = False
    actor: str | None = None

    def __reduce__(self):
        # Pickled as a tuple of its fields rather than a dataclass's dict of them,
        # smaller and quicker to load: every page and move reads and writes a
        # story's latest lines in the cache.
        return (Line, (self.seq, self.text, self.kind, self.turn, self.actor))


class Story:
    """What a history has told so far, for any game: whose story it is, the
    players' names, and the bots that stood in for them. A game's tellers may keep
    more in a subclass.

    ``stand_ins``: player → ``(first, end, name)`` of each time a bot played for
    them: from event ``first`` up to event ``end`` (excluded; None while it still
    does), by ``name``. A sentence names who acted at that moment (``name``): the
    player, or the bot playing for them then; ``player_name`` always the player."""

    def __init__(self, viewer, names, stand_ins=None):
        self.viewer = viewer
        self.names = names
        self.stand_ins = stand_ins or {}
        self.seq = 0  # the event being told

    def name(self, player) -> str:
        for first, end, name in self.stand_ins.get(player, ()):
            if first <= self.seq and (end is None or self.seq < end):
                return name
        return self.player_name(player)

    def player_name(self, player) -> str:
        return self.names.get(player, player or "?")

    def you(self, player) -> bool:
        return self.viewer is not None and player == self.viewer


def _visible(event, viewer) -> tuple[str, dict]:
    """(type, fields the viewer may see) for an engine ``Event``, a stored event
    (``{"type", "data", "secret", "seen_by"}``) or an already filtered one
    (``{"type", "data"}`` without ``secret``)."""
    if isinstance(event, Event):
        return event.type, event.visible_to(viewer)
    if "secret" in event or "seen_by" in event:
        return event["type"], Event.from_json(event).visible_to(viewer)
    return event["type"], dict(event.get("data", {}))


def tell(events, story: Story, tellers: dict, turn_kind: str, moves: frozenset) -> list[Line]:
    """Every sentence ``tellers`` (event type → function of the story and the
    event's visible fields) make of ``events`` for ``story.viewer``, with the
    sequence number of each event; ``turn_kind`` starts a new turn (or round).
    ``moves``: the event types that record a player's own answer (their line's
    ``actor``); an answer the clock gave for them, or the only possible one the
    service played at once (``forced``), is not theirs."""
    told = []
    for position, event in enumerate(events):
        kind, data = _visible(event, story.viewer)
        seq = event.get("seq", position) if isinstance(event, dict) else position
        story.seq = seq
        teller = tellers.get(kind)
        text = teller(story, data) if teller else ""
        if text and data.get("timed_out"):
            text = clock_answered(text, data, story)
        elif text and data.get("forced"):
            text = _("The only possible move, played at once: %(line)s") % {"line": text}
        if text:
            chosen = not (data.get("timed_out") or data.get("forced"))
            actor = data.get("player") if kind in moves and chosen else None
            told.append(Line(seq=seq, text=text, kind=kind, turn=kind == turn_kind, actor=actor))
    return told


def clock_answered(text: str, data: dict, story: Story) -> str:
    """A line about an answer the deadline gave for a player (an event marked
    ``timed_out``), said as such: "Time ran out for Ben: Ben took Income."."""
    if story.you(data.get("player")):
        return _("Time ran out for you: %(line)s") % {"line": text}
    return _("Time ran out for %(player)s: %(line)s") % {"player": story.name(data.get("player")), "line": text}


def last_action_told(text: str, data: dict) -> str:
    """A dashboard's "last action", saying when the deadline played it."""
    if text and data.get("timed_out"):
        return _("%(action)s (time ran out)") % {"action": text}
    return text


class Words(ABC):
    """Each decision of a kind in words: what it asks, the button of every answer
    (its label, its look, its group), and what the dashboard says it waits for."""

    @abstractmethod
    def decision_prompt(self, decision: str) -> str:
        """What a decision asks, as a sentence ending ("choose your action")."""

    def onlooker_prompt(self, decision: str) -> str:
        """What a decision asks, said of another player ("choose an action"): the
        words of the table and the replay for every seat but the reader's."""
        return self.decision_prompt(decision)

    @abstractmethod
    def labeler(self, view: dict, viewer: str, names: dict, variants) -> Any:
        """What ``option_label`` needs to know of the table, read from ``view``."""

    @abstractmethod
    def option_label(self, option: dict, labeler, decision: str) -> str:
        """The words on the button of ``option``, with its consequence ("Steal from
        Ben — take 2 coins (claims Captain)")."""

    def option_style(self, option: dict) -> str:
        """How its button looks: "plain", "quiet", "risky" or "attack"."""
        return "plain"

    def option_group(self, option: dict, decision: str) -> str:
        """The heading ``option``'s button is grouped under ("" for one group)."""
        return ""

    def waits_for(self, decision: str, view: dict, viewer: str, names: dict) -> str:
        """What the game waits for from ``viewer``, as a button says it ("Respond to
        Ben's Tax"): the dashboard's words."""
        return capfirst(self.decision_prompt(decision))


class History(ABC):
    """The story of a kind's games: a teller per event type (``tellers``: a function
    of the story and the event's visible fields, returning a sentence or ""), the
    event that starts a turn (``turn_event``), the events that record a player's own
    answer (``moves``), and the story object the tellers keep (``story_type``)."""

    story_type: type = Story
    tellers: dict
    turn_event: str
    moves: frozenset
    last_action_types: tuple
    """The event types that start a player's move, for the dashboard's "last action"."""

    def story(self, viewer: str | None, names: dict, stand_ins: dict | None = None) -> Story:
        """A story not told yet: what the tellers keep to word the next event.
        Picklable: ``games.history`` caches it between requests."""
        return self.story_type(viewer, names, stand_ins)

    def continued(self, story: Story, events) -> list[Line]:
        """The ``Line`` of ``events``, the log's next ones, for ``story`` (which it
        updates): telling a log in two parts gives the lines of telling it whole."""
        return tell(events, story, self.tellers, self.turn_event, self.moves)

    def lines(self, events, viewer: str | None, names: dict, stand_ins: dict | None = None) -> list[Line]:
        """The story of the game as ``viewer`` may know it, told from the start
        (``stand_ins``: as ``Story`` takes them)."""
        return self.continued(self.story(viewer, names, stand_ins), events)

    @abstractmethod
    def last_action(self, payload: dict | None, names: dict, viewer: str) -> str:
        """A stored event of ``last_action_types`` in words ("Ben: Steal, on Ana")."""


class Replies(ABC):
    """Answers written in a reply by email ("block duke", "apostar")."""

    @abstractmethod
    def word(self, option: dict, names: dict) -> str:
        """How to write ``option`` in a reply, in the active language."""

    @abstractmethod
    def read(self, line: str, table) -> Reply:
        """The option of the reader's ``table`` (``selectors.Table``) that ``line``
        names, or why none."""


def normalize(text: str) -> str:
    """A reply's words as they are compared: lower case, accents dropped, possessives
    and punctuation gone ("Ana's Capitán!" → "ana capitan")."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(char for char in text if not unicodedata.combining(char)).casefold()
    text = re.sub(r"['’]s\b", "", text)
    text = re.sub(r"['’]", "", text)
    return " ".join(re.sub(r"[^\w]+", " ", text).split())
