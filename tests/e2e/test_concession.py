"""Challenged without the card, a player answers once in the browser: "concede and
lose your Contessa" plays the concession and the loss, and the history tells it in
one line. On a desktop in English and on a phone in Spanish."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.selectors import game_state
from games.services import play
from tests.e2e.helpers import log_in
from tests.players import PASSWORD, awaited, coup_deals, make_player, started_game

WITHOUT_THE_DUKE = {"p1": ["captain", "contessa"], "p2": ["assassin", "captain"], "p3": ["ambassador", "assassin"]}


@pytest.mark.parametrize(
    ("phone", "language", "buttons", "told", "told_to_ben"),
    [
        (
            False,
            "en",
            ["Concede and lose your Captain — your Tax fails", "Concede and lose your Contessa — your Tax fails"],
            "You did not prove the Duke and lost an influence: Contessa.",
            "Ana did not prove the Duke and lost an influence: Contessa.",
        ),
        (
            True,
            "es",
            [
                "Ceder y perder tu carta Capitán — tu acción Impuestos falla",
                "Ceder y perder tu carta Condesa — tu acción Impuestos falla",
            ],
            "No probaste la carta Duque y perdiste una influencia: Condesa.",
            "Ana did not prove the Duke and lost an influence: Contessa.",
        ),
    ],
)
def test_challenged_without_the_card_the_player_answers_once(
    new_page, live_server, monkeypatch, phone, language, buttons, told, told_to_ben
):
    ana, ben, cai = make_player("Ana", language), make_player("Ben"), make_player("Cai")
    coup_deals(monkeypatch, WITHOUT_THE_DUKE)
    game = started_game(ana, ben, cai)
    play.decision_submit(game=game, user=ana, command={"act": "tax"}, version=awaited(game)["p1"][1])
    play.decision_submit(game=game, user=ben, command={"act": "challenge"}, version=awaited(game)["p2"][1])

    page = new_page(phone=phone, locale=language, extra_http_headers={"Accept-Language": language})
    log_in(page, live_server, ana.email, PASSWORD)
    page.goto(f"/games/{game.pk}/")
    choices = page.locator("section.decisions button")
    assert [text.strip() for text in choices.all_inner_texts()] == buttons
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page scrolls sideways"

    choices.filter(has_text=buttons[1]).click()
    expect(page.locator("section.history")).to_contain_text(told)
    expect(page.locator("section.decisions button")).to_have_count(0)  # nothing more is asked of Ana
    state = game_state(Game.objects.get(pk=game.pk))
    assert state.by_name["p1"].revealed == ["contessa"] and state.by_name["p1"].hand == ["captain"]
    assert [name for name in awaited(game)] == ["p2"]

    ben_page = new_page(phone=not phone)
    log_in(ben_page, live_server, ben.email, PASSWORD)
    ben_page.goto(f"/games/{game.pk}/")
    history = ben_page.locator("section.history")
    expect(history).to_contain_text(told_to_ben)
    expect(history).not_to_contain_text("conceded")
