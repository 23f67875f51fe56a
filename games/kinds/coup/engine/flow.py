"""How a command moves a Coup game forward: check it, then emit its events.

Every check happens before the first event is emitted, so a rejected command
leaves the state untouched. Emitting applies each event at once (``state.py``), so
the flow below always reads the current state. When an answer leaves nobody
awaited, the flow resumes at ``state.step``, the continuation recorded by the last
``coup.awaited`` event, and runs until the game waits for someone again.

Where things happen, for a newcomer: the turn actions are declared in
``_declare``, a challenge is resolved in ``_prove``/``_concede``, blocks in
``_block``, and each action's effect (a Steal taking coins, an Exchange drawing)
in ``_resolve_effect``.
"""


from ..errors import IllegalMove
from ..errors import gettext_noop as _
from ..common import BaseFlow
from ..events import Event
from .cards import CARD_NAMES, CONVERT_COST, COSTS, FORCED_COUP_COINS, LAWYER
from .state import APPLY, CoupState

# Which acts answer which decision.
ANSWERS = {
    "turn": frozenset(
        ("income", "foreign_aid", "tax", "exchange", "embezzle", "coup", "assassinate", "steal", "examine",
         "convert", "patronage")
    ),
    "respond": frozenset(("allow", "challenge", "block")),
    "block": frozenset(("allow", "block")),
    "challenged": frozenset(("prove", "concede")),
    "lose": frozenset(("lose",)),
    "keep": frozenset(("keep",)),
    "show": frozenset(("show",)),
    "examine": frozenset(("give_back", "force_exchange")),
    "inheritance": frozenset(("claim_inheritance", "decline")),
    "draft": frozenset(("draft_keep",)),
}

TARGETED = frozenset(("coup", "assassinate", "steal", "examine"))

DECISION_PROMPTS = {
    "turn": _("choose your action"),
    "respond": _("respond"),
    "block": _("decide whether to block"),
    "challenged": _("prove the claim or concede"),
    "lose": _("choose an influence to lose"),
    "keep": _("choose the cards to keep"),
    "show": _("choose a card to show"),
    "examine": _("give the card back or force an exchange"),
    "inheritance": _("claim the inheritance or decline"),
    "draft": _("choose the card to keep"),
}


def card_name(card) -> str:
    return CARD_NAMES.get(card, str(card))


class Flow(BaseFlow):
    __slots__ = ()
    APPLY = APPLY
    ANSWERS = ANSWERS
    PROMPTS = DECISION_PROMPTS

    def answered(self):
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
        lose_first = [card for card in lose_first if card in state.table.characters]
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
            HANDLERS[decision.kind](self, state.by_name[name], answer)

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
                if state.challenge.on == "inheritance":
                    self.emit("coup.inheritance.claim_lost", {"player": name})
                self.run(_resigned_claimant_step(state))
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

    def lose(self, player, then):
        """``player`` loses one influence; chosen by them unless only one is left."""
        if not player.alive:
            return then
        if len(player.hand) == 1:
            self.lose_card(player, player.hand[0])
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


def faction_forbids(state: CoupState, actor, other) -> bool:
    """True when the faction rule forbids ``actor`` to target ``other``: same
    faction, while some player still in the game is of the other one."""
    if actor.faction is None or actor.faction != other.faction:
        return False
    return any(p.faction != actor.faction for p in state.players if p.alive)


def blockers_of(state: CoupState, action) -> list:
    """The players who may block ``action`` (by claiming the right character)."""
    if action.kind == "foreign_aid":
        actor = state.by_name[action.actor]
        if actor.faction is None:  # no faction rule to check: spare a call per player
            return state.after(actor)
        return [p for p in state.after(actor) if not faction_forbids(state, p, actor)]
    if action.kind in state.table.blockers and action.target is not None:
        target = state.by_name[action.target]
        return [target] if target.alive else []
    return []


