"""After the game, in the browser: the dashboard shows the result, the replay steps.

Ana, Ben and Cai are made through the services and sign in through the real login
page; the game is started through the services too. It is finished in the browser:
Ana and Ben each take Income with their decision buttons, then Ben and Cai resign
with their game pages' resign buttons, so Ana wins, Cai is second and Ben third.
Cai's dashboard lists the game under "Finished" with her place (Ana's says she won),
and so does her past-games page; she follows its replay link and steps through the
replay with its buttons: the step number, the highlighted history sentence and the
address change, every face-down card of every player is shown, and the last step
names the winner. Dora, signed in but not at the table, gets a 404 for the replay.
"""

from __future__ import annotations

import re

from django.urls import reverse
from playwright.sync_api import expect

from games.models import Event, Game
from tests.e2e.helpers import click_option, decision_options, log_in, page_messages
from tests.players import PASSWORD, make_player, started_game


def _signed_in(new_page, live_server, user):
    page = new_page()
    log_in(page, live_server, user.email, PASSWORD)
    return page


def _take_income(page, game, name: str) -> None:
    page.goto(reverse("game", args=[game.pk]))
    options = decision_options(page)
    income = next((o["command"] for o in options if o["command"].get("act") == "income"), None)
    assert income is not None, f"{name} is offered no Income: {[o['label'] for o in options]}"
    before = game.version
    click_option(page, income)
    game.refresh_from_db()
    assert game.version > before, f"{name}'s Income changed nothing: {page_messages(page)!r}"


def _resign(page, game) -> None:
    page.goto(reverse("game", args=[game.pk]))
    page.locator("summary", has_text="Resign").click()
    with page.expect_navigation():
        page.get_by_role("button", name="Resign from this game").click()
    page.get_by_text("You resigned from the game.").wait_for()


def _replay_state(page) -> dict:
    """What the replay shows now: step number, its sentence, the highlighted history
    line, and each seat's face-down cards (by the data-hand attribute and by the
    visible card faces)."""
    replay = page.locator("#replay")
    seats = {}
    for seat in replay.locator("li.seat").all():
        name = seat.locator(".seat__name").inner_text().split()[0]
        hand = [c for c in (seat.locator(".seat__cards").get_attribute("data-hand") or "").split(",") if c]
        faces = seat.locator(".seat__cards [data-character]")
        seats[name] = {
            "hand": sorted(hand),
            "faces": sorted(faces.nth(i).get_attribute("data-character") for i in range(faces.count())),
            "visible": all(faces.nth(i).is_visible() for i in range(faces.count())),
            "status": seat.locator(".seat__status").inner_text().strip(),
        }
    return {
        "step": int(replay.get_attribute("data-step")),
        "heading": replay.locator(".replay__nav strong").inner_text().strip(),
        "line": replay.locator(".replay__line").inner_text().strip(),
        "current": replay.locator("section.history [aria-current=step]").inner_text().strip(),
        "seats": seats,
    }


def _click_step(page, name: str) -> None:
    """Click a replay control and wait for htmx to swap in the new step."""
    with page.expect_response(lambda r: "/replay/" in r.url and "step=" in r.url) as answered:
        page.locator("#replay .replay__nav").get_by_role("link", name=name).click()
    assert answered.value.ok, f"{name}: HTTP {answered.value.status}"
    page.wait_for_function(
        "step => document.querySelector('#replay') && document.querySelector('#replay').dataset.step == step",
        arg=re.search(r"step=(\d+)", answered.value.url).group(1),
    )


