"""Coup for the bots: what a seat knows (``CoupTracker``) and the easy player's
rules (``easy_answer``), which the strong player also uses, with some doubt of
claims added (``imagined_answer``), to imagine how everyone plays on in its
simulations.

``easy_answer`` reads, of the state it is given, only what its player may see:
its own cards, and everything public (coins, face-up cards, the number of cards
each player holds, the action in progress). Given a seat's knowledge it answers
from the seat's view; inside a simulated world it plays each imagined player the
same way.
"""

from collections import Counter

from games.bots.knowledge import HIDDEN, bring_to_top, forget, make_known
from games.bots.players import Playouts
from games.kinds.coup.engine.cards import deck_for
from games.kinds.coup.engine.characters import CAPTAIN, CHARACTERS, LAWYER
from games.kinds.coup.engine.rules import challenged_claim
from games.kinds.coup.engine.state import APPLY

BLUFF_CHANCE = 0.1  # how often the easy player claims a character it does not hold, when it has nothing better
DOUBT_CHANCE = 0.5  # how often it challenges a claim that hurts it when only one copy can still be hidden
# How often it steals when it holds the Captain: not always, or two Captains
# blocking each other's Steals would pass the turn back and forth for ever.
STEAL_CHANCE = 0.7
# How often it exchanges when it holds the exchanging character: an exchange earns
# no coins, so a player who always exchanged (and kept that card) would never reach
# a Coup, and a table of such players would never end.
EXCHANGE_CHANCE = 0.5
# How often it assassinates when it holds the Assassin: not always, or two players
# each holding an Assassin and a Contessa would spend their coins on blocked
# Assassinations for ever, each turn, never saving the seven of a Coup.
ASSASSINATE_CHANCE = 0.7
# How often a player of the strong player's simulations challenges a claim on mere
# suspicion (``imagined_answer``); the easy player itself never does.
SUSPICION_CHANCE = 0.1
CLAIM_TRUTH = 0.9  # how often the bot imagines a claim true, when the character may still be in the claimant's hand


class CoupTracker:
    """Folds a Coup game's events as one seat sees them (``knowledge.py``): what
    the seat makes of each event (``SEEN``: the secret part it may apply, with a
    ``HIDDEN`` card for each card it did not see), then the engine's own fold
    (``APPLY``)."""

    def __init__(self):
        self.deck: list[str] = []
        self.dealt = False
        self.claims: dict[str, dict] = {}  # each player's standing claims, oldest first (a dict as an ordered set)

    # ---- folding ---------------------------------------------------------------------

    def fold(self, knowledge, type: str, fields: dict) -> None:
        state = knowledge.state
        seen = SEEN.get(type)
        secret = fields if seen is None else seen(self, state, fields)
        if secret is not None:
            APPLY[type](state, fields, secret)
        state.seq += 1

    # ---- sampling --------------------------------------------------------------------

    def sample(self, knowledge, rng):
        rules, seat = knowledge.rules, knowledge.seat
        world = rules.load(rules.dump(knowledge.state))
        others = [p for p in world.players if p.name != seat]
        seen: Counter[str] = Counter()
        for p in world.players:
            seen.update(p.revealed)
            seen.update(card for card in (*p.hand, *p.drawn) if card != HIDDEN)
        seen.update(card for card in (*world.court, *world.aside) if card != HIDDEN)
        unseen = list((Counter(self.deck) - seen).elements())
        places = [(p, "hand") for p in others] + [(p, "drawn") for p in others]
        places += [(world, "court"), (world, "aside")]
        holes = [sum(1 for card in getattr(owner, field) if card == HIDDEN) for owner, field in places]
        if sum(holes) != len(unseen):
            raise RuntimeError(f"{seat}'s knowledge leaves {sum(holes)} unknown cards for {len(unseen)} unseen ones")
        hands = self._deal(rng, unseen, places, holes, others)
        for (owner, field), dealt in zip(places, hands, strict=True):
            cards = [card for card in getattr(owner, field) if card != HIDDEN] + dealt
            if field == "hand" or field == "aside":
                cards.sort()
            elif field == "court":
                rng.shuffle(cards)
            setattr(owner, field, cards)
        action = world.action
        if action is not None and action.shown == HIDDEN:
            action.shown = rng.choice(world.by_name[action.target].hand)
        return world

    def _deal(self, rng, unseen, places, holes, others) -> list[list]:
        """The unseen cards dealt into the holes, each player first given each
        character it claims and still may hold with ``CLAIM_TRUTH``, its latest
        claim first (a copy it cannot hold, all of them seen elsewhere, makes the
        claim a bluff), so a player who claimed the Duke holds one in most worlds
        the bot imagines."""
        pool = list(unseen)
        rng.shuffle(pool)
        dealt: list[list] = [[] for _place in places]
        for index in rng.sample(range(len(others)), len(others)):  # no player first to every copy
            owner = others[index]
            for claim in reversed(self.claims[owner.name]):
                if len(dealt[index]) < holes[index] and claim not in owner.hand and claim in pool:
                    if rng.random() < CLAIM_TRUTH:
                        pool.remove(claim)
                        dealt[index].append(claim)
        for index, count in enumerate(holes):
            missing = count - len(dealt[index])
            dealt[index] += pool[:missing]
            del pool[:missing]
        return dealt


