"""What every game of the engine shares: the command prelude, deadlines, and the
rules interface built on a game's own ``Flow``.

Each game kind's engine (``games/kinds/<kind>/engine/``) subclasses ``BaseFlow``
(how its commands move a game) and ``Rules`` (the ``rules`` part of its
``GameKind``, ``games/kinds/base.py``), both over its own state class, which has
at least what ``GameState`` lists.
"""

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, cast

from games.engine.dealer import Dealer, LiveDealer
from games.engine.decisions import Decision, DecisionSpec
from games.engine.errors import IllegalMove
from games.engine.errors import gettext_noop as _
from games.engine.events import Event

if TYPE_CHECKING:
    from games.engine.scenario import Scenario

PUBLIC = ""  # the viewer name for someone not seated at any table: sees what is public


class Seated(Protocol):
    """What the engine reads of a player of any game."""

    @property
    def name(self) -> str: ...


class GameState(Protocol):
    """What the engine reads of any game's state; a game's own state class has
    these and whatever else its rules keep."""

    awaiting: dict[str, Decision]
    """The decision each player asked now waits on, by player name."""
    seq: int
    """The events applied."""
    over: bool

    @property
    def players(self) -> Sequence[Seated]:
        """In seat order."""

    @property
    def by_name(self) -> Mapping[str, Seated]: ...


class BaseFlow[S: GameState]:
    """Handles one command (or one deadline) against a state, collecting events.

    A game's ``Flow`` sets ``APPLY`` (its fold: event type → function of the
    state, the event's data and its secret) and ``DECISIONS`` (a ``DecisionSpec``
    per decision kind), and says how a player resigns (``resign``)."""

    __slots__ = ("state", "dealer", "events")
    APPLY: ClassVar[dict[str, Callable[[Any, dict, dict | None], None]]]
    DECISIONS: ClassVar[dict[str, DecisionSpec]]

    def __init__(self, state: S, dealer: Dealer):
        self.state = state
        self.dealer = dealer
        self.events: list[Event] = []

    def emit(self, type: str, data: dict, secret: dict | None = None, seen_by: tuple = ()) -> None:
        # The same fold as ``Rules.apply``, inlined: the engine's hottest path.
        state = self.state
        self.APPLY[type](state, data, secret)
        state.seq += 1
        self.events.append(Event(type, data, secret, seen_by))

    def command(self, name: str, command: dict) -> list[Event]:
        """``name`` answers their awaited decision with ``command`` (an option as
        ``options`` lists it; its ``version``, if given, must be the decision's)."""
        if not _readable(command):
            raise IllegalMove(_("That answer could not be read."))
        state = self.state
        decision = state.awaiting.get(name)
        if decision is None:
            # Only awaited players of a game in progress get past this, so the
            # commonest command needs a single lookup.
            if name not in state.by_name:
                raise IllegalMove(_("There is no player called {player} in this game."), player=name)
            if state.over:
                raise IllegalMove(_("The game is over."))
            raise IllegalMove(_("The game is not waiting for you right now."))
        spec = self.DECISIONS[decision.kind]
        if command.get("act") not in spec.answers:
            raise IllegalMove(_("You can't do that now: the game is waiting for you to {prompt}."), prompt=spec.prompt)
        version = command.get("version")
        if version is not None and version != decision.id:
            raise IllegalMove(_("That decision has already passed."))
        player = state.by_name[name]
        if spec.check is not None:
            spec.check(state, player, command)
        return self.answer(spec, player, command)

    def answer(self, spec, player, command: dict) -> list[Event]:
        """``player`` answers their awaited ``spec`` decision with ``command``,
        already known to be legal (checked, or one of the options listed now)."""
        spec.play(self, player, command)
        self.answered()
        return self.events

    def answered(self) -> None:
        """After each answer: a game may answer further decisions at once."""

    def resign(self, name: str) -> list[Event]:
        """``name`` leaves the game for good (``Rules.resign``); each game says how."""
        raise NotImplementedError

    def forced_answers(self) -> list[Event]:
        """Play every awaited decision whose one answer public information leaves
        (``DecisionSpec.forced``), until the game waits for a real choice or ends.
        The first event of each such answer is marked ``forced``, so the history
        says that nobody chose it."""
        state = self.state
        while not state.over:
            found = next(
                (
                    (spec, player, answer)
                    for player in state.players
                    if (decision := state.awaiting.get(player.name)) is not None
                    and (spec := self.DECISIONS[decision.kind]).forced is not None
                    and (answer := spec.forced(state, player)) is not None
                ),
                None,
            )
            if found is None:
                break
            spec, player, answer = found
            answered_from = len(self.events)
            self.answer(spec, player, answer)
            self.events[answered_from].data["forced"] = True
        return self.events

    def timeout(self) -> list[Event]:
        """Every decision awaited now gets its default answer, in seat order. The
        first event of each such answer (the player's own act) is marked
        ``timed_out``, so the history says the clock, not the player, made it."""
        state = self.state
        if state.over:
            raise IllegalMove(_("The game is over."))
        pending = [(p, state.awaiting[p.name].id) for p in state.players if p.name in state.awaiting]
        for player, decision_id in pending:
            decision = state.awaiting.get(player.name)
            if decision is not None and decision.id == decision_id:
                default = self.DECISIONS[decision.kind].default(state, player, self.dealer)
                answered_from = len(self.events)
                self.command(player.name, default)
                if len(self.events) > answered_from:
                    self.events[answered_from].data["timed_out"] = True
        return self.events


