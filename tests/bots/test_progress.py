"""Bots make progress: a table of easy players ends its game, even in the
positions where always taking the same action would go round for ever."""

import random

import pytest

from games.engine.dealer import SeededDealer
from games.engine.playout import play_out
from games.kinds import rules_of
from games.kinds.coup.bots import PLAYOUTS
from games.kinds.coup.engine.characters import ASSASSIN, CONTESSA


def both_holding_assassin_and_contessa(seed):
    """A two-player classic game whose players each hold an Assassin and a
    Contessa, the court holding the rest of the deck."""
    rules = rules_of("coup")
    dealer = SeededDealer(seed)
    state = rules.replay(rules.setup(dealer=dealer, players=["p0", "p1"], variants=[], first="p0"))
    deck = state.court + [card for p in state.players for card in p.hand]
    for p in state.players:
        p.hand = [ASSASSIN, CONTESSA]
        deck.remove(ASSASSIN)
        deck.remove(CONTESSA)
    state.court = deck
    return rules, state, dealer


@pytest.mark.parametrize("seed", [0.1, 0.2, 0.3, 0.4, 0.5])
def test_two_easy_players_holding_assassin_and_contessa_end_their_game(seed):
    # Assassinating at every turn they could, each blocked by the other's Contessa,
    # they never kept the seven coins of a Coup, and the game never ended.
    rules, state, dealer = both_holding_assassin_and_contessa(seed)
    rng = random.Random(seed)
    play_out(rules, state, dealer, rng, pick=PLAYOUTS.picker(rng), max_decisions=2_000)
    assert state.over and state.winner in {"p0", "p1"}
