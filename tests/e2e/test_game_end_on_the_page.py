"""The end of a game as the open page shows it, in a real browser: the move that
ends it (the reader's own click, or another player's move brought by the poll)
takes away the controls of a game in play ("Play for me", "Resign") without a
reload, and every seat's last cards are face up, the reader's own too. On a
desktop in English, on a phone in Portuguese."""

from __future__ import annotations

import random

from playwright.sync_api import expect

from games.kinds import KINDS
from games.models import Game
from games.selectors import game_state
from games.services import play
from tests.e2e.helpers import click_option, log_in
from tests.players import PASSWORD, make_player, started_game


def _ends_the_game(game, player: str, command: dict, version: int) -> bool:
    rules = KINDS[game.kind].rules
    trial = rules.load(game.snapshot)  # a copy of the game as it stands
    rules.play(trial, player, {**command, "version": version})
    return rules.is_over(trial)


def _one_move_from_the_end(users: dict, ender: str, rng: random.Random) -> tuple[Game, dict] | None:
    """A two-player game played at random through the services until ``ender``
    (a player name) has a move that ends it: the game and that move; None if the
    other player ended it first."""
    game = started_game(*users.values())
    by_player = {seat.player: seat.user for seat in game.seats.all()}
    rules = KINDS[game.kind].rules
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return None
        moves = [
            (player, command, version)
            for player, _kind, version in rules.awaiting(game_state(game))
            for command in rules.options(game_state(game), player)
        ]
        ending = [move for move in moves if _ends_the_game(game, *move)]
        mine = [move for move in ending if move[0] == ender]
        if mine:
            return game, mine[0][1]
        player, command, version = rng.choice([move for move in moves if move not in ending] or moves)
        play.decision_submit(game=game, user=by_player[player], command=command, version=version)


def _game_one_move_from_the_end(ana, ben, ender: str) -> tuple[Game, dict]:
    rng = random.Random(7)
    for _attempt in range(20):
        found = _one_move_from_the_end({"p1": ana, "p2": ben}, ender, rng)
        if found:
            return found
    raise AssertionError(f"no game came one move from {ender} ending it")


def _expect_the_end_without_a_reload(page, resign: str, stand_in: str) -> None:
    expect(page.locator(".banner--over")).to_be_visible(timeout=15_000)
    assert page.evaluate("window.sameDocument") is True, "the page was reloaded"
    expect(page.locator("summary", has_text=resign)).to_have_count(0)
    expect(page.get_by_role("button", name=stand_in)).to_have_count(0)
    # Every seat still holding cards shows them face up, the reader's own seat too.
    for seat in page.locator(".seat:not(.seat--out)").all():
        expect(seat.locator("[data-final-hand] .card")).not_to_have_count(0)
        expect(seat.locator(".card--back")).to_have_count(0)


def test_my_own_final_move_takes_the_controls_away_on_a_desktop(new_page, live_server):
    ana, ben = make_player("Ana"), make_player("Ben")
    game, ending = _game_one_move_from_the_end(ana, ben, "p1")
    page = new_page()
    log_in(page, live_server, ana.email, PASSWORD)
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("summary", has_text="Resign")).to_be_visible()
    expect(page.get_by_role("button", name="Play for me until I'm back")).to_be_visible()
    page.evaluate("window.sameDocument = true")
    click_option(page, ending)
    _expect_the_end_without_a_reload(page, "Resign", "Play for me until I'm back")


def test_the_other_players_final_move_takes_them_away_on_a_phone_in_portuguese(new_page, live_server):
    ana, ben = make_player("Ana", language="pt-br"), make_player("Ben")
    game, ending = _game_one_move_from_the_end(ana, ben, "p2")
    page = new_page(phone=True)
    log_in(page, live_server, ana.email, PASSWORD)
    page.goto(f"/games/{game.pk}/")
    resign = page.locator("#game-controls summary").last.inner_text()
    stand_in = page.locator("#stand-in button").inner_text()
    page.evaluate("window.sameDocument = true")
    version = dict((p, v) for p, _k, v in KINDS[game.kind].rules.awaiting(game_state(game)))["p2"]
    play.decision_submit(game=game, user=ben, command=ending, version=version)
    _expect_the_end_without_a_reload(page, resign, stand_in)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
