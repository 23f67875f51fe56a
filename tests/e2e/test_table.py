"""The game table in a real browser, on a phone and a desktop: the action chosen in
two steps without JavaScript, the claim being answered, the live clock counting
down and the title following whose move it is, the end of a game with every hand
face up, and a Kobayakawa table with its card reference at hand. Each state is also saved as a screenshot under
var/screenshots/table/ (not tracked) for a person to look at."""

from __future__ import annotations

import re

from django.conf import settings
from playwright.sync_api import expect

from games.services import play
from tests.e2e.helpers import log_in
from tests.players import PASSWORD, awaited, make_player, play_to_the_end, started_game

SHOTS = settings.BASE_DIR / "var" / "screenshots" / "table"


def _shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"{name}.png", full_page=True)


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"


def _signed_in(new_page, live_server, user, *, phone: bool, **options):
    page = new_page(phone=phone, **options)
    log_in(page, live_server, user.email, PASSWORD)
    return page


def test_an_action_is_chosen_in_two_steps_without_javascript(new_page, live_server):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    game = started_game(ana, ben, cai)
    desktop = _signed_in(new_page, live_server, ana, phone=False, java_script_enabled=False)
    desktop.goto(f"/games/{game.pk}/")
    _shoot(desktop, "picker-step1-desktop")
    phone = _signed_in(new_page, live_server, ana, phone=True, java_script_enabled=False)
    phone.goto(f"/games/{game.pk}/")
    decisions = phone.locator("section.decisions")
    expect(decisions.get_by_role("button", name="Steal — next, choose the target")).to_be_visible()
    expect(decisions.get_by_role("button", name=re.compile("^Steal from"))).to_have_count(0)
    _fits(phone)
    _shoot(phone, "picker-step1-phone")

    with phone.expect_navigation():
        decisions.get_by_role("button", name="Steal — next, choose the target").click()
    assert phone.url.endswith(f"/games/{game.pk}/?action=steal")
    buttons = phone.locator("section.decisions button")
    assert buttons.all_inner_texts() == [
        "Steal from Ben — take 2 coins (claims Captain)\nBen: 2 coins · 2 face-down cards",
        "Steal from Cai — take 2 coins (claims Captain)\nCai: 2 coins · 2 face-down cards",
    ]
    _fits(phone)
    _shoot(phone, "picker-step2-phone")
    desktop.goto(f"/games/{game.pk}/?action=steal")
    _shoot(desktop, "picker-step2-desktop")

    with phone.expect_navigation():
        decisions.get_by_role("button", name="Steal from Ben — take 2 coins (claims Captain)").click()
    expect(phone.locator("section.history")).to_contain_text("Ana claimed the Captain to steal from Ben.")


def test_the_claim_the_countdown_and_the_title_follow_the_game(new_page, live_server):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    game = started_game(ana, ben, cai, turn_seconds=120, response_seconds=30)
    ben_page = _signed_in(new_page, live_server, ben, phone=True)
    ben_page.goto(f"/games/{game.pk}/")
    assert ben_page.title() == f"Game #{game.pk} · Coup"
    countdown = ben_page.locator(".countdown")
    first = countdown.inner_text()
    assert re.fullmatch(r"[12]:\d\d", first), first
    expect(countdown).not_to_have_text(first, timeout=3_000)  # it ticks every second

    version = awaited(game)["p1"][1]
    play.decision_submit(game=game, user=ana, command={"act": "tax"}, version=version)
    # The page's polling brings the claim in, and the title says it is Ben's move.
    claim = ben_page.locator("section.claim")
    expect(claim).to_contain_text("Ana claims the Duke for Tax: Ana takes 3 coins.", timeout=15_000)
    expect(claim).to_contain_text("Still to answer: Ben, Cai.")
    expect(ben_page).to_have_title(f"(1) Your move · Game #{game.pk} · Coup")  # the one game waiting for him
    assert re.fullmatch(r"0:[0-3]\d", countdown.inner_text())
    play.decision_submit(game=game, user=cai, command={"act": "allow"}, version=awaited(game)["p3"][1])
    expect(claim).to_contain_text("Let it pass: Cai. Still to answer: Ben.", timeout=15_000)
    _fits(ben_page)
    _shoot(ben_page, "claim-phone")
    desktop = _signed_in(new_page, live_server, cai, phone=False)
    desktop.goto(f"/games/{game.pk}/")
    expect(desktop.locator("section.claim")).to_contain_text("Let it pass: Cai. Still to answer: Ben.")
    _shoot(desktop, "claim-desktop")


