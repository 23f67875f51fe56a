"""A decision is asked once: conceding is offered with the card it costs, and a
decision with one answer everyone can see is played at once.

Both branches ask (holding the card or not), the answer plays the concession and
the loss together, and the history tells them in one line that does not say
whether the player could have proved."""

import pytest

from games.engine import IllegalMove
from games.engine.dealer import ScriptedDealer
from games.kinds.coup.engine import RULES as COUP
from games.kinds.coup.engine.setup import setup_events
from games.kinds.coup.words.history import CoupHistory
from tests.engine.snapshots import snapshot

DECK = [card for card in ("ambassador", "assassin", "captain", "contessa", "duke") for _copy in range(3)]
NAMES = {"ana": "Ana", "ben": "Ben", "cai": "Cai"}


class Log(list):
    """The events of a game so far, to tell its history whole."""

    def play(self, state, player, command):
        self.extend(COUP.play(state, player, command, ScriptedDealer()))

    def told(self, viewer, since=0) -> list[str]:
        return [line.text for line in CoupHistory().lines(self, viewer, NAMES) if line.seq >= since]


def classic_game(deal):
    """A classic game dealt ``deal``, the rest of the deck as the court; Ana starts."""
    dealer = ScriptedDealer()
    court = list(DECK)
    for card in (card for hand in deal.values() for card in hand):
        court.remove(card)
    log = Log(setup_events(list(deal), [], "ana", dealer, deal=deal, court=court))
    return COUP.replay(log), dealer, log


def challenged_game(ana_hand):
    """Ana claims the Duke to take Tax, holding ``ana_hand``; Ben challenges."""
    state, dealer, log = classic_game({"ana": ana_hand, "ben": ["captain", "contessa"], "cai": ["assassin", "duke"]})
    log.play(state, "ana", {"act": "tax"})
    log.play(state, "ben", {"act": "challenge"})
    return state, dealer, log


@pytest.mark.parametrize(
    "hand, offered",
    [
        (
            ["captain", "duke"],
            [
                {"act": "prove", "claim": "duke"},
                {"act": "concede", "lose": "captain"},
                {"act": "concede", "lose": "duke"},
            ],
        ),
        (["captain", "contessa"], [{"act": "concede", "lose": "captain"}, {"act": "concede", "lose": "contessa"}]),
        (["captain", "captain"], [{"act": "concede", "lose": "captain"}]),
    ],
)
def test_conceding_is_offered_once_per_card_it_may_cost_and_both_branches_ask(hand, offered):
    state, _dealer, _log = challenged_game(hand)
    assert [entry[:2] for entry in COUP.awaiting(state)] == [("ana", "challenged")]
    assert COUP.offered(state, "ana") == offered
    assert {"act": "concede"} in COUP.options(state, "ana")  # the engine's own options are unchanged


def test_with_one_card_left_conceding_stays_one_answer():
    state, dealer, log = challenged_game(["captain", "contessa"])
    COUP.play(state, "ana", {"act": "concede", "lose": "contessa"}, dealer)
    COUP.play(state, "ben", {"act": "income"}, dealer)
    COUP.play(state, "cai", {"act": "income"}, dealer)
    COUP.play(state, "ana", {"act": "tax"}, dealer)
    COUP.play(state, "ben", {"act": "challenge"}, dealer)
    assert COUP.offered(state, "ana") == [{"act": "concede"}]


def test_the_merged_answer_plays_the_concession_and_the_loss_without_a_second_question():
    state, dealer, log = challenged_game(["captain", "contessa"])
    events = COUP.play(state, "ana", {"act": "concede", "lose": "contessa"}, dealer)
    kinds = [event.type for event in events]
    assert kinds[:2] == ["coup.claim.conceded", "coup.influence.lost"]
    assert "coup.awaited" not in kinds[:2]
    assert state.by_name["ana"].revealed == ["contessa"] and state.by_name["ana"].hand == ["captain"]
    assert [entry[:2] for entry in COUP.awaiting(state)] == [("ben", "turn")]


def test_a_merged_answer_naming_a_card_not_held_is_refused_and_changes_nothing():
    state, dealer, log = challenged_game(["captain", "contessa"])
    before = snapshot(state)
    with pytest.raises(IllegalMove, match="no face-down Duke"):
        COUP.play(state, "ana", {"act": "concede", "lose": "duke"}, dealer)
    assert snapshot(state) == before


