"""Kobayakawa on the engine's interface: commands, refusals, versions, deadlines,
resignations, winners, snapshots and the benchmark."""

import json

import pytest

from games.engine import Event, IllegalMove, bench
from games.engine.dealer import ScriptedDealer, SeededDealer
from games.kinds import rules_of
from games.kinds.coup.engine import RULES as COUP
from games.kinds.kobayakawa.engine import RULES as KOBAYAKAWA
from games.kinds.kobayakawa.engine.scenario import ScriptedRounds
from games.kinds.kobayakawa.engine.setup import setup_events
from tests.engine.snapshots import snapshot

PLAYERS = ["ana", "ben", "cai"]
# Ana 5, Ben 9, Cai 2, Kobayakawa 7; then 11 3 14 1 ...
DECK = [5, 9, 2, 7, 11, 3, 14, 1, 4, 6, 8, 10, 12, 13, 15]
SECOND = [8, 1, 12, 6, 2, 3, 4, 5, 7, 9, 10, 11, 13, 14, 15]


@pytest.fixture
def dealer():
    return ScriptedRounds([DECK, SECOND])


@pytest.fixture
def table(dealer):
    """Ana, Ben and Cai; Ana starts; 4 medals each, 8 in the centre."""
    events = KOBAYAKAWA.setup(dealer=dealer, players=PLAYERS, first="ana")
    return KOBAYAKAWA.replay(events), events


def awaited(state):
    return [a[:2] for a in KOBAYAKAWA.awaiting(state)]


def play_all(state, dealer, *moves):
    for name, command in moves:
        KOBAYAKAWA.play(state, name, command, dealer)


def flips_then_bets(state, dealer, bets):
    play_all(state, dealer, *[(p, {"act": "flip"}) for p in PLAYERS])
    play_all(state, dealer, *[(p, {"act": "bet" if p in bets else "pass"}) for p in PLAYERS])


def test_kobayakawa_is_registered_beside_coup():
    assert rules_of("kobayakawa") is KOBAYAKAWA and rules_of("coup") is COUP
    assert set(KOBAYAKAWA.Flow.DECISIONS) == {"turn", "discard", "bet"}


def test_check_config_wants_three_to_six_players_and_no_variant():
    KOBAYAKAWA.check_config(["a", "b", "c"], [])
    KOBAYAKAWA.check_config([f"p{i}" for i in range(6)], [])
    with pytest.raises(IllegalMove, match="3 to 6"):
        KOBAYAKAWA.check_config(["a", "b"], [])
    with pytest.raises(IllegalMove, match="3 to 6"):
        KOBAYAKAWA.check_config([f"p{i}" for i in range(7)], [])
    with pytest.raises(IllegalMove, match="no variants"):
        KOBAYAKAWA.check_config(["a", "b", "c"], ["inquisitor"])


def test_setup_takes_the_services_keywords_and_ignores_options_of_other_games():
    events = KOBAYAKAWA.setup(players=PLAYERS, variants=[], first="ben", options={"first_faction": "loyalist"})
    state = KOBAYAKAWA.replay(events)
    assert state.first == "ben" and awaited(state) == [("ben", "turn")]
    with pytest.raises(IllegalMove, match="first player"):
        KOBAYAKAWA.setup(players=PLAYERS, first="zoe")


def test_a_live_deal_is_a_shuffle_recorded_for_nobody_and_a_card_for_each_player():
    events = KOBAYAKAWA.setup(dealer=SeededDealer(5), players=PLAYERS, first="ana")
    shuffled = [e for e in events if e.type == "kobayakawa.deck.shuffled"]
    assert len(shuffled) == 1 and shuffled[0].seen_by == () and sorted(shuffled[0].secret["deck"]) == list(range(1, 16))
    dealt = [e for e in events if e.type == "kobayakawa.card.dealt"]
    assert [e.seen_by for e in dealt] == [("ana",), ("ben",), ("cai",)]
    assert all("card" not in e.visible_to(other) for e in dealt for other in PLAYERS if (other,) != e.seen_by)


def test_a_refused_command_is_explained_and_changes_nothing(table, dealer):
    state, _ = table
    before = snapshot(state)
    with pytest.raises(IllegalMove) as refused:
        KOBAYAKAWA.play(state, "ana", {"act": "bet"}, dealer)
    assert (
        str(refused.value)
        == "You can't do that now: the game is waiting for you to draw a card or flip a new Kobayakawa card."
    )
    assert refused.value.template == "You can't do that now: the game is waiting for you to {prompt}."
    KOBAYAKAWA.play(state, "ana", {"act": "draw"}, dealer)
    before = snapshot(state)
    with pytest.raises(IllegalMove) as refused:
        KOBAYAKAWA.play(state, "ana", {"act": "discard", "card": 9}, dealer)
    assert str(refused.value) == "Discard one of your two cards: 5, 11."
    for card in (None, "5", True, 0, 16):
        with pytest.raises(IllegalMove):
            KOBAYAKAWA.play(state, "ana", {"act": "discard", "card": card}, dealer)
    assert snapshot(state) == before


