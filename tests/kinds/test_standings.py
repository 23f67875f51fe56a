"""Every game says its finishing order (``standings``): groups of players from first
place on, the winners first, every player once; the results store places from it."""

import pytest

from games.engine.playout import random_game
from games.kinds import KIND_NAMES, rules_of
from games.kinds.kobayakawa.engine.state import KobayakawaState, Player

PLAYERS = {"coup": (2, 3, 6), "kobayakawa": (3, 5)}


@pytest.mark.parametrize("kind", KIND_NAMES)
@pytest.mark.parametrize("seed", range(4))
def test_the_standings_of_a_finished_game_place_every_player_once_the_winners_first(kind, seed):
    rules = rules_of(kind)
    for players in PLAYERS[kind]:
        state, _events, _decisions = random_game(kind, players, seed=seed)
        standings = rules.standings(state)
        assert standings[0] == rules.winners(state)
        assert sorted(name for group in standings for name in group) == sorted(p.name for p in state.players)
        assert all(standings)  # no empty place


@pytest.mark.parametrize("seed", range(4))
def test_coup_ranks_the_losers_in_the_reverse_order_of_elimination(seed):
    state, events, _decisions = random_game("coup", 5, seed=seed)
    eliminated = [event.data["player"] for event in events if event.type == "coup.player.eliminated"]
    assert rules_of("coup").standings(state) == [[state.winner], *([name] for name in reversed(eliminated))]


def test_kobayakawa_ranks_the_others_by_medals_and_equal_medals_share_a_place():
    state = KobayakawaState()
    state.players = [
        Player(name, seat, medals)
        for seat, (name, medals) in enumerate([("p1", 3), ("p2", 9), ("p3", 0), ("p4", 3), ("p5", 0)])
    ]
    state.winners = ["p2"]
    assert rules_of("kobayakawa").standings(state) == [["p2"], ["p1", "p4"], ["p3", "p5"]]


def test_a_shared_kobayakawa_win_is_one_group():
    state = KobayakawaState()
    state.players = [
        Player(name, seat, medals) for seat, (name, medals) in enumerate([("p1", 6), ("p2", 2), ("p3", 6)])
    ]
    state.winners = ["p1", "p3"]
    assert rules_of("kobayakawa").standings(state) == [["p1", "p3"], ["p2"]]
