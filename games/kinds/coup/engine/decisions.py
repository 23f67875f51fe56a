"""Coup's decisions, one spec each: the acts that answer it, its prompt, its legal
options, the check that refuses an illegal answer, the handler that plays a legal
one and the answer a deadline gives.

Where things happen, for a newcomer: the turn actions are declared in
``_declare`` (turn, checked by ``_check_declare``); a challenge is raised in
``_challenge`` (respond) and resolved in ``_challenged``; a block in ``_block``.
What an action does once it stands (a Steal taking coins, an Exchange drawing)
is ``flow._step_effect``.

Each check reads the state and changes nothing, so a refused command leaves the
state untouched; each handler plays an answer the check (or the options it was
listed among) has already found legal, and checks nothing again. The option
dicts below are shared constants: callers must not mutate them.
"""

from itertools import combinations

from games.engine.decisions import DecisionSpec, decision_table, fixed_answer, fixed_options
from games.engine.errors import IllegalMove
from games.engine.errors import gettext_noop as _
from games.kinds.coup.engine.actions import ACTIONS, ANYONE, BENEFICIARY, OPPONENT
from games.kinds.coup.engine.cards import FORCED_ACTION, FORCED_COUP_COINS
from games.kinds.coup.engine.characters import CHARACTERS, card_name
from games.kinds.coup.engine.rules import (
    blockers_of,
    can_prove,
    challenged_claim,
    disclaimed,
    faction_forbids,
    open_inheritance_claims,
    stolen,
)
from games.kinds.coup.engine.state import CoupState

ALLOW, CHALLENGE, CONCEDE = {"act": "allow"}, {"act": "challenge"}, {"act": "concede"}
# A proof carries what it shows: the character claimed, or (Embezzlement) that the
# hand holds none of the character it disclaims.
PROVE_OPTIONS = {card: {"act": "prove", "claim": card} for card in CHARACTERS}
DISPROVE_OPTIONS = {card: {"act": "prove", "disclaims": card} for card in CHARACTERS}
# Conceding with the card the concession costs, as one answer (``_challenged_offered``).
CONCEDE_LOSING = {card: {"act": "concede", "lose": card} for card in CHARACTERS}


def _one_card_of_the_hand(act: str, refusal: str):
    """The options, the default and the check of a decision answered by naming
    one of the player's face-down cards (lose, show, draft): a deadline picks one
    at random, and any other card is refused with ``refusal`` (which may name the
    ``{card}``)."""
    by_card = {card: {"act": act, "card": card} for card in CHARACTERS}

    def options(state: CoupState, player) -> list[dict]:
        return [by_card[card] for card in sorted(set(player.hand))]

    def default(state: CoupState, player, dealer) -> dict:
        return {"act": act, "card": dealer.pick(player.hand)}

    def check(state: CoupState, player, command) -> None:
        card = command.get("card")
        if card not in player.hand:
            raise IllegalMove(refusal, card=card_name(card))

    return options, default, check


# ---- turn: the player's action ----------------------------------------------------------


def _turn_options(state: CoupState, player):
    rulebook = state.rulebook
    coins = player.coins
    others = state.after(player)
    found: list[dict] = []
    forced = coins >= FORCED_COUP_COINS
    if not forced:
        found += rulebook.plain_options
        for act, own_cost, cost in rulebook.open_actions:
            if own_cost is not None and coins >= own_cost:
                found.append({"act": act})
            if coins >= cost:
                found += [{"act": act, "target": q.name} for q in others]
    targets = None
    names: list[str]  # set with ``targets``, once an attack needs them
    for act, cost, named, steals in rulebook.aimed:
        if coins < cost or (forced and act != FORCED_ACTION):
            continue
        if targets is None:
            if player.faction is None:  # no faction rule to check: spare a call per player
                targets = others
            else:
                targets = [q for q in others if not faction_forbids(state, player, q)]
            names = [q.name for q in targets]
        # List comprehensions rather than generators: Python 3.12+ inlines them.
        if named:
            found += [{"act": act, "target": t, "name": c} for t in names for c in rulebook.characters]
        elif steals:  # the option carries the coins it takes
            found += [{"act": act, "target": q.name, "coins": stolen(q, steals)} for q in targets]
        else:
            found += [{"act": act, "target": t} for t in names]
    return found


