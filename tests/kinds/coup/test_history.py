"""The history of a game in plain sentences, as each viewer may know it."""

import random

import pytest
from django.utils import translation

from games.engine.events import Event
from games.engine.playout import random_game
from games.kinds.coup.engine.state import APPLY
from games.kinds.coup.words.history import SILENT, TELLERS, CoupHistory

lines = CoupHistory().lines

NAMES = {"p1": "Ana", "p2": "Ben", "p3": "Cai"}
START = Event(
    "coup.game.started",
    {"players": ["p1", "p2", "p3"], "variants": [], "first": "p1", "coins": {"p1": 2, "p2": 2, "p3": 2}},
)


def sentences(events, viewer, names) -> list[str]:
    """The history of the game as ``viewer`` may know it, one sentence per event."""
    return [line.text for line in lines(events, viewer, names)]


def told(*events, viewer="p3", start=START):
    """The sentences of ``events`` (after a classic start), without the start's."""
    return sentences([start, *events], viewer, NAMES)[1:]


def factions_start(**extra):
    data = {
        "players": ["p1", "p2", "p3"],
        "variants": ["factions"],
        "first": "p1",
        "coins": {"p1": 2, "p2": 2, "p3": 2},
        "factions": {"p1": "loyalist", "p2": "reformist", "p3": "loyalist"},
    }
    return Event("coup.game.started", {**data, **extra})


def variant_start(*variants):
    return Event(
        "coup.game.started",
        {
            "players": ["p1", "p2", "p3"],
            "variants": list(variants),
            "first": "p1",
            "coins": {"p1": 2, "p2": 2, "p3": 2},
        },
    )


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_every_event_type_of_the_engine_has_a_teller():
    assert set(TELLERS) == set(APPLY)


def test_the_example_of_the_issue_reads_as_sentences():
    events = [
        Event("coup.turn.started", {"player": "p1"}),
        Event("coup.action.declared", {"player": "p1", "action": "tax"}),
        Event("coup.awaited", {"players": ["p2", "p3"], "decision": "respond", "then": "effect"}),
        Event("coup.challenged", {"player": "p2", "claimant": "p1", "on": "action"}),
        Event("coup.claim.proved", {"player": "p1", "cards": ["duke"]}),
        Event("coup.court.shuffled", {}, {"court": ["captain", "contessa"]}),
        Event("coup.card.drawn", {"player": "p1"}, {"card": "contessa"}, ("p1",)),
        Event("coup.influence.lost", {"player": "p2", "card": "captain"}),
        Event("coup.coins.moved", {"amount": 3, "from": "treasury", "to": "p1"}),
    ]
    assert told(*events) == [
        "Turn 1 — Ana.",
        "Ana claimed the Duke to take 3 coins.",
        "Ben challenged Ana's Duke.",
        "Ana showed the Duke and shuffled it into the court deck.",
        "Ana drew a new card from the court deck.",
        "Ben lost an influence: Captain.",
        "Ana took 3 coins from the treasury.",
    ]


def test_game_started_names_the_players_and_who_plays_first():
    assert sentences([START], None, NAMES) == ["The game began with Ana, Ben, Cai. Ana plays first."]


def test_game_started_with_factions_tells_each_players_faction():
    [text] = sentences([factions_start()], None, NAMES)
    assert "Factions — Ana: Loyalist, Ben: Reformist, Cai: Loyalist." in text


def test_hand_dealt_is_told_to_its_owner_only():
    dealt = Event("coup.hand.dealt", {"player": "p1"}, {"cards": ["contessa", "duke"]}, ("p1",))
    assert told(dealt, viewer="p1") == ["You were dealt: Contessa, Duke."]
    assert told(dealt, viewer="p2") == ["Ana received face-down cards."]


def test_bookkeeping_and_standing_answers_tell_nothing():
    events = [
        Event("coup.court.shuffled", {}, {"court": ["duke", "captain"]}),
        Event("coup.awaited", {"players": ["p2"], "decision": "respond", "then": "effect"}),
        Event("coup.standing.set", {"player": "p1"}, {"prove": True, "lose_first": ["duke"]}, ("p1",)),
    ]
    assert {e.type for e in events} == SILENT
    assert told(*events) == [] and told(*events, viewer="p1") == []


