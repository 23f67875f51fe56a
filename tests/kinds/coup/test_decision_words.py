"""Buttons say what they do, with the consequence the option carries; each variant
has its rules in a line and a paragraph."""

import random

import pytest
from django.utils import translation

from games.engine.events import Event
from games.kinds.coup.engine import RULES
from games.kinds.coup.engine.cards import VARIANTS
from games.kinds.coup.engine.characters import CHARACTERS
from games.kinds.coup.engine.decisions import DECISIONS
from games.kinds.coup.words import decisions as labels
from games.kinds.coup.words.names import card_ability, card_name, coins
from games.kinds.coup.words.rules import CoupAbout

WORDS, ABOUT = labels.CoupWords(), CoupAbout()

NAMES = {"p1": "Ana", "p2": "Ben", "p3": "Cai"}


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def state_after(events):
    return RULES.replay(events)


def classic_state(hands=None, coins=None, variants=()):
    hands = hands or {"p1": ["duke", "captain"], "p2": ["contessa", "assassin"], "p3": ["ambassador", "duke"]}
    events = [
        Event(
            "coup.game.started",
            {
                "players": ["p1", "p2", "p3"],
                "variants": list(variants),
                "first": "p1",
                "coins": coins or {"p1": 2, "p2": 1, "p3": 2},
            },
        ),
        *[Event("coup.hand.dealt", {"player": p}, {"cards": cards}, (p,)) for p, cards in hands.items()],
        Event("coup.court.shuffled", {}, {"court": ["captain", "contessa", "assassin"]}),
        Event("coup.turn.started", {"player": "p1"}),
    ]
    return state_after(events)


def labelled(state, player, variants=()):
    engine = RULES
    view = engine.view(state, player)
    ctx = labels.Context(view, player, NAMES, variants)
    decision = state.awaiting[player].kind
    return [WORDS.option_label(option, ctx, decision) for option in engine.options(state, player)]


def play(state, player, command):
    RULES.play(state, player, command)


def test_turn_buttons_say_the_consequence_and_the_claim():
    found = labelled(classic_state(), "p1")
    assert "Income — take 1 coin" in found
    assert "Foreign Aid — take 2 coins (Duke can block)" in found
    assert "Tax — take 3 coins (claims Duke)" in found
    assert "Steal from Ben — take 1 coin (claims Captain)" in found  # Ben has only 1
    assert "Steal from Cai — take 2 coins (claims Captain)" in found
    assert "Exchange — draw 2 cards from the court deck, then return 2 (claims Ambassador)" in found


def test_coup_and_assassination_buttons_name_the_target_and_the_cost():
    state = classic_state(coins={"p1": 7, "p2": 2, "p3": 2})
    found = labelled(state, "p1")
    assert "Coup against Ben — pay 7 coins; Ben loses an influence" in found
    assert "Assassinate Cai — pay 3 coins; Cai loses an influence (claims Assassin)" in found


def test_response_buttons_name_the_claim_to_challenge_and_the_block():
    state = classic_state()
    play(state, "p1", {"act": "steal", "target": "p2"})
    found = labelled(state, "p2")
    assert "Allow — Ana takes 1 coin from Ben" in found
    assert "Challenge Ana's Captain — whoever is wrong loses an influence" in found
    assert "Block as Captain — Ana's Steal fails unless your claim is challenged" in found
    assert "Block as Ambassador — Ana's Steal fails unless your claim is challenged" in found


def test_challenged_buttons_and_lose_buttons():
    state = classic_state()
    play(state, "p1", {"act": "tax"})
    play(state, "p2", {"act": "challenge"})
    assert labelled(state, "p1") == [
        "Show your Duke — the challenger loses an influence; you draw a new card",
        "Concede — lose an influence; your Tax fails",
    ]
    play(state, "p1", {"act": "concede"})
    assert labelled(state, "p1") == ["Lose your Captain — turn it face up", "Lose your Duke — turn it face up"]


