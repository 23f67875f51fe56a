"""Each action and each character is one record; the rulebook of a combination of
variants is worked out from them. A record that names an unknown variant or
character, lacks the words its rules call for, or whose words the catalogues do
not translate is caught here."""

import pytest
from django.utils import translation
from django.utils.translation import gettext, pgettext

from games.kinds.coup.engine.actions import ACTIONS, ANYONE, BENEFICIARY, EXCHANGE_CARDS, OPPONENT
from games.kinds.coup.engine.cards import VARIANTS, rulebook_for
from games.kinds.coup.engine.characters import CHARACTERS
from games.kinds.coup.engine.flow import EFFECTS
from games.kinds.coup.words.rules import REFERENCE_ORDER

BASE = ("duke", "assassin", "captain", "ambassador", "contessa")
SENTENCES = (
    "label",
    "label_named",
    "label_own",
    "label_drawing_one",
    "label_empty_reserve",
    "unopposed",
    "unopposed_named",
    "told",
    "told_named",
    "told_own",
    "unaffordable",
    "own_unaffordable",
)


def test_the_base_game_has_five_characters_and_each_variant_character_replaces_one():
    assert tuple(c for c, character in CHARACTERS.items() if character.variant is None) == BASE
    for character in CHARACTERS.values():
        if character.variant is not None:
            assert character.variant in VARIANTS
            assert character.replaces in BASE


def test_each_replacing_variant_swaps_its_character_in_place():
    assert rulebook_for(frozenset()).characters == BASE
    assert rulebook_for(frozenset({"inquisitor", "patron", "lawyer"})).characters == (
        "patron",
        "assassin",
        "captain",
        "inquisitor",
        "lawyer",
    )


def test_every_action_names_known_variants_characters_and_effects():
    for action in ACTIONS.values():
        assert action.aim in (None, OPPONENT, BENEFICIARY, ANYONE), action.id
        assert {action.variant, action.declared_in} - {None} <= set(VARIANTS), action.id
        for card in (*action.claimed_by, *action.disclaims, *action.blocked_by):
            assert card in CHARACTERS, (action.id, card)
        assert action.effect is None or action.effect in EFFECTS, action.id
        assert action.style in ("plain", "attack"), action.id


def test_every_action_has_the_words_its_rules_call_for():
    for action in ACTIONS.values():
        assert action.name and action.reply and action.id in action.reply_words.split(), action.id
        assert action.label and action.unopposed and action.told, action.id
        if action.declared_in:
            assert action.label_named and action.unopposed_named and action.told_named, action.id
        if action.aim == ANYONE:
            assert action.own_cost is not None and action.label_own and action.told_own, action.id
            assert action.own_unaffordable, action.id
        if action.cost:
            assert action.unaffordable, action.id
        if action.effect == EXCHANGE_CARDS and any(CHARACTERS[card].draws == 1 for card in action.claimed_by):
            assert action.label_drawing_one, action.id
        if action.takes_reserve:
            assert action.label_empty_reserve, action.id


@pytest.mark.parametrize("language", ["es", "pt-br"])
def test_every_word_of_every_record_is_translated(language):
    with translation.override(language):
        for action in ACTIONS.values():
            assert pgettext("action", action.name) != action.name, action.id
            assert pgettext("reply word", action.reply) != action.reply, action.id
            for field in SENTENCES:
                text = getattr(action, field)
                assert not text or gettext(text) != text, (action.id, field)
        for character in CHARACTERS.values():
            assert gettext(character.name) != character.name, character.id
            assert gettext(character.ability) != character.ability, character.id


def test_the_rulebook_keeps_the_actions_of_the_characters_and_variants_in_play():
    classic = rulebook_for(frozenset())
    assert list(classic.actions) == ["income", "foreign_aid", "tax", "exchange", "coup", "assassinate", "steal"]
    assert classic.claims == {"tax": "duke", "exchange": "ambassador", "assassinate": "assassin", "steal": "captain"}
    assert classic.blockers == {
        "foreign_aid": ("duke",),
        "assassinate": ("contessa",),
        "steal": ("captain", "ambassador"),
    }
    assert classic.draws == {"exchange": 2} and not classic.disclaims and not classic.declared
    every = rulebook_for(frozenset(VARIANTS) - {"two_player_draft"})
    assert set(every.actions) == set(ACTIONS) - {"tax"}
    assert every.claims["exchange"] == every.claims["examine"] == "inquisitor"
    assert every.claims["patronage"] == "patron" and every.disclaims == {"embezzle": "patron"}
    assert every.blockers["foreign_aid"] == ("patron",) and every.blockers["steal"] == ("captain", "inquisitor")
    assert every.draws == {"exchange": 1} and every.declared == {"coup", "assassinate"}
    assert every.inheritance and every.factions and not every.draft


def test_the_draft_deals_a_set_to_each_player_and_one_to_the_court():
    draft = rulebook_for(frozenset({"two_player_draft"}))
    assert draft.draft and draft.deal_size == 5
    assert draft.deck(2) == sorted(BASE * 3)
    classic = rulebook_for(frozenset())
    assert [classic.copies(n) for n in (2, 6, 7, 8, 9, 10)] == [3, 3, 4, 4, 5, 5]


def test_the_reference_lists_every_action_once():
    assert sorted(REFERENCE_ORDER) == sorted(ACTIONS)