def test_draft_started_explains_the_draft():
    assert told(Event("coup.draft.started", {})) == [
        "The draft began: each player keeps one card of their set and sets the others aside, unseen."
    ]


def test_draft_kept_tells_the_owner_the_card_and_the_others_nothing():
    kept = Event("coup.draft.kept", {"player": "p1"}, {"card": "duke", "aside": ["assassin", "captain"]}, ("p1",))
    assert told(kept, viewer="p1") == ["You kept Duke and set aside Assassin, Captain."]
    assert told(kept, viewer="p2") == ["Ana kept one card and set the others aside."]


def test_turn_started_says_whose_turn():
    started = Event("coup.turn.started", {"player": "p2"})
    assert told(started, viewer="p1") == ["Turn 1 — Ben."]
    assert told(started, viewer="p2") == ["Turn 1 — you."]


def test_turns_are_numbered_so_that_ones_past_turns_read_apart():
    turns = [Event("coup.turn.started", {"player": player}) for player in ("p2", "p3", "p2", "p3")]
    assert told(*turns, viewer="p2") == ["Turn 1 — you.", "Turn 2 — Cai.", "Turn 3 — you.", "Turn 4 — Cai."]


def test_income_is_told_once():
    declared = Event("coup.action.declared", {"player": "p1", "action": "income"})
    took = Event("coup.coins.moved", {"amount": 1, "from": "treasury", "to": "p1"})
    assert told(declared, took) == ["Ana took Income."]


def test_coins_an_action_could_be_stopped_from_taking_are_told_when_taken():
    declared = Event("coup.action.declared", {"player": "p1", "action": "foreign_aid"})
    allowed = Event("coup.allowed", {"player": "p2"})
    took = Event("coup.coins.moved", {"amount": 2, "from": "treasury", "to": "p1"})
    assert told(declared, allowed, took)[-1] == "Ana took 2 coins from the treasury."


def test_each_line_names_who_acted_then_the_player_or_the_bot_playing_for_them():
    events = [
        START,  # 0
        Event("coup.turn.started", {"player": "p1"}),  # 1
        Event("coup.action.declared", {"player": "p1", "action": "income"}),  # 2
        Event("coup.turn.started", {"player": "p2"}),  # 3: a bot plays for Ben from here
        Event("coup.action.declared", {"player": "p2", "action": "tax"}),  # 4
        Event("coup.turn.started", {"player": "p3"}),  # 5: Ben is back
        Event("coup.action.declared", {"player": "p3", "action": "steal", "target": "p2"}),  # 6
        Event("coup.game.won", {"player": "p2"}),  # 7
    ]
    stand_ins = {"p2": [(3, 5, "Ben's bot (easy)")]}
    assert [line.text for line in lines(events, "p1", NAMES, stand_ins)] == [
        "The game began with Ana, Ben, Cai. Ana plays first.",
        "Turn 1 — you.",
        "Ana took Income.",
        "Turn 2 — Ben's bot (easy).",
        "Ben's bot (easy) claimed the Duke to take 3 coins.",
        "Turn 3 — Cai.",
        "Cai claimed the Captain to steal from Ben.",
        "Ben won the game!",
    ]
    assert [line.text for line in lines(events, "p2", NAMES, stand_ins)][3] == "Turn 2 — Ben's bot (easy)."
    still = {"p2": [(3, None, "Ben's bot (easy)")]}  # never back: the bot won for him
    assert [line.text for line in lines(events, "p1", NAMES, still)][-2:] == [
        "Cai claimed the Captain to steal from Ben's bot (easy).",
        "Ben's bot (easy) won the game!",
    ]


@pytest.mark.parametrize(
    "data, expected",
    [
        ({"action": "income"}, "Ana took Income."),
        ({"action": "foreign_aid"}, "Ana asked for Foreign Aid (2 coins)."),
        ({"action": "coup", "target": "p2"}, "Ana paid 7 coins to launch a Coup against Ben."),
        ({"action": "tax"}, "Ana claimed the Duke to take 3 coins."),
        ({"action": "assassinate", "target": "p2"}, "Ana claimed the Assassin and paid 3 coins to assassinate Ben."),
        ({"action": "steal", "target": "p3"}, "Ana claimed the Captain to steal from Cai."),
        ({"action": "exchange"}, "Ana claimed the Ambassador to exchange cards with the court deck."),
    ],
)
def test_action_declared_says_the_claim_and_the_purpose(data, expected):
    assert told(Event("coup.action.declared", {"player": "p1", **data})) == [expected]