def test_dashboard_shows_the_result_and_the_replay_steps_through_the_game(new_page, live_server, smtp, settings):
    settings.SITE_URL = live_server.url
    ana, ben, cai, dora = (make_player(name) for name in ("Ana", "Ben", "Cai", "Dora"))
    game = started_game(ana, ben, cai)  # Ana plays first
    pages = {user.profile.display_name: _signed_in(new_page, live_server, user) for user in (ana, ben, cai, dora)}

    # The game is played and finished in the browser.
    _take_income(pages["Ana"], game, "Ana")
    _take_income(pages["Ben"], game, "Ben")
    _resign(pages["Ben"], game)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE  # Ana and Cai play on
    _resign(pages["Cai"], game)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_id == ana.pk
    replay_url = reverse("game_replay", args=[game.pk])

    # The dashboards list the finished game with each player's result.
    for name, outcome, summary in (
        ("Ana", "Won", "1 game played, 1 won (100%)."),
        ("Cai", "Place 2 of 3", "1 game played, 0 won (0%)."),
    ):
        page = pages[name]
        page.goto("/")
        expect(page.get_by_role("heading", name="Your games")).to_be_visible()
        finished = page.locator("section[aria-labelledby=dash-recent]")
        expect(finished.get_by_role("heading", name="Finished")).to_be_visible()
        expect(finished.locator(".dash-lead")).to_contain_text(summary)
        row = finished.locator("li.past").filter(has_text=f"Game #{game.pk}")
        expect(row).to_have_count(1)
        expect(row.locator(".result")).to_have_text(outcome)
        # The players, the winner first (starred), then in reverse order of elimination.
        expect(row.locator(".past__players li")).to_have_text(["★ Ana", "Cai", "Ben"])
        expect(row.locator(".past__players li.you")).to_have_text(re.compile(name))
        # Not in play any more.
        in_play = page.locator("section[aria-labelledby=dash-active], section[aria-labelledby=dash-waiting]")
        expect(in_play).to_have_count(0)

    # Cai's past games say the same; she opens the replay from her dashboard.
    cai_page = pages["Cai"]
    cai_page.get_by_role("navigation", name="Your games").get_by_role("link", name="Past games").click()
    cai_page.wait_for_url("**/games/past/")
    expect(cai_page.get_by_role("status")).to_have_text("1 finished game")
    past = cai_page.locator("li.past").filter(has_text=f"Game #{game.pk}")
    expect(past.locator(".result")).to_have_text("Place 2 of 3")
    cai_page.get_by_role("link", name="Now").click()
    cai_page.wait_for_url(re.compile(r"/$"))
    row = cai_page.locator("section[aria-labelledby=dash-recent] li.past").filter(has_text=f"Game #{game.pk}")
    with cai_page.expect_navigation():
        row.get_by_role("link", name="Replay").click()
    assert cai_page.url.endswith(replay_url), cai_page.url
    expect(cai_page.get_by_role("heading", name=f"Replay of game #{game.pk}")).to_be_visible()

    # Step 1: the game begins; there is no way back yet.
    first = _replay_state(cai_page)
    count = int(re.fullmatch(r"Step 1 of (\d+)", first["heading"]).group(1))
    assert count >= 6, first
    assert first["step"] == 1 and first["line"] == first["current"], first
    assert first["line"].startswith("The game began with Ana, Ben, Cai."), first
    nav = cai_page.locator("#replay .replay__nav")
    expect(nav.get_by_role("link", name="‹ Back")).to_have_count(0)

    # Forward, then back: the step, its sentence and the address change each time.
    _click_step(cai_page, "Forward ›")
    second = _replay_state(cai_page)
    assert second["step"] == 2 and second["heading"] == f"Step 2 of {count}", second
    assert second["line"] == second["current"] and second["line"] != first["line"], (first, second)
    assert cai_page.url.endswith(f"{replay_url}?step=2"), cai_page.url
    _click_step(cai_page, "‹ Back")
    assert _replay_state(cai_page) == first
    assert cai_page.url.endswith(f"{replay_url}?step=1"), cai_page.url

    # On to Ana's first turn: every hand as dealt, face up, Ana's and Ben's too.
    dealt = {
        e["data"]["player"]: sorted(e["secret"]["cards"])
        for e in Event.objects.filter(game=game, type="coup.hand.dealt").values_list("payload", flat=True)
    }
    names = {seat.player: seat.user.profile.display_name for seat in game.seats.select_related("user__profile")}
    dealt = {names[player]: cards for player, cards in dealt.items()}
    assert sorted(dealt) == ["Ana", "Ben", "Cai"]
    seen = [first["line"]]
    state = first
    while state["line"] != "Turn 1 — Ana.":
        assert state["step"] < count, f'no "Turn 1 — Ana." in the replay: {seen}'
        _click_step(cai_page, "Forward ›")
        state = _replay_state(cai_page)
        seen.append(state["line"])
    for name, cards in dealt.items():
        seat = state["seats"][name]
        assert seat["hand"] == seat["faces"] == cards and len(cards) == 2, (name, seat, cards)
        assert seat["visible"], f"{name}'s face-down cards are hidden in the replay"
    assert cai_page.locator("#replay [data-card]").count() == 0  # nobody's cards are "hers" only

    # One step on: Ana's Income, in words; the table moves on with it.
    _click_step(cai_page, "Forward ›")
    income = _replay_state(cai_page)
    assert income["step"] == state["step"] + 1 and "Ana" in income["line"] and income["line"] != state["line"], income

    # The end: the winner, and the control to go on is gone.
    _click_step(cai_page, "End »")
    last = _replay_state(cai_page)
    assert last["step"] == count and last["heading"] == f"Step {count} of {count}", last
    assert last["line"] == last["current"] == "Ana won the game!", last
    assert last["seats"]["Ana"]["status"] == "Winner", last
    assert last["seats"]["Ben"]["status"] == last["seats"]["Cai"]["status"] == "Out of the game", last
    assert last["seats"]["Ana"]["hand"] and last["seats"]["Ana"]["visible"], last  # the winner's cards, shown
    expect(nav.get_by_role("link", name="Forward ›")).to_have_count(0)
    expect(nav.get_by_role("link", name="End »")).to_have_count(0)
    history = cai_page.locator("#replay section.history").inner_text()
    assert "Ben resigned." in history and "You resigned." in history, history  # told to Cai
    # A history sentence is a link to its step.
    with cai_page.expect_response(lambda r: "/replay/" in r.url):
        cai_page.locator("#replay section.history").get_by_role("link", name=first["line"], exact=True).click()
    expect(cai_page.locator("#replay")).to_have_attribute("data-step", "1")

    # Dora, signed in but not at the table, may not see it.
    response = pages["Dora"].goto(replay_url)
    assert response.status == 404, response.status
    assert "Step 1 of" not in pages["Dora"].content()