def _turn_default(state: CoupState, player, dealer) -> dict:
    """Income; or, when the player must Coup, a Coup on the next legal target in
    seat order (naming a character the dealer picks, for a Declared Coup)."""
    if player.coins < FORCED_COUP_COINS:
        return {"act": "income"}
    target = next(q for q in state.after(player) if not faction_forbids(state, player, q))
    command = {"act": FORCED_ACTION, "target": target.name}
    if FORCED_ACTION in state.rulebook.declared:
        command["name"] = dealer.pick(list(state.rulebook.characters))
    return command


def _check_declare(state: CoupState, player, command):
    rulebook = state.rulebook
    act = command["act"]
    action = rulebook.actions.get(act)
    if action is None:
        raise IllegalMove(_("That action is not part of the variants in play."))
    if player.coins >= FORCED_COUP_COINS and act != FORCED_ACTION:
        raise IllegalMove(_("You have {coins} coins, so you must launch a Coup."), coins=player.coins)
    if action.aim != ANYONE and player.coins < action.cost:  # aimed at anyone, the cost depends on whom
        raise IllegalMove(action.unaffordable, cost=action.cost, coins=player.coins)
    target = _checked_target(state, player, command, action)
    if action.aim == ANYONE:
        yourself = target is None or target is player
        cost = _declared_cost(action, yourself)
        if player.coins < cost:
            raise IllegalMove(
                action.own_unaffordable if yourself else action.unaffordable, cost=cost, coins=player.coins
            )
    if act in rulebook.declared and command.get("name") not in rulebook.characters:
        raise IllegalMove(_("Name one of the characters in the deck for a declared attack."))


def _declare(flow, player, command):
    state = flow.state
    act = command["act"]
    action = ACTIONS[act]
    data = {"player": player.name, "action": act}
    target = command.get("target")
    yourself = action.aim == ANYONE and (target is None or target == player.name)
    cost = _declared_cost(action, yourself)
    if yourself:
        target = player.name
    if target is not None:
        data[action.target_key] = target
    if act in state.rulebook.declared:
        data["name"] = command["name"]
    if action.takes_reserve:
        data["takes"] = state.reserve
    flow.emit("coup.action.declared", data)
    if action.takes_reserve:
        flow.move_coins(data["takes"], "reserve", player.name)
    else:
        flow.move_coins(cost, player.name, action.pays_into)
    flow.run("declared")


def _declared_cost(action, yourself: bool) -> int:
    """What declaring ``action`` costs: aimed at oneself (an action aimed at
    anyone, with no target or oneself named), its own cost."""
    if yourself:
        assert action.own_cost is not None, "only an action aimed at anyone may aim at oneself"
        return action.own_cost
    return action.cost


def _checked_target(state: CoupState, player, command, action):
    name = command.get("target")
    if name is None:
        if action.aim in (OPPONENT, BENEFICIARY):
            raise IllegalMove(_("Choose another player as the target."))
        return None
    target = state.by_name.get(name)
    if target is None:
        raise IllegalMove(_("There is no player called {player} in this game."), player=name)
    if target is player:
        if action.aim == ANYONE:
            return target
        raise IllegalMove(_("You can't target yourself."))
    if not target.alive:
        raise IllegalMove(_("{player} is out of the game."), player=name)
    if action.aim == OPPONENT and faction_forbids(state, player, target):
        raise IllegalMove(
            _("{player} is in your faction; you may target only the other faction while it has players."),
            player=name,
        )
    return target


def _turn_forced(state: CoupState, player) -> dict | None:
    """The only legal action, when there is one: a Coup the player's coins force,
    on the one opponent they may target. Coins, players and factions are public."""
    options = _turn_options(state, player)
    return options[0] if len(options) == 1 else None


TURN = DecisionSpec(
    "turn",
    answers=ACTIONS,
    prompt=_("choose your action"),
    options=_turn_options,
    check=_check_declare,
    play=_declare,
    default=_turn_default,
    consequences=("coins", "draws"),
    forced=_turn_forced,
)


# ---- respond: allow, challenge or block a claim; block: only block or allow ------------


def _blocks(state: CoupState, player):
    action = state.action  # None in an inheritance's window: nothing to block
    if action is None or action.blocker is not None or player not in blockers_of(state, action):
        return ()
    return state.rulebook.block_options[action.kind]


