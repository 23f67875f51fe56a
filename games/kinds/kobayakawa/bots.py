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
    """Folds a Kobayakawa game's events as one seat sees them (``knowledge.py``):
    what the seat makes of each event (``SEEN``: the secret part it may apply,
    with a ``HIDDEN`` card for each card it did not see), then the engine's own
    fold (``APPLY``)."""

    def fold(self, knowledge, type: str, fields: dict) -> None:
        state = knowledge.state
        seen = SEEN.get(type)
        secret = fields if seen is None else seen(self, state, fields)
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


# ---- what a seat makes of each event: tracker, state, the fields the seat sees →
# the secret part to apply ------------------------------------------------------------


def _deck_shuffled(tracker, state, fields):
    return {"deck": [HIDDEN] * len(CARDS)}


def _card_taken(tracker, state, fields):
    """A card dealt or drawn from the deck: its top card, known if the seat saw it."""
    if "card" not in fields:
        return {"card": state.deck[0]}
    bring_to_top(state.deck, [fields["card"]])
    return fields


def _card_turned(tracker, state, fields):
    """A card turned face up from the deck (the Kobayakawa card, or a new one)."""
    bring_to_top(state.deck, [fields["card"]])
    return fields


def _cards_revealed(tracker, state, fields):
    for name, card in fields["cards"].items():
        state.by_name[name].card = card
    return fields


SEEN = {
    "kobayakawa.deck.shuffled": _deck_shuffled,
    "kobayakawa.card.dealt": _card_taken,
    "kobayakawa.card.drawn": _card_taken,
    "kobayakawa.kobayakawa.turned": _card_turned,
    "kobayakawa.card.flipped": _card_turned,
    "kobayakawa.cards.revealed": _cards_revealed,
}


Tracker = KobayakawaTracker
EXTRA_LEVELS: dict[str, str] = {}


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
