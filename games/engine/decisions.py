"""Decisions: what a game waits for, and the one spec of each kind of decision.

A game awaits a ``Decision`` from each player it asks. Every kind of decision a
game has ("turn", "respond", "bet"...) is described once, by a ``DecisionSpec``:
which acts answer it, how it is asked, its legal options, how an answer is
checked and played, and what a deadline answers. A game's words (labels,
prompts on pages) live in its ``words``, keyed by the same decision kinds.
"""


class Decision:
    """One decision the game waits for; ``id`` is the event count when it was
    asked, so an answer to an earlier decision is recognised as stale."""

    __slots__ = ("kind", "id")

    def __init__(self, kind: str, id: int):
        self.kind = kind
        self.id = id


class DecisionSpec:
    """Everything the engine knows about one kind of decision.

    - ``kind``: its name in ``awaiting`` and in the events ("respond").
    - ``answers``: the acts that answer it; any other act is refused before a rule
      reads it.
    - ``prompt``: what the player is asked, as a sentence ending ("respond"), marked
      for translation; the messages of a refusal quote it.
    - ``options(state, player)``: the legal answers, each a command (``act`` and its
      fields) that ``check`` and ``play`` accept as it is. An option may also
      carry its consequence under the keys listed in ``consequences`` (the coins
      a Steal takes, the medals a bet costs), so the words that label it never
      work a rule out again; ``play`` ignores those keys.
    - ``check(state, player, command)``: raises ``IllegalMove`` when the rules
      forbid the answer, changing nothing; None when every answer of the right
      act is legal. A command from outside (``BaseFlow.command``, a deadline's
      default among them) is checked; an option just listed (the playouts'
      ``Rules.play_option``) and an answer the engine gives itself (a forced one,
      a standing one) need not be.
    - ``play(flow, player, command)``: emits the events of an answer already
      known to be legal (checked, or one of the options); it checks nothing.
    - ``default(state, player, dealer)``: the answer a deadline gives (docs/scenarios.md,
      "Timeout defaults").
    - ``offered(state, player)``: the answers a person is offered, when they differ
      from ``options``: an answer that would lead straight to another decision of
      the same player carries that decision's answer too, so one question stands
      for two (conceding a challenge, with the card it costs). Each is a command
      ``check`` and ``play`` accept. None: the ``options``.
    - ``forced(state, player)``: the one answer public information alone leaves
      (a turn whose only legal move is a Coup on the last opponent), which the
      service plays at once (``BaseFlow.forced_answers``); None when the player is
      to be asked. Never an answer that follows from a hidden hand: whether the
      game waits must not tell one (docs/rules.md, "Decisions are always awaited").
    """

    __slots__ = (
        "kind",
        "answers",
        "prompt",
        "options",
        "check",
        "play",
        "default",
        "consequences",
        "offered",
        "forced",
    )

    def __init__(
        self,
        kind: str,
        *,
        answers,
        prompt: str,
        options,
        play,
        default,
        check=None,
        consequences=(),
        offered=None,
        forced=None,
    ):
        self.kind = kind
        self.answers = frozenset(answers)
        self.prompt = prompt
        self.options = options
        self.check = check
        self.play = play
        self.default = default
        self.consequences = frozenset(consequences)
        self.offered = offered or options
        self.forced = forced


def decision_table(*specs: DecisionSpec) -> dict[str, DecisionSpec]:
    """A game's specs by decision kind (each kind once)."""
    table = {spec.kind: spec for spec in specs}
    assert len(table) == len(specs), "a decision kind is declared twice"
    return table


def fixed_options(*options: dict):
    """``options`` of a decision whose legal answers never depend on the state."""

    def options_of(state, player) -> list[dict]:
        return list(options)

    return options_of


def fixed_answer(command: dict):
    """``default`` of a decision that a deadline always answers the same way."""

    def answer(state, player, dealer) -> dict:
        return dict(command)

    return answer
