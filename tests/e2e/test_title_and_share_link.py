"""The tab's title counts the games waiting for the reader, on every page, and the
game page's poll keeps the count up to date; the waiting room copies its share
link with a button. In a real browser, on a desktop in English and on a phone in
Spanish."""

from __future__ import annotations

from playwright.sync_api import expect

from games.services import play
from tests.e2e.helpers import log_in
from tests.players import PASSWORD, awaited, gathering_game, make_player, started_game


def test_the_title_counts_the_games_waiting_and_the_poll_updates_it(new_page, live_server):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    game = started_game(ana, ben)  # Ana plays first
    started_game(ben, cai)  # nothing for Ana
    page = new_page()
    log_in(page, live_server, ana.email, PASSWORD)
    expect(page).to_have_title("(1) Coup by email")  # the dashboard
    page.goto("/accounts/profile/")
    assert page.title().startswith("(1) ")
    page.goto(f"/games/{game.pk}/")
    expect(page).to_have_title(f"(1) Your move · Game #{game.pk} · Coup")
    started_game(ana, cai)  # another game waits for Ana: this one did not change, the poll tells
    expect(page).to_have_title(f"(2) Your move · Game #{game.pk} · Coup", timeout=15_000)


def test_nothing_waiting_is_no_count_and_it_follows_the_moves_on_a_phone_in_spanish(new_page, live_server):
    ana, ben = make_player("Ana", language="es"), make_player("Ben")
    game = started_game(ben, ana)  # Ben plays first
    page = new_page(phone=True)
    log_in(page, live_server, ana.email, PASSWORD)
    page.goto(f"/games/{game.pk}/")
    expect(page).to_have_title(f"Partida n.º {game.pk} · Coup")
    play.decision_submit(game=game, user=ben, command={"act": "income"}, version=awaited(game)["p1"][1])
    expect(page).to_have_title(f"(1) Te toca · Partida n.º {game.pk} · Coup", timeout=15_000)


def test_the_share_link_is_copied_with_clipboard_permission(new_context, live_server):
    ana = make_player("Ana")
    game = gathering_game(ana, seats=3)
    context = new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    log_in(page, live_server, ana.email, PASSWORD)
    page.goto(f"/games/{game.pk}/")
    link = page.get_by_label("Shareable link").input_value()
    assert game.join_token in link
    page.get_by_role("button", name="Copy the link").click()
    expect(page.get_by_role("status")).to_have_text("Copied: paste it in a message to your friends.")
    assert page.evaluate("navigator.clipboard.readText()") == link


def test_without_a_clipboard_the_link_is_selected_quietly_on_a_phone_in_spanish(new_context, live_server):
    ana = make_player("Ana", language="es")
    game = gathering_game(ana, seats=3)
    page = new_context(phone=True).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    log_in(page, live_server, ana.email, PASSWORD)
    page.goto(f"/games/{game.pk}/")
    # The clipboard is taken away, as on a page served without HTTPS.
    page.evaluate("Object.defineProperty(navigator, 'clipboard', {value: undefined})")
    page.get_by_role("button", name="Copiar el enlace").click()
    expect(page.get_by_role("status")).to_have_text(
        "El enlace está seleccionado: cópialo con el teclado o con el menú."
    )
    field = page.get_by_label("Enlace para compartir")
    selected = field.evaluate("f => f.value.slice(f.selectionStart, f.selectionEnd)")
    assert selected == field.input_value() and errors == []
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