def _respond_options(state: CoupState, player):
    found = [ALLOW]
    action = state.action
    if action is None:  # an inheritance's window: the open Lawyer claims may be challenged
        found.extend({"act": "challenge", "target": c} for c in open_inheritance_claims(state, player))
        return found
    if action.blocker is not None or action.kind in state.rulebook.challengeable:
        found.append(CHALLENGE)
    found += _blocks(state, player)
    return found


def _block_options(state: CoupState, player):
    return [ALLOW, *_blocks(state, player)]


def _check_respond(state: CoupState, player, command):
    act = command["act"]
    if act == "challenge":
        _check_challenge(state, player, command)
    elif act == "block":
        _check_block(state, player, command)


def _respond(flow, player, command):
    act = command["act"]
    if act == "allow":
        flow.emit("coup.allowed", {"player": player.name})
        flow.resume()
    elif act == "challenge":
        _challenge(flow, player, command)
    else:
        _block(flow, player, command)


def _check_challenge(state: CoupState, player, command):
    if state.awaiting[player.name].kind == "block":
        raise IllegalMove(_("The action can no longer be challenged; you may only block it or allow it."))
    named = command.get("target")
    if named is not None and named not in state.by_name:
        raise IllegalMove(_("There is no player called {player} in this game."), player=named)
    if named == player.name:
        raise IllegalMove(_("You can't challenge yourself."))
    if state.estate is not None:
        _challenged_inheritance_claim(state, player, named)
    else:
        claimant = _open_claim(state)
        if named is not None and named != claimant:
            _refuse_challenge_of(state, named, claimant)


def _challenge(flow, player, command):
    state = flow.state
    if state.estate is not None:
        claimant, on = _challenged_inheritance_claim(state, player, command.get("target")), "inheritance"
    else:
        claimant, on = _open_claim(state), "action" if state.action.blocker is None else "block"
    flow.emit("coup.challenged", {"player": player.name, "claimant": claimant, "on": on})


def _open_claim(state: CoupState) -> str:
    """Who made the claim a response window is about: the blocker once there is a
    block (the game has moved past the action's claim), else the actor."""
    action = state.action
    assert action is not None, "a window outside an inheritance is about an action"
    if action.blocker is not None:
        return action.blocker
    if action.kind not in state.rulebook.challengeable:
        raise IllegalMove(_("This action claims no character, so it can't be challenged."))
    return action.actor


def _refuse_challenge_of(state: CoupState, named: str, claimant: str):
    """A challenge named ``named`` while only ``claimant``'s claim is open: say why not."""
    action = state.action
    assert action is not None, "a window outside an inheritance is about an action"
    if action.blocker is not None and named == action.actor and action.kind in state.rulebook.challengeable:
        raise IllegalMove(
            _("{player}'s claim can no longer be challenged: the game has moved on to {blocker}'s block."),
            player=named,
            blocker=claimant,
        )
    raise IllegalMove(
        _("{player} has no claim you can challenge now; the open claim is {claimant}'s."),
        player=named,
        claimant=claimant,
    )


