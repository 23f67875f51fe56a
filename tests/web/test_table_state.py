"""What the table explains by itself: why only Coup at 10 coins, a card reference
for the variants in play, the claim being answered and who has answered it, and
the end of a game with every hand face up and the final order."""

import re

import pytest
from django.urls import reverse

from games.selectors import game_state, table_for
from tests.players import play_to_the_end
from tests.web.conftest import answer, player_of, started_game
from tests.web.test_action_picker import _income_until
from tests.web.test_dashboard import page, text

pytestmark = pytest.mark.django_db

FORCED = "You have 10 coins: with 10 coins or more, the rules allow only a Coup."


def test_at_ten_coins_the_table_says_why_only_coup_is_offered(client, ana, ben, cai):
    game = started_game(ana, ben, cai)
    _income_until(game, player_of(game, ana), 10)
    html = page(client, ana, reverse("game", args=[game.pk]))
    assert FORCED in text(html)
    assert "Coup — next, choose the target" in html and "Income — take 1 coin" not in html
    assert FORCED not in text(page(client, ben, reverse("game", args=[game.pk])))


def _reference(html: str) -> str:
    return text(re.search(r'<section class="panel card-reference">(.*?)</section>', html, re.S).group(1))


def test_the_card_reference_follows_the_variants_in_play(client, ana, ben, cai):
    classic = _reference(page(client, ana, reverse("game", args=[started_game(ana, ben, cai).pk])))
    assert "Card reference: who does what, who blocks what" in classic
    assert "Steal — Captain Captain, Ambassador" in classic
    assert "Assassination 3 coins Assassin Contessa" in classic
    assert "Foreign Aid — anyone Duke" in classic
    assert "With 10 coins or more, a player must Coup." in classic
    variants = _reference(
        page(client, ana, reverse("game", args=[started_game(ana, ben, cai, variants=["inquisitor"]).pk]))
    )
    assert "Steal — Captain Captain, Inquisitor" in variants and "Examine — Inquisitor" in variants
    assert "Ambassador" not in variants


def _claim(html: str) -> str:
    found = re.search(r'<section class="claim panel"[^>]*>(.*?)</section>', html, re.S)
    return text(found.group(1)).strip() if found else ""


def test_the_claim_on_the_table_says_who_has_answered_it(client, game, ana, ben, cai):
    answer(game, ana, {"act": "tax"})
    claim = _claim(page(client, cai, reverse("game", args=[game.pk])))
    assert claim == "Ana claims the Duke for Tax: Ana takes 3 coins. Still to answer: Ben, Cai."
    answer(game, ben, {"act": "allow"})
    for user in (ana, ben, cai):
        claim = _claim(page(client, user, reverse("game", args=[game.pk])))
        assert claim == "Ana claims the Duke for Tax: Ana takes 3 coins. Let it pass: Ben. Still to answer: Cai."
    answer(game, cai, {"act": "allow"})
    assert _claim(page(client, ana, reverse("game", args=[game.pk]))) == ""


def test_the_end_of_a_game_shows_every_hand_face_up_and_the_final_order(client, ana, ben, cai):
    game = started_game(ana, ben, cai)
    play_to_the_end(game, 11)
    state = game_state(game)
    hands = {p.name: sorted(p.hand) for p in state.players}
    winner = game.winner
    for user in (ana, ben, cai):
        html = page(client, user, reverse("game", args=[game.pk]))
        assert _claim(html) == ""
        for player, cards in hands.items():
            if not cards:
                continue  # the viewer's own seat too: everyone sees the same table
            seat = re.search(rf'data-player="{player}">(.*?)</li>', html, re.S).group(1)
            assert "data-final-hand" in seat
            assert sorted(re.findall(r'data-character="(\w+)"', seat)) == cards
            assert "card--back" not in seat
        order = re.search(r'<section class="final-order panel"[^>]*>(.*?)</section>', html, re.S).group(1)
        names = [text(n).strip() for n in re.findall(r"<li>(.*?)</li>", order)]
        assert names[0] == winner.profile.display_name and sorted(names) == ["Ana", "Ben", "Cai"]


def test_only_a_finished_game_turns_the_hands_face_up(ana, ben, cai):
    game = started_game(ana, ben, cai)
    view = table_for(game, ben).view
    assert [isinstance(p["hand"], list) for p in view["players"]] == [False, True, False]
    assert isinstance(view["court"], int)