def test_out_of_turn_unknown_and_stale_answers_are_refused(table, dealer):
    state, _ = table
    with pytest.raises(IllegalMove, match="not waiting for you"):
        KOBAYAKAWA.play(state, "ben", {"act": "flip"}, dealer)
    with pytest.raises(IllegalMove, match="no player called zoe"):
        KOBAYAKAWA.play(state, "zoe", {"act": "flip"}, dealer)
    version = KOBAYAKAWA.awaiting(state)[0][2]
    KOBAYAKAWA.play(state, "ana", {"act": "flip", "version": version}, dealer)
    with pytest.raises(IllegalMove, match="already passed"):
        KOBAYAKAWA.play(state, "ben", {"act": "flip", "version": version}, dealer)


def test_every_listed_option_is_accepted(table, dealer):
    """Each option Ana is offered is played as the act it names: a flip turns up the
    deck's top card, a draw asks her to discard, a discard keeps the other card; then
    it is Ben's turn."""
    state, events = table
    assert KOBAYAKAWA.options(state, "ana") == [{"act": "draw"}, {"act": "flip"}]
    assert KOBAYAKAWA.options(state, "ben") == []
    flipped = KOBAYAKAWA.load(KOBAYAKAWA.dump(state))
    played = KOBAYAKAWA.play(flipped, "ana", {"act": "flip"}, ScriptedDealer())
    assert (played[0].type, played[0].data) == ("kobayakawa.card.flipped", {"player": "ana", "card": 11})
    assert flipped.pile == [7, 11] and awaited(flipped) == [("ben", "turn")]
    KOBAYAKAWA.play(state, "ana", {"act": "draw"}, dealer)
    assert awaited(state) == [("ana", "discard")]
    assert KOBAYAKAWA.options(state, "ana") == [{"act": "discard", "card": 5}, {"act": "discard", "card": 11}]
    for option, kept in zip(KOBAYAKAWA.options(state, "ana"), (11, 5), strict=True):
        copy = KOBAYAKAWA.load(KOBAYAKAWA.dump(state))
        played = KOBAYAKAWA.play(copy, "ana", option, ScriptedDealer())
        assert (played[0].type, played[0].data) == (
            "kobayakawa.card.discarded",
            {"player": "ana", "card": option["card"]},
        )
        ana = copy.by_name["ana"]
        assert (ana.card, ana.drawn, ana.discards) == (kept, None, [option["card"]])
        assert awaited(copy) == [("ben", "turn")]


def test_deadline_defaults_flip_discard_the_drawn_card_and_pass(table, dealer):
    state, _ = table
    assert KOBAYAKAWA.default_answer(state, "ana") == {"act": "flip"}
    KOBAYAKAWA.play(state, "ana", {"act": "draw"}, dealer)
    assert KOBAYAKAWA.default_answer(state, "ana") == {"act": "discard", "card": 11}
    KOBAYAKAWA.timeout(state, dealer)  # one deadline answers only the decision awaited when it passed
    assert state.by_name["ana"].discards == [11] and awaited(state) == [("ben", "turn")]
    KOBAYAKAWA.timeout(state, dealer)
    KOBAYAKAWA.timeout(state, dealer)
    assert awaited(state) == [("ana", "bet")]
    assert KOBAYAKAWA.default_answer(state, "ana") == {"act": "pass"}


def test_a_player_resigning_on_their_turn_leaves_with_their_medals(table, dealer):
    state, _ = table
    KOBAYAKAWA.play(state, "ana", {"act": "draw"}, dealer)
    KOBAYAKAWA.resign(state, "ana", dealer)
    ana = state.by_name["ana"]
    assert (ana.out, ana.resigned, ana.medals, state.box, state.centre) == (True, True, 0, 4, 8)
    assert awaited(state) == [("ben", "turn")]
    assert KOBAYAKAWA.view(state, "ben")["players"][0]["card"] is None
    with pytest.raises(IllegalMove, match="already out"):
        KOBAYAKAWA.resign(state, "ana", dealer)
    play_all(state, dealer, ("ben", {"act": "flip"}), ("cai", {"act": "flip"}))
    assert awaited(state) == [("ben", "bet")]  # Ana is no longer asked


def test_a_resigning_bettor_loses_the_bet_too(table, dealer):
    state, _ = table
    play_all(state, dealer, *[(p, {"act": "flip"}) for p in PLAYERS], ("ana", {"act": "bet"}))
    KOBAYAKAWA.resign(state, "ana", dealer)
    assert state.box == 4 and state.by_name["ana"].bet == 0
    play_all(state, dealer, ("ben", {"act": "bet"}), ("cai", {"act": "pass"}))
    assert state.by_name["ben"].medals == 5  # his own medal back and the centre's; nothing of Ana's
    assert sum(p.medals for p in state.players) + state.centre + state.box == 20