def default_answer(state: CoupState, name: str, dealer) -> dict:
    """What a deadline answers for ``name`` (SCENARIOS.md, "Timeout defaults")."""
    player = state.by_name[name]
    kind = state.awaiting[name].kind
    command = {}
    if kind == "turn":
        if player.coins >= FORCED_COUP_COINS:
            target = next(q for q in state.after(player) if not faction_forbids(state, player, q))
            command.update(act="coup", target=target.name)
            if "coup" in state.table.declared:
                command["name"] = dealer.pick(list(state.table.characters))
        else:
            command["act"] = "income"
    elif kind in ("respond", "block"):
        command["act"] = "allow"
    elif kind == "challenged":
        command["act"] = "prove" if can_prove(state, player) else "concede"
    elif kind == "lose":
        command.update(act="lose", card=dealer.pick(player.hand))
    elif kind == "keep":
        command.update(act="keep", cards=list(player.hand))
    elif kind == "show":
        command.update(act="show", card=dealer.pick(player.hand))
    elif kind == "examine":
        command["act"] = "give_back"
    elif kind == "inheritance":
        command["act"] = "decline"
    elif kind == "draft":
        command.update(act="draft_keep", card=dealer.pick(player.hand))
    return command


def standing_answer(state: CoupState, name: str, kind: str, dealer) -> dict | None:
    """The answer ``name``'s standing answers give to a ``kind`` decision, if any."""
    standing = state.standing.get(name)
    if not standing:
        return None
    player = state.by_name[name]
    if kind == "challenged" and standing["prove"]:
        return {"act": "prove" if can_prove(state, player) else "concede"}
    if kind == "lose" and standing["lose_first"]:
        card = next((card for card in standing["lose_first"] if card in player.hand), None)
        return {"act": "lose", "card": card or dealer.pick(player.hand)}
    return None


def challenged_claim(state: CoupState):
    """The character the current challenge is about (``None`` for Embezzlement,
    which claims *not* to hold the Duke or Patron)."""
    challenge = state.challenge
    if challenge.on == "block":
        return state.action.block_card
    if challenge.on == "inheritance":
        return LAWYER
    if state.action.kind == "embezzle":
        return None
    return state.table.claims[state.action.kind]


def can_prove(state: CoupState, player) -> bool:
    claim = challenged_claim(state)
    if claim is None:
        return state.table.embezzle_forbidden not in player.hand
    return claim in player.hand


# ---- decision handlers ---------------------------------------------------------------


def _declare(flow: Flow, player, command):
    state = flow.state
    table = state.table
    act = command["act"]
    if act not in table.turn_actions:
        raise IllegalMove(_("That action is not part of the variants in play."))
    if player.coins >= FORCED_COUP_COINS and act != "coup":
        raise IllegalMove(_("You have {coins} coins, so you must launch a Coup."), coins=player.coins)
    cost = COSTS.get(act, 0)
    if player.coins < cost:
        template = (
            _("You need 7 coins to launch a Coup; you have {coins}.")
            if act == "coup"
            else _("You need 3 coins to assassinate; you have {coins}.")
        )
        raise IllegalMove(template, coins=player.coins)
    data = {"player": player.name, "action": act}
    target = _checked_target(flow, player, command, required=act in TARGETED or act == "patronage")
    if act == "convert":
        yourself = target is None or target is player
        cost = CONVERT_COST[yourself]
        if player.coins < cost:
            if yourself:
                raise IllegalMove(_("Converting yourself costs 1 coin; you have none."))
            raise IllegalMove(_("Converting another player costs 2 coins; you have {coins}."), coins=player.coins)
        target = target or player
    if target is not None:
        data["target" if act != "patronage" else "beneficiary"] = target.name
    if act in table.declared:
        named = command.get("name")
        if named not in table.characters:
            raise IllegalMove(_("Name one of the characters in the deck for a declared attack."))
        data["name"] = named
    if act == "embezzle":
        data["takes"] = state.reserve
    flow.emit("coup.action.declared", data)
    if act == "convert":
        flow.move_coins(cost, player.name, "reserve")
    elif act == "embezzle":
        flow.move_coins(data["takes"], "reserve", player.name)
    else:
        flow.move_coins(cost, player.name, "treasury")
    flow.run("declared")


def _checked_target(flow: Flow, player, command, required: bool):
    state = flow.state
    name = command.get("target")
    if name is None:
        if required:
            raise IllegalMove(_("Choose another player as the target."))
        return None
    target = state.by_name.get(name)
    if target is None:
        raise IllegalMove(_("There is no player called {player} in this game."), player=name)
    if target is player:
        if command["act"] == "convert":
            return target
        raise IllegalMove(_("You can't target yourself."))
    if not target.alive:
        raise IllegalMove(_("{player} is out of the game."), player=name)
    if command["act"] in TARGETED and faction_forbids(state, player, target):
        raise IllegalMove(
            _("{player} is in your faction; you may target only the other faction while it has players."),
            player=name,
        )
    return target