class UnrecordedFlow[S: GameState](BaseFlow[S]):
    """Mixed into a game's ``Flow`` for playouts (before it, so that its ``emit``
    wins): each event is folded into the state as ``emit`` always does, but no
    ``Event`` is built or kept, since a playout only needs where the game ends up."""

    __slots__ = ()

    def emit(self, type: str, data: dict, secret: dict | None = None, seen_by: tuple = ()) -> None:
        state = self.state
        self.APPLY[type](state, data, secret)
        state.seq += 1


def _readable(command) -> bool:
    """A command is a dict of names to plain values (``cards``: a list of them),
    as the options list them; anything else is refused before any rule reads it."""
    if type(command) is not dict:
        return False
    for key, value in command.items():
        kind = type(value)  # exact types: a bool is not a number here, and this runs on every command
        if kind is str or kind is int:
            continue
        if key != "cards" or kind is not list or any(type(card) is not str for card in value):
            return False
    return True


class Rules[S: GameState](ABC):
    """A game's rules as everything outside the engine calls them, the same for
    every game (the ``rules`` part of its ``GameKind``). A game's subclass sets the
    attributes below and the abstract methods (a module's function may stand in
    for one, as a ``staticmethod``)."""

    kind: str
    """The stable id stored in ``Game.kind`` and prefixing its event types ("coup")."""
    min_players: int
    max_players: int
    variants: tuple[str, ...] = ()
    """The variants a game of this kind may be played with, in the order offered."""
    out_events: frozenset[str]
    """The event types that put a player out of the game."""
    Flow: type[BaseFlow[S]]
    State: type[S]
    long_game: tuple[int, Callable[[random.Random, list[dict]], dict]]
    """The most players, and a way of choosing among options (``choose(rng,
    options)``) that makes a long game: the replay benchmark's."""

    def __init__(self):
        # Each decision's options, by decision kind: ``options`` runs at every answer.
        self._options = {kind: spec.options for kind, spec in self.Flow.DECISIONS.items()}
        self._offered = {kind: spec.offered for kind, spec in self.Flow.DECISIONS.items()}
        # Built at run time from the game's own Flow, which the checker cannot follow.
        self._unrecorded = cast(
            type[BaseFlow[S]],
            type(f"Unrecorded{self.Flow.__name__}", (UnrecordedFlow, self.Flow), {"__slots__": ()}),
        )

    @abstractmethod
    def check_config(self, players: list[str], variants: list[str]) -> None:
        """Refuse (``IllegalMove``) a game a host may not create: the number of
        players, the variants and how they combine."""

    @abstractmethod
    def setup(
        self, *, players: list[str], first: str, variants=(), options: dict | None = None, dealer: Dealer | None = None
    ) -> list[Event]:
        """The events that start a game of ``players`` (engine names, in seat order)
        with ``first`` to play, the deal drawn by ``dealer`` (a live one by default);
        ``options`` are the game's stored options, of which the kind reads those it knows."""

    @abstractmethod
    def dump(self, state: S) -> dict:
        """``state`` as JSON, for the snapshot cached beside the event log."""

    @abstractmethod
    def load(self, data: dict) -> S:
        """The state ``dump`` wrote (always equal to a replay of the log)."""

    @abstractmethod
    def winners(self, state: S) -> list[str]:
        """Who won (several for a shared win; none while the game goes on)."""

    @abstractmethod
    def standings(self, state: S) -> list[list[str]]:
        """The finishing order of a finished game, as groups of player names from
        first place on (players tied share a group; the winners are the first
        group). Every game's results store each player's place from it
        (``games/services/results.py``), knowing no game's rules."""

    @abstractmethod
    def shown(self, state: S, viewer: str | None, omniscient: bool) -> dict:
        """The game's view, as ``view`` (what ``viewer`` may see) or as
        ``omniscient_view`` (everything) asks for it."""

    @abstractmethod
    def read_scenario(self, data: dict) -> "Scenario":
        """A scenario file of this game (docs/scenarios.md); raises ``MalformedScenario``."""

    def new_state(self) -> S:
        """An empty state, before any event."""
        return self.State()

    def apply(self, state: S, event: Event) -> None:
        """Fold one event into ``state``: the only way a state changes."""
        self.Flow.APPLY[event.type](state, event.data, event.secret)
        state.seq += 1

    def replay(self, events: Iterable[Event | dict]) -> S:
        """The state folded from ``events`` (engine ``Event`` objects or stored JSON)."""
        state = self.State()
        apply = self.apply
        for event in events:
            apply(state, event if isinstance(event, Event) else Event.from_json(event))
        return state

    def play(self, state: S, player: str, command: dict, dealer: Dealer | None = None) -> list[Event]:
        """``player`` answers their awaited decision with ``command`` (one of their
        ``options``, with the decision's ``version`` if given). Returns the events,
        already applied to ``state``; raises ``IllegalMove``, leaving ``state``
        unchanged, when the rules forbid it."""
        return self.Flow(state, dealer or LiveDealer()).command(player, command)

    def play_option(self, state: S, player: str, option: dict, dealer: Dealer, record: bool = False) -> list[Event]:
        """The playouts' trusted path: ``player`` answers with ``option``, which
        must be one of ``options(state, player)`` as listed now (it is not checked
        again). Reaches the same state as ``play``; the events are built and
        returned only when ``record`` asks for them (else an empty list)."""
        flow = (self.Flow if record else self._unrecorded)(state, dealer)
        return flow.answer(self.Flow.DECISIONS[state.awaiting[player].kind], state.by_name[player], option)

    def unrecorded_flow(self, state: S, dealer: Dealer) -> BaseFlow[S]:
        """A flow over ``state`` that builds no events, for a playout that answers
        many decisions in a row (``playout.play_out``)."""
        return self._unrecorded(state, dealer)

    def resign(self, state: S, player: str, dealer: Dealer | None = None) -> list[Event]:
        """``player`` leaves the game for good; returns the events, applied."""
        return self.Flow(state, dealer or LiveDealer()).resign(player)

    def timeout(self, state: S, dealer: Dealer | None = None) -> list[Event]:
        """The deadline passed: every decision awaited gets its default answer."""
        return self.Flow(state, dealer or LiveDealer()).timeout()

    def forced(self, state: S, dealer: Dealer | None = None) -> list[Event]:
        """Play at once every awaited decision whose one answer public information
        leaves (``BaseFlow.forced_answers``); returns the events, applied. The
        service calls it after every change, so nobody is asked a question with
        one answer everyone can see; scenario files do not, so their steps stay
        one per answer."""
        return self.Flow(state, dealer or LiveDealer()).forced_answers()

    def view(self, state: S, viewer: str) -> dict:
        """Everything ``viewer`` may know of the game, as plain JSON: the only door
        through which state reaches a page, an email or a log. A name that is no
        player's sees only what is public."""
        return self.shown(state, viewer, omniscient=False)

    def omniscient_view(self, state: S) -> dict:
        """Every card, the deck in order: for finished-game replays and scenario
        files only, never for a game in play."""
        return self.shown(state, None, omniscient=True)

    def set_preferences(self, state: S, player: str, preferences: dict, dealer: Dealer | None = None) -> list[Event]:
        """Give ``player``'s standing preferences (``Forms.player_preferences``) to the
        game; a preference may answer an awaited decision at once. Returns the
        events, applied. A game whose players keep no preferences takes none."""
        return []

    def default_answer(self, state: S, player: str, dealer: Dealer | None = None) -> dict:
        """What a deadline answers for ``player``'s awaited decision."""
        spec = self.Flow.DECISIONS[state.awaiting[player].kind]
        return spec.default(state, state.by_name[player], dealer or LiveDealer())

    def options(self, state: S, player: str) -> list[dict]:
        """``player``'s legal answers now (none when nothing is asked of them). Each
        is a command ``play`` accepts; it may also carry its consequence (the coins
        a Steal takes, the medals a bet costs) so the words never work a rule out
        again. Shared dicts: read or copy them, never change them."""
        decision = state.awaiting.get(player)
        if decision is None:
            return []
        return self._options[decision.kind](state, state.by_name[player])

    def offered(self, state: S, player: str) -> list[dict]:
        """``player``'s answers as a person is offered them (pages, emails, replies):
        the ``options``, but where an answer leads straight to another decision of
        theirs, one answer for each way of answering both (``DecisionSpec.offered``),
        so that a player at a distance is asked once, not twice. Each is a command
        ``play`` accepts; shared dicts, as ``options``'."""
        decision = state.awaiting.get(player)
        if decision is None:
            return []
        return self._offered[decision.kind](state, state.by_name[player])

    @staticmethod
    def awaiting(state: GameState) -> list[tuple[str, str, int]]:
        """``(player, decision kind, version)`` of every decision awaited, in seat order."""
        awaiting = state.awaiting
        return [(p.name, awaiting[p.name].kind, awaiting[p.name].id) for p in state.players if p.name in awaiting]

    @staticmethod
    def is_over(state: GameState) -> bool:
        """Whether the game has ended."""
        return state.over


def awaited_view(state: GameState) -> list[dict]:
    """The decisions awaited, in seat order, as every view shows them."""
    return [
        {"player": p.name, "decision": state.awaiting[p.name].kind} for p in state.players if p.name in state.awaiting
    ]
