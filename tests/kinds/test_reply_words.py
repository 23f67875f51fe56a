"""The words an email lists for each answer are in the reader's language, and
each one, written back in a reply, plays exactly that answer, in every language
of the site and every variant of each game."""

import random

import pytest
from django.utils import translation

from games.engine.dealer import SeededDealer
from games.kinds import KINDS
from games.kinds.coup.engine.actions import ACTIONS
from games.kinds.coup.engine.cards import VARIANTS
from games.kinds.coup.engine.decisions import DECISIONS
from games.kinds.coup.words.replies import read_line
from games.kinds.words import normalize
from games.models import Game
from games.selectors import Table

NAMES = {"p1": "Ana", "p2": "Ben", "p3": "Cai", "p4": "Dora"}
LANGUAGES = ("en", "es", "pt-br")


def decisions_of_random_games(kind: str, variants, games: int = 4):
    """(state, player) at every decision of a few random games, the same games on
    every run (their deals and draws seeded too)."""
    rules = KINDS[kind].rules
    rng = random.Random(f"{kind}{variants}")
    dealer = SeededDealer(f"{kind}{variants}")
    for _ in range(games):
        players = (
            ["p1", "p2", "p3", "p4"] if kind == "kobayakawa" or "two_player_draft" not in variants else ["p1", "p2"]
        )
        state = rules.replay(rules.setup(players=players, first="p1", variants=variants, dealer=dealer))
        while not rules.is_over(state):
            player, _kind, version = rng.choice(rules.awaiting(state))
            yield state, player
            command = rng.choice(rules.options(state, player))
            rules.play(state, player, {**command, "version": version}, dealer)  # applies its events


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("kind", "variants"), [("coup", ())] + [("coup", (v,)) for v in VARIANTS] + [("kobayakawa", ())]
)
def test_every_listed_reply_word_plays_its_answer(kind, variants, language):
    game_kind = KINDS[kind]
    game = Game(kind=kind, options={"variants": list(variants)})  # the table's game, never saved
    with translation.override(language):
        for state, player in decisions_of_random_games(kind, variants):
            options = game_kind.rules.options(state, player)
            table = Table(game, None, [], NAMES, game_kind.rules.view(state, player), options)
            for option in options:
                word = game_kind.replies.word(option, NAMES)
                reply = game_kind.replies.read(word, table)
                assert reply.option == option, (word, reply)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["allow", "challenge", "block captain", "block ambassador"]),
        ("es", ["dejar pasar", "desafiar", "bloquear capitán", "bloquear embajador"]),
        ("pt-br", ["deixar passar", "desafiar", "bloquear capitão", "bloquear embaixador"]),
    ],
)
def test_the_reply_words_of_a_steal_are_in_the_readers_language(language, words):
    coup = KINDS["coup"]
    state = coup.rules.replay(coup.rules.setup(players=["p1", "p2", "p3"], first="p1"))
    version = dict((p, v) for p, _k, v in coup.rules.awaiting(state))["p1"]
    coup.rules.play(state, "p1", {"act": "steal", "target": "p2", "version": version})
    with translation.override(language):
        assert [coup.replies.word(option, NAMES) for option in coup.rules.options(state, "p2")] == words


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("kind", "variants"), [("coup", ())] + [("coup", (v,)) for v in VARIANTS] + [("kobayakawa", ())]
)
def test_every_button_starts_with_the_reply_word_listed_for_its_answer(kind, variants, language):
    """A reply may say what the button says ("Dejar pasar — Ana toma 3 monedas":
    "dejar pasar"): the word an email lists for an answer is its button's first
    word, and the test above plays it."""
    game_kind = KINDS[kind]
    words = game_kind.words
    with translation.override(language):
        for state, player in decisions_of_random_games(kind, variants):
            view = game_kind.rules.view(state, player)
            decision = dict((p, d) for p, d, _v in game_kind.rules.awaiting(state))[player]
            labeler = words.labeler(view, player, NAMES, list(variants))
            for option in game_kind.rules.options(state, player):
                label = words.option_label(option, labeler, decision)
                reply = game_kind.replies.word(option, NAMES)
                assert normalize(label).split()[0] == normalize(reply).split()[0], (label, reply)


@pytest.mark.parametrize(
    ("reply", "act"),
    [
        ("permitir", "allow"),
        ("dejar pasar", "allow"),
        ("deixar passar", "allow"),
        ("duvidar", "challenge"),
        ("conceder", "concede"),
        ("probar", "prove"),
        ("provar", "prove"),
        ("forzar", "force_exchange"),
        ("forcar", "force_exchange"),
        ("escoger", "draft_keep"),
        ("escolher", "draft_keep"),
        ("conservar", "keep"),
        ("manter", "keep"),
        ("ingreso", "income"),
        ("impuesto", "tax"),
        ("intercambiar", "exchange"),
        ("trocar", "exchange"),
    ],
)
def test_the_words_understood_before_the_buttons_words_still_are(reply, act):
    reading = read_line(reply, NAMES)
    assert not reading.unknown and reading.acts and act in reading.acts[0], reading


def test_the_random_games_above_reach_every_decision_and_every_action():
    """So that the tests above check every button of Coup, in every language."""
    coup = KINDS["coup"].rules
    seen: set[tuple[str, str]] = set()
    for variants in [()] + [(v,) for v in VARIANTS]:
        for state, player in decisions_of_random_games("coup", variants):
            decision = dict((p, d) for p, d, _v in coup.awaiting(state))[player]
            seen |= {(decision, option["act"]) for option in coup.options(state, player)}
    assert {decision for decision, _act in seen} == set(DECISIONS)
    assert {act for decision, act in seen if decision == "turn"} == set(ACTIONS)
