"""Who did what, in a real browser at desktop and phone widths, in English and in
Spanish: the bots of a practice game each have a name of their own in the seats,
the history and the target picker; and a game where a bot stood in for a player
who then came back tells each move under the name of whoever made it, before
and after the return."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation
from playwright.sync_api import expect

from games.kinds import KINDS
from games.models import Game
from games.selectors import game_state, player_names
from games.services import bots, play
from tests.e2e.helpers import log_in
from tests.players import PASSWORD, awaited, make_player, started_game, until_turn_of

LEVEL_WORDS = {"en": "(easy bot)", "es": "(bot fácil)"}
LOCALES = {"en": "en-US", "es": "es-ES"}


def _signed_in(new_page, live_server, user, *, phone: bool, language: str):
    page = new_page(phone=phone, locale=LOCALES[language], extra_http_headers={"Accept-Language": language})
    log_in(page, live_server, user.email, PASSWORD)
    return page


@pytest.mark.parametrize("phone, language", [(False, "en"), (True, "es")], ids=["desktop-en", "phone-es"])
def test_the_three_bots_of_a_practice_game_are_named_apart_everywhere(new_page, live_server, phone, language):
    ana = make_player("Ana", language)
    game = bots.practice_start(host=ana, seat_count=4, level="easy")
    you = game.seats.get(user=ana).player
    until_turn_of(game, you)  # the bots before her play their turns
    with translation.override(language):
        names = player_names(game)
    bot_names = sorted(name for player, name in names.items() if player != you)
    assert len(set(bot_names)) == 3 and all(name.endswith(LEVEL_WORDS[language]) for name in bot_names)

    page = _signed_in(new_page, live_server, ana, phone=phone, language=language)
    page.goto(f"/games/{game.pk}/")
    seats = page.locator(".seat:not(.seat--you) .seat__name").all_inner_texts()
    assert sorted(seats) == bot_names
    history = page.locator("section.history").inner_text()
    assert all(name in history for name in bot_names), history

    with page.expect_navigation():
        page.locator("section.decisions form.pick button[value='steal']").click()
    targets = page.locator("section.decisions button").all_inner_texts()
    assert len(targets) == 3
    assert sorted(next(name for name in bot_names if name in target) for target in targets) == bot_names, targets


def _expire(game) -> None:
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()
    assert play.deadline_expire(game=game, version=game.version)


def _income(game, user, player) -> None:
    version = awaited(game)[player][1]  # the game read again
    options = KINDS[game.kind].rules.options(game_state(game), player)
    [income] = [option for option in options if option["act"] == "income"]
    play.decision_submit(game=game, user=user, command=income, version=version)


def _history(page) -> list[str]:
    """The history's lines in the order they happened (the page lists the latest turn first)."""
    turns = page.locator("section.history ol.turn").evaluate_all(
        "turns => turns.map(turn => [...turn.querySelectorAll('li')].map(line => line.innerText.trim()))"
    )
    return [line for turn in reversed(turns) for line in turn]


def test_a_stand_in_and_a_return_read_right_before_and_after(new_page, live_server):
    ana, ben, cai = make_player("Ana"), make_player("Ben", "es"), make_player("Cai")
    game = started_game(ana, ben, cai, takeover=1)
    until_turn_of(game, "p2")
    _expire(game)  # Ben lets his turn pass: his bot takes over, and answers at once from now on
    _income(game, cai, "p3")
    until_turn_of(game, "p3")  # Ana's turn, then Ben's bot's

    cai_page = _signed_in(new_page, live_server, cai, phone=False, language="en")
    cai_page.goto(f"/games/{game.pk}/")
    expect(cai_page.locator(".seat[data-player='p2'] .seat__name")).to_have_text("Ben's bot (easy)")
    before = _history(cai_page)
    timeout = before.index("Time ran out for Ben: Ben took Income.")
    assert before[timeout - 1] == "Turn 2 — Ben."
    assert before[timeout + 1] == "Ben missed their deadlines: Ben's bot (easy) plays for them."
    by_the_bot = before[timeout + 2 :]
    assert "Turn 5 — Ben's bot (easy)." in by_the_bot, by_the_bot
    assert not any(line.startswith("Ben ") for line in by_the_bot), by_the_bot

    ben_page = _signed_in(new_page, live_server, ben, phone=True, language="es")
    ben_page.goto(f"/games/{game.pk}/")
    assert "Bot de Ben (fácil)" in ben_page.locator("section.history").inner_text()
    with ben_page.expect_navigation():
        ben_page.get_by_role("button", name="He vuelto").click()
    expect(ben_page.locator("section.history")).to_contain_text("Ben ha vuelto.")
    expect(ben_page.locator(".seat--you .seat__name")).not_to_contain_text("Bot de Ben")
    assert "Bot de Ben (fácil)" in ben_page.locator("section.history").inner_text()  # what the bot did stays its

    assert awaited(game)["p3"][0] == "turn"
    cai_page.goto(f"/games/{game.pk}/")
    expect(cai_page.locator(".seat[data-player='p2'] .seat__name")).to_have_text("Ben")
    after = _history(cai_page)
    assert after[: len(before)] == before  # nothing told before is told again otherwise
    assert after[len(before) :] == ["Ben is back."]