def _respond(flow: Flow, player, command):
    act = command["act"]
    if act == "allow":
        flow.emit("coup.allowed", {"player": player.name})
        flow.resume()
    elif act == "challenge":
        _challenge(flow, player, command)
    else:
        _block(flow, player, command)


def _challenge(flow: Flow, player, command):
    state = flow.state
    if state.awaiting[player.name].kind == "block":
        raise IllegalMove(_("The action can no longer be challenged; you may only block it or allow it."))
    named = command.get("target")
    if named is not None and named not in state.by_name:
        raise IllegalMove(_("There is no player called {player} in this game."), player=named)
    if named == player.name:
        raise IllegalMove(_("You can't challenge yourself."))
    if state.estate is not None:
        claimant, on = _challenged_inheritance_claim(state, player, named), "inheritance"
    else:
        claimant = _open_claim(state)
        if named is not None and named != claimant:
            _refuse_challenge_of(state, named, claimant)
        on = "action" if state.action.blocker is None else "block"
    flow.emit("coup.challenged", {"player": player.name, "claimant": claimant, "on": on})


def _open_claim(state: CoupState) -> str:
    """Who made the claim a response window is about: the blocker once there is a
    block (the game has moved past the action's claim), else the actor."""
    action = state.action
    if action.blocker is not None:
        return action.blocker
    if action.kind not in state.table.challengeable:
        raise IllegalMove(_("This action claims no character, so it can't be challenged."))
    return action.actor


def _refuse_challenge_of(state: CoupState, named: str, claimant: str):
    """A challenge named ``named`` while only ``claimant``'s claim is open: say why not."""
    action = state.action
    if action.blocker is not None and named == action.actor and action.kind in state.table.challengeable:
        raise IllegalMove(
            _("{player}'s claim can no longer be challenged: the game has moved on to {blocker}'s block."),
            player=named,
            blocker=claimant,
        )
    raise IllegalMove(
        _("{player} has no claim you can challenge now; the open claim is {claimant}'s."), player=named, claimant=claimant
    )


def open_inheritance_claims(state: CoupState, player) -> list[str]:
    """The Lawyer claims ``player`` may still challenge: another player's, standing
    (the claimant still in the game), and not yet proved against a challenge."""
    estate = state.estate
    return [
        name
        for name in estate.claimants
        if name != player.name and name not in estate.proved and state.by_name[name].alive
    ]


def _challenged_inheritance_claim(state: CoupState, player, named) -> str:
    """The claimant a challenge in an inheritance is about: the one named, or with
    no name the only claim ``player`` may challenge (SCENARIOS.md: a target is
    needed only when several claims are open)."""
    claims = open_inheritance_claims(state, player)
    if named is None:
        if len(claims) == 1:
            return claims[0]
        if claims:
            raise IllegalMove(_("Several Lawyer claims are open: name the player whose claim you challenge."))
        raise IllegalMove(_("There is no Lawyer claim you can challenge."))
    if named in claims:
        return named
    if named in state.estate.proved and named in state.estate.claimants:
        raise IllegalMove(_("{player}'s Lawyer claim has already been challenged and stands."), player=named)
    raise IllegalMove(_("{player} has no Lawyer claim you can challenge."), player=named)


def _block(flow: Flow, player, command):
    state = flow.state
    action = state.action
    if state.estate is not None or action.blocker is not None:
        raise IllegalMove(_("There is nothing to block now."))
    if player not in blockers_of(state, action):
        raise IllegalMove(_("You can't block this action."))
    card = command.get("as")
    allowed = state.table.blockers[action.kind]
    if card not in allowed:
        raise IllegalMove(
            _("This action can be blocked only by claiming: {cards}."), cards=[card_name(card) for card in allowed]
        )
    flow.emit("coup.blocked", {"player": player.name, "card": card})
    flow.run(flow.await_([p for p in state.players if p is not player], "respond", "block_allowed"))


