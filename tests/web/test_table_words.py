"""The table's words: an onlooker reads what another player is asked in neutral
words, never "your action" about someone else, in every language and in the
replay; Foreign Aid is never called a claim."""

import re

import pytest
from django.urls import reverse

from accounts.models import profile_of
from tests.players import play_to_the_end
from tests.web.conftest import answer, player_of, started_game
from tests.web.test_dashboard import page, text

pytestmark = pytest.mark.django_db


def test_onlookers_read_who_is_asked_what_in_neutral_words(client, game, ana, ben):
    words = text(page(client, ben, reverse("game", args=[game.pk])))
    assert "Waiting for Ana (to choose an action)" in words
    assert "your action" not in words
    assert "choose your action" in text(page(client, ana, reverse("game", args=[game.pk])))


@pytest.mark.parametrize(
    ("language", "neutral", "addressed"),
    [("es", "(debe elegir una acción)", "tu acción"), ("pt-br", "(deve escolher uma ação)", "sua ação")],
)
def test_onlookers_read_neutral_words_in_spanish_and_portuguese(client, game, ben, language, neutral, addressed):
    profile = profile_of(ben)
    profile.language = language
    profile.save()
    words = text(page(client, ben, reverse("game", args=[game.pk])))
    assert f"Ana {neutral}" in words
    assert addressed not in words


def _seat_statuses(html: str) -> dict:
    """Each seat's status line on a table: engine player -> words."""
    seats = re.findall(r'<li class="seat[^"]*" data-player="(\w+)">(.*?)</li>', html, re.S)
    return {
        player: text(re.search(r"seat__status[^>]*>(.*?)</div>", body, re.S).group(1)).strip() for player, body in seats
    }


def test_the_replay_speaks_to_the_reader_only_about_their_own_seat(client, ana, ben):
    game = started_game(ana, ben)
    play_to_the_end(game, 5)
    me = {ana: player_of(game, ana), ben: player_of(game, ben)}
    seen = set()
    for step in range(1, 12):
        for user in (ana, ben):
            statuses = _seat_statuses(page(client, user, reverse("game_replay", args=[game.pk]), {"step": step}))
            for player, status in statuses.items():
                if player == me[user]:
                    assert "an action" not in status and "Their turn" not in status, (step, status)
                else:
                    assert "your" not in status.lower(), (step, status)
                seen.add(status)
    assert "to choose an action" in seen and "to choose your action" in seen


def test_foreign_aid_is_not_called_a_claim(client, game, ana, ben):
    answer(game, ana, {"act": "foreign_aid"})
    html = page(client, ben, reverse("game", args=[game.pk]))
    banner = text(re.search(r'<div class="banner[^"]*">(.*?)</div>', html, re.S).group(1))
    assert "Your decision: respond: let it pass or oppose it" in banner
    assert "claim" not in banner
