"""A practice game against bots in the browser, played to its end.

Ana signs up, starts a 3-seat practice game against easy bots from the create page
and answers her own decisions with the page's buttons (Income on her turn, let
everything pass, prove a claim when she can); the bots answer through a real
Celery worker. The game ends either way (Ana wins, or the bots finish it after she
is out); her page then says who won.
"""

from __future__ import annotations

import time

from django.urls import reverse

from games.models import Game
from games.selectors import player_names
from tests.e2e.helpers import click_option, decision_options, page_messages, sign_up, site_path

PASSWORD = "correct-horse-battery-9"
GAME_SECONDS = 240  # easy bots answer in milliseconds; a game takes a few dozen answers


def _choose(options: list[dict]) -> dict:
    commands = [option["command"] for option in options]
    for act in ("coup", "income", "allow", "prove"):
        found = next((command for command in commands if command.get("act") == act), None)
        if found:
            return found
    return commands[0]  # lose the first card, keep the first cards


def test_a_practice_game_against_bots_is_played_to_its_end(page, live_server, smtp, celery_worker):
    sign_up(page, live_server, smtp, "ana@example.com", PASSWORD, display_name="Ana")
    page.get_by_role("link", name="Start a new game").click()
    practice = page.locator("#practice")
    practice.get_by_role("heading", name="Practice against bots").wait_for()
    practice.get_by_label("Seats").fill("3")
    practice.get_by_label("Bots").select_option("easy")
    with page.expect_navigation():
        practice.get_by_role("button", name="Play against bots").click()
    game = Game.objects.get(host__email="ana@example.com")
    game_url = reverse("game", args=[game.pk])
    assert site_path(page.url) == game_url and game.status == Game.Status.ACTIVE
    bots = sorted(player_names(game).values())[1:]  # "Ana" first
    assert len(set(bots)) == 2 and all(name.endswith(" (easy bot)") for name in bots), bots

    answers: list[str] = []
    deadline = time.monotonic() + GAME_SECONDS
    while True:
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        assert time.monotonic() < deadline, f"the game (version {game.version}) did not end; Ana answered {answers}"
        page.goto(game_url)
        options = decision_options(page)
        if not options:  # a bot's turn: the worker answers it
            time.sleep(0.3)
            continue
        command = _choose(options)
        answers.append(next(o["label"] for o in options if o["command"] == command))
        before = game.version
        click_option(page, command)
        game.refresh_from_db()
        assert game.version > before, f"Ana's answer {answers[-1]!r} changed nothing: {page_messages(page)!r}"

    assert answers, "Ana never had a decision to make"
    page.goto(game_url)
    winner = player_names(game)[game.seats.get(user=game.winner).player]
    expected = "You won the game!" if winner == "Ana" else f"{winner} won the game."
    assert page.locator(".banner--over").inner_text().strip() == expected
    assert page.locator("section.decisions").count() == 0
    assert f"{'You' if winner == 'Ana' else winner} won the game!" in page.locator("section.history").inner_text()
