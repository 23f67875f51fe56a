"""What every game kind's words share: the story of a game told event by event,
and what a line written in a reply means.

A kind's words read only what the engine's ``view(state, viewer)`` and the
viewer's copy of the event log let through, so they cannot show more than the
engine allows: ``tell`` hands each teller only the fields of an event its viewer
may see.
"""

from dataclasses import dataclass, field

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
    """What a history has told so far, for any game: whose story it is and the
    players' names. A game's tellers may keep more in a subclass."""

    def __init__(self, viewer, names):
        self.viewer = viewer
        self.names = names

    def name(self, player) -> str:
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
    ``actor``); an answer the clock gave for them is not theirs."""
    told = []
    for position, event in enumerate(events):
        kind, data = _visible(event, story.viewer)
        seq = event.get("seq", position) if isinstance(event, dict) else position
        teller = tellers.get(kind)
        text = teller(story, data) if teller else ""
        if text and data.get("timed_out"):
            text = clock_answered(text, data, story)
        if text:
            actor = data.get("player") if kind in moves and not data.get("timed_out") else None
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
