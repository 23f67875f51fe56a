"""How a Coup game moves forward between answers: the procedures every decision
uses (waiting for players, losing an influence, drawing, moving coins) and the
steps that resume the game once nobody is awaited.

Emitting applies each event at once (``state.py``), so the flow always reads the
current state. An answer is checked by its decision's check and played by its
handler (``decisions.py``); when it leaves nobody awaited, the flow resumes at
``state.step``, the continuation recorded by the last ``coup.awaited`` event, and
runs until the game waits for someone again.

Where things happen, for a newcomer: what each action does once it stands (a
Steal taking coins, an Exchange drawing) is ``_step_effect``, from the action's
record (``actions.py``) and ``EFFECTS``; a failed action's refund
``_step_action_failed``; the end of a turn, eliminations and the Lawyer's
inheritance ``_step_end_action``; standing answers and resigning are methods of
``Flow``.
"""

from games.engine.common import BaseFlow
from games.engine.errors import IllegalMove
from games.engine.errors import gettext_noop as _
from games.engine.events import Event
from games.kinds.coup.engine.actions import ACTIONS, ATTACK, CHANGE_FACTION, EXCHANGE_CARDS, SHOW_A_CARD
from games.kinds.coup.engine.cards import DECLARED_ATTACK_DRAWS
from games.kinds.coup.engine.decisions import DECISIONS
from games.kinds.coup.engine.rules import blockers_of, open_inheritance_claims, stolen
from games.kinds.coup.engine.state import APPLY, Challenge, CoupState


class Flow(BaseFlow[CoupState]):
    __slots__ = ()
    APPLY = APPLY
    DECISIONS = DECISIONS

    def answered(self):
        if self.state.standing:
            self.standing_answers()

    def set_standing_answers(self, name: str, prove: bool, lose_first: list) -> list[Event]:
        """``name``'s standing answers: always prove a challenged claim when able
        (else concede at once), and give up these cards first when losing an
        influence. Private to the player; applied at once, including to a
        decision awaited now. Cards not in this game's deck (a player's preference
        is the same for every game) are left out of the order."""
        state = self.state
        if name not in state.by_name:
            raise IllegalMove(_("There is no player called {player} in this game."), player=name)
        lose_first = [card for card in lose_first if card in state.rulebook.characters]
        self.emit("coup.standing.set", {"player": name}, {"prove": bool(prove), "lose_first": lose_first}, (name,))
        if state.winner is None:
            self.standing_answers()
        return self.events

    def standing_answers(self):
        """Answer at once every awaited decision a standing answer covers. It answers
        in both branches (prove or concede; a listed card or another), so how soon a
        decision is answered never tells anything about a hand."""
        state = self.state
        while state.standing:
            found = next(
                (
                    (name, decision, answer)
                    for name, decision in state.awaiting.items()
                    if (answer := standing_answer(state, name, decision.kind, self.dealer)) is not None
                ),
                None,
            )
            if found is None:
                return
            name, decision, answer = found
            DECISIONS[decision.kind].play(self, state.by_name[name], answer)

    def resign(self, name: str) -> list[Event]:
        """``name`` leaves the game: every face-down card is turned face up and the
        game goes on without them. A claim they were defending counts as conceded."""
        state = self.state
        player = state.by_name.get(name)
        if player is None:
            raise IllegalMove(_("There is no player called {player} in this game."), player=name)
        if state.winner is not None:
            raise IllegalMove(_("The game is over."))
        if not player.alive:
            raise IllegalMove(_("You are already out of the game."))
        decision = state.awaiting.get(name)
        if player.drawn:
            self.emit(
                "coup.exchange.kept",
                {"player": name},
                {"kept": list(player.hand), "returned": list(player.drawn)},
                (name,),
            )
            self.shuffle_court()
        self.emit("coup.player.resigned", {"player": name})
        for card in list(player.hand):
            self.lose_card(player, card)
        if state.living < 2:
            self.run("end_action")
        elif decision is not None and not state.awaiting:
            if decision.kind == "challenged":
                challenge = state.challenge
                assert challenge is not None, "a claimant is asked only while their claim is challenged"
                if challenge.on == "inheritance":
                    self.emit("coup.inheritance.claim_lost", {"player": name})
                self.run(_resigned_claimant_step(challenge))
            else:
                self.run(RESIGNED_CONTINUATION.get(decision.kind, state.step))
        self.standing_answers()
        return self.events

    # ---- shared procedures -------------------------------------------------------

    def await_(self, players, decision, then):
        """Wait for ``players`` (those still in the game); resume at ``then``.
        Returns the step to run now: ``None`` if someone is asked."""
        names = [p.name for p in players if p.alive]
        if not names or self.state.living < 2:
            return then
        self.emit("coup.awaited", {"players": names, "decision": decision, "then": then})
        return None

    def lose(self, player, then, card=None):
        """``player`` loses one influence: ``card`` when their answer already chose
        it (a concession offered with its loss), the only one left, or else the one
        they are asked for."""
        if not player.alive:
            return then
        if card is not None or len(player.hand) == 1:
            self.lose_card(player, card or player.hand[0])
            return then
        return self.await_([player], "lose", then)

    def lose_card(self, player, card):
        self.emit("coup.influence.lost", {"player": player.name, "card": card})
        if not player.hand:
            self.emit("coup.player.eliminated", {"player": player.name})

    def shuffle_court(self):
        if not self.dealer.scripted:
            self.emit("coup.court.shuffled", {}, {"court": self.dealer.shuffle(self.state.court)})

    def draw(self, player, count):
        for _draw in range(min(count, len(self.state.court))):
            self.emit("coup.card.drawn", {"player": player.name}, {"card": self.state.court[0]}, (player.name,))

    def move_coins(self, amount, source, dest):
        if amount:
            self.emit("coup.coins.moved", {"amount": amount, "from": source, "to": dest})

    def run(self, step):
        """Run the flow from ``step`` until the game waits for someone or ends."""
        while step is not None:
            step = STEPS[step](self)

    def resume(self):
        if not self.state.awaiting:
            self.run(self.state.step)


