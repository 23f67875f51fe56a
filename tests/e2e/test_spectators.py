"""A spectator watches a public game live on a phone and talks with the other
spectators; the players never read it while the game runs, while the spectator
reads their table talk. In English and in Spanish; and a visitor, signed out,
opens a public game from the landing page and watches it, read-only."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext

from games.models import Game
from tests.e2e.helpers import click_option, log_in
from tests.players import PASSWORD, make_player, started_game

POLL_WAIT_MS = 15_000  # a poll every 4 s, on a busy machine


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_spectator_watches_live_and_chats_unseen_by_the_players(new_page, live_server, language):
    ana, ben, wes = (make_player(name, language) for name in ("Ana", "Ben", "Wes"))
    game = started_game(ana, ben, visibility=Game.Visibility.PUBLIC)
    headers = {"locale": "es-ES", "extra_http_headers": {"Accept-Language": "es"}} if language == "es" else {}
    with translation.override(language):
        spectators_chat = gettext("Spectators' chat")
        watch_title = gettext("Watch a game")

    spectator = new_page(phone=True, **headers)
    log_in(spectator, live_server, wes.email, PASSWORD)
    spectator.goto("/games/watch/")
    assert spectator.get_by_role("heading", name=watch_title).is_visible()
    with spectator.expect_navigation():
        spectator.locator(f"a[href='/games/{game.pk}/watch/']").click()
    to_act = spectator.locator("#to-act")
    assert "Ana" in to_act.inner_text() and spectator.locator("#to-act .countdown").count() == 1
    assert spectator.get_by_role("heading", name=spectators_chat).is_visible()
    assert spectator.locator("[data-card]").count() == 0

    players = {}
    for user in (ana, ben):
        players[user.pk] = new_page(phone=True, **headers)
        log_in(players[user.pk], live_server, user.email, PASSWORD)
        players[user.pk].goto(f"/games/{game.pk}/")
    # Ana plays: the spectator's page follows, and now waits for Ben.
    click_option(players[ana.pk], {"act": "income"})
    spectator.locator("#to-act", has_text="Ben").wait_for(timeout=POLL_WAIT_MS)

    spectator.locator("#spectator-chat-text").fill("Ben has no Duke, trust me")
    spectator.locator("#spectator-chat-form button[type=submit]").click()
    spectator.locator("#spectator-chat", has_text="Ben has no Duke, trust me").wait_for()
    # Ben talks at the table: the spectator reads it live.
    players[ben.pk].locator("#chat-text").fill("I am a humble Duke")
    players[ben.pk].locator("#chat button[type=submit]").click()
    spectator.locator("#watch-chats", has_text="I am a humble Duke").wait_for(timeout=POLL_WAIT_MS)
    # The players never see the spectators' words, after a poll or a reload.
    for page in players.values():
        page.wait_for_timeout(5000)
        assert "trust me" not in page.content()
        page.reload()
        assert "trust me" not in page.content()
        assert page.get_by_role("heading", name=spectators_chat).count() == 0
    fits = spectator.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert fits, "the spectators' page is wider than the phone"


@pytest.mark.parametrize("language", ["en", "pt-br"])
def test_a_visitor_opens_a_public_game_from_the_landing_page_and_watches_it_read_only(new_page, live_server, language):
    ana, ben = (make_player(name, language) for name in ("Ana", "Ben"))
    public = started_game(ana, ben, visibility=Game.Visibility.PUBLIC)
    private = started_game(ben, ana)
    with translation.override(language):
        being_played = gettext("Games being played now")
        sign_in_to_talk = gettext("Sign in to talk with the other spectators.")
        game_link = gettext("Game #%(number)s") % {"number": public.pk}
    locale = {"en": "en-US", "pt-br": "pt-BR"}[language]
    visitor = new_page(phone=True, locale=locale, extra_http_headers={"Accept-Language": language})

    visitor.goto("/")
    listed = visitor.locator("#being-played")
    assert listed.get_by_role("heading", name=being_played).is_visible()
    assert visitor.locator(f"a[href='/games/{private.pk}/watch/']").count() == 0
    with visitor.expect_navigation():
        listed.get_by_role("link", name=game_link).click()
    assert visitor.url.endswith(f"/games/{public.pk}/watch/")
    # Read-only: who is to act, the public table, no card face, no form of a player's.
    assert "Ana" in visitor.locator("#to-act").inner_text()
    assert visitor.locator("[data-card]").count() == 0
    assert visitor.locator("main form[method=post]").count() == 0  # only the language chooser's, outside
    assert visitor.get_by_role("link", name=sign_in_to_talk).is_visible()
    fits = visitor.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert fits, "the spectators' page is wider than the phone"
    # The private game cannot be watched, even by its address.
    assert visitor.goto(f"/games/{private.pk}/watch/").status == 404
