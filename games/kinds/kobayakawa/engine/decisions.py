"""Kobayakawa's decisions, one spec each: the acts that answer it, its prompt, its
legal options, the check that refuses an illegal answer (a discard's card), the
handler that plays a legal one and the answer a deadline gives (flip; discard the
card just drawn; pass).

A check reads the state and changes nothing, so a refused command leaves the
state untouched; a handler checks nothing again. The option dicts below are
shared constants: callers must not mutate them.
"""

from games.engine.decisions import DecisionSpec, decision_table, fixed_answer, fixed_options
from games.engine.errors import IllegalMove
from games.engine.errors import gettext_noop as _
from games.kinds.kobayakawa.engine.rules import CARDS, bet_cost, is_card
from games.kinds.kobayakawa.engine.state import KobayakawaState

DISCARD_OPTIONS = {card: {"act": "discard", "card": card} for card in CARDS}
PASS = {"act": "pass"}


# ---- turn: stage 1, draw a card or flip a new Kobayakawa card ---------------------------


def _turn(flow, player, command):
    state = flow.state
    if command["act"] == "draw":
        card = state.deck[0]
        flow.emit("kobayakawa.card.drawn", {"player": player.name}, {"card": card}, (player.name,))
        flow.await_(player, "discard")
    else:
        flow.emit("kobayakawa.card.flipped", {"player": player.name, "card": state.deck[0]})
        flow.advance()


TURN = DecisionSpec(
    "turn",
    answers=("draw", "flip"),
    prompt=_("draw a card or flip a new Kobayakawa card"),
    options=fixed_options({"act": "draw"}, {"act": "flip"}),
    play=_turn,
    default=fixed_answer({"act": "flip"}),
)


# ---- discard: keep one of the two cards after drawing -----------------------------------


def _discard_options(state: KobayakawaState, player):
    return [DISCARD_OPTIONS[card] for card in sorted((player.card, player.drawn))]


def _discard_drawn(state: KobayakawaState, player, dealer) -> dict:
    return {"act": "discard", "card": player.drawn}


def _check_discard(state: KobayakawaState, player, command):
    card = command.get("card")
    if not is_card(card) or card not in (player.card, player.drawn):
        raise IllegalMove(
            _("Discard one of your two cards: {cards}."), cards=[str(c) for c in sorted((player.card, player.drawn))]
        )


def _discard(flow, player, command):
    flow.emit("kobayakawa.card.discarded", {"player": player.name, "card": command["card"]})
    flow.advance()


DISCARD = DecisionSpec(
    "discard",
    answers=("discard",),
    prompt=_("choose the card to discard"),
    options=_discard_options,
    check=_check_discard,
    play=_discard,
    default=_discard_drawn,
)


# ---- bet: stage 2, bet or pass ----------------------------------------------------------


def _bet_options(state: KobayakawaState, player):
    """A bet carries the medals it costs."""
    return [{"act": "bet", "medals": bet_cost(state, player)}, PASS]


def _bet(flow, player, command):
    if command["act"] == "bet":
        flow.emit("kobayakawa.bet.placed", {"player": player.name, "medals": bet_cost(flow.state, player)})
    else:
        flow.emit("kobayakawa.bet.passed", {"player": player.name})
    flow.advance()


BET = DecisionSpec(
    "bet",
    answers=("bet", "pass"),
    prompt=_("bet or pass"),
    options=_bet_options,
    play=_bet,
    default=fixed_answer(PASS),
    consequences=("medals",),
)


DECISIONS = decision_table(TURN, DISCARD, BET)
