"""What every game of the engine shares: awaited decisions, the command prelude,
deadlines, and the game interface built on a game's own ``Flow``."""

from .dealer import LiveDealer
from .errors import IllegalMove
from .errors import gettext_noop as _
from .events import Event


PUBLIC = ""  # the viewer name for someone not seated at any table: sees what is public


class Decision:
    """One decision the game waits for; ``id`` is the event count when it was
    asked, so an answer to an earlier decision is recognised as stale."""

    __slots__ = ("kind", "id")

    def __init__(self, kind: str, id: int):
        self.kind = kind
        self.id = id


class BaseFlow:
    """Handles one command (or one deadline) against a state, collecting events.

    A game's ``Flow`` sets ``APPLY`` (its fold), ``ANSWERS`` (the acts answering
    each decision), ``PROMPTS`` (each decision in words), ``HANDLERS`` (a function
    per decision) and ``default_answer``. Its state has ``players``, ``by_name``,
    ``awaiting``, ``seq`` and ``over``."""

    __slots__ = ("state", "dealer", "events")
    APPLY: dict
    ANSWERS: dict
    PROMPTS: dict
    HANDLERS: dict

    def __init__(self, state, dealer):
        self.state = state
        self.dealer = dealer
        self.events: list[Event] = []

    def emit(self, type, data, secret=None, seen_by=()):
        # The same fold as the game's ``apply``, inlined: the engine's hottest path.
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
        kind = decision.kind
        if command.get("act") not in self.ANSWERS[kind]:
            raise IllegalMove(
                _("You can't do that now: the game is waiting for you to {prompt}."), prompt=self.PROMPTS[kind]
            )
        version = command.get("version")
        if version is not None and version != decision.id:
            raise IllegalMove(_("That decision has already passed."))
        self.HANDLERS[kind](self, state.by_name[name], command)
        self.answered()
        return self.events

    def answered(self):
        """After each answer: a game may answer further decisions at once."""

    def timeout(self) -> list[Event]:
        """Every decision awaited now gets its default answer, in seat order."""
        state = self.state
        if state.over:
            raise IllegalMove(_("The game is over."))
        pending = [(p.name, state.awaiting[p.name].id) for p in state.players if p.name in state.awaiting]
        for name, decision_id in pending:
            decision = state.awaiting.get(name)
            if decision is not None and decision.id == decision_id:
                self.command(name, self.default_answer(state, name, self.dealer))
        return self.events


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


class Game:
    """The interface every game of the engine offers. A game sets ``kind``,
    ``decision_prompts``, ``Flow``, ``State`` and the functions ``setup_events``,
    ``check_config``, ``apply``, ``dump``/``load``, ``options``, ``view`` and
    ``winners``."""

    def setup(self, dealer=None, **config):
        return self.setup_events(dealer=dealer or LiveDealer(), **config)

    def new_state(self):
        return self.State()

    def apply(self, state, event: Event) -> None:
        """Fold one event into ``state``: the only way a state changes."""
        self.Flow.APPLY[event.type](state, event.data, event.secret)
        state.seq += 1

    def play(self, state, player: str, command: dict, dealer=None) -> list:
        """``player`` answers with ``command``; returns its events, already applied
        to ``state``. Raises ``IllegalMove`` and leaves ``state`` unchanged if the
        rules forbid it."""
        return self.Flow(state, dealer or LiveDealer()).command(player, command)

    def resign(self, state, player: str, dealer=None) -> list:
        return self.Flow(state, dealer or LiveDealer()).resign(player)

    def timeout(self, state, dealer=None) -> list:
        return self.Flow(state, dealer or LiveDealer()).timeout()

    def set_standing_answers(self, state, player: str, *, prove: bool, lose_first: list, dealer=None) -> list:
        """A player's standing answers (RULES.md §1); a game without them (any but
        Coup) takes none and returns no events."""
        return []

    def default_answer(self, state, player: str, dealer=None) -> dict:
        return self.Flow.default_answer(state, player, dealer or LiveDealer())

    @staticmethod
    def awaiting(state) -> list:
        """``(player, decision, version)`` for every decision awaited, in seat order."""
        awaiting = state.awaiting
        return [(p.name, awaiting[p.name].kind, awaiting[p.name].id) for p in state.players if p.name in awaiting]

    @staticmethod
    def is_over(state) -> bool:
        return state.over
