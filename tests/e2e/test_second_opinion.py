"""A second opinion in a real browser: on a finished game's replay, Ana goes to a
step where she had a decision to make, asks what the strong bot would have done,
sees it being thought about, then (a real Celery worker weighs it) the bot's
choice and each option's score, on a page axe finds no serious fault with. In
English and Spanish on a desktop, in Portuguese on a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import SecondOpinion
from tests.e2e import axe
from tests.e2e.helpers import log_in
from tests.players import PASSWORD, make_player, play_to_the_end, started_game

WEIGHED_SECONDS = 60  # the worker also sends the game's emails first


def _finished_game(*users):
    game = started_game(*users)
    play_to_the_end(game, 8)
    return game


def _asks_a_second_opinion(page, game, words: dict) -> None:
    page.goto(f"/games/{game.pk}/replay/?step=1")
    decided = page.locator(".replay__lines li:has(.replay__decided) a").first
    wanted = decided.get_attribute("href").split("=")[-1]
    decided.scroll_into_view_if_needed()
    decided.click()
    expect(page.locator("#replay")).to_have_attribute("data-step", wanted)
    panel = page.locator(".replay__opinions")
    expect(panel.get_by_role("heading")).to_have_text(words["heading"])
    opinion = panel.locator(".second-opinion").first
    version = int(opinion.get_attribute("data-version"))
    opinion.get_by_role("button", name=words["ask"]).click()
    expect(page.locator(f"#opinion-{version}").get_by_role("status")).to_have_text(words["thinking"])

    choice = page.locator(f"#opinion-{version} .second-opinion__choice")
    expect(choice).to_contain_text(words["chosen"], timeout=WEIGHED_SECONDS * 1000)
    stored = SecondOpinion.objects.get(game=game, version=version)
    scores = page.locator(f"#opinion-{version} .second-opinion__scores li")
    expect(scores).to_have_count(len(stored.weighed))
    # Spanish writes a space before the percent sign ("33 %").
    shown = [re.fullmatch(r"(.+): (\d+)\s?%", text) for text in scores.all_inner_texts()]
    assert all(shown), scores.all_inner_texts()
    assert [int(match[2]) for match in shown] == [round(100 * weighed["score"]) for weighed in stored.weighed]
    best = page.locator(f"#opinion-{version} .second-opinion__best")
    expect(best).to_have_count(1)
    assert choice.inner_text().endswith(shown[[m[0] for m in shown].index(best.inner_text())][1])
    # Back on the same step later, the opinion is there at once: it is kept.
    page.reload()
    expect(page.locator(f"#opinion-{version} .second-opinion__choice")).to_contain_text(words["chosen"])
    assert SecondOpinion.objects.filter(game=game).count() == 1
    assert axe.violations(page) == []


LANGUAGES = {
    # language: (on a phone?, the words read on the page)
    "en": (
        False,
        {
            "heading": "Your decision here: a second opinion",
            "ask": "What would the strong bot have done?",
            "thinking": "The strong bot is thinking about this decision…",
            "chosen": "The strong bot would have chosen:",
        },
    ),
    "es": (
        False,
        {
            "heading": "Tu decisión aquí: una segunda opinión",
            "ask": "¿Qué habría hecho el bot fuerte?",
            "thinking": "El bot fuerte está pensando en esta decisión…",
            "chosen": "El bot fuerte habría elegido:",
        },
    ),
    "pt-br": (
        True,
        {
            "heading": "Sua decisão aqui: uma segunda opinião",
            "ask": "O que o bot forte teria feito?",
            "thinking": "O bot forte está pensando nesta decisão…",
            "chosen": "O bot forte teria escolhido:",
        },
    ),
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_player_asks_the_strong_bots_opinion_on_a_replay(language, new_page, live_server, celery_worker):
    phone, words = LANGUAGES[language]
    ana, ben, cai = make_player("Ana", language=language), make_player("Ben"), make_player("Cai")
    game = _finished_game(ana, ben, cai)
    page = new_page(phone=phone)
    log_in(page, live_server, ana.email, PASSWORD)
    _asks_a_second_opinion(page, game, words)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
