"""The history of a game as one viewer reads it: its latest turns, continued event
by event from a cached story, so that a page or an email costs the same however
long the game.

The cache (Redis, or the process's memory in the embedded default) keeps, for each
game, viewer, language and set of player names, a ``History``: the story object
(what a kind's tellers keep to word the next event), the number of events told, and
the lines of the latest turns. A request tells only the events appended since, with
that same story; the lines are exactly those of a full retelling
(``tests/kinds/test_history_window.py`` checks it on whole games of every kind).

Beside the stories, the cache keeps each game's latest events (``Tail``), read in
the same round trip as the stories: a story a few moves behind is continued from
them, and a move's answer adds the events it appended, so that neither a poll after
another player's move nor a click reads the log. Stored events never change, so any
run of them is exact wherever it was read; one too short is read from the log again.

Hidden information: an entry is keyed by its viewer, and a seated viewer's story
is told from the events as that viewer may see them, so nobody is ever given
another viewer's lines. Anyone not seated reads the public story (viewer None).

The whole story, told once from the start, is ``full`` (the game's history page).
"""

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.core.cache import cache
from django.utils import translation

from games.kinds import KINDS
from games.kinds.words import Line, Story
from games.models import Event, Game

# The turns (Kobayakawa: rounds) a page and an email show: enough to follow the
# game since one's last move at a table of ten; the rest is on the history page.
LATEST_TURNS = 10

# An entry not read for a week is told again from the start when next needed: a
# finished or abandoned game's entries leave the cache, a live game's stay warm.
CACHE_SECONDS = 7 * 86400

# The events a game's tail keeps: a round at a table of six (a turn and its answers
# are about four events), so that a story left behind since its viewer's last move
# is continued from it. Each request that reads a story reads the tail too: a
# longer one would cost every page more than the rare read of the log it spares.
TAIL_EVENTS = 24


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

    def continued(self, tellers, events: list, version: int) -> "History":
        """This story continued by ``tellers`` (the kind's ``history`` part) with
        ``events`` (stored events with their ``seq``), the log's next ones up to
        ``version``; the story object is carried on."""
        lines = self.lines + tellers.continued(self.story, events)
        turns = [index for index, line in enumerate(lines) if line.turn]
        if len(turns) <= LATEST_TURNS:
            return History(self.story, version, lines, self.start)
        cut = turns[-LATEST_TURNS]
        return History(self.story, version, lines[cut:], lines[cut - 1].seq + 1)


def latest(
    game: Game, viewer: str | None, names: dict, appended: Sequence[dict] = (), stand_ins: dict | None = None
) -> History:
    """The latest turns of ``game`` as ``viewer`` (a player name; None for anyone
    not seated) may know them, up to the version of the ``game`` row read, in the
    active language. ``names``: the seats' own players' names, ``stand_ins``: the
    bots that played for them and when (``games.kinds.words.Story``), so that each
    line names who acted then. ``appended``: the events the caller itself just
    appended, up to that version (a move's answer), each with its ``seq``."""
    return latest_of(game, [viewer], names, appended, stand_ins)[viewer]


def latest_of(
    game: Game, viewers: list, names: dict, appended: Sequence[dict] = (), stand_ins: dict | None = None
) -> dict:
    """``latest`` for each of ``viewers`` (their histories by viewer), for the emails
    of one update: the cache is read once for them all, with the game's tail, and
    the events not told yet to some of them are taken once from the tail, or else
    read once from the log; what was told further is written back at once."""
    stand_ins = stand_ins or {}
    keys = {viewer: _key(game, viewer, names, stand_ins) for viewer in viewers}
    tail_key = _tail_key(game)
    cached = cache.get_many([*keys.values(), tail_key])
    log = _Log(game, cached.pop(tail_key, None), appended)
    usable = [told.version for told in cached.values() if told.version <= game.version]
    log.events(min(usable) if len(usable) == len(keys) else 0)  # one read for them all, when one is needed
    histories, changed = {}, {}
    for viewer, key in keys.items():
        histories[viewer], keep = _brought_up(game, viewer, (names, stand_ins), cached.get(key), log)
        if keep:
            changed[key] = histories[viewer]
    if log.extended:
        changed[tail_key] = log.kept()
    if changed:
        cache.set_many(changed, CACHE_SECONDS)
    return histories