def standing_answer(state: CoupState, name: str, kind: str, dealer) -> dict | None:
    """The answer ``name``'s standing answers give to a ``kind`` decision, if any."""
    standing = state.standing.get(name)
    if not standing:
        return None
    player = state.by_name[name]
    if kind == "challenged" and standing["prove"]:
        return DECISIONS["challenged"].default(state, player, dealer)  # prove when able, else concede
    if kind == "lose" and standing["lose_first"]:
        card = next((card for card in standing["lose_first"] if card in player.hand), None)
        return {"act": "lose", "card": card or dealer.pick(player.hand)}
    return None


# Where the flow resumes when a player resigns instead of answering: a claim they
# defended fails; an examination of them has nothing to show; a turn passes on.
RESIGNED_CONTINUATION = {"turn": "end_action", "show": "end_action"}


def _resigned_claimant_step(challenge: Challenge) -> str:
    return {"action": "action_failed", "block": "effect", "inheritance": "inheritance_resume"}[challenge.on]


# ---- the flow's steps: each returns the next step, or None when waiting ----------------


def _step_declared(flow: Flow):
    state = flow.state
    action = state.action
    assert action is not None, "every step of an action runs while it is being resolved"
    actor = state.by_name[action.actor]
    if action.kind in state.rulebook.challengeable:
        asked = state.after(actor)
    else:
        asked = blockers_of(state, action)
    return flow.await_(asked, "respond", "effect")


def _step_action_survived(flow: Flow):
    """A challenge on the action failed; a blocker who has not allowed may still block."""
    state = flow.state
    action = state.action
    assert action is not None, "every step of an action runs while it is being resolved"
    blockers = [p for p in blockers_of(state, action) if p.name not in action.allowed]
    return flow.await_(blockers, "block", "effect")


def _step_action_failed(flow: Flow):
    state = flow.state
    action = state.action
    assert action is not None, "every step of an action runs while it is being resolved"
    record = ACTIONS[action.kind]
    if record.takes_reserve:
        flow.move_coins(action.takes, action.actor, "reserve")
    else:
        flow.move_coins(record.cost, record.pays_into, action.actor)
    flow.emit("coup.action.failed", {"player": action.actor, "action": action.kind, "reason": "challenge"})
    return "end_action"


def _step_block_allowed(flow: Flow):
    action = flow.state.action
    assert action is not None, "every step of an action runs while it is being resolved"
    flow.emit("coup.action.failed", {"player": action.actor, "action": action.kind, "reason": "blocked"})
    return "end_action"


def _step_effect(flow: Flow):
    """The action takes effect: the coins it takes move, then it does what else
    its record says (``EFFECTS``). Once the game is over, coins still move but
    nobody is asked anything."""
    state = flow.state
    action = state.action
    assert action is not None, "every step of an action runs while it is being resolved"
    record = ACTIONS[action.kind]
    actor = action.actor
    if record.gain:
        flow.move_coins(record.gain, "treasury", actor)
    if record.gives:
        beneficiary = state.by_name[action.beneficiary]
        if beneficiary.alive:
            flow.move_coins(record.gives, "treasury", beneficiary.name)
    if record.steals:
        target = state.by_name[action.target]
        flow.move_coins(stolen(target, record.steals), target.name, actor)
    if record.effect is None or state.living < 2:
        return "end_action"
    return EFFECTS[record.effect](flow, action)


def _attack(flow: Flow, action):
    target = flow.state.by_name[action.target]
    if action.kind in flow.state.rulebook.declared:
        return _declared_attack(flow, target, action.name)
    return flow.lose(target, "end_action")