def test_a_block_challenge_and_its_allow_are_worded_for_the_block():
    state = classic_state()
    play(state, "p1", {"act": "foreign_aid"})
    play(state, "p2", {"act": "block", "as": "duke"})
    found = labelled(state, "p1")
    assert "Allow the block — Ana's Foreign Aid fails" in found
    assert "Challenge Ben's Duke — whoever is wrong loses an influence" in found


def test_every_prompt_and_every_option_of_random_games_has_words():
    engine = RULES
    rng = random.Random(11)
    for variants in [
        (),
        ("inquisitor", "factions"),
        ("lawyer", "patron"),
        ("declared_coup", "declared_assassination"),
        ("two_player_draft",),
    ]:
        players = 2 if "two_player_draft" in variants else 4
        names = [f"p{i + 1}" for i in range(players)]
        events = engine.setup(players=names, variants=list(variants), first="p1")
        state = state_after(events)
        for _ in range(300):
            if engine.is_over(state):
                break
            player, kind, _version = rng.choice(engine.awaiting(state))
            assert WORDS.decision_prompt(kind) != kind
            options = engine.options(state, player)
            ctx = labels.Context(engine.view(state, player), player, {n: n.upper() for n in names}, variants)
            for option in options:
                text = WORDS.option_label(option, ctx, kind)
                assert text and text != option["act"] and "%(" not in text, (option, text)
            play(state, player, rng.choice(options))


def test_each_decision_prompt_is_translated():
    for kind, spec in DECISIONS.items():
        with translation.override("es"):
            assert WORDS.decision_prompt(kind) != spec.prompt, kind


def test_every_decision_has_words_for_each_of_its_answers():
    assert set(labels.WORDS) == set(DECISIONS)
    for kind, spec in DECISIONS.items():
        assert set(labels.WORDS[kind].labels) == spec.answers, kind


def test_each_variant_has_a_line_and_a_paragraph():
    choices = dict(ABOUT.variant_choices())
    assert set(choices) == set(VARIANTS)
    for variant in VARIANTS:
        assert " — " in choices[variant]
        assert len(ABOUT.rules_summary([variant])) == 2


def test_the_base_rules_name_the_characters_in_play():
    [base] = ABOUT.rules_summary([])
    assert "Duke, Assassin, Captain, Ambassador, Contessa" in base
    assert "Inquisitor" in ABOUT.rules_summary(["inquisitor"])[0]


def test_every_character_has_an_ability_text():
    for card in CHARACTERS:
        assert card_ability(card)
        assert card_name(card) != card


def test_embezzling_an_empty_reserve_says_it_takes_nothing():
    """Legal with an empty reserve (a claim to hold no Duke, which may be challenged),
    so offered, but never as taking "the 0 coins"."""
    state = RULES.replay(RULES.setup(players=["p1", "p2", "p3"], first="p1", variants=["factions"]))
    while state.awaiting["p1"].kind != "turn":  # the first player's faction
        play(state, "p1", RULES.options(state, "p1")[0])

    def embezzle_label():
        return [label for label in labelled(state, "p1", ("factions",)) if label.startswith("Embezzle")]

    assert embezzle_label() == ["Embezzle — the treasury reserve is empty: you take nothing (claims you hold no Duke)"]
    play(state, "p1", {"act": "convert"})  # 1 coin into the reserve
    play(state, "p2", {"act": "income"})
    play(state, "p3", {"act": "income"})
    assert embezzle_label() == ["Embezzle — take the 1 coin of the treasury reserve (claims you hold no Duke)"]


@pytest.mark.parametrize(
    ("language", "none", "one", "two"),
    [
        ("en", "0 coins", "1 coin", "2 coins"),
        ("es", "0 monedas", "1 moneda", "2 monedas"),
        ("pt-br", "0 moedas", "1 moeda", "2 moedas"),
    ],
)
def test_no_coin_is_said_in_the_plural_in_every_language(language, none, one, two):
    with translation.override(language):
        assert [coins(0), coins(1), coins(2)] == [none, one, two]