def test_the_card_chosen_with_the_concession_wins_over_a_standing_order_of_losses():
    state, dealer, log = challenged_game(["captain", "contessa"])
    COUP.set_preferences(state, "ana", {"always_prove": False, "lose_first": ["captain"]}, dealer)
    assert COUP.offered(state, "ana")[0] == {"act": "concede", "lose": "captain"}
    COUP.play(state, "ana", {"act": "concede", "lose": "contessa"}, dealer)
    assert state.by_name["ana"].revealed == ["contessa"]


def test_a_plain_concession_still_asks_for_the_card():
    """The deadline's default, a bot and a scenario concede alone; the loss is then its own question."""
    state, dealer, log = challenged_game(["captain", "contessa"])
    COUP.play(state, "ana", {"act": "concede"}, dealer)
    assert [entry[:2] for entry in COUP.awaiting(state)] == [("ana", "lose")]


@pytest.mark.parametrize("hand", [["captain", "duke"], ["captain", "contessa"]])
def test_the_history_tells_the_merged_answer_in_one_line_whether_or_not_the_card_was_held(hand):
    state, _dealer, log = challenged_game(hand)
    since = len(log)
    log.play(state, "ana", {"act": "concede", "lose": "captain"})
    for viewer, line in (
        ("cai", "Ana did not prove the Duke and lost an influence: Captain."),
        ("ana", "You did not prove the Duke and lost an influence: Captain."),
    ):
        texts = log.told(viewer, since)
        assert texts[0] == line
        assert not any("conceded" in text or text.startswith(("Ana lost", "You lost")) for text in texts)


def test_a_loss_asked_after_a_concession_keeps_its_own_line():
    state, _dealer, log = challenged_game(["captain", "contessa"])
    since = len(log)
    log.play(state, "ana", {"act": "concede"})
    log.play(state, "ana", {"act": "lose", "card": "captain"})
    assert log.told("cai", since)[:2] == ["Ana conceded the challenge.", "Ana lost an influence: Captain."]


def test_a_blocked_claim_conceded_with_its_loss_names_the_block():
    state, _dealer, log = classic_game(
        {"ana": ["captain", "contessa"], "ben": ["assassin", "duke"], "cai": ["assassin", "duke"]}
    )
    log.play(state, "ana", {"act": "foreign_aid"})
    log.play(state, "ben", {"act": "allow"})
    log.play(state, "cai", {"act": "allow"})
    log.play(state, "ben", {"act": "steal", "target": "ana"})
    log.play(state, "ana", {"act": "block", "as": "ambassador"})
    log.play(state, "ben", {"act": "challenge"})
    assert COUP.offered(state, "ana") == [{"act": "concede", "lose": "captain"}, {"act": "concede", "lose": "contessa"}]
    since = len(log)
    log.play(state, "ana", {"act": "concede", "lose": "captain"})
    assert log.told("cai", since)[0] == "Ana did not prove the Ambassador and lost an influence: Captain."


# ---- a decision with one answer everyone can see is played at once ----------------------


def two_player_game(variants=(), coins=None):
    dealer = ScriptedDealer()
    deal = {"ana": ["captain", "contessa"], "ben": ["assassin", "duke"]}
    court = list(DECK)
    for card in (card for hand in deal.values() for card in hand):
        court.remove(card)
    events = setup_events(["ana", "ben"], list(variants), "ana", dealer, deal=deal, court=court, coins=coins)
    return COUP.replay(events), Log(events)


def test_a_coup_forced_on_the_only_opponent_is_played_at_once_and_told_so():
    state, log = two_player_game(coins={"ana": 10})
    since = len(log)
    log.extend(COUP.forced(state, ScriptedDealer()))
    assert log[since].type == "coup.action.declared" and log[since].data["forced"] is True
    assert [entry[:2] for entry in COUP.awaiting(state)] == [("ben", "lose")]
    assert (
        log.told("ben", since)[0]
        == "The only possible move, played at once: Ana paid 7 coins to launch a Coup against Ben."
    )


@pytest.mark.parametrize(
    ("variants", "coins"),
    [((), {"ana": 9}), (("declared_coup",), {"ana": 10})],
)
def test_a_turn_with_a_choice_is_asked(variants, coins):
    state, _log = two_player_game(variants, coins)
    assert COUP.forced(state, ScriptedDealer()) == []
    assert [entry[:2] for entry in COUP.awaiting(state)] == [("ana", "turn")]


def test_a_forced_coup_with_two_opponents_to_choose_from_is_asked():
    state, _dealer, _log = classic_game(
        {"ana": ["captain", "contessa"], "ben": ["assassin", "duke"], "cai": ["assassin", "duke"]}
    )
    state.by_name["ana"].coins = 10
    assert COUP.forced(state, ScriptedDealer()) == []


