"""The engine's interface: commands, errors, versions, views and the event log."""

import pytest

from games.engine import Event, IllegalMove
from games.engine.dealer import ScriptedDealer
from games.kinds.coup.engine import RULES as COUP
from games.kinds.coup.engine.setup import setup_events
from tests.engine.snapshots import snapshot

COURT = ["assassin", "duke", "contessa", "captain", "captain", "ambassador", "ambassador", "ambassador", "assassin"]
DEAL = {"ana": ["contessa", "duke"], "ben": ["captain", "contessa"], "cai": ["assassin", "duke"]}


@pytest.fixture
def dealer():
    return ScriptedDealer()


@pytest.fixture
def table(dealer):
    """Ana, Ben and Cai at a classic table; Ana starts."""
    events = setup_events(["ana", "ben", "cai"], [], "ana", dealer, deal=DEAL, court=COURT)
    return COUP.replay(events), events


def test_a_coup_without_seven_coins_is_refused_in_words_and_changes_nothing(table, dealer):
    state, _ = table
    before = snapshot(state)
    with pytest.raises(IllegalMove) as refused:
        COUP.play(state, "ana", {"act": "coup", "target": "ben"}, dealer)
    assert str(refused.value) == "You need 7 coins to launch a Coup; you have 2."
    assert refused.value.template == "You need {cost} coins to launch a Coup; you have {coins}."
    assert refused.value.params == {"cost": 7, "coins": 2}
    assert snapshot(state) == before


def test_acting_out_of_turn_is_refused(table, dealer):
    state, _ = table
    with pytest.raises(IllegalMove, match="not waiting for you"):
        COUP.play(state, "ben", {"act": "income"}, dealer)


def test_an_unknown_player_is_refused(table, dealer):
    state, _ = table
    with pytest.raises(IllegalMove, match="no player called zoe"):
        COUP.play(state, "zoe", {"act": "income"}, dealer)


def test_an_answer_to_a_decision_that_has_passed_is_refused(table, dealer):
    state, _ = table
    version = COUP.awaiting(state)[0][2]
    COUP.play(state, "ana", {"act": "tax", "version": version}, dealer)
    [ben_version] = [v for name, _, v in COUP.awaiting(state) if name == "ben"]
    COUP.play(state, "ben", {"act": "challenge", "version": ben_version}, dealer)
    with pytest.raises(IllegalMove, match="not waiting for you"):
        COUP.play(state, "cai", {"act": "challenge"}, dealer)
    COUP.play(state, "ana", {"act": "prove"}, dealer)
    COUP.play(state, "ben", {"act": "lose", "card": "captain"}, dealer)
    # Ana's turn is over; an old click on her earlier turn decision is stale.
    COUP.play(state, "ben", {"act": "income"}, dealer)
    [ana_version] = [v for name, _, v in COUP.awaiting(state) if name == "cai"]
    with pytest.raises(IllegalMove, match="already passed"):
        COUP.play(state, "cai", {"act": "income", "version": ana_version - 1}, dealer)


def test_a_challenged_player_without_the_card_is_still_asked(table, dealer):
    """Decisions are always awaited: waiting must never reveal a hand."""
    state, _ = table
    COUP.play(state, "ana", {"act": "exchange"}, dealer)
    COUP.play(state, "ben", {"act": "challenge"}, dealer)
    assert COUP.awaiting(state)[0][:2] == ("ana", "challenged")
    assert COUP.options(state, "ana") == [{"act": "concede"}]
    with pytest.raises(IllegalMove, match="no Ambassador"):
        COUP.play(state, "ana", {"act": "prove"}, dealer)


def test_every_listed_option_is_accepted(table, dealer):
    """Each option of Ana's turn is played as the action it names, and her turn is over."""
    state, events = table
    options = COUP.options(state, "ana")
    assert {option["act"] for option in options} == {"income", "foreign_aid", "tax", "exchange", "steal"}
    for option in options:
        copy = COUP.replay(events)
        declared, *_ = COUP.play(copy, "ana", option, dealer)
        target = {"target": option["target"]} if "target" in option else {}
        assert (declared.type, declared.data) == (
            "coup.action.declared",
            {"player": "ana", "action": option["act"]} | target,
        )
        assert ("ana", "turn") not in [decision[:2] for decision in COUP.awaiting(copy)]


