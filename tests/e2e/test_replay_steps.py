"""A replay in a real browser: the arrow keys step back and forward, and a line of
its history chosen far down the game moves the replay there with the table still
in view (the history scrolls in its own box). On a desktop in English, on a phone
in Portuguese."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.helpers import log_in
from tests.players import PASSWORD, make_player, play_to_the_end, started_game


def _finished_game(*users):
    game = started_game(*users)
    play_to_the_end(game, 5)
    return game


def _step(page) -> int:
    return int(page.locator("#replay").get_attribute("data-step"))


def _in_view(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] < height and box["y"] + box["height"] > 0


def _steps_with_keys_and_history(page, game, keys_hint: str) -> None:
    page.goto(f"/games/{game.pk}/replay/?step=3")
    expect(page.locator(".replay__keys")).to_have_text(keys_hint)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).to_have_attribute("data-step", "4")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay")).to_have_attribute("data-step", "3")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay")).to_have_attribute("data-step", "2")
    assert page.url.endswith("?step=2")
    # The language menu keeps its arrow keys.
    page.locator("#language").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay")).to_have_attribute("data-step", "2")

    lines = page.locator(".replay__lines a")
    count = lines.count()
    assert count > 20, count  # a history longer than its box
    far = lines.nth(count - 3)
    wanted = far.get_attribute("href").split("=")[-1]
    far.scroll_into_view_if_needed()
    far.click()
    expect(page.locator("#replay")).to_have_attribute("data-step", wanted)
    assert _in_view(page, "#replay section.table"), "the table left the screen"
    assert _in_view(page, ".replay__lines [aria-current=step]"), "the step chosen left the history's box"


def test_a_replay_steps_with_the_keys_and_the_history_on_a_desktop(new_page, live_server):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    game = _finished_game(ana, ben, cai)
    page = new_page()
    log_in(page, live_server, ana.email, PASSWORD)
    _steps_with_keys_and_history(page, game, "Arrow keys: step back and forward.")


def test_a_replay_steps_with_the_keys_and_the_history_on_a_phone_in_portuguese(new_page, live_server):
    ana, ben, cai = make_player("Ana", language="pt-br"), make_player("Ben"), make_player("Cai")
    game = _finished_game(ana, ben, cai)
    page = new_page(phone=True)
    log_in(page, live_server, ana.email, PASSWORD)
    _steps_with_keys_and_history(page, game, "Setas do teclado: um passo para trás ou para a frente.")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