def test_the_challenged_decision_is_never_played_for_the_player_even_without_the_card():
    state, _dealer, _log = challenged_game(["captain", "contessa"])
    assert COUP.forced(state, ScriptedDealer()) == []
    state.by_name["ana"].hand.remove("contessa")  # one card left, and no Duke: still asked
    assert COUP.forced(state, ScriptedDealer()) == []


def test_an_examined_player_with_one_card_left_shows_it_at_once_but_two_identical_cards_are_asked():
    dealer = ScriptedDealer()
    deck = [card for card in ("assassin", "captain", "contessa", "duke", "inquisitor") for _copy in range(3)]
    deal = {"ana": ["duke", "inquisitor"], "ben": ["captain", "contessa"], "cai": ["captain", "captain"]}
    for card in (card for hand in deal.values() for card in hand):
        deck.remove(card)
    log = Log(setup_events(["ana", "ben", "cai"], ["inquisitor"], "ana", dealer, deal=deal, court=deck))
    state = COUP.replay(log)
    log.play(state, "ana", {"act": "tax"})
    log.play(state, "ben", {"act": "challenge"})
    log.play(state, "ana", {"act": "prove"})
    log.play(state, "ben", {"act": "lose", "card": "captain"})
    log.play(state, "ben", {"act": "income"})
    log.play(state, "cai", {"act": "income"})
    log.play(state, "ana", {"act": "examine", "target": "cai"})
    log.play(state, "ben", {"act": "allow"})
    log.play(state, "cai", {"act": "allow"})
    assert [entry[:2] for entry in COUP.awaiting(state)] == [("cai", "show")]
    assert COUP.forced(state, dealer) == []  # two Captains: one button, but still asked
    log.play(state, "cai", {"act": "show", "card": "captain"})
    log.play(state, "ana", {"act": "give_back"})
    log.play(state, "ben", {"act": "income"})
    log.play(state, "cai", {"act": "income"})
    log.play(state, "ana", {"act": "examine", "target": "ben"})
    log.play(state, "ben", {"act": "allow"})
    log.play(state, "cai", {"act": "allow"})
    since = len(log)
    log.extend(COUP.forced(state, dealer))
    assert [entry[:2] for entry in COUP.awaiting(state)] == [("ana", "examine")]
    assert log.told("cai", since) == ["The only possible move, played at once: Ben showed one card to Ana in secret."]


def test_an_embezzlement_conceded_with_its_loss_is_told_without_the_hand():
    dealer = ScriptedDealer()
    deal = {"ana": ["captain", "contessa"], "ben": ["assassin", "duke"], "cai": ["assassin", "duke"]}
    court = list(DECK)
    for card in (card for hand in deal.values() for card in hand):
        court.remove(card)
    log = Log(setup_events(["ana", "ben", "cai"], ["factions"], "ana", dealer, deal=deal, court=court))
    state = COUP.replay(log)
    log.play(state, "ana", {"act": "embezzle"})
    log.play(state, "ben", {"act": "challenge"})
    assert COUP.offered(state, "ana") == [
        {"act": "prove", "disclaims": "duke"},
        {"act": "concede", "lose": "captain"},
        {"act": "concede", "lose": "contessa"},
    ]
    since = len(log)
    log.play(state, "ana", {"act": "concede", "lose": "contessa"})
    assert log.told("cai", since)[0] == "Ana did not reveal their cards and lost an influence: Contessa."


def test_a_lawyer_claim_conceded_with_its_loss_is_one_line():
    dealer = ScriptedDealer()
    deck = [card for card in ("ambassador", "assassin", "captain", "duke", "lawyer") for _copy in range(3)]
    deal = {"ana": ["captain", "duke"], "ben": ["assassin", "duke"], "cai": ["ambassador", "assassin"]}
    for card in (card for hand in deal.values() for card in hand):
        deck.remove(card)
    log = Log(setup_events(["ana", "ben", "cai"], ["lawyer"], "ana", dealer, deal=deal, court=deck))
    state = COUP.replay(log)
    log.extend(COUP.resign(state, "cai", dealer))
    log.play(state, "ana", {"act": "income"})
    log.play(state, "ana", {"act": "claim_inheritance"})
    log.play(state, "ben", {"act": "decline"})
    log.play(state, "ben", {"act": "challenge"})
    assert COUP.offered(state, "ana") == [{"act": "concede", "lose": "captain"}, {"act": "concede", "lose": "duke"}]
    since = len(log)
    log.play(state, "ana", {"act": "concede", "lose": "duke"})
    told = log.told("ben", since)
    assert told[0] == ("Ana did not prove the Lawyer and lost an influence: Duke. Ana's Lawyer claim no longer counts.")
    assert not any("conceded" in line for line in told)
