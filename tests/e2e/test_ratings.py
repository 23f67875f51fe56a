"""Ratings in a real browser: a host creates a rated game (the choice is on by
default), it is played to its end, and the three players' ratings move; the
dashboard says by how much, and the leaderboard lists them in order with the
reader's own place. On a desktop in English, on a phone in Spanish."""

from __future__ import annotations

import re

from django.utils import translation
from django.utils.formats import number_format
from playwright.sync_api import expect

from games.kinds import DEFAULT_KIND
from games.models import Game
from games.services import gathering
from ratings.models import Rating, RatingChange
from ratings.services import game_rate
from ratings.skill import ESTABLISHED
from tests.e2e.helpers import form_with, log_in, submit
from tests.players import PASSWORD, make_player, play_to_the_end
from tests.ratings.builders import finished_game


def _rated_before(players) -> None:
    """Each of ``players`` one rated game short of the leaderboard."""
    for number in range(ESTABLISHED - 1):
        order = players[number % len(players) :] + players[: number % len(players)]
        game, results = finished_game(DEFAULT_KIND, order, [1, 2, 3])
        game_rate(game=game, results=results)


def _create_in_the_browser(page) -> Game:
    """The host creates a three-player game through the form, leaving "Rated game" as it is."""
    page.goto("/games/new/")
    form = form_with(page, "seat_count")
    expect(form.locator('input[name="rated"]')).to_be_checked()
    form.locator('input[name="seat_count"]').fill("3")
    submit(page, form)
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    return Game.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))


def _play_to_the_end(game, host, *others) -> Game:
    for user in others:
        gathering.seat_join(game=game, user=user, join_token=game.join_token)
    game = gathering.game_start(game=game, by=host)
    play_to_the_end(game, 26)
    return game


def _rated_game_seen(page, language: str, host, others) -> None:
    _rated_before([host, *others])
    before = {rating.user_id: rating.shown for rating in Rating.objects.filter(kind=DEFAULT_KIND)}
    created = _create_in_the_browser(page)
    # Away from the waiting room first: left open, it follows the game and reloads
    # itself at the end, which would cut short the visit below.
    page.goto("about:blank")
    game = _play_to_the_end(created, host, *others)
    changes = {change.user_id: change for change in RatingChange.objects.filter(game=game)}
    assert set(changes) == {host.pk, *(user.pk for user in others)}
    assert all(changes[user].shown_before == before[user] for user in changes)
    with translation.override(language):
        shown = {user: number_format(change.shown_after, force_grouping=True) for user, change in changes.items()}

    # The dashboard: how the game moved the host's rating, in the reader's language.
    page.goto("/")
    change = changes[host.pk]
    moved = change.shown_after - change.shown_before
    signed = f"+{moved}" if moved > 0 else (f"−{-moved}" if moved < 0 else "±0")
    expect(page.locator(".past__rating").first).to_contain_text(signed)
    expect(page.locator(".past__rating").first).to_contain_text(shown[host.pk])

    # The leaderboard: the three, now established, best first, with the new numbers.
    page.get_by_role("link", name=re.compile("^(Leaderboards|Clasificaciones)$")).click()
    rows = page.locator("table tbody tr")
    expect(rows).to_have_count(3)
    ranked = sorted(changes.values(), key=lambda c: (-c.shown_after, c.user_id))
    for row, ranked_change in zip(rows.all(), ranked, strict=True):
        expect(row.locator("td").nth(1)).to_have_text(shown[ranked_change.user_id])
    place = [c.user_id for c in ranked].index(host.pk) + 1
    expect(page.locator("#your-place")).to_contain_text(f"{place}")
    expect(page.locator("table tbody tr.you th")).to_have_text(host.profile.display_name)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_rated_game_moves_the_ratings_and_the_leaderboard_on_a_desktop(new_page, live_server):
    ana, ben, cai = (make_player(name) for name in ("Ana", "Ben", "Cai"))
    page = new_page()
    log_in(page, live_server, ana.email, PASSWORD)
    _rated_game_seen(page, "en", ana, [ben, cai])
    expect(page.get_by_role("heading", level=1)).to_have_text("Coup leaderboard")


def test_a_rated_game_moves_the_ratings_and_the_leaderboard_on_a_phone_in_spanish(new_page, live_server):
    ana, ben, cai = (make_player(name, language="es") for name in ("Ana", "Ben", "Cai"))
    page = new_page(phone=True, locale="es-ES", extra_http_headers={"Accept-Language": "es"})
    log_in(page, live_server, ana.email, PASSWORD)
    _rated_game_seen(page, "es", ana, [ben, cai])
    expect(page.get_by_role("heading", level=1)).to_have_text("Clasificación de Coup")