def test_declared_coup_names_the_character():
    event = Event("coup.action.declared", {"player": "p1", "action": "coup", "target": "p2", "name": "duke"})
    assert told(event, start=variant_start("declared_coup")) == [
        "Ana paid 7 coins to launch a Coup against Ben, naming Duke."
    ]


def test_variant_actions_claim_their_characters():
    start = variant_start("inquisitor", "patron")
    assert told(Event("coup.action.declared", {"player": "p1", "action": "examine", "target": "p2"}), start=start) == [
        "Ana claimed the Inquisitor to examine a card of Ben."
    ]
    assert told(
        Event("coup.action.declared", {"player": "p1", "action": "patronage", "beneficiary": "p3"}), start=start
    ) == ["Ana claimed the Patron to take 3 coins and give 1 of them to Cai."]
    assert told(Event("coup.action.declared", {"player": "p1", "action": "exchange"}), start=start) == [
        "Ana claimed the Inquisitor to exchange cards with the court deck."
    ]


def test_faction_actions_are_told():
    start = factions_start()
    assert told(Event("coup.action.declared", {"player": "p1", "action": "convert", "target": "p1"}), start=start) == [
        "Ana paid to change faction."
    ]
    assert told(Event("coup.action.declared", {"player": "p1", "action": "convert", "target": "p2"}), start=start) == [
        "Ana paid to convert Ben to the other faction."
    ]
    assert told(Event("coup.action.declared", {"player": "p1", "action": "embezzle", "takes": 4}), start=start) == [
        "Ana claimed to hold no Duke to take the 4 coins of the treasury reserve."
    ]
    assert told(Event("coup.action.declared", {"player": "p1", "action": "embezzle", "takes": 0}), start=start) == [
        "Ana claimed to hold no Duke to take the treasury reserve, which was empty."
    ]


def test_coins_moved_between_players_and_places():
    assert told(Event("coup.coins.moved", {"amount": 2, "from": "p2", "to": "p1"})) == ["Ana took 2 coins from Ben."]
    assert told(Event("coup.coins.moved", {"amount": 1, "from": "treasury", "to": "p1"})) == [
        "Ana took 1 coin from the treasury."
    ]
    assert told(Event("coup.coins.moved", {"amount": 2, "from": "p1", "to": "reserve"})) == [
        "Ana put 2 coins on the treasury reserve."
    ]
    assert told(Event("coup.coins.moved", {"amount": 4, "from": "reserve", "to": "p1"})) == [
        "Ana took 4 coins from the treasury reserve."
    ]


def test_the_cost_of_a_coup_is_told_once_and_a_refund_as_such():
    declared = Event("coup.action.declared", {"player": "p1", "action": "assassinate", "target": "p2"})
    paid = Event("coup.coins.moved", {"amount": 3, "from": "p1", "to": "treasury"})
    refund = Event("coup.coins.moved", {"amount": 3, "from": "treasury", "to": "p1"})
    assert told(declared, paid, refund) == [
        "Ana claimed the Assassin and paid 3 coins to assassinate Ben.",
        "Ana got the 3 coins back.",
    ]


def test_coins_of_an_eliminated_player_go_back_to_the_treasury():
    events = [
        Event("coup.player.eliminated", {"player": "p2"}),
        Event("coup.coins.moved", {"amount": 3, "from": "p2", "to": "treasury"}),
    ]
    assert told(*events) == ["Ben is out of the game.", "Ben's 3 coins went back to the treasury."]


def test_allowed():
    assert told(Event("coup.allowed", {"player": "p2"})) == ["Ben let it pass."]


