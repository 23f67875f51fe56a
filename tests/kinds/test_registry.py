"""The registry of game kinds and the contract each kind fulfils: every member the
``GameKind`` protocol declares, one spec per decision whose options, default and
words agree, and templates that exist."""

import random

import pytest
from django.apps import apps
from django.contrib.staticfiles import finders
from django.template.loader import get_template
from django.utils import translation

from games.engine.dealer import SeededDealer
from games.kinds import APPS, KIND_NAMES, KINDS, GameKind, rules_of, variant_choices, variant_name

PLAYERS = {"coup": (2, 4, 7), "kobayakawa": (3, 6)}
VARIANTS = {
    "coup": [(), ("inquisitor", "factions"), ("lawyer", "patron"), ("declared_coup", "declared_assassination")],
    "kobayakawa": [()],
}


def protocol_members() -> set[str]:
    declared = set(GameKind.__annotations__)
    declared |= {name for name, value in vars(GameKind).items() if callable(value) and not name.startswith("_")}
    return declared


def test_every_kind_is_registered_once_by_its_name_and_installed_as_an_app():
    assert set(KINDS) == set(KIND_NAMES) == {"coup", "kobayakawa"}
    for name in KIND_NAMES:
        kind = KINDS[name]
        assert kind.kind == name and KINDS[name] is kind
        assert isinstance(kind, type(rules_of(name)))  # the kind is its rules, with words and templates added
    assert all(apps.is_installed(app) for app in APPS)


@pytest.mark.parametrize("name", KIND_NAMES)
def test_a_kind_provides_every_member_of_the_contract(name):
    kind = KINDS[name]
    assert isinstance(kind, GameKind)
    missing = sorted(member for member in protocol_members() if not hasattr(kind, member))
    assert missing == []


@pytest.mark.parametrize("name", KIND_NAMES)
def test_the_templates_a_kind_names_exist(name):
    kind = KINDS[name]
    names = [
        kind.situation_template,
        kind.table_template,
        kind.replay_template,
        kind.answer_template,
        *kind.email_situation,
        *kind.email_table,
    ]
    if kind.reference_template is not None:
        names.append(kind.reference_template)
    for template in names:
        assert get_template(template)


def test_variants_are_offered_and_named_through_the_registry():
    choices = dict(variant_choices())
    assert set(choices) == {v for name in KIND_NAMES for v in KINDS[name].variant_ids}
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
    specs = kind.Flow.DECISIONS
    rng = random.Random(5)
    seen = set()
    with translation.override("en"):
        for players in PLAYERS[name]:
            for variants in (VARIANTS[name] if players > 2 else [(), ("two_player_draft",)]) * 3:
                dealer = SeededDealer(rng.random())
                names = [f"p{i}" for i in range(players)]
                state = kind.replay(kind.setup(players=names, first=names[0], variants=variants, dealer=dealer))
                for _step in range(400):
                    if kind.is_over(state):
                        break
                    player, decision, _version = rng.choice(kind.awaiting(state))
                    spec = specs[decision]
                    seen.add(decision)
                    options = kind.options(state, player)
                    assert options and {o["act"] for o in options} <= spec.answers
                    commands = [command_of(spec, o) for o in options]
                    assert command_of(spec, kind.default_answer(state, player, dealer)) in commands
                    view = kind.view(state, player)
                    ctx = kind.labeler(view, player, {n: n.upper() for n in names}, variants)
                    for option in options:
                        label = kind.option_label(option, ctx, decision)
                        assert label and label != option["act"] and "%(" not in label, (option, label)
                    assert kind.decision_prompt(decision) != decision
                    assert kind.waits_for(decision, view, player, {}) not in ("", decision)
                    kind.play(state, player, rng.choice(options), dealer)
    assert seen == set(specs), f"decisions never reached: {set(specs) - seen}"


@pytest.mark.parametrize("name", KIND_NAMES)
def test_the_stylesheet_a_kind_names_exists(name):
    stylesheet = KINDS[name].stylesheet
    assert stylesheet is None or finders.find(stylesheet)