def _exchange_cards(flow: Flow, action):
    state = flow.state
    return _start_exchange(flow, state.by_name[action.actor], state.rulebook.draws[action.kind])


def _show_a_card(flow: Flow, action):
    target = flow.state.by_name[action.target]
    if target.alive:  # a target eliminated by their own failed challenge has nothing to show
        return flow.await_([target], "show", "examined")
    return "end_action"


def _change_faction(flow: Flow, action):
    flow.emit("coup.faction.converted", {"player": action.actor, "target": action.target})
    return "end_action"


# What an action does once it stands, besides moving coins, by its record's ``effect``.
EFFECTS = {
    ATTACK: _attack,
    EXCHANGE_CARDS: _exchange_cards,
    SHOW_A_CARD: _show_a_card,
    CHANGE_FACTION: _change_faction,
}


def _declared_attack(flow: Flow, target, named):
    """Declared Coup: the target reveals every face-down card, loses the named
    character if it is there, then exchanges to hide their hand again."""
    if not target.alive:
        return "end_action"
    flow.emit("coup.hand.revealed", {"player": target.name, "cards": list(target.hand)})
    if named in target.hand:
        flow.lose_card(target, named)
    if not target.alive or flow.state.living < 2:
        return "end_action"
    return _start_exchange(flow, target, DECLARED_ATTACK_DRAWS)


def _start_exchange(flow: Flow, player, count):
    court = flow.state.court
    drawn = court[: min(count, len(court))]
    flow.emit("coup.exchange.drew", {"player": player.name, "count": len(drawn)}, {"cards": drawn}, (player.name,))
    return flow.await_([player], "keep", "end_action")


def _step_examined(flow: Flow):
    state = flow.state
    action = state.action
    assert action is not None, "every step of an action runs while it is being resolved"
    return flow.await_([state.by_name[action.actor]], "examine", "end_action")


def _step_end_action(flow: Flow):
    """The action has fully resolved: settle the coins of anyone it eliminated,
    then pass the turn."""
    state = flow.state
    estates = []
    if state.eliminated:
        estates = [p for p in state.players if not p.alive and p.coins]
        if len(estates) > 1:
            estates.sort(key=lambda p: p.out_order)
    if state.living == 1:
        for dead in estates:
            flow.move_coins(dead.coins, dead.name, "treasury")
        flow.emit("coup.game.won", {"player": next(p.name for p in state.players if p.alive)})
        return None
    if estates and state.rulebook.inheritance:
        deceased = estates[0]
        flow.emit("coup.inheritance.opened", {"player": deceased.name, "coins": deceased.coins})
        return flow.await_(state.alive(), "inheritance", "claims_made")
    for dead in estates:
        flow.move_coins(dead.coins, dead.name, "treasury")
    current = state.turn
    assert current is not None, "an action is resolved in someone's turn"
    following = state.after(current)
    flow.emit("coup.turn.started", {"player": following[0].name})
    return None


def _challengers_of_claims(flow: Flow, candidates):
    """Who is asked in an inheritance's challenge window: those with a claim left to challenge."""
    state = flow.state
    return [p for p in candidates if p.alive and open_inheritance_claims(state, p)]


def _step_claims_made(flow: Flow):
    return flow.await_(_challengers_of_claims(flow, flow.state.alive()), "respond", "claims_settled")


def _step_inheritance_resume(flow: Flow):
    state = flow.state
    estate = state.estate
    assert estate is not None, "every step of an inheritance runs while it is open"
    waiting = [state.by_name[name] for name in estate.suspended]
    return flow.await_(_challengers_of_claims(flow, waiting), "respond", "claims_settled")


def _step_claims_settled(flow: Flow):
    """Split the estate equally among the standing Lawyer claims; the remainder,
    or everything when nobody stands (or the game is over), goes to the treasury."""
    state = flow.state
    estate = state.estate
    assert estate is not None, "every step of an inheritance runs while it is open"
    standing = [c for c in estate.claimants if state.by_name[c].alive]
    if state.living < 2:
        standing = []
    share = estate.coins // len(standing) if standing else 0
    shares = {name: share for name in standing}
    flow.emit(
        "coup.inheritance.settled",
        {"player": estate.deceased, "shares": shares, "treasury": estate.coins - share * len(standing)},
    )
    return "end_action"


STEPS = {
    "declared": _step_declared,
    "effect": _step_effect,
    "action_survived": _step_action_survived,
    "action_failed": _step_action_failed,
    "block_allowed": _step_block_allowed,
    "examined": _step_examined,
    "end_action": _step_end_action,
    "claims_made": _step_claims_made,
    "inheritance_resume": _step_inheritance_resume,
    "claims_settled": _step_claims_settled,
}
