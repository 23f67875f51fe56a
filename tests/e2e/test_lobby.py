"""The lobby in chromium at phone width, in English and in Spanish: a visitor finds
it from the landing page and is asked to sign up; a host opens a game from the
create page, three players join it from the lobby in a click each and it starts by
itself; a host whose open game did not fill is emailed, and starts it with bots."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext

from games.models import Game
from games.services import lobby
from tests.e2e.helpers import log_in, site_path
from tests.players import PASSWORD, make_player

LANGUAGES = {"en": "en-US", "es": "es-ES"}


def words(language: str, text: str) -> str:
    """``text`` as the site says it in ``language``."""
    with translation.override(language):
        return gettext(text)


def phone(new_page, language: str):
    return new_page(phone=True, locale=LANGUAGES[language], extra_http_headers={"Accept-Language": language})


def signed_in(new_page, live_server, language: str, name: str):
    page = phone(new_page, language)
    log_in(page, live_server, f"{name.lower()}@example.com", PASSWORD)
    return page


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_visitor_finds_the_lobby_and_three_players_fill_a_game_that_starts_by_itself(new_page, live_server, language):
    ana, *joiners = (make_player(name, language) for name in ("Ana", "Ben", "Cai", "Dora"))
    host = signed_in(new_page, live_server, language, "Ana")
    host.goto(reverse("game_create"))
    host.get_by_label(words(language, "Players"), exact=True).fill("4")
    host.get_by_label(
        words(language, "Open it to everyone: list it in the lobby, where anyone may take a seat")
    ).check()
    with host.expect_navigation():
        host.get_by_role("button", name=words(language, "Create the game")).click()
    game = Game.objects.get(host=ana)
    assert site_path(host.url) == reverse("game", args=[game.pk]) and game.visibility == Game.Visibility.PUBLIC

    visitor = phone(new_page, language)
    visitor.goto("/")
    with visitor.expect_navigation():
        visitor.get_by_role("link", name=words(language, "See the open games")).click()
    assert site_path(visitor.url) == reverse("lobby")
    listed = visitor.locator(f"#open-{game.pk}")
    assert "Ana" in listed.inner_text()
    assert listed.get_by_role("link", name=words(language, "Sign up to join")).is_visible()
    assert listed.get_by_role("button").count() == 0  # read-only for a visitor

    join = words(language, "Join game #%(number)s") % {"number": game.pk}
    for index, player in enumerate(joiners):
        page = signed_in(new_page, live_server, language, player.username.capitalize())
        page.goto(reverse("lobby"))
        with page.expect_navigation():
            page.get_by_role("button", name=join).click()
        assert site_path(page.url) == reverse("game", args=[game.pk])
        game.refresh_from_db()
        assert game.status == (Game.Status.ACTIVE if index == len(joiners) - 1 else Game.Status.GATHERING)
    # The last to join sees the table at once; the game is gone from the lobby.
    assert page.locator("#live").count() == 1
    visitor.reload()
    assert visitor.locator(f"#open-{game.pk}").count() == 0


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_host_of_an_unfilled_open_game_is_emailed_and_starts_it_with_bots(
    new_page, live_server, smtp, language, django_capture_on_commit_callbacks
):
    ana, ben = make_player("Ana", language), make_player("Ben", language)
    game = lobby.open_game_create(
        host=ana,
        terms=lobby.Terms(language=language, fill_days=1),
        kind="coup",
        variants=[],
        seat_count=5,
        turn_seconds=86400,
        response_seconds=28800,
    )
    lobby.open_game_join(game_id=game.pk, user=ben)
    with django_capture_on_commit_callbacks(execute=True):
        assert lobby.open_games_sweep(timezone.now() + timedelta(days=1, minutes=1)) == (1, 0)
    [offer] = smtp.to(ana.email)
    game_link = next(link for link in offer.links if site_path(link) == reverse("game", args=[game.pk]))

    host = signed_in(new_page, live_server, language, "Ana")
    host.goto(site_path(game_link))
    host.get_by_label(words(language, "Or fill the empty seats with bots and start")).select_option("easy")
    with host.expect_navigation():
        host.get_by_role("button", name=words(language, "Start with bots")).click()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.seats.count() == 5
    assert host.locator("#live").count() == 1
