"""A game played with the keyboard alone: a whole decision cycle (an action with its
target, a block, the answer to the block) with Tab, Enter and Space only, the focus
ring plain to see at every stop, and the player's place kept when the table updates."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.services import play
from tests.e2e.helpers import log_in
from tests.players import PASSWORD, awaited, make_player, started_game

TABS_AT_MOST = 80  # far more than any page of the game has stops


def _focus(page) -> dict:
    """What has the keyboard focus, and how it shows."""
    return page.evaluate(
        """() => {
            const element = document.activeElement;
            const style = getComputedStyle(element);
            const form = element.closest("form");
            const command = form && form.querySelector("input[name=command]");
            return {
                tag: element.tagName.toLowerCase(),
                text: (element.innerText || element.value || "").trim().slice(0, 60),
                command: command ? JSON.parse(command.value) : null,
                pick: element.name === "action" ? element.value : null,
                visible: element.matches(":focus-visible"),
                outline: `${style.outlineStyle} ${parseFloat(style.outlineWidth)}`,
            };
        }"""
    )


def _assert_focus_shows(focus: dict) -> None:
    style, width = focus["outline"].split()
    assert focus["visible"] and style == "solid" and float(width) >= 2, f"the focus ring does not show: {focus}"


def _tab_to(page, wanted) -> dict:
    """Press Tab until ``wanted(focus)`` holds, checking the focus shows at every stop."""
    for _ in range(TABS_AT_MOST):
        page.keyboard.press("Tab")
        focus = _focus(page)
        if focus["tag"] != "body":
            _assert_focus_shows(focus)
        if wanted(focus):
            return focus
    raise AssertionError(f"{TABS_AT_MOST} presses of Tab never reached the control")


def _answer(page, command: dict, key: str) -> None:
    """Tab to the decision button whose command has ``command``'s keys and values
    (a steal's also says how many coins) and press ``key`` on it."""
    _tab_to(page, lambda focus: command.items() <= (focus["command"] or {}).items())
    with page.expect_response(lambda r: r.url.endswith("/decide") and r.request.method == "POST") as answered:
        page.keyboard.press(key)
    assert answered.value.ok


def _answer_for_cai(game, cai) -> None:
    game.refresh_from_db()
    if "p3" in awaited(game):
        play.decision_submit(game=game, user=cai, command={"act": "allow"}, version=awaited(game)["p3"][1])


@pytest.mark.parametrize(("phone", "language"), [(False, "en"), (True, "es")], ids=["desktop-en", "phone-es"])
def test_a_whole_decision_cycle_with_the_keyboard_alone(new_page, live_server, phone, language):
    ana, ben, cai = (make_player(name, language) for name in ("Ana", "Ben", "Cai"))
    game = started_game(ana, ben, cai)
    pages = {}
    for user in (ana, ben):
        pages[user] = new_page(phone=phone)
        log_in(pages[user], live_server, user.email, PASSWORD)
        pages[user].goto(f"/games/{game.pk}/")
    ana_page, ben_page = pages[ana], pages[ben]

    # Ana steals from Ben: the action first (Space), then its target (Enter).
    _tab_to(ana_page, lambda focus: focus["pick"] == "steal")
    with ana_page.expect_navigation():
        ana_page.keyboard.press(" ")
    _answer(ana_page, {"act": "steal", "target": "p2"}, "Enter")
    # Her place is kept: the focus is on the banner that says who the game waits for.
    focus = _focus(ana_page)
    assert focus["tag"] != "body", "answering sent the focus back to the top of the page"
    _assert_focus_shows(focus)

    # Ben blocks with the Captain, from the page the poll brought up to date.
    _answer_for_cai(game, cai)
    expect(ben_page.locator("section.decisions")).to_be_visible(timeout=15_000)
    _answer(ben_page, {"act": "block", "as": "captain"}, "Enter")

    # Ana's page shows the block by itself, her place still kept; she lets it stand, with Space.
    _answer_for_cai(game, cai)
    expect(ana_page.locator("section.decisions")).to_be_visible(timeout=15_000)
    assert _focus(ana_page)["tag"] != "body", "the update sent the focus back to the top of the page"
    _answer(ana_page, {"act": "allow"}, " ")

    assert game.events.filter(type="coup.blocked", payload__data__player="p2").exists()
    decision, _version = awaited(game)["p2"]
    assert decision == "turn", "the cycle ends with Ben's turn"
