"""The words an email lists for each answer are in the reader's language, and
each one, written back in a reply, plays exactly that answer, in every language
of the site and every variant of each game."""

import random

import pytest
from django.utils import translation

from games.kinds import KINDS
from games.kinds.coup.engine.cards import VARIANTS
from games.models import Game
from games.selectors import Table

NAMES = {"p1": "Ana", "p2": "Ben", "p3": "Cai", "p4": "Dora"}
LANGUAGES = ("en", "es", "pt-br")


def decisions_of_random_games(kind: str, variants, games: int = 4):
    """(state, player) at every decision of a few random games."""
    rules = KINDS[kind].rules
    rng = random.Random(f"{kind}{variants}")
    for _ in range(games):
        players = (
            ["p1", "p2", "p3", "p4"] if kind == "kobayakawa" or "two_player_draft" not in variants else ["p1", "p2"]
        )
        state = rules.replay(rules.setup(players=players, first="p1", variants=variants))
        while not rules.is_over(state):
            player, _kind, version = rng.choice(rules.awaiting(state))
            yield state, player
            command = rng.choice(rules.options(state, player))
            rules.play(state, player, {**command, "version": version})  # applies its events


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
        ("es", ["permitir", "desafiar", "bloquear capitán", "bloquear embajador"]),
        ("pt-br", ["permitir", "duvidar", "bloquear capitão", "bloquear embaixador"]),
    ],
)
def test_the_reply_words_of_a_steal_are_in_the_readers_language(language, words):
    coup = KINDS["coup"]
    state = coup.rules.replay(coup.rules.setup(players=["p1", "p2", "p3"], first="p1"))
    version = dict((p, v) for p, _k, v in coup.rules.awaiting(state))["p1"]
    coup.rules.play(state, "p1", {"act": "steal", "target": "p2", "version": version})
    with translation.override(language):
        assert [coup.replies.word(option, NAMES) for option in coup.rules.options(state, "p2")] == words
