"""Each game is shown as itself: Kobayakawa is never called "Classic", its pages
name it, and the create form and the services keep each game's options to it."""

import re

import pytest
from django.urls import reverse

from games.models import Game
from games.services.errors import ServiceError
from tests.web.conftest import gathering_game, started_game
from tests.web.test_dashboard import finished_games, page, text

pytestmark = pytest.mark.django_db


def test_a_kobayakawa_table_is_headed_kobayakawa_never_classic(client, ana, ben, cai):
    game = started_game(ana, ben, cai, kind="kobayakawa")
    title = re.search(r'<h1 class="game-title">(.*?)</h1>', page(client, ana, reverse("game", args=[game.pk])), re.S)
    assert "Kobayakawa" in title.group(1) and "Classic" not in title.group(1)


def test_a_coup_table_is_headed_with_its_game_and_variants(client, ana, ben, cai):
    game = started_game(ana, ben, cai, variants=["inquisitor"])
    title = re.search(r'<h1 class="game-title">(.*?)</h1>', page(client, ana, reverse("game", args=[game.pk])), re.S)
    assert "Coup · Inquisitor" in text(title.group(1))


def test_the_waiting_and_join_pages_name_the_game(client, ana, dora):
    game = gathering_game(ana, seats=4, kind="kobayakawa")
    waiting = text(page(client, ana, reverse("game", args=[game.pk])))
    assert "Game Kobayakawa" in waiting
    joining = text(page(client, dora, reverse("join", args=[game.join_token])))
    assert "Game Kobayakawa" in joining
    coup = gathering_game(ana, seats=3, variants=["inquisitor"])
    assert "Game Coup · Inquisitor" in text(page(client, ana, reverse("game", args=[coup.pk])))


def test_statistics_never_count_kobayakawa_among_classic_games(client, ana, ben, cai):
    finished_games(ana, [ben, cai], 2)
    finished_games(ana, [ben, cai], 3, kind="kobayakawa")
    words = text(page(client, ana, reverse("stats")))
    assert "Classic 2 " in words
    assert "Kobayakawa 3 " in words
    past = text(page(client, ana, reverse("past_games"), {"variant": "classic"}))
    assert "Coup · Classic" in past and "Kobayakawa ·" not in past


def test_the_create_form_groups_each_games_options_under_its_name(client, ana):
    html = page(client, ana, reverse("game_create"))
    sections = re.findall(r'<fieldset class="field kind-options">(.*?)</fieldset>', html, re.S)
    assert len(sections) == 1 and "Coup: its own options" in sections[0]
    assert 'value="inquisitor"' in sections[0] and 'name="first_faction"' in sections[0]


def test_the_service_refuses_a_variant_the_game_does_not_have(ana):
    with pytest.raises(ServiceError) as refused:
        gathering_game(ana, seats=4, kind="kobayakawa", variants=["inquisitor"])
    assert refused.value.message == "Kobayakawa has no variants."
    assert not Game.objects.filter(kind="kobayakawa").exists()