def test_challenged_names_the_challenged_character():
    declared = Event("coup.action.declared", {"player": "p1", "action": "steal", "target": "p2"})
    blocked = Event("coup.blocked", {"player": "p2", "card": "ambassador"})
    on_action = Event("coup.challenged", {"player": "p3", "claimant": "p1", "on": "action"})
    on_block = Event("coup.challenged", {"player": "p1", "claimant": "p2", "on": "block"})
    assert told(declared, on_action)[-1] == "Cai challenged Ana's Captain."
    assert told(declared, blocked, on_block)[-2:] == [
        "Ben claimed the Ambassador to block.",
        "Ana challenged Ben's Ambassador.",
    ]


def test_challenged_inheritance_claim():
    event = Event("coup.challenged", {"player": "p3", "claimant": "p1", "on": "inheritance"})
    assert told(event, start=variant_start("lawyer")) == ["Cai challenged Ana's Lawyer claim."]


def test_challenged_embezzlement_says_the_challenger_thinks_they_hold_the_duke():
    declared = Event("coup.action.declared", {"player": "p1", "action": "embezzle", "takes": 2})
    challenged = Event("coup.challenged", {"player": "p2", "claimant": "p1", "on": "action"})
    proved = Event("coup.claim.proved", {"player": "p1", "cards": ["captain", "contessa"]})
    assert told(declared, challenged, proved, start=factions_start())[1:] == [
        "Ben challenged Ana, saying they hold a Duke.",
        "Ana revealed Captain, Contessa — no Duke — and shuffled them into the court deck.",
    ]


def test_a_concession_the_game_then_asks_the_card_for_is_told_alone():
    conceded = Event("coup.claim.conceded", {"player": "p1"})
    asked = Event("coup.awaited", {"players": ["p1"], "decision": "lose", "then": "action_failed"})
    assert told(conceded, asked) == ["Ana conceded the challenge."]


def test_a_concession_and_the_loss_it_cost_at_once_are_one_sentence_that_does_not_say_could_not():
    declared = Event("coup.action.declared", {"player": "p1", "action": "tax"})
    challenged = Event("coup.challenged", {"player": "p2", "claimant": "p1", "on": "action"})
    conceded = Event("coup.claim.conceded", {"player": "p1"})
    lost = Event("coup.influence.lost", {"player": "p1", "card": "captain"})
    assert (
        told(declared, challenged, conceded, lost)[-1] == "Ana did not prove the Duke and lost an influence: Captain."
    )
    assert told(declared, challenged, conceded, lost, viewer="p1")[-1] == (
        "You did not prove the Duke and lost an influence: Captain."
    )


def test_card_drawn_is_named_only_to_the_drawer():
    drawn = Event("coup.card.drawn", {"player": "p1"}, {"card": "contessa"}, ("p1",))
    assert told(drawn, viewer="p1") == ["You drew a new card: Contessa."]
    assert told(drawn, viewer="p2") == ["Ana drew a new card from the court deck."]
    assert "Contessa" not in " ".join(told(drawn, viewer=None))


def test_card_returned_is_named_to_the_two_players_of_the_examination():
    returned = Event("coup.card.returned", {"player": "p2"}, {"card": "duke"}, ("p2", "p1"))
    assert told(returned, viewer="p2") == ["You returned the Duke to the court deck."]
    assert told(returned, viewer="p1") == ["Ben returned the Duke to the court deck."]
    assert told(returned, viewer="p3") == ["Ben returned the card they showed to the court deck."]


def test_influence_lost():
    lost = Event("coup.influence.lost", {"player": "p2", "card": "captain"})
    assert told(lost, viewer="p1") == ["Ben lost an influence: Captain."]
    assert told(lost, viewer="p2") == ["You lost an influence: Captain."]


def test_player_eliminated():
    out = Event("coup.player.eliminated", {"player": "p2"})
    assert told(out, viewer="p1") == ["Ben is out of the game."]
    assert told(out, viewer="p2") == ["You are out of the game."]


def test_blocked():
    assert told(Event("coup.blocked", {"player": "p2", "card": "contessa"})) == ["Ben claimed the Contessa to block."]


def test_action_failed_by_challenge_and_by_block():
    assert told(Event("coup.action.failed", {"player": "p1", "action": "tax", "reason": "challenge"})) == [
        "Ana's Tax failed."
    ]
    assert told(Event("coup.action.failed", {"player": "p1", "action": "steal", "reason": "blocked"})) == [
        "The block stands: Ana's Steal failed."
    ]