def test_the_end_of_a_game_turns_every_hand_face_up(new_page, live_server):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    game = started_game(ana, ben, cai)
    play_to_the_end(game, 3)
    winner = game.winner.profile.display_name
    loser = next(user for user in (ana, ben, cai) if user != game.winner)
    for phone, name in ((True, "end-phone"), (False, "end-desktop")):
        page = _signed_in(new_page, live_server, loser, phone=phone)
        page.goto(f"/games/{game.pk}/")
        seat = page.locator(".seat", has_text=winner)
        expect(seat.locator("[data-final-hand] .card")).not_to_have_count(0)
        expect(seat.locator(".card--back")).to_have_count(0)
        expect(page.locator(".final-order li").first).to_have_text(winner)
        expect(page.locator("section.claim")).to_have_count(0)
        if phone:
            _fits(page)
        _shoot(page, name)


def test_a_kobayakawa_table(new_page, live_server):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    game = started_game(ana, ben, cai, kind="kobayakawa")
    for phone, name in ((True, "kobayakawa-phone"), (False, "kobayakawa-desktop")):
        page = _signed_in(new_page, live_server, ana, phone=phone)
        page.goto(f"/games/{game.pk}/")
        title = page.locator("h1.game-title")
        expect(title).to_contain_text("Kobayakawa")
        expect(title).not_to_contain_text("Classic")
        if phone:
            _fits(page)
        _shoot(page, name)


KOBAYAKAWA_REFERENCE = [
    "15 cards, numbered 1 to 15, one of each.",
    "The Kobayakawa card: face up in the centre. At the showdown its value goes to the bettor with the lowest card.",
    "The bettor with the lowest card adds the Kobayakawa value to it.",
    "The highest total wins; a tie goes to the earlier player in turn order.",
    "takes 1 medal from the centre (in the last round, both).",
    "If nobody bets, the round is dealt again with the same first player",
    "The 3 becomes 13 and beats 12: its holder wins.",
    "At the start: 4 medals each, 8 medals in the centre.",
    "When 2 medals remain in the centre, the round is the last.",
]
# Each answer a player can give, with the start of what it does and costs.
KOBAYAKAWA_ANSWERS = {
    "Draw": "Take the top card, then keep one of your two cards and discard the other face up",
    "Flip": "Turn the top card face up onto the Kobayakawa card: its number becomes the Kobayakawa value.",
    "Bet": "Costs 1 medal; in the last round 2 medals, or your only medal.",
    "Pass": "Costs nothing; you sit the showdown out.",
}


def test_the_kobayakawa_table_keeps_its_card_reference_at_hand(new_page, live_server):
    """Right under the table, one tap away and without JavaScript: the cards, what
    each answer does and costs, how a round is scored, the medals."""
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    game = started_game(ana, ben, cai, kind="kobayakawa")
    for phone, name in ((True, "kobayakawa-reference-phone"), (False, "kobayakawa-reference-desktop")):
        page = _signed_in(new_page, live_server, ana, phone=phone, java_script_enabled=False)
        page.goto(f"/games/{game.pk}/")
        reference = page.locator("section.card-reference")
        summary = reference.locator("summary")
        expect(summary).to_have_text("Card reference: the cards, your choices, the scoring")
        expect(reference.locator("dd").first).to_be_hidden()
        summary.click()
        expect(reference.locator("dd").first).to_be_visible()
        for line in KOBAYAKAWA_REFERENCE:
            expect(reference).to_contain_text(line)
        answers = dict(
            zip(reference.locator("dt").all_inner_texts(), reference.locator("dd").all_inner_texts(), strict=True)
        )
        assert list(answers) == list(KOBAYAKAWA_ANSWERS)
        for term, text in KOBAYAKAWA_ANSWERS.items():
            assert answers[term].startswith(text), (term, answers[term])
        if phone:
            _fits(page)
            box = reference.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        _shoot(page, name)
