"""The registry of game kinds and the contract each kind fulfils: every part a
``GameKind`` is made of, each implementing all of its base class, one spec per
decision whose options, default and words agree, and templates that exist."""

import random
from dataclasses import fields
from typing import Any

import pytest
from django.apps import apps
from django.contrib.staticfiles import finders
from django.template.loader import get_template
from django.utils import translation

from games.engine.dealer import SeededDealer
from games.kinds import APPS, KIND_NAMES, KINDS, rules_of, variant_choices, variant_name
from games.kinds.base import GameKind

PLAYERS = {"coup": (2, 4, 7), "kobayakawa": (3, 6)}
VARIANTS = {
    "coup": [(), ("inquisitor", "factions"), ("lawyer", "patron"), ("declared_coup", "declared_assassination")],
    "kobayakawa": [()],
}


def test_every_kind_is_registered_once_by_its_name_and_installed_as_an_app():
    assert set(KINDS) == set(KIND_NAMES) == {"coup", "kobayakawa"}
    for name in KIND_NAMES:
        kind = KINDS[name]
        assert kind.id == name and KINDS[name] is kind
        assert kind.rules is rules_of(name)  # the engine's tools and the platform play the same rules
    assert all(apps.is_installed(app) for app in APPS)


@pytest.mark.parametrize("name", KIND_NAMES)
def test_a_kind_has_every_part_and_each_part_all_of_its_contract(name):
    kind = KINDS[name]
    assert isinstance(kind, GameKind)
    for part in fields(GameKind):
        value = getattr(kind, part.name)
        if part.type is not Any:
            assert isinstance(value, part.type), (part.name, value)
        # An abstract member left out would make the part impossible to build.
        assert not getattr(type(value), "__abstractmethods__", ()), (part.name, type(value).__abstractmethods__)


@pytest.mark.parametrize("name", KIND_NAMES)
def test_the_templates_a_kind_names_exist(name):
    templates = KINDS[name].templates
    names = [
        templates.situation,
        templates.table,
        templates.replay,
        templates.answer,
        *templates.email_situation,
        *templates.email_table,
    ]
    if templates.reference is not None:
        names.append(templates.reference)
    for template in names:
        assert get_template(template)


def test_variants_are_offered_and_named_through_the_registry():
    choices = dict(variant_choices())
    assert set(choices) == {v for name in KIND_NAMES for v in KINDS[name].rules.variants}
    with translation.override("en"):
        assert variant_name("inquisitor") == "Inquisitor"
        assert variant_name("no_such_variant") == "no_such_variant"


def command_of(spec, option: dict) -> dict:
    return {key: value for key, value in option.items() if key not in spec.consequences}


@pytest.mark.parametrize("name", KIND_NAMES)
def test_each_decision_spec_agrees_with_its_options_its_default_and_its_words(name):
    """In random games: every option answers its decision with one of its acts and
    has a label of its own; the answer a deadline gives is one of the options; the
    prompt and the dashboard's words are not the bare decision name."""
    kind = KINDS[name]
    rules, words = kind.rules, kind.words
    specs = rules.Flow.DECISIONS
    rng = random.Random(5)
    seen = set()
    with translation.override("en"):
        for players in PLAYERS[name]:
            for variants in (VARIANTS[name] if players > 2 else [(), ("two_player_draft",)]) * 3:
                dealer = SeededDealer(rng.random())
                names = [f"p{i}" for i in range(players)]
                state = rules.replay(rules.setup(players=names, first=names[0], variants=variants, dealer=dealer))
                for _step in range(400):
                    if rules.is_over(state):
                        break
                    player, decision, _version = rng.choice(rules.awaiting(state))
                    spec = specs[decision]
                    seen.add(decision)
                    options = rules.options(state, player)
                    assert options and {o["act"] for o in options} <= spec.answers
                    commands = [command_of(spec, o) for o in options]
                    assert command_of(spec, rules.default_answer(state, player, dealer)) in commands
                    view = rules.view(state, player)
                    ctx = words.labeler(view, player, {n: n.upper() for n in names}, variants)
                    for option in options:
                        label = words.option_label(option, ctx, decision)
                        assert label and label != option["act"] and "%(" not in label, (option, label)
                    assert words.decision_prompt(decision) != decision
                    assert words.waits_for(decision, view, player, {}) not in ("", decision)
                    rules.play(state, player, rng.choice(options), dealer)
    assert seen == set(specs), f"decisions never reached: {set(specs) - seen}"


@pytest.mark.parametrize("name", KIND_NAMES)
def test_the_stylesheet_a_kind_names_exists(name):
    stylesheet = KINDS[name].templates.stylesheet
    assert stylesheet is None or finders.find(stylesheet)