def _challenged(flow: Flow, player, command):
    state = flow.state
    challenge = state.challenge
    on_block = challenge.on == "block"
    if command["act"] == "prove":
        claim = challenged_claim(state)
        if not can_prove(state, player):
            if claim is None:
                raise IllegalMove(_("You can't prove it: you hold a {card}."), card=card_name(state.table.embezzle_forbidden))
            raise IllegalMove(_("You can't prove it: you have no {card}."), card=card_name(claim))
        shown = list(player.hand) if claim is None else [claim]
        flow.emit("coup.claim.proved", {"player": player.name, "cards": shown})
        flow.shuffle_court()
        flow.draw(player, len(shown))
        then = {"action": "action_survived", "block": "block_allowed", "inheritance": "inheritance_resume"}[challenge.on]
        flow.run(flow.lose(state.by_name[challenge.challenger], then))
    else:
        flow.emit("coup.claim.conceded", {"player": player.name})
        if challenge.on == "inheritance":
            flow.emit("coup.inheritance.claim_lost", {"player": player.name})
            then = "inheritance_resume"
        else:
            then = "effect" if on_block else "action_failed"
        flow.run(flow.lose(player, then))


def _lose(flow: Flow, player, command):
    card = command.get("card")
    if card not in player.hand:
        raise IllegalMove(_("You have no face-down {card} to lose."), card=card_name(card))
    flow.lose_card(player, card)
    flow.resume()


def _keep(flow: Flow, player, command):
    cards = command.get("cards")
    pool = player.hand + player.drawn
    count = len(player.hand)
    if not isinstance(cards, list) or len(cards) != count:
        raise IllegalMove(_("Keep as many cards as you have face down ({count})."), count=count)
    returned = list(pool)
    for card in cards:
        if card not in returned:
            raise IllegalMove(_("You can keep only cards from your hand and the cards you drew."))
        returned.remove(card)
    flow.emit(
        "coup.exchange.kept", {"player": player.name}, {"kept": sorted(cards), "returned": sorted(returned)}, (player.name,)
    )
    flow.shuffle_court()
    flow.resume()


def _show(flow: Flow, player, command):
    card = command.get("card")
    if card not in player.hand:
        raise IllegalMove(_("You have no face-down {card} to show."), card=card_name(card))
    examiner = flow.state.action.actor
    flow.emit("coup.card.shown", {"player": player.name, "to": examiner}, {"card": card}, (player.name, examiner))
    flow.resume()


def _examine(flow: Flow, player, command):
    state = flow.state
    action = state.action
    target = state.by_name[action.target]
    if command["act"] == "give_back":
        flow.emit("coup.examine.given_back", {"player": player.name, "target": target.name})
    else:
        flow.emit("coup.examine.forced", {"player": player.name, "target": target.name})
        flow.draw(target, 1)
        flow.emit("coup.card.returned", {"player": target.name}, {"card": action.shown}, (target.name, player.name))
        flow.shuffle_court()
    flow.resume()


def _inheritance(flow: Flow, player, command):
    kind = "coup.inheritance.claimed" if command["act"] == "claim_inheritance" else "coup.inheritance.declined"
    flow.emit(kind, {"player": player.name})
    flow.resume()


def _draft(flow: Flow, player, command):
    card = command.get("card")
    if card not in player.hand:
        raise IllegalMove(_("Keep one of the cards of your set."))
    aside = list(player.hand)
    aside.remove(card)
    flow.emit("coup.draft.kept", {"player": player.name}, {"card": card, "aside": aside}, (player.name,))
    state = flow.state
    if not state.awaiting:
        first = state.by_name[state.first]
        for dealt in [first, *state.after(first)]:
            flow.draw(dealt, 1)
        flow.emit("coup.turn.started", {"player": first.name})


# Where the flow resumes when a player resigns instead of answering: a claim they
# defended fails; an examination of them has nothing to show; a turn passes on.
RESIGNED_CONTINUATION = {"turn": "end_action", "show": "end_action"}


def _resigned_claimant_step(state):
    return {"action": "action_failed", "block": "effect", "inheritance": "inheritance_resume"}[state.challenge.on]


HANDLERS = {
    "turn": _declare,
    "respond": _respond,
    "block": _respond,
    "challenged": _challenged,
    "lose": _lose,
    "keep": _keep,
    "show": _show,
    "examine": _examine,
    "inheritance": _inheritance,
    "draft": _draft,
}