# ---- what a seat makes of each event: tracker, state, the fields the seat sees →
# the secret part to apply (None: nothing to apply) --------------------------------


def _game_started(tracker, state, fields):
    tracker.deck = deck_for(fields["variants"], len(fields["players"]))
    tracker.claims = {name: {} for name in fields["players"]}
    return fields


def _hand_dealt(tracker, state, fields):
    if "cards" in fields:
        return fields
    return {"cards": [HIDDEN] * state.rulebook.deal_size}


def _court_shuffled(tracker, state, fields):
    if tracker.dealt:
        return {"court": list(state.court)}  # the same cards, in an order nobody knows
    tracker.dealt = True
    held = sum(len(p.hand) for p in state.players)
    return {"court": [HIDDEN] * (len(tracker.deck) - held)}


def _draft_kept(tracker, state, fields):
    if "card" in fields:
        return fields
    return {"card": HIDDEN, "aside": [HIDDEN] * (len(state.by_name[fields["player"]].hand) - 1)}


def _card_drawn(tracker, state, fields):
    if "card" in fields:
        bring_to_top(state.court, [fields["card"]])
        return fields
    state.court = forget(state.court)
    return {"card": HIDDEN}


def _exchange_drew(tracker, state, fields):
    if "cards" in fields:
        bring_to_top(state.court, fields["cards"])
        return fields
    state.court = forget(state.court)
    return {"cards": [HIDDEN] * fields["count"]}


def _exchange_kept(tracker, state, fields):
    player = state.by_name[fields["player"]]
    tracker.claims[player.name].clear()
    if "kept" in fields:
        return fields
    return {"kept": [HIDDEN] * len(player.hand), "returned": [HIDDEN] * len(player.drawn)}


def _card_seen(tracker, state, fields):
    """A card returned to the court or shown in an examination: known once seen."""
    if "card" not in fields:
        return {"card": HIDDEN}
    make_known(state.by_name[fields["player"]].hand, fields["card"])
    return fields


def _influence_lost(tracker, state, fields):
    make_known(state.by_name[fields["player"]].hand, fields["card"])
    tracker.claims[fields["player"]].pop(fields["card"], None)
    return fields


def _claim_proved(tracker, state, fields):
    player = state.by_name[fields["player"]]
    known = list(player.hand)
    for card in fields["cards"]:
        make_known(known, card)
        known.remove(card)
    player.hand = sorted(fields["cards"] + known)
    for card in fields["cards"]:
        tracker.claims[player.name].pop(card, None)
    return fields


def _claim_conceded(tracker, state, fields):
    tracker.claims[fields["player"]].pop(challenged_claim(state), None)
    return fields


def _hand_revealed(tracker, state, fields):
    state.by_name[fields["player"]].hand = sorted(fields["cards"])
    return fields


def _action_declared(tracker, state, fields):
    claim = state.rulebook.claims.get(fields["action"])
    if claim is not None:
        _claimed(tracker, fields["player"], claim)
    return fields


def _blocked(tracker, state, fields):
    _claimed(tracker, fields["player"], fields["card"])
    return fields


def _inheritance_claimed(tracker, state, fields):
    _claimed(tracker, fields["player"], LAWYER)
    return fields