def test_exchange_drew_shows_the_cards_to_the_exchanger_only():
    drew = Event("coup.exchange.drew", {"player": "p1", "count": 2}, {"cards": ["duke", "captain"]}, ("p1",))
    assert told(drew, viewer="p1") == ["You drew from the court deck: Duke, Captain."]
    assert told(drew, viewer="p2") == ["Ana drew 2 cards from the court deck."]


def test_exchange_kept_shows_the_choice_to_the_exchanger_only():
    kept = Event(
        "coup.exchange.kept",
        {"player": "p1"},
        {"kept": ["captain", "duke"], "returned": ["assassin", "contessa"]},
        ("p1",),
    )
    assert told(kept, viewer="p1") == ["You kept Captain, Duke and returned Assassin, Contessa to the court deck."]
    assert told(kept, viewer="p2") == ["Ana chose the cards to keep and returned the others to the court deck."]


def test_hand_revealed_by_a_declared_coup():
    event = Event("coup.hand.revealed", {"player": "p2", "cards": ["captain", "duke"]})
    assert told(event) == ["Ben revealed every face-down card: Captain, Duke."]


def test_card_shown_is_named_to_the_examiner_and_the_examined_only():
    shown = Event("coup.card.shown", {"player": "p2", "to": "p1"}, {"card": "duke"}, ("p2", "p1"))
    assert told(shown, viewer="p2") == ["You showed the Duke to Ana."]
    assert told(shown, viewer="p1") == ["Ben showed you the Duke."]
    assert told(shown, viewer="p3") == ["Ben showed one card to Ana in secret."]


def test_examine_given_back_and_forced():
    assert told(Event("coup.examine.given_back", {"player": "p1", "target": "p2"})) == [
        "Ana gave the card back to Ben."
    ]
    assert told(Event("coup.examine.forced", {"player": "p1", "target": "p2"})) == [
        "Ana made Ben swap the card shown for one from the court deck."
    ]


def test_faction_converted_tells_the_new_faction():
    event = Event("coup.faction.converted", {"player": "p1", "target": "p2"})
    assert told(event, start=factions_start()) == ["Ben is now Loyalist."]


def test_inheritance_events():
    start = variant_start("lawyer")
    events = [
        Event("coup.inheritance.opened", {"player": "p2", "coins": 5}),
        Event("coup.inheritance.claimed", {"player": "p1"}),
        Event("coup.inheritance.declined", {"player": "p3"}),
        Event("coup.inheritance.claim_lost", {"player": "p1"}),
        Event("coup.inheritance.settled", {"player": "p2", "shares": {}, "treasury": 5}),
    ]
    assert told(*events, start=start) == [
        "Ben left 5 coins: anyone still in the game may claim the Lawyer to inherit them.",
        "Ana claimed the Lawyer to inherit.",
        "Cai declined the inheritance.",
        "Ana's Lawyer claim no longer counts.",
        "Nobody inherited from Ben: 5 coins went to the treasury.",
    ]


def test_inheritance_shared_with_a_remainder():
    settled = Event("coup.inheritance.settled", {"player": "p2", "shares": {"p1": 2, "p3": 2}, "treasury": 1})
    assert told(settled) == ["Ben's coins were shared: Ana 2 coins, Cai 2 coins; 1 coin to the treasury."]


def test_player_resigned():
    event = Event("coup.player.resigned", {"player": "p2"})
    assert told(event, viewer="p1") == ["Ben resigned."]
    assert told(event, viewer="p2") == ["You resigned."]


def test_game_won():
    event = Event("coup.game.won", {"player": "p1"})
    assert told(event, viewer="p2") == ["Ana won the game!"]
    assert told(event, viewer="p1") == ["You won the game!"]


def test_sentences_are_translated():
    lost = Event("coup.influence.lost", {"player": "p2", "card": "contessa"})
    with translation.override("es"):
        [spanish] = told(lost)
    with translation.override("pt-br"):
        [portuguese] = told(lost)
    assert spanish != "Ben lost an influence: Contessa."
    assert portuguese != "Ben lost an influence: Contessa."
    assert "Ben" in spanish and "Ben" in portuguese


