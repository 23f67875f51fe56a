"""A live game's clock on the page: the time left to the second in the last hour
(the countdown's starting point), in words before; the title says whose move it is."""

import re

import pytest
from django.urls import reverse

from tests.web.conftest import started_game
from tests.web.test_dashboard import page

pytestmark = pytest.mark.django_db


def _deadline(html: str) -> tuple[str, str]:
    found = re.search(r'<span class="countdown" data-deadline="(\d+)">([^<]*)</span>', html)
    assert found, "no countdown on the page"
    return found.group(1), found.group(2)


def test_a_live_game_shows_the_time_left_to_the_second(client, ana, ben):
    game = started_game(ana, ben, turn_seconds=120, response_seconds=30)
    epoch, left = _deadline(page(client, ana, reverse("game", args=[game.pk])))
    assert int(epoch) == int(game.deadline_at.timestamp())
    assert re.fullmatch(r"1:5\d|2:00", left), left


def test_a_day_long_deadline_is_shown_in_words(client, ana, ben):
    game = started_game(ana, ben)
    _epoch, left = _deadline(page(client, ana, reverse("game", args=[game.pk])))
    assert re.fullmatch(r"23\xa0hours, 59\xa0minutes|1\xa0day", left), left


def test_the_title_says_when_it_is_your_move(client, ana, ben):
    game = started_game(ana, ben)
    title = re.compile(r"<title>(.*?)</title>", re.S)
    mine = page(client, ana, reverse("game", args=[game.pk]))
    assert title.search(mine).group(1).strip() == f"(1) Your move · Game #{game.pk} · Coup"  # one game waits for her
    assert f'data-title="Your move · Game #{game.pk} · Coup"' in mine
    theirs = page(client, ben, reverse("game", args=[game.pk]))
    assert title.search(theirs).group(1).strip() == f"Game #{game.pk} · Coup"
