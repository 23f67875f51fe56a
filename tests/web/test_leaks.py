"""Hidden information, tested like security code: random games played through the
services, every page and partial rendered for every seat along the way. No page
holds another seat's face-down card, the court deck's order, or a future draw.

Templates mark the viewer's own face-down cards (and cards drawn in an exchange)
with ``data-card``, lost cards with ``data-revealed`` and a card shown in an
examination with ``data-shown``; other seats' face-down cards are card backs
with no attribute at all. So: the ``data-card`` values of a page must be exactly
the viewer's own hidden cards.

The game page holds the live partial (the same template block, rendered from the
same table) and the table talk, so it and the home page are checked along the
whole game; the partials themselves, as the page's polling fetches them, every
few checks and at the end.
"""

import json
import random
import re
from collections import Counter

import pytest
from django.test import Client
from django.urls import reverse

from games.kinds import KINDS
from games.kinds.coup.words.names import card_name
from games.mail import emails
from games.models import Game
from games.selectors import game_state
from games.services import play
from tests.web.conftest import make_player, started_game

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Cai", "Dora", "Eli", "Fay", "Gus"]


# Checks between two on which the partials are fetched too.
PARTIALS_EVERY = 4


def rendered_pages(client: Client, game: Game, partials: bool) -> dict:
    """The pages a seated player can fetch for ``game`` and, with ``partials``, the
    partials too."""
    pages = {
        "game": client.get(reverse("game", args=[game.pk])),
        "home": client.get("/"),
    }
    if partials:
        pages |= {
            "live": client.get(reverse("game_live", args=[game.pk]), {"since": "none"}),
            "live-htmx": client.get(
                reverse("game_live", args=[game.pk]), {"since": "none"}, headers={"HX-Request": "true"}
            ),
            "chat": client.get(reverse("game_chat", args=[game.pk])),
        }
    return pages


def spectator_pages(client: Client, game: Game, partials: bool) -> dict:
    """The pages a spectator can fetch for ``game`` (public) and, with ``partials``,
    the partials its polling fetches."""
    pages = {"watch": client.get(reverse("game_watch", args=[game.pk])), "watch-list": client.get("/games/watch/")}
    if partials:
        pages |= {
            "watch-live": client.get(reverse("game_watch_live", args=[game.pk]), {"since": "none"}),
            "watch-live-htmx": client.get(
                reverse("game_watch_live", args=[game.pk]), {"since": "none"}, headers={"HX-Request": "true"}
            ),
            "watch-chat": client.get(reverse("game_watch_chat", args=[game.pk])),
        }
    return pages


def assert_nothing_hidden_leaks(
    game: Game, clients: dict, check_court_names: bool, partials: bool = True, spectators: tuple = ()
):
    state = game_state(game)
    court = list(state.court)
    forbidden = [json.dumps(court), ",".join(court), json.dumps(list(state.aside))] if court else []
    if check_court_names and len(court) >= 3:
        forbidden.append(", ".join(card_name(card) for card in court))
    examination = state.action and state.action.shown is not None
    for seat in game.seats.all():
        player = state.by_name[seat.player]
        own_hidden = Counter(player.hand + player.drawn)
        for name, response in rendered_pages(clients[seat.user_id], game, partials).items():
            assert response.status_code in (200, 204, 286), (name, response.status_code)
            html = response.content.decode()
            where = f"{name} page of {seat.player} at version {game.version}"
            assert "<!--" not in html, where
            assert Counter(re.findall(r'data-card="(\w+)"', html)) == (
                own_hidden if name != "home" and name != "chat" else Counter()
            ), where
            for text in forbidden:
                if len(court) >= 2:
                    assert text not in html, (where, text)
            if re.search(r"data-shown=", html):
                assert examination and seat.player in (state.action.actor, state.action.target), where
            assert '"secret"' not in html and "seen_by" not in html, where
            # Hands are turned face up for everyone only once the game is over.
            assert ("data-final-hand" in html) <= (game.status == Game.Status.FINISHED), where
    # A spectator sees the public view: no face-down card of anyone, no examination.
    for number, spectator in enumerate(spectators):
        for name, response in spectator_pages(spectator, game, partials).items():
            assert response.status_code in (200, 204, 286), (name, response.status_code)
            html = response.content.decode()
            where = f"{name} page of spectator {number} at version {game.version}"
            assert "<!--" not in html, where
            assert "data-card=" not in html and "data-shown=" not in html, where
            for text in forbidden:
                if len(court) >= 2:
                    assert text not in html, (where, text)
            assert '"secret"' not in html and "seen_by" not in html, where
            assert ("data-final-hand" in html) <= (game.status == Game.Status.FINISHED), where


@pytest.mark.parametrize(
    "variants, players, seed",
    [
        ((), 3, 1),
        (("inquisitor", "factions"), 4, 2),
        (("lawyer", "patron"), 3, 3),
        (("declared_coup", "declared_assassination"), 3, 4),
        (("two_player_draft",), 2, 5),
        (("inquisitor",), 3, 6),
        ((), 7, 7),
    ],
)
def test_no_page_shows_another_seats_cards_or_the_court(variants, players, seed, smtp):
    users = [make_player(name) for name in NAMES[:players]]
    game = started_game(users[0], *users[1:], variants=variants, first="random", visibility=Game.Visibility.PUBLIC)
    clients = {}
    for user in users:
        clients[user.pk] = Client()
        clients[user.pk].force_login(user)
    play.chat_post(game=game, user=users[1], text="I hold a Duke, honestly.")
    # Two spectators, one signed out and one signed in who follows the game.
    follower = make_player("Zed")
    spectators = (Client(), Client())
    spectators[1].force_login(follower)
    spectators[1].post(reverse("game_follow", args=[game.pk]))
    spectators[1].post(reverse("game_watch_chat", args=[game.pk]), {"text": "Ana bluffs."})
    seats = {seat.player: seat.user for seat in game.seats.all()}
    rules = KINDS[game.kind].rules
    rng = random.Random(seed)
    check_court_names = "two_player_draft" not in variants
    decisions = 0
    while game.status == Game.Status.ACTIVE and decisions < 400:
        if decisions % 3 == 0:
            check = decisions // 3
            assert_nothing_hidden_leaks(
                game, clients, check_court_names, partials=check % PARTIALS_EVERY == 0, spectators=spectators
            )
        state = game_state(game)
        player, _kind, version = rng.choice(rules.awaiting(state))
        play.decision_submit(
            game=game, user=seats[player], command=rng.choice(rules.options(state, player)), version=version
        )
        game.refresh_from_db()
        decisions += 1
    assert_nothing_hidden_leaks(game, clients, check_court_names, spectators=spectators)
    assert game.status == Game.Status.FINISHED
    # The follower's email (queued when the game ends: tests/web/test_spectators.py): the result, never a hand.
    emails.send_followed_result(game.pk)
    [mail] = smtp.to(follower.email)
    assert "Game over" in mail.subject
    assert "data-card" not in mail.html and "data-final-hand" not in mail.html and "<!--" not in mail.html
    every_card = {card for seat in state.players for card in seat.hand + seat.revealed}
    assert not any(card_name(card) in mail.text for card in every_card)