def test_a_deadline_answers_every_awaited_decision_with_its_default(table, dealer):
    state, _ = table
    COUP.play(state, "ana", {"act": "foreign_aid"}, dealer)
    assert [a[:2] for a in COUP.awaiting(state)] == [("ben", "respond"), ("cai", "respond")]
    assert COUP.default_answer(state, "ben", dealer) == {"act": "allow"}
    COUP.timeout(state, dealer)
    assert state.by_name["ana"].coins == 4
    assert [a[:2] for a in COUP.awaiting(state)] == [("ben", "turn")]


def test_views_hide_other_hands_and_the_court(table):
    state, _ = table
    seen = COUP.view(state, "ben")
    assert seen["court"] == len(COURT)
    hands = {p["name"]: p["hand"] for p in seen["players"]}
    assert hands == {"ana": 2, "ben": ["captain", "contessa"], "cai": 2}


def test_event_secrets_are_shown_only_to_who_may_see_them(table):
    _, events = table
    dealt = next(e for e in events if e.type == "coup.hand.dealt" and e.data["player"] == "ana")
    assert dealt.visible_to("ana")["cards"] == ["contessa", "duke"]
    assert "cards" not in dealt.visible_to("ben")
    assert "cards" not in dealt.visible_to(None)
    court = next(e for e in events if e.type == "coup.court.shuffled")
    assert all("court" not in court.visible_to(p) for p in ("ana", "ben", "cai"))


def test_stored_events_round_trip_through_json(table):
    _, events = table
    assert [Event.from_json(e.to_json()) for e in events] == events
    assert all(e.to_json()["v"] == 1 for e in events)


def test_a_resigning_player_turns_their_cards_up_and_the_turn_passes(table, dealer):
    state, _ = table
    COUP.resign(state, "ana", dealer)
    ana = state.by_name["ana"]
    assert (ana.alive, ana.hand, ana.revealed, ana.coins) == (False, [], ["contessa", "duke"], 0)
    assert [a[:2] for a in COUP.awaiting(state)] == [("ben", "turn")]


def test_resigning_while_defending_a_claim_concedes_it(table, dealer):
    state, _ = table
    COUP.play(state, "ana", {"act": "tax"}, dealer)
    COUP.play(state, "ben", {"act": "challenge"}, dealer)
    COUP.resign(state, "ana", dealer)
    assert state.by_name["ana"].coins == 0  # the refused Tax took nothing; her coins went to the treasury
    assert state.by_name["ben"].hand == ["captain", "contessa"]
    assert [a[:2] for a in COUP.awaiting(state)] == [("ben", "turn")]


def test_the_last_player_standing_after_a_resignation_wins(dealer):
    events = setup_events(
        ["ana", "ben"],
        [],
        "ana",
        dealer,
        deal={"ana": ["duke", "duke"], "ben": ["captain", "contessa"]},
        court=["assassin"] * 3 + ["ambassador"] * 3 + ["captain", "captain", "contessa", "contessa", "duke"],
    )
    state = COUP.replay(events)
    COUP.resign(state, "ben", dealer)
    assert state.winner == "ana" and COUP.awaiting(state) == []
    with pytest.raises(IllegalMove, match="game is over"):
        COUP.resign(state, "ana", dealer)


def test_a_snapshot_restores_the_same_state(table, dealer):
    state, events = table
    COUP.play(state, "ana", {"act": "steal", "target": "ben"}, dealer)
    restored = COUP.load(COUP.dump(state))
    assert snapshot(restored) == snapshot(state)
    COUP.play(restored, "ben", {"act": "block", "as": "captain"}, dealer)


def test_a_standing_answer_proves_at_once_when_able(table, dealer):
    state, _ = table
    COUP.set_preferences(state, "ana", {"always_prove": True, "lose_first": []}, dealer)
    COUP.play(state, "ana", {"act": "tax"}, dealer)
    COUP.play(state, "ben", {"act": "challenge"}, dealer)
    assert [a[:2] for a in COUP.awaiting(state)] == [("ben", "lose")]  # Ana proved without being asked


