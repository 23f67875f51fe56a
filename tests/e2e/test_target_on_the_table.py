"""Choosing a target on the table, in a real browser: once a targeted action is
chosen, each opponent's seat is its answer's button (clicked, or reached with the
keyboard and pressed), each target's button says their coins and face-down cards,
and the decision banner says the coins that matter. On a desktop in English, on a
phone in Spanish."""

from __future__ import annotations

from playwright.sync_api import expect

from games.models import Game
from games.selectors import game_state
from tests.e2e.helpers import log_in
from tests.players import PASSWORD, make_player, started_game


def _signed_in(new_page, live_server, user, *, phone: bool):
    page = new_page(phone=phone)
    log_in(page, live_server, user.email, PASSWORD)
    return page


def _choose_steal(page, game, pick: str) -> None:
    page.goto(f"/games/{game.pk}/")
    with page.expect_navigation():
        page.locator("section.decisions").get_by_role("button", name=pick).click()


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"


def test_a_seat_clicked_on_a_desktop_is_the_target(new_page, live_server):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    game = started_game(ana, ben, cai)
    page = _signed_in(new_page, live_server, ana, phone=False)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator(".banner--yours")).to_contain_text("You have 2 coins.")
    expect(page.locator(".seat__pick")).to_have_count(0)  # no seat is a button before an action is chosen
    _choose_steal(page, game, "Steal — next, choose the target")
    targets = page.locator("section.decisions button")
    expect(targets).to_have_text(
        [
            "Steal from Ben — take 2 coins (claims Captain)Ben: 2 coins · 2 face-down cards",
            "Steal from Cai — take 2 coins (claims Captain)Cai: 2 coins · 2 face-down cards",
        ]
    )
    expect(page.locator(".seat--you .seat__pick")).to_have_count(0)
    page.locator(".seat", has_text="Cai").click()  # anywhere on the seat
    expect(page.locator("section.history")).to_contain_text("Ana claimed the Captain to steal from Cai.")
    expect(page.locator(".seat__pick")).to_have_count(0)


def test_a_seat_reached_with_the_keyboard_on_a_phone_is_the_target_in_spanish(new_page, live_server):
    ana, ben, cai = make_player("Ana", language="es"), make_player("Ben"), make_player("Cai")
    game = started_game(ana, ben, cai)
    page = _signed_in(new_page, live_server, ana, phone=True)
    _choose_steal(page, game, "Robo — después, elige el objetivo")
    expect(page.locator(".banner--yours")).to_contain_text("Tienes 2 monedas.")
    expect(page.locator("section.decisions button").first).to_contain_text("Ben: 2 monedas · 2 cartas boca abajo")
    _fits(page)
    # Tab from the last target button reaches the seats, Ben's first.
    page.locator("section.decisions button").last.focus()
    page.keyboard.press("Tab")
    seat = page.locator(".seat", has_text="Ben").locator(".seat__pick")
    expect(seat).to_be_focused()
    expect(seat).to_have_accessible_name("Robar a Ben — toma 2 monedas (dice tener la carta Capitán)")
    page.keyboard.press("Enter")
    expect(page.locator(".seat__pick")).to_have_count(0)
    expect(page.locator("section.claim")).to_contain_text("Ana dice tener la carta Capitán")
    assert game_state(Game.objects.get(pk=game.pk)).action.target == "p2"  # Ben