def test_stored_events_are_told_as_the_viewer_may_see_them():
    drawn = Event("coup.card.drawn", {"player": "p1"}, {"card": "contessa"}, ("p1",))
    stored = [START.to_json(), drawn.to_json()]
    assert sentences(stored, "p1", NAMES)[-1] == "You drew a new card: Contessa."
    assert sentences(stored, "p2", NAMES)[-1] == "Ana drew a new card from the court deck."


def test_lines_mark_turn_starts_and_keep_the_event_sequence():
    events = [
        {"seq": 7, "type": "coup.turn.started", "data": {"player": "p1"}},
        {"seq": 8, "type": "coup.awaited", "data": {"players": ["p1"], "decision": "turn", "then": None}},
        {"seq": 9, "type": "coup.action.declared", "data": {"player": "p1", "action": "income"}},
    ]
    told_lines = lines(events, "p2", NAMES)
    assert [(line.seq, line.turn) for line in told_lines] == [(7, True), (9, False)]


def _scrambled(event: Event, viewer) -> Event:
    """``event`` with every secret the viewer may not see replaced by nonsense."""
    if event.secret is None or viewer in event.seen_by:
        return event
    return Event(event.type, event.data, {key: "SECRET" for key in event.secret}, event.seen_by)


@pytest.mark.parametrize(
    "variants, players",
    [
        ((), 4),
        (("inquisitor", "factions"), 4),
        (("lawyer", "patron"), 3),
        (("declared_coup",), 3),
        (("two_player_draft",), 2),
    ],
)
def test_no_sentence_depends_on_a_secret_the_viewer_may_not_see(variants, players):
    for seed in range(4):
        _state, events, _n = random_game("coup", players, variants, seed=seed)
        names = {f"p{i}": f"Player{i}" for i in range(players)}
        for viewer in [None, *names]:
            scrambled = [_scrambled(event, viewer) for event in events]
            assert sentences(events, viewer, names) == sentences(scrambled, viewer, names)


def test_every_event_of_random_games_is_told_without_error():
    rng = random.Random(3)
    for variants in [
        (),
        ("inquisitor",),
        ("factions", "patron", "lawyer"),
        ("declared_coup", "declared_assassination"),
    ]:
        _state, events, _n = random_game("coup", rng.randint(3, 6), variants, seed=rng.random())
        told_lines = lines(events, "p0", {})
        assert told_lines and all(line.text for line in told_lines)
        # A concession (and a Lawyer claim it loses) is told with the event after it:
        # the loss it cost, or the wait for it.
        told_later = {"coup.claim.conceded", "coup.inheritance.claim_lost"}
        kinds = {e.type for e in events} - SILENT - told_later
        assert kinds <= {line.kind for line in told_lines}
        for kind, words in (
            ("coup.claim.conceded", ("conceded", "did not")),
            ("coup.inheritance.claim_lost", ("claim no longer counts",)),
        ):
            said = sum(line.text.count(word) for line in told_lines for word in words)
            assert said == sum(e.type == kind for e in events), kind


def test_a_line_names_its_actor_only_for_that_players_own_move():
    """An email's "since your last move" leaves out its reader's own moves by this,
    and still tells what befell them and what the clock played for them."""
    told_lines = lines(
        [
            START,
            Event("coup.hand.dealt", {"player": "p1"}, {"cards": ["duke", "captain"]}, ("p1",)),
            Event("coup.turn.started", {"player": "p1"}),
            Event("coup.action.declared", {"player": "p1", "action": "income"}),
            Event("coup.turn.started", {"player": "p2"}),
            Event("coup.action.declared", {"player": "p2", "action": "income", "timed_out": True}),
            Event("coup.influence.lost", {"player": "p1", "card": "duke"}),
        ],
        "p1",
        NAMES,
    )
    actors = {line.kind + (" (timed out)" if "Time ran out" in line.text else ""): line.actor for line in told_lines}
    assert actors == {
        "coup.game.started": None,
        "coup.hand.dealt": None,
        "coup.turn.started": None,
        "coup.action.declared": "p1",
        "coup.action.declared (timed out)": None,
        "coup.influence.lost": None,
    }
