"""Cards are told apart without colour: a reader who cannot see colours (or a screen
reader) tells every card from every other by its words and its emblem: each face-up
card names its character (Kobayakawa: shows its number), a lost card says so and is
struck through, and a face-down card is a patterned back named "face-down card"."""

from __future__ import annotations

import random

import pytest

from games.models import Game
from tests.e2e.helpers import log_in
from tests.players import PASSWORD, make_player, play_randomly, started_game

# Each card as a reader meets it: its words (not its ability's, which only big cards
# spell out), its emblem, its pattern and its strike-through.
CARDS = """() => [...document.querySelectorAll(".card")].map(card => {
    const style = getComputedStyle(card);
    const words = card.cloneNode(true);
    words.querySelectorAll(".card__ability").forEach(ability => ability.remove());
    const strike = getComputedStyle(card, "::after");
    return {
        character: card.dataset.card || card.dataset.revealed || card.dataset.shown || card.dataset.character || null,
        lost: "revealed" in card.dataset,
        back: card.classList.contains("card--back"),
        text: words.textContent.replace(/\\s+/g, " ").trim(),
        label: card.getAttribute("role") === "img" ? card.getAttribute("aria-label") : null,
        pattern: style.backgroundImage,
        struck: strike.content !== "none" && strike.borderTopStyle === "solid",
        emblem: card.querySelector(".card__emblem use")?.getAttribute("href") || null,
        kobayakawa: card.classList.contains("kcard"),
    };
})"""


def _coup_game_with_a_lost_card():
    ana, ben, cai = (make_player(name, "es") for name in ("Ana", "Ben", "Cai"))
    game = started_game(ana, ben, cai)
    for played in play_randomly(game, random.Random(13)):
        if played.events.filter(type="coup.influence.lost").exists():
            break
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE, "the game must still be played"
    return ana, game


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_coup_cards_are_told_apart_by_their_words_and_emblems(new_page, live_server, phone):
    ana, game = _coup_game_with_a_lost_card()
    page = new_page(phone=phone)
    log_in(page, live_server, ana.email, PASSWORD)
    page.goto(f"/games/{game.pk}/")
    cards = page.evaluate(CARDS)

    faces = [card for card in cards if not card["back"]]
    assert any(card["lost"] for card in faces), "the page shows a lost card"
    texts = {}
    for card in faces:
        texts.setdefault((card["character"], card["lost"]), set()).add(card["text"])
    # Each kind of card (character, lost or not) always reads the same, and no two kinds alike.
    assert all(len(words) == 1 for words in texts.values()), texts
    readings = {kind: words.pop() for kind, words in texts.items()}
    assert len(set(readings.values())) == len(readings), readings
    assert all(card["text"] for card in faces)
    assert all(card["struck"] for card in faces if card["lost"]), "a lost card is struck through"
    emblems = {card["character"]: card["emblem"] for card in faces}
    assert len(set(emblems.values())) == len(emblems), f"each character has its own emblem: {emblems}"
    assert page.evaluate("ids => ids.every(id => document.querySelector(id))", list(emblems.values()))
    backs = [card for card in cards if card["back"]]
    assert backs and all(card["label"] == "carta boca abajo" and "gradient" in card["pattern"] for card in backs)


def test_kobayakawa_cards_show_their_numbers(page, live_server):
    ana, ben, cai = (make_player(name) for name in ("Ana", "Ben", "Cai"))
    game = started_game(ana, ben, cai, kind="kobayakawa")
    log_in(page, live_server, ana.email, PASSWORD)
    page.goto(f"/games/{game.pk}/")
    cards = page.evaluate(CARDS)

    faces = [card for card in cards if not card["back"]]
    assert len(faces) >= 2  # her own card and the Kobayakawa card
    assert all(card["text"].isdigit() and 1 <= int(card["text"]) <= 15 for card in faces), faces
    assert len({card["text"] for card in faces}) == len(faces)
    backs = [card for card in cards if card["back"]]
    assert backs and all(card["label"] == "face-down card" and "gradient" in card["pattern"] for card in backs)