def _claimed(tracker, player: str, card: str) -> None:
    """``player`` claims ``card``: its latest claim."""
    claims = tracker.claims[player]
    claims.pop(card, None)
    claims[card] = None


def _standing_set(tracker, state, fields):
    return fields if "prove" in fields else None  # another player's standing answers: private to them


SEEN = {
    "coup.game.started": _game_started,
    "coup.hand.dealt": _hand_dealt,
    "coup.court.shuffled": _court_shuffled,
    "coup.draft.kept": _draft_kept,
    "coup.card.drawn": _card_drawn,
    "coup.exchange.drew": _exchange_drew,
    "coup.exchange.kept": _exchange_kept,
    "coup.card.returned": _card_seen,
    "coup.card.shown": _card_seen,
    "coup.influence.lost": _influence_lost,
    "coup.claim.proved": _claim_proved,
    "coup.claim.conceded": _claim_conceded,
    "coup.hand.revealed": _hand_revealed,
    "coup.action.declared": _action_declared,
    "coup.blocked": _blocked,
    "coup.inheritance.claimed": _inheritance_claimed,
    "coup.standing.set": _standing_set,
}


Tracker = CoupTracker
# Classic Coup's level of its own: coupml's rule-based AI, loaded only when asked for.
EXTRA_LEVELS = {"treason": "games.kinds.coup.treason"}


# ---- the easy player ---------------------------------------------------------------


def easy_answer(state, name: str, options: list[dict], rng) -> dict:
    """The easy player's answer, from what ``name`` may see of ``state``."""
    me = state.by_name[name]
    return EASY[state.awaiting[name].kind](state, me, options, rng)


def _worth(card) -> int:
    """How much the easy player values keeping ``card`` (its record's ``worth``)."""
    character = CHARACTERS.get(card)
    return character.worth if character is not None else 0


def _strength(p) -> tuple:
    return (len(p.hand), p.coins)


def _aimed(state, me, options, rng):
    """The option aimed at the strongest opponent (most cards, then most coins);
    a declared attack names a character at random, each as likely as the copies
    of it the player cannot see."""
    target = max(options, key=lambda o: _strength(state.by_name[o["target"]]))["target"]
    if "name" not in options[0]:
        return next(o for o in options if o["target"] == target)
    characters = state.rulebook.characters
    unseen = [_copies(state) - _visible(state, me, c) for c in characters]
    guess = rng.choices(characters, weights=unseen)[0] if any(unseen) else rng.choice(characters)
    return next(o for o in options if o["target"] == target and o["name"] == guess)


def _visible(state, me, card) -> int:
    """Copies of ``card`` the player can see: face up anywhere, or in its own hand."""
    # A loop rather than sum() over a generator: the strong player's playouts ask this most.
    seen = me.hand.count(card) + me.drawn.count(card)
    for p in state.players:
        if p.revealed:
            seen += p.revealed.count(card)
    return seen


def _copies(state) -> int:
    return state.rulebook.copies(len(state.players))


def _turn(state, me, options, rng):
    by_act: dict[str, list] = {}
    for option in options:
        by_act.setdefault(option["act"], []).append(option)
    claims = state.rulebook.claims
    hand = me.hand
    if "coup" in by_act:
        return _aimed(state, me, by_act["coup"], rng)
    if "assassinate" in by_act and claims["assassinate"] in hand and rng.random() < ASSASSINATE_CHANCE:
        return _aimed(state, me, by_act["assassinate"], rng)
    for act in ("tax", "patronage"):
        if act in by_act and claims[act] in hand:
            return (
                min(by_act[act], key=lambda o: _strength(state.by_name[o["target"]]))
                if act == "patronage"
                else by_act[act][0]
            )
    if "steal" in by_act and claims["steal"] in hand and rng.random() < STEAL_CHANCE:
        richest = max(by_act["steal"], key=lambda o: o["coins"])
        if richest["coins"]:
            return richest
    if "exchange" in by_act and claims["exchange"] in hand and rng.random() < EXCHANGE_CHANCE:
        return by_act["exchange"][0]
    if "embezzle" in by_act and state.reserve >= 2 and state.rulebook.disclaims["embezzle"] not in hand:
        return by_act["embezzle"][0]
    if rng.random() < BLUFF_CHANCE:
        bluffs = by_act.get("tax", []) + [o for o in by_act.get("steal", []) if o["coins"]]
        if bluffs:
            return rng.choice(bluffs)
    if "foreign_aid" in by_act and rng.random() < 0.5:
        return by_act["foreign_aid"][0]
    return by_act["income"][0]