def test_a_resigning_first_player_hands_a_replayed_round_to_the_next_seat(table, dealer):
    state, _ = table
    flips_then_bets(state, dealer, bets=())
    assert state.round == 1 and state.first == "ana"
    KOBAYAKAWA.resign(state, "ana", dealer)
    play_all(
        state,
        dealer,
        ("ben", {"act": "flip"}),
        ("cai", {"act": "flip"}),
        ("ben", {"act": "pass"}),
        ("cai", {"act": "pass"}),
    )
    assert (state.round, state.first, state.order) == (1, "ben", ["ben", "cai"])


def test_the_last_player_left_after_resignations_wins_and_bets_go_back(table, dealer):
    state, _ = table
    play_all(state, dealer, *[(p, {"act": "flip"}) for p in PLAYERS], ("ana", {"act": "bet"}))
    KOBAYAKAWA.resign(state, "ben", dealer)
    assert not KOBAYAKAWA.is_over(state)
    KOBAYAKAWA.resign(state, "cai", dealer)
    assert KOBAYAKAWA.is_over(state) and KOBAYAKAWA.winners(state) == ["ana"]
    assert (state.by_name["ana"].medals, state.by_name["ana"].bet) == (4, 0)
    assert KOBAYAKAWA.awaiting(state) == []
    for call in (
        lambda: KOBAYAKAWA.timeout(state, dealer),
        lambda: KOBAYAKAWA.resign(state, "ana", dealer),
        lambda: KOBAYAKAWA.play(state, "ana", {"act": "flip"}, dealer),
    ):
        with pytest.raises(IllegalMove, match="game is over"):
            call()


def test_winners_is_a_list_for_both_games():
    coup = COUP.replay(COUP.setup(dealer=SeededDealer(1), players=["a", "b"], variants=[], first="a"))
    assert COUP.winners(coup) == []
    COUP.resign(coup, "b", SeededDealer(1))
    assert COUP.winners(coup) == ["a"]
    events = setup_events(PLAYERS, "ana", ScriptedRounds([DECK]), medals={"ana": 6}, centre=2)
    state = KOBAYAKAWA.replay(events)
    assert KOBAYAKAWA.winners(state) == []
    flips_then_bets(state, ScriptedDealer(), bets=("ben",))
    assert KOBAYAKAWA.winners(state) == ["ana", "ben"]  # 6 each: a shared win


def test_setup_refuses_impossible_starts():
    with pytest.raises(IllegalMove, match="two players need medals"):
        setup_events(PLAYERS, "ana", ScriptedRounds([DECK]), medals={"ben": 0, "cai": 0})
    with pytest.raises(IllegalMove, match="at least 2"):
        setup_events(PLAYERS, "ana", ScriptedRounds([DECK]), centre=1)


def test_a_snapshot_restores_the_same_state_and_plays_on(table, dealer):
    state, events = table
    KOBAYAKAWA.play(state, "ana", {"act": "draw"}, dealer)
    restored = KOBAYAKAWA.load(json.loads(json.dumps(KOBAYAKAWA.dump(state))))
    assert snapshot(restored) == snapshot(state)
    KOBAYAKAWA.play(restored, "ana", {"act": "discard", "card": 5}, dealer)
    assert restored.by_name["ana"].card == 11


def test_stored_events_round_trip_through_json(table):
    _, events = table
    assert [Event.from_json(e.to_json()) for e in events] == events
    assert all(e.type.startswith("kobayakawa.") for e in events)


def test_the_benchmark_plays_kobayakawa(capsys):
    bench.main(["--game", "kobayakawa", "--players", "4", "--games", "20", "--replay"])
    result = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert result["games"] == 20 and result["games_per_s"] > 0 and result["replay_1000_events_ms"] > 0


@pytest.mark.parametrize("medals, centre, cost", [(4, 8, 1), (4, 2, 2), (1, 2, 1)])
def test_a_bet_option_says_the_medals_it_costs_and_costs_that_many(medals, centre, cost):
    """One medal; in the last round (2 in the centre) two, or the player's only one."""
    dealer = ScriptedRounds([DECK])
    state = KOBAYAKAWA.replay(setup_events(PLAYERS, "ana", dealer, medals={"ana": medals}, centre=centre))
    play_all(state, dealer, *[(p, {"act": "flip"}) for p in PLAYERS])
    assert KOBAYAKAWA.options(state, "ana") == [{"act": "bet", "medals": cost}, {"act": "pass"}]
    KOBAYAKAWA.play(state, "ana", KOBAYAKAWA.options(state, "ana")[0], dealer)
    assert (state.by_name["ana"].medals, state.by_name["ana"].bet) == (medals - cost, cost)
