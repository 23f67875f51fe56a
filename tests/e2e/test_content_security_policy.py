"""The pages work in a real browser under their Content-Security-Policy: htmx
answers, polls and posts table talk, the little behaviour of static/js/site.js
runs, and the browser reports no violation of the policy."""

from __future__ import annotations

from playwright.sync_api import expect

from games.services import play
from tests.e2e.helpers import click_option, log_in
from tests.players import PASSWORD, awaited, gathering_game, make_player, started_game

# Every violation the page reports, collected before any of its own scripts runs.
RECORD_VIOLATIONS = """
window.cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.cspViolations.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
});
"""


def test_htmx_and_the_sites_script_work_under_the_policy(page, live_server):
    ana, ben = make_player("Ana"), make_player("Ben")
    waiting = gathering_game(ana, seats=3)
    game = started_game(ana, ben)  # Ana plays first
    console = []
    page.on("console", lambda message: console.append(message.text))
    page.add_init_script(RECORD_VIOLATIONS)
    log_in(page, live_server, ana.email, PASSWORD)

    # The waiting room: a click selects the whole shareable link (site.js).
    response = page.goto(f"/games/{waiting.pk}/")
    assert "'unsafe-inline'" not in response.headers["content-security-policy"]
    page.locator(".share-link").click()
    assert page.evaluate(
        "() => { const f = document.querySelector('.share-link'); return [f.selectionStart, f.selectionEnd, f.value.length]; }"
    )[:2] == [0, len(page.locator(".share-link").input_value())]

    # The game: an answer sent by htmx and swapped in.
    page.goto(f"/games/{game.pk}/")
    click_option(page, {"act": "income"})
    expect(page.locator("#live").get_by_text("Ana took Income.")).to_be_visible()

    # The poll brings Ben's move in without a reload.
    _kind, version = awaited(game)["p2"]
    play.decision_submit(game=game, user=ben, command={"act": "income"}, version=version)
    expect(page.locator("#live").get_by_text("Ben took Income.")).to_be_visible(timeout=15_000)

    # Table talk is posted by htmx, and the form emptied once it is taken (site.js).
    page.locator("#chat-text").fill("Nice hand, Ben.")
    page.get_by_role("button", name="Send", exact=True).click()
    expect(page.locator("#chat-messages").get_by_text("Nice hand, Ben.")).to_be_visible()
    expect(page.locator("#chat-text")).to_have_value("")

    assert page.evaluate("window.cspViolations") == []
    assert [line for line in console if "Content Security Policy" in line or "Content-Security-Policy" in line] == []
