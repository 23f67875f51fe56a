"""What one seat knows of a game, and the worlds it cannot tell apart.

A bot never reads a game's state. Its seat's ``SeatKnowledge`` is folded from
the events as that seat may see them (``Event.visible_to(seat)``): the engine's
own fold, with every card the seat has not seen written as ``HIDDEN``. A kind's
``Tracker`` makes each unseen secret such a placeholder (an opponent's hand, the
court after a shuffle, an opponent's draw) and writes into the placeholders what
the seat learns later (a card turned face up, a card shown in an examination,
the cards it returned to the court). The result is a state of the game in which
the seat's own cards and everything public are exact and the rest is unknown:
its view is exactly the seat's view (``check``), and ``sample`` deals the
unknown cards at random, consistently with the deck, into a complete state the
engine can play on (a "world").
"""

import time

HIDDEN = "?"  # a card the seat has not seen


class KnowledgeMismatch(RuntimeError):
    """The seat's knowledge disagrees with its view: a tracker missed an event."""


class SeatKnowledge:
    """Everything ``seat`` knows of one game: the events it saw, folded.

    - ``state``: the game with every unseen card ``HIDDEN`` (never a real state).
    - ``history``: each event's type and the fields the seat may see, in order.
    """

    def __init__(self, rules, tracker, seat: str):
        self.rules = rules
        self.tracker = tracker
        self.seat = seat
        self.state = rules.new_state()
        self.history: list[tuple[str, dict]] = []

    def observe(self, type: str, fields: dict) -> None:
        """Fold one event, given as the seat sees it (``Event.visible_to(seat)``)."""
        self.history.append((type, fields))
        self.tracker.fold(self, type, fields)

    def observe_events(self, events) -> None:
        for event in events:
            self.observe(event.type, event.visible_to(self.seat))

    def check(self, view: dict) -> None:
        """Raise ``KnowledgeMismatch`` unless the folded state shows the seat
        exactly ``view`` (the game's own view for that seat)."""
        if self.rules.view(self.state, self.seat) != view:
            raise KnowledgeMismatch(f"{self.seat}'s knowledge of the game does not match their view")

    @property
    def decision(self) -> str | None:
        decision = self.state.awaiting.get(self.seat)
        return decision.kind if decision is not None else None

    def options(self) -> list[dict]:
        """The seat's legal answers now: they depend only on its own cards and
        what is public, so the folded state lists them as the game does."""
        return self.rules.options(self.state, self.seat)

    def sample(self, rng):
        """A complete state consistent with everything the seat knows, the unknown
        cards dealt at random (mostly as the others claimed, where the kind reads
        claims)."""
        return self.tracker.sample(self, rng)


class Budget:
    """How long a bot may think about one decision: ``seconds`` of CPU time (the
    arena's ``--budget-ms``), and optionally at most ``worlds`` imagined deals of
    the unseen cards (so that a test's answer does not depend on the machine's
    speed). At least one world is always imagined. ``clock`` reads the seconds
    spent (the process's CPU time; a test may give its own)."""

    def __init__(self, seconds: float = 1.0, worlds: int | None = None, clock=time.process_time):
        self.seconds = seconds
        self.worlds = worlds
        self.clock = clock

    def allowance(self) -> "Allowance":
        """One decision's share of the budget, its time counted from now."""
        return Allowance(self)


class Allowance:
    """The budget of one decision as it is spent, world by world. A world is
    begun only when the longest one so far would still end before the deadline,
    and one whose next playout would end past it (were it as long as the longest
    so far) is left out (``late``), so that a decision keeps within its seconds
    rather than overrunning by the world, or the playout, it was in."""

    def __init__(self, budget: Budget):
        self.clock = budget.clock
        self.limit = budget.worlds
        self.deadline = self.clock() + budget.seconds
        self.worlds = 0
        self.longest = 0.0
        self.world_began = 0.0
        self.longest_playout = 0.0
        self.playout_began = 0.0

    def begin_world(self) -> bool:
        """Whether another world may be imagined (it is then timed from now): the
        first always; then while the count allows and the longest world so far fits."""
        now = self.clock()
        if self.worlds and (self.limit is not None and self.worlds >= self.limit or now + self.longest > self.deadline):
            return False
        self.world_began = self.playout_began = now
        return True

    def world_done(self) -> None:
        """The world begun last was imagined to the end."""
        self.worlds += 1
        self.longest = max(self.longest, self.clock() - self.world_began)

    def late(self) -> bool:
        """Asked before each playout of a world but its first: whether, with a
        world already imagined, this playout would end past the deadline were it
        as long as the longest so far. The world under way may then be left out."""
        now = self.clock()
        self.longest_playout = max(self.longest_playout, now - self.playout_began)
        self.playout_began = now
        return self.worlds > 0 and now + self.longest_playout > self.deadline


def bring_to_top(pile: list, cards: list) -> None:
    """``cards`` (seen by the seat) are the next ones drawn from ``pile``: put them
    on top, taken from where the seat knew them or from unknown places."""
    for position, card in enumerate(cards):
        rest = pile[position:]
        if card in rest:
            index = position + rest.index(card)
        elif HIDDEN in rest:
            index = position + rest.index(HIDDEN)
        else:
            raise KnowledgeMismatch(f"a {card} was drawn from a pile that cannot hold one")
        pile[index] = pile[position]  # what was on top takes the place of the card brought up
        pile[position] = card


def make_known(hand: list, card) -> None:
    """``card`` is in ``hand``: an unknown card of it becomes that card."""
    if card in hand:
        return
    if HIDDEN not in hand:
        raise KnowledgeMismatch(f"a {card} came from a hand that cannot hold one")
    hand[hand.index(HIDDEN)] = card


def forget(pile: list) -> list:
    """The same number of cards, none known any more."""
    return [HIDDEN] * len(pile)
