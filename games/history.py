"""The history of a game as one viewer reads it: its latest turns, told once and
then continued event by event.

Telling a whole log again on every page, partial and email made each of them
cost more the longer the game. Here the cache (Redis, or the process's memory in
the embedded default) keeps, for each game, viewer, language and set of player
names, what the game's tellers had told so far: the story object (the state a
kind's tellers keep to word the next event), the number of events told, and the
lines of the latest turns. A request reads only the events appended since, tells
them with that same story, and keeps the latest turns: its cost no longer grows
with the log. The lines are exactly those of a full retelling
(``tests/kinds/test_history_window.py`` checks it on whole games of every kind).

Hidden information: an entry is keyed by its viewer, and a seated viewer's story
is told from the events as that viewer may see them, so nobody is ever given
another viewer's lines. Anyone not seated reads the public story (viewer None).

The whole story, told once from the start, is ``full`` (the game's history page).
"""

import hashlib
import json
from dataclasses import dataclass, field

from django.core.cache import cache
from django.utils import translation

from .kinds import KINDS
from .kinds.words import Line, Story
from .models import Event, Game

# The turns (Kobayakawa: rounds) a page and an email show: enough to follow the
# game since one's last move at a table of ten; the rest is on the history page.
LATEST_TURNS = 10

# An entry not read for a week is told again from the start when next needed: a
# finished or abandoned game's entries leave the cache, a live game's stay warm.
CACHE_SECONDS = 7 * 86400


@dataclass
class History:
    """A story told up to event ``version`` (excluded): the ``story`` object the
    kind's tellers continue, and the lines of its latest turns. ``start`` is the
    first event those lines tell everything from: earlier ones are on the history
    page (0 when the lines are the whole story)."""

    story: Story
    version: int = 0
    lines: list[Line] = field(default_factory=list)
    start: int = 0

    @property
    def earlier(self) -> bool:
        """Whether earlier turns were left out."""
        return self.start > 0

    def since(self, version: int) -> list[Line]:
        """The lines of events from ``version`` on."""
        return [line for line in self.lines if line.seq >= version]

    def misses(self, version: int) -> bool:
        """Whether some events from ``version`` on are older than these lines."""
        return version < self.start

    def continued(self, game_kind, events: list, version: int) -> "History":
        """This story continued with ``events`` (stored events with their ``seq``),
        the log's next ones up to ``version``; the story object is carried on."""
        lines = self.lines + game_kind.history_continued(self.story, events)
        turns = [index for index, line in enumerate(lines) if line.turn]
        if len(turns) <= LATEST_TURNS:
            return History(self.story, version, lines, self.start)
        cut = turns[-LATEST_TURNS]
        return History(self.story, version, lines[cut:], lines[cut - 1].seq + 1)


def latest(game: Game, viewer: str | None, names: dict) -> History:
    """The latest turns of ``game`` as ``viewer`` (a player name; None for anyone
    not seated) may know them, up to the version of the ``game`` row read, in the
    active language."""
    key = _key(game, viewer, names)
    return _brought_up(game, viewer, names, key, cache.get(key))


def latest_of(game: Game, viewers: list, names: dict) -> dict:
    """``latest`` for each of ``viewers`` (their histories by viewer), for the emails
    of one update: the cache is read once for them all, and the events not told yet
    to some of them are read once from the log."""
    keys = {viewer: _key(game, viewer, names) for viewer in viewers}
    cached = cache.get_many(list(keys.values()))
    usable = [told.version for told in cached.values() if told.version <= game.version]
    since = min(usable) if len(usable) == len(keys) else 0
    events = _events(game, since) if since < game.version else []
    return {viewer: _brought_up(game, viewer, names, key, cached.get(key), events) for viewer, key in keys.items()}


def _brought_up(game: Game, viewer: str | None, names: dict, key: str, cached: History | None,
                events: list | None = None) -> History:
    """``viewer``'s history up to ``game``'s version, from the entry ``cached``
    under ``key`` (None: none yet); the cache keeps what was told further.
    ``events``: as for ``_continued``."""
    if cached is None or cached.version > game.version:
        # Nothing told yet, or told further than this (older) read of the row:
        # tell this version from the start, and keep any newer entry.
        told = _continued(History(KINDS[game.kind].history_story(viewer, names)), game, events)
        if cached is None:
            cache.set(key, told, CACHE_SECONDS)
        return told
    if cached.version < game.version:
        cached = _continued(cached, game, events)
        cache.set(key, cached, CACHE_SECONDS)
    return cached


def full(game: Game, viewer: str | None, names: dict) -> list[Line]:
    """The whole story of ``game`` for ``viewer``, told from the start."""
    stored = Event.objects.filter(game=game, seq__lt=game.version).order_by("seq").values_list("seq", "payload")
    return KINDS[game.kind].history_lines([{**payload, "seq": seq} for seq, payload in stored], viewer, names)


def _continued(told: History, game: Game, events: list | None = None) -> History:
    """``told`` continued with the stored events after it, up to the game's version:
    from ``events`` when the caller read them already (``_events`` from ``told``'s
    version or earlier), else read here. The tellers only read the events, so
    several viewers' stories may be continued from the same ones."""
    events = _events(game, told.version) if events is None else [event for event in events if event["seq"] >= told.version]
    return told.continued(KINDS[game.kind], events, game.version)


def _events(game: Game, since: int) -> list:
    """The stored events of ``game`` from ``since`` up to its version, each with its ``seq``."""
    stored = Event.objects.filter(game=game, seq__gte=since, seq__lt=game.version).order_by("seq")
    return [{**payload, "seq": seq} for seq, payload in stored.values_list("seq", "payload")]


def _key(game: Game, viewer: str | None, names: dict) -> str:
    """The cache key of a story: the game (its id and its random join token, so a
    database restored or recreated never meets an older game's entry), the viewer,
    the language and the names the lines use."""
    named = hashlib.sha256(json.dumps(names, sort_keys=True).encode()).hexdigest()[:16]
    return f"history:{game.pk}:{game.join_token}:{viewer or '-'}:{translation.get_language()}:{named}"