def _brought_up(game: Game, viewer: str | None, cast: tuple, cached: History | None, log: "_Log") -> tuple:
    """``viewer``'s history up to ``game``'s version, from the entry ``cached``
    (None: none yet), and whether the cache is to keep it (it was told further).
    ``cast``: the names and stand-ins a new story is told with."""
    if cached is None or cached.version > game.version:
        # Nothing told yet, or told further than this (older) read of the row:
        # tell this version from the start, and keep any newer entry.
        told = _continued(History(KINDS[game.kind].history.story(viewer, *cast)), game, log)
        return told, cached is None
    if cached.version < game.version:
        return _continued(cached, game, log), True
    return cached, False


def full(game: Game, viewer: str | None, names: dict, stand_ins: dict | None = None) -> list[Line]:
    """The whole story of ``game`` for ``viewer``, told from the start (``names``
    and ``stand_ins`` as ``latest`` takes them)."""
    stored = Event.objects.filter(game=game, seq__lt=game.version).order_by("seq").values_list("seq", "payload")
    events = [{**payload, "seq": seq} for seq, payload in stored]
    return KINDS[game.kind].history.lines(events, viewer, names, stand_ins)


def forget(game_ids) -> None:
    """Drop every story cached for the games ``game_ids``: told with a player's name
    that no longer is theirs (they deleted their account), they are told again with
    the names of now. Only a shared cache (Redis) can be searched; a process's own
    memory (the development default) forgets them within ``CACHE_SECONDS``."""
    delete_matching = getattr(cache, "delete_matching", None)
    if delete_matching is None:
        return
    for game_id in game_ids:
        delete_matching(f"history:{game_id}:*")


def _continued(told: History, game: Game, log: "_Log") -> History:
    """``told`` continued with the stored events after it, up to the game's version.
    The tellers only read the events, so several viewers' stories may be continued
    from the same ones."""
    return told.continued(KINDS[game.kind].history, log.events(told.version), game.version)


@dataclass
class Tail:
    """Consecutive stored events of a game (each with its ``seq``), the first one's
    ``seq`` being ``start``."""

    start: int
    events: list

    @property
    def end(self) -> int:
        return self.start + len(self.events)

    def between(self, since: int, version: int) -> list | None:
        """The events from ``since`` up to ``version`` (excluded), or None unless
        this tail holds them all."""
        if self.start <= since and version <= self.end:
            return self.events[since - self.start : version - self.start]
        return None


class _Log:
    """The stored events one request tells, up to the version of its ``game`` row:
    from the game's cached ``tail`` and the events the caller just ``appended``
    when they hold them, read from the log otherwise. ``extended`` once they hold
    events the cached tail did not, so that the cache keeps them (``kept``)."""

    def __init__(self, game: Game, tail: Tail | None, appended: Sequence[dict]):
        self.game = game
        self.extended = bool(appended)
        if appended:
            before = appended[0]["seq"]
            if tail is not None and tail.start <= before <= tail.end:
                tail = Tail(tail.start, tail.events[: before - tail.start] + list(appended))
            else:
                tail = Tail(before, list(appended))
        self.tail = tail

    def events(self, since: int) -> list:
        """The events from ``since`` up to the game's version."""
        if since >= self.game.version:
            return []
        held = self.tail.between(since, self.game.version) if self.tail is not None else None
        if held is None:
            self.tail = Tail(since, _events(self.game, since))
            self.extended = True
            held = self.tail.events
        return held

    def kept(self) -> Tail:
        """The tail to keep, once ``extended``: its latest ``TAIL_EVENTS`` events."""
        tail = self.tail
        assert tail is not None, "an extended log holds events"
        cut = max(0, len(tail.events) - TAIL_EVENTS)
        return Tail(tail.start + cut, tail.events[cut:])


def _events(game: Game, since: int) -> list:
    """The stored events of ``game`` from ``since`` up to its version, each with its ``seq``."""
    stored = Event.objects.filter(game=game, seq__gte=since, seq__lt=game.version).order_by("seq")
    return [{**payload, "seq": seq} for seq, payload in stored.values_list("seq", "payload")]


def _tail_key(game: Game) -> str:
    """The cache key of a game's tail (its id and join token, as for ``_key``)."""
    return f"history-tail:{game.pk}:{game.join_token}"


def _key(game: Game, viewer: str | None, names: dict, stand_ins: dict) -> str:
    """The cache key of a story: the game (its id and its random join token, so a
    database restored or recreated never meets an older game's entry), the viewer,
    the language and the names the lines use: the players' and their stand-ins',
    so that a bot taking a seat over, or its player coming back, tells the story
    again with the names of each moment."""
    named = hashlib.sha256(json.dumps([names, stand_ins], sort_keys=True).encode()).hexdigest()[:16]
    return f"history:{game.pk}:{game.join_token}:{viewer or '-'}:{translation.get_language()}:{named}"