def _challenged_inheritance_claim(state: CoupState, player, named) -> str:
    """The claimant a challenge in an inheritance is about: the one named, or with
    no name the only claim ``player`` may challenge (docs/scenarios.md: a target is
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
    estate = state.estate
    assert estate is not None, "asked only during an inheritance"
    if named in estate.proved and named in estate.claimants:
        raise IllegalMove(_("{player}'s Lawyer claim has already been challenged and stands."), player=named)
    raise IllegalMove(_("{player} has no Lawyer claim you can challenge."), player=named)


def _check_block(state: CoupState, player, command):
    action = state.action
    if state.estate is not None or action is None or action.blocker is not None:
        raise IllegalMove(_("There is nothing to block now."))
    if player not in blockers_of(state, action):
        raise IllegalMove(_("You can't block this action."))
    allowed = state.rulebook.blockers[action.kind]
    if command.get("as") not in allowed:
        raise IllegalMove(
            _("This action can be blocked only by claiming: {cards}."), cards=[card_name(card) for card in allowed]
        )


def _block(flow, player, command):
    state = flow.state
    flow.emit("coup.blocked", {"player": player.name, "card": command["as"]})
    flow.run(flow.await_([p for p in state.players if p is not player], "respond", "block_allowed"))


RESPOND = DecisionSpec(
    "respond",
    answers=("allow", "challenge", "block"),
    prompt=_("respond"),
    options=_respond_options,
    check=_check_respond,
    play=_respond,
    default=fixed_answer(ALLOW),
)

BLOCK = DecisionSpec(
    "block",
    answers=("allow", "block"),
    prompt=_("decide whether to block"),
    options=_block_options,
    check=_check_respond,
    play=_respond,
    default=fixed_answer(ALLOW),
)


# ---- challenged: prove the claim or concede ------------------------------------------------


def _challenged_options(state: CoupState, player):
    claim = challenged_claim(state)
    if not can_prove(state, player, claim):
        return [CONCEDE]
    if claim is None:
        return [DISPROVE_OPTIONS[disclaimed(state)], CONCEDE]
    return [PROVE_OPTIONS[claim], CONCEDE]


def _challenged_offered(state: CoupState, player):
    """The options, with conceding merged with the loss it costs: one answer per
    distinct face-down card ("concede and lose your Captain"), so a player is asked
    once where the options would ask twice. A player with one card left loses it
    without being asked, so their concession stays one answer. Asked whether or
    not the player holds the card, like the options."""
    options = _challenged_options(state, player)
    if len(player.hand) < 2:
        return options
    proofs = [option for option in options if option is not CONCEDE]
    return [*proofs, *(CONCEDE_LOSING[card] for card in sorted(set(player.hand)))]


def _challenged_default(state: CoupState, player, dealer) -> dict:
    return {"act": "prove" if can_prove(state, player, challenged_claim(state)) else "concede"}


def _check_challenged(state: CoupState, player, command):
    if command["act"] == "prove":
        claim = challenged_claim(state)
        if not can_prove(state, player, claim):
            if claim is None:
                raise IllegalMove(_("You can't prove it: you hold a {card}."), card=card_name(disclaimed(state)))
            raise IllegalMove(_("You can't prove it: you have no {card}."), card=card_name(claim))
    else:
        lost = command.get("lose")  # the card, when the concession is answered with its loss
        if lost is not None and lost not in player.hand:
            raise IllegalMove(_("You have no face-down {card} to lose."), card=card_name(lost))


def _challenged(flow, player, command):
    state = flow.state
    challenge = state.challenge
    if command["act"] == "prove":
        claim = challenged_claim(state)
        shown = list(player.hand) if claim is None else [claim]
        flow.emit("coup.claim.proved", {"player": player.name, "cards": shown})
        flow.shuffle_court()
        flow.draw(player, len(shown))
        then = {"action": "action_survived", "block": "block_allowed", "inheritance": "inheritance_resume"}[
            challenge.on
        ]
        flow.run(flow.lose(state.by_name[challenge.challenger], then))
    else:
        flow.emit("coup.claim.conceded", {"player": player.name})
        if challenge.on == "inheritance":
            flow.emit("coup.inheritance.claim_lost", {"player": player.name})
            then = "inheritance_resume"
        else:
            then = "effect" if challenge.on == "block" else "action_failed"
        flow.run(flow.lose(player, then, command.get("lose")))


CHALLENGED = DecisionSpec(
    "challenged",
    answers=("prove", "concede"),
    prompt=_("prove the claim or concede"),
    options=_challenged_options,
    check=_check_challenged,
    play=_challenged,
    default=_challenged_default,
    consequences=("claim", "disclaims"),
    offered=_challenged_offered,
)


# ---- lose: turn an influence face up -------------------------------------------------------


_lose_options, _lose_default, _check_lose = _one_card_of_the_hand("lose", _("You have no face-down {card} to lose."))


def _lose(flow, player, command):
    flow.lose_card(player, command["card"])
    flow.resume()


LOSE = DecisionSpec(
    "lose",
    answers=("lose",),
    prompt=_("choose an influence to lose"),
    options=_lose_options,
    check=_check_lose,
    play=_lose,
    default=_lose_default,
)


# ---- keep: finish an exchange ----------------------------------------------------------------


def _keep_options(state: CoupState, player):
    pool = sorted(player.hand + player.drawn)
    choices = sorted(set(combinations(pool, len(player.hand))))
    return [{"act": "keep", "cards": list(choice)} for choice in choices]


def _keep_default(state: CoupState, player, dealer) -> dict:
    return {"act": "keep", "cards": list(player.hand)}


def _check_keep(state: CoupState, player, command):
    cards = command.get("cards")
    count = len(player.hand)
    if not isinstance(cards, list) or len(cards) != count:
        raise IllegalMove(_("Keep as many cards as you have face down ({count})."), count=count)
    pool = player.hand + player.drawn
    for card in cards:
        if card not in pool:
            raise IllegalMove(_("You can keep only cards from your hand and the cards you drew."))
        pool.remove(card)


def _keep(flow, player, command):
    cards = command["cards"]
    returned = player.hand + player.drawn
    for card in cards:
        returned.remove(card)
    flow.emit(
        "coup.exchange.kept",
        {"player": player.name},
        {"kept": sorted(cards), "returned": sorted(returned)},
        (player.name,),
    )
    flow.shuffle_court()
    flow.resume()


KEEP = DecisionSpec(
    "keep",
    answers=("keep",),
    prompt=_("choose the cards to keep"),
    options=_keep_options,
    check=_check_keep,
    play=_keep,
    default=_keep_default,
)


# ---- show: an examined player shows a card -------------------------------------------------


_show_options, _show_default, _check_show = _one_card_of_the_hand("show", _("You have no face-down {card} to show."))


def _show(flow, player, command):
    card = command["card"]
    examiner = flow.state.action.actor
    flow.emit("coup.card.shown", {"player": player.name, "to": examiner}, {"card": card}, (player.name, examiner))
    flow.resume()


def _show_forced(state: CoupState, player) -> dict | None:
    """An examined player with one face-down card left shows it: everyone knows
    they have one. (Two identical cards are still asked: that would tell them.)"""
    return {"act": "show", "card": player.hand[0]} if len(player.hand) == 1 else None


SHOW = DecisionSpec(
    "show",
    answers=("show",),
    prompt=_("choose a card to show"),
    options=_show_options,
    check=_check_show,
    play=_show,
    default=_show_default,
    forced=_show_forced,
)


# ---- examine: the examiner gives the card back or forces an exchange ---------------------


def _examine(flow, player, command):
    state = flow.state
    action = state.action
    target = state.by_name[action.target]
    if command["act"] == "give_back":
        flow.emit("coup.examine.given_back", {"player": player.name, "target": target.name})
    else:
        flow.emit("coup.examine.forced", {"player": player.name, "target": target.name})
        # A target who resigned after showing has turned every card face up: there
        # is nothing left to exchange.
        if target.alive:
            flow.draw(target, 1)
            flow.emit("coup.card.returned", {"player": target.name}, {"card": action.shown}, (target.name, player.name))
            flow.shuffle_court()
    flow.resume()


EXAMINE = DecisionSpec(
    "examine",
    answers=("give_back", "force_exchange"),
    prompt=_("give the card back or force an exchange"),
    options=fixed_options({"act": "give_back"}, {"act": "force_exchange"}),
    play=_examine,
    default=fixed_answer({"act": "give_back"}),
)


# ---- inheritance: claim the Lawyer or decline (Lawyer variant) -------------------------


def _inheritance(flow, player, command):
    kind = "coup.inheritance.claimed" if command["act"] == "claim_inheritance" else "coup.inheritance.declined"
    flow.emit(kind, {"player": player.name})
    flow.resume()


INHERITANCE = DecisionSpec(
    "inheritance",
    answers=("claim_inheritance", "decline"),
    prompt=_("claim the inheritance or decline"),
    options=fixed_options({"act": "claim_inheritance"}, {"act": "decline"}),
    play=_inheritance,
    default=fixed_answer({"act": "decline"}),
)


# ---- draft: keep one card of a set (two-player draft) ----------------------------------


_draft_options, _draft_default, _check_draft = _one_card_of_the_hand(
    "draft_keep", _("Keep one of the cards of your set.")
)


def _draft(flow, player, command):
    card = command["card"]
    aside = list(player.hand)
    aside.remove(card)
    flow.emit("coup.draft.kept", {"player": player.name}, {"card": card, "aside": aside}, (player.name,))
    state = flow.state
    if not state.awaiting:
        first = state.by_name[state.first]
        for dealt in [first, *state.after(first)]:
            flow.draw(dealt, 1)
        flow.emit("coup.turn.started", {"player": first.name})


DRAFT = DecisionSpec(
    "draft",
    answers=("draft_keep",),
    prompt=_("choose the card to keep"),
    options=_draft_options,
    check=_check_draft,
    play=_draft,
    default=_draft_default,
)


DECISIONS = decision_table(TURN, RESPOND, BLOCK, CHALLENGED, LOSE, KEEP, SHOW, EXAMINE, INHERITANCE, DRAFT)