def test_a_standing_answer_concedes_at_once_when_unable(table, dealer):
    """Both branches answer at once, so the speed of the answer reveals nothing."""
    state, _ = table
    COUP.set_preferences(state, "ana", {"always_prove": True, "lose_first": ["duke"]}, dealer)
    COUP.play(state, "ana", {"act": "exchange"}, dealer)
    COUP.play(state, "ben", {"act": "challenge"}, dealer)
    ana = state.by_name["ana"]
    assert ana.revealed == ["duke"] and ana.hand == ["contessa"]  # conceded, then gave up the Duke first
    assert [a[:2] for a in COUP.awaiting(state)] == [("ben", "turn")]


def test_standing_answers_are_private_to_their_player(table, dealer):
    state, events = table
    new = COUP.set_preferences(state, "ana", {"always_prove": True, "lose_first": ["duke"]}, dealer)
    assert "prove" not in new[0].visible_to("ben") and new[0].visible_to("ana")["lose_first"] == ["duke"]
    assert snapshot(COUP.load(COUP.dump(state))) == snapshot(state)


@pytest.mark.parametrize(
    "command",
    [
        None,
        [],
        {"act": {"x": 1}},
        {"act": "steal", "target": ["ben"]},
        {"act": "keep", "cards": [["duke"]]},
        {"act": "income", "version": 1.5},
        {"act": True},
    ],
)
def test_a_command_of_the_wrong_shape_is_refused_and_changes_nothing(table, dealer, command):
    state, _ = table
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="could not be read"):
        COUP.play(state, "ana", command, dealer)
    assert snapshot(state) == before


def test_a_steal_option_says_the_coins_it_takes_and_takes_that_many(dealer):
    events = setup_events(["ana", "ben", "cai"], [], "ana", dealer, deal=DEAL, court=COURT, coins={"ben": 1})
    state = COUP.replay(events)
    steals = [o for o in COUP.options(state, "ana") if o["act"] == "steal"]
    assert steals == [{"act": "steal", "target": "ben", "coins": 1}, {"act": "steal", "target": "cai", "coins": 2}]
    COUP.play(state, "ana", steals[0], dealer)
    assert COUP.view(state, "cai")["pending"]["coins"] == 1
    COUP.timeout(state, dealer)
    assert (state.by_name["ana"].coins, state.by_name["ben"].coins) == (3, 0)


@pytest.mark.parametrize("variants, draws", [((), 2), (("inquisitor",), 1)])
def test_an_exchange_option_says_how_many_cards_it_draws(dealer, variants, draws):
    state = COUP.replay(COUP.setup(players=["ana", "ben", "cai"], first="ana", variants=variants, dealer=dealer))
    assert {"act": "exchange", "draws": draws} in COUP.options(state, "ana")


def test_a_proof_option_says_what_it_shows(table, dealer):
    state, _ = table
    COUP.play(state, "ana", {"act": "tax"}, dealer)
    COUP.play(state, "ben", {"act": "challenge"}, dealer)
    assert COUP.options(state, "ana") == [{"act": "prove", "claim": "duke"}, {"act": "concede"}]


def test_a_proof_of_embezzlement_says_which_character_the_hand_lacks(dealer):
    deal = {"ana": ["captain", "contessa"], "ben": ["captain", "contessa"], "cai": ["assassin", "duke"]}
    court = ["assassin", "duke", "duke", "ambassador", "ambassador", "ambassador", "assassin", "captain", "contessa"]
    state = COUP.replay(setup_events(["ana", "ben", "cai"], ["factions"], "ana", dealer, deal=deal, court=court))
    COUP.play(state, "ana", {"act": "embezzle"}, dealer)
    COUP.play(state, "ben", {"act": "challenge"}, dealer)
    assert COUP.options(state, "ana") == [{"act": "prove", "disclaims": "duke"}, {"act": "concede"}]


def test_declared_assassination_needs_declared_coup_in_a_new_game_but_a_scenario_may_play_it_alone(dealer):
    with pytest.raises(IllegalMove, match="together with Declared Coup"):
        COUP.check_config(["ana", "ben", "cai"], ["declared_assassination"])
    COUP.check_config(["ana", "ben", "cai"], ["declared_assassination", "declared_coup"])
    state = COUP.replay(COUP.setup(players=["ana", "ben", "cai"], first="ana", variants=["declared_assassination"]))
    assert state.rulebook.declared == {"assassinate"}
