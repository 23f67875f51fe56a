"""Kobayakawa for the bots: what a seat knows (``KobayakawaTracker``) and the easy
player's rules (``easy_answer``), which the strong player also uses to imagine
how the others will play in its simulations.

``easy_answer`` reads, of the state it is given, only what its player may see:
its own card (and the card it just drew), and everything public (the
Kobayakawa card, discards, bets, medals).
"""

from games.bots.knowledge import HIDDEN, bring_to_top
from games.bots.players import Playouts
from games.kinds.kobayakawa.engine.rules import CARDS
from games.kinds.kobayakawa.engine.state import APPLY

DRAW_BELOW = 8  # the easy player draws when its card is below this, else flips a new Kobayakawa card
SURE_BET = 11  # it always bets a card this high
HOPEFUL_BET = 9  # and bets a card this high half the time
LOW_CARD = 3  # a card this low bets when the Kobayakawa card would lift it past every other
HIGH_KOBAYAKAWA = 12


class KobayakawaTracker:
    """Folds a Kobayakawa game's events as one seat sees them (``knowledge.py``)."""

    def fold(self, knowledge, type: str, fields: dict) -> None:
        state = knowledge.state
        secret = fields
        if type == "kobayakawa.deck.shuffled":
            secret = {"deck": [HIDDEN] * len(CARDS)}
        elif type in ("kobayakawa.card.dealt", "kobayakawa.card.drawn"):
            if "card" in fields:
                bring_to_top(state.deck, [fields["card"]])
            else:
                secret = {"card": state.deck[0]}
        elif type in ("kobayakawa.kobayakawa.turned", "kobayakawa.card.flipped"):
            bring_to_top(state.deck, [fields["card"]])
        elif type == "kobayakawa.cards.revealed":
            for name, card in fields["cards"].items():
                state.by_name[name].card = card
        APPLY[type](state, fields, secret)
        state.seq += 1

    def sample(self, knowledge, rng):
        rules, seat = knowledge.rules, knowledge.seat
        world = rules.load(rules.dump(knowledge.state))
        seen = set(world.pile)
        for p in world.players:
            seen.update(p.discards)
            seen.update(card for card in (p.card, p.drawn) if card is not None and card != HIDDEN)
        unseen = [card for card in CARDS if card not in seen]
        rng.shuffle(unseen)
        for p in world.players:
            if p.card == HIDDEN:
                p.card = unseen.pop()
            if p.drawn == HIDDEN:
                p.drawn = unseen.pop()
        holes = world.deck.count(HIDDEN)
        if holes != len(unseen):
            raise RuntimeError(
                f"{seat}'s knowledge leaves {holes} unknown cards in the deck for {len(unseen)} unseen ones"
            )
        world.deck = unseen
        return world


Tracker = KobayakawaTracker
EXTRA_LEVELS = {}


def easy_answer(state, name: str, options: list[dict], rng) -> dict:
    """The easy player's answer, from what ``name`` may see of ``state``."""
    me = state.by_name[name]
    kind = state.awaiting[name].kind
    acts = {option["act"]: option for option in options}
    if kind == "turn":
        return acts["draw"] if me.card < DRAW_BELOW else acts["flip"]
    if kind == "discard":
        return min(options, key=lambda o: o["card"])  # keep the higher card
    card = me.card
    bet = (
        card >= SURE_BET
        or (card >= HOPEFUL_BET and rng.random() < 0.5)
        or (card <= LOW_CARD and state.kobayakawa >= HIGH_KOBAYAKAWA)
    )
    return acts["bet"] if bet else acts["pass"]


def horizon(state):
    """Stop a playout once the round in play is settled (or dealt again)."""
    number, seq = state.round, state.seq
    return lambda played: played.round != number or (played.stage is None and played.seq > seq)


def score(state, seat: str) -> float:
    """Once over, a win's share; before, the seat's share of the medals in play."""
    if state.over:
        return 1 / len(state.winners) if seat in state.winners else 0.0
    medals = {p.name: p.medals + p.bet for p in state.players}
    return medals[seat] / (sum(medals.values()) or 1)


PLAYOUTS = Playouts(easy_answer, horizon, score)