def _respond(state, me, options, rng):
    if len(options) == 1:
        return options[0]  # allowing is all there is
    challenge = None
    blocks = []
    for option in options:
        act = option["act"]
        if act == "challenge":
            challenge = challenge or option
        elif act == "block":
            blocks.append(option)
    if state.estate is not None:  # a Lawyer claim: challenge it only when no Lawyer can be left
        if challenge is not None and _visible(state, me, LAWYER) >= _copies(state):
            return challenge
        return options[0]
    action = state.action
    claim = action.block_card if action.blocker is not None else state.rulebook.claims.get(action.kind)
    if challenge is not None and claim is not None:
        visible, copies = _visible(state, me, claim), _copies(state)
        if visible >= copies:
            return challenge
        hurts_me = action.target == me.name or action.actor == me.name
        if visible == copies - 1 and hurts_me and rng.random() < DOUBT_CHANCE:
            return challenge
    for block in blocks:
        if block["as"] in me.hand:
            return block
    if blocks and action.kind == "assassinate" and len(me.hand) == 1:
        return blocks[0]  # the last influence: claiming the Contessa is the only hope
    return next(o for o in options if o["act"] == "allow")


def _challenged(state, me, options, rng):
    return options[0]  # prove when able (the options list the proof first), else concede


def _least_worth(state, me, options, rng):
    return min(options, key=lambda o: _worth(o["card"]))


def _most_worth(state, me, options, rng):
    return max(options, key=lambda o: _worth(o["card"]))


def _keep(state, me, options, rng):
    return max(options, key=lambda o: (len(set(o["cards"])), sum(_worth(c) for c in o["cards"])))


def _examine(state, me, options, rng):
    force = _worth(state.action.shown) >= _worth(CAPTAIN)
    return next(o for o in options if o["act"] == ("force_exchange" if force else "give_back"))


def _inheritance(state, me, options, rng):
    wanted = "claim_inheritance" if LAWYER in me.hand else "decline"
    return next(o for o in options if o["act"] == wanted)


EASY = {
    "turn": _turn,
    "respond": _respond,
    "block": _respond,
    "challenged": _challenged,
    "lose": _least_worth,
    "keep": _keep,
    "show": _least_worth,
    "examine": _examine,
    "inheritance": _inheritance,
    "draft": _most_worth,
}


# ---- how the strong player imagines the rest of a game -----------------------------


def imagined_answer(state, name: str, options: list[dict], rng) -> dict:
    """How the strong player imagines everyone answering in its simulations: by
    the easy rules, except that a claim is challenged on mere suspicion with
    ``SUSPICION_CHANCE``, as people and other bots do. Imagined players who never
    doubt a claim that cannot be disproved make every such bluff look free, and a
    bot that believes it bluffs into real challenges."""
    if state.awaiting[name].kind == "respond" and rng.random() < SUSPICION_CHANCE:
        challenge = next((option for option in options if option["act"] == "challenge"), None)
        if challenge is not None:
            return challenge
    return easy_answer(state, name, options, rng)


HORIZON_EVENTS = 80  # about three turns round a table of four


def horizon(state):
    """Stop a playout some events on: far enough for an attack and its answer to
    play out, near enough that the dice of later turns do not drown the choice."""
    limit = state.seq + HORIZON_EVENTS
    return lambda played: played.seq >= limit


def score(state, seat: str) -> float:
    """1 for the winner, 0 for a player out; otherwise the seat's share of the
    table's strength, an influence worth two coins' worth of ten."""
    if state.winner is not None:
        return 1.0 if state.winner == seat else 0.0
    me = state.by_name[seat]
    if not me.alive:
        return 0.0
    strength = {p.name: len(p.hand) + min(p.coins, 10) / 20 for p in state.players if p.alive}
    return strength[seat] / sum(strength.values())


PLAYOUTS = Playouts(easy_answer, horizon, score, imagined_answer)