# ---- the flow's steps: each returns the next step, or None when waiting ----------------


def _step_declared(flow: Flow):
    state = flow.state
    action = state.action
    actor = state.by_name[action.actor]
    if action.kind in state.table.challengeable:
        asked = state.after(actor)
    else:
        asked = blockers_of(state, action)
    return flow.await_(asked, "respond", "effect")


def _step_action_survived(flow: Flow):
    """A challenge on the action failed; a blocker who has not allowed may still block."""
    state = flow.state
    action = state.action
    blockers = [p for p in blockers_of(state, action) if p.name not in action.allowed]
    return flow.await_(blockers, "block", "effect")


def _step_action_failed(flow: Flow):
    state = flow.state
    action = state.action
    if action.kind == "embezzle":
        flow.move_coins(action.takes, action.actor, "reserve")
    else:
        flow.move_coins(COSTS.get(action.kind, 0), "treasury", action.actor)
    flow.emit("coup.action.failed", {"player": action.actor, "action": action.kind, "reason": "challenge"})
    return "end_action"


def _step_block_allowed(flow: Flow):
    action = flow.state.action
    flow.emit("coup.action.failed", {"player": action.actor, "action": action.kind, "reason": "blocked"})
    return "end_action"


def _step_effect(flow: Flow):
    """The action takes effect. Once the game is over, coins still move but nobody
    is asked anything."""
    state = flow.state
    action = state.action
    kind = action.kind
    actor = state.by_name[action.actor]
    over = state.living < 2
    if kind == "income":
        flow.move_coins(1, "treasury", actor.name)
    elif kind == "foreign_aid":
        flow.move_coins(2, "treasury", actor.name)
    elif kind == "tax":
        flow.move_coins(3, "treasury", actor.name)
    elif kind == "steal":
        target = state.by_name[action.target]
        flow.move_coins(min(2, target.coins), target.name, actor.name)
    elif kind == "patronage":
        beneficiary = state.by_name[action.beneficiary]
        flow.move_coins(2, "treasury", actor.name)
        if beneficiary.alive:
            flow.move_coins(1, "treasury", beneficiary.name)
    elif kind == "convert":
        flow.emit("coup.faction.converted", {"player": actor.name, "target": action.target})
    elif over:
        return "end_action"
    elif kind in ("coup", "assassinate"):
        target = state.by_name[action.target]
        if kind in state.table.declared:
            return _declared_attack(flow, target, action.name)
        return flow.lose(target, "end_action")
    elif kind == "exchange":
        return _start_exchange(flow, actor, 1 if state.table.claims["exchange"] == "inquisitor" else 2)
    elif kind == "examine":
        target = state.by_name[action.target]
        if target.alive:  # a target eliminated by their own failed challenge has nothing to show
            return flow.await_([target], "show", "examined")
    return "end_action"


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
    return _start_exchange(flow, target, 2)


def _start_exchange(flow: Flow, player, count):
    court = flow.state.court
    drawn = court[: min(count, len(court))]
    flow.emit("coup.exchange.drew", {"player": player.name, "count": len(drawn)}, {"cards": drawn}, (player.name,))
    return flow.await_([player], "keep", "end_action")


def _step_examined(flow: Flow):
    state = flow.state
    return flow.await_([state.by_name[state.action.actor]], "examine", "end_action")


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
    if estates and "lawyer" in state.variants:
        deceased = estates[0]
        flow.emit("coup.inheritance.opened", {"player": deceased.name, "coins": deceased.coins})
        return flow.await_(state.alive(), "inheritance", "claims_made")
    for dead in estates:
        flow.move_coins(dead.coins, dead.name, "treasury")
    current = state.turn
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
    waiting = [state.by_name[name] for name in state.estate.suspended]
    return flow.await_(_challengers_of_claims(flow, waiting), "respond", "claims_settled")


def _step_claims_settled(flow: Flow):
    """Split the estate equally among the standing Lawyer claims; the remainder,
    or everything when nobody stands (or the game is over), goes to the treasury."""
    state = flow.state
    estate = state.estate
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


# Set here because the handlers and the default answers are defined after Flow.
Flow.HANDLERS = HANDLERS
Flow.default_answer = staticmethod(default_answer)
