"""Kobayakawa on the web: created from the form, played to the end through the
services, every page and partial rendered for every seat at every step, and a
leak test: a page marks only its viewer's own card (``data-card``) and cards the
engine has shown (``data-revealed``); the deck order never appears."""

import random
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.kinds import KINDS
from games.mail import emails
from games.models import Game
from games.selectors import game_state
from games.services import gathering, play


def _create(client, host, seats=3) -> Game:
    client.force_login(host)
    response = client.post(
        reverse("game_create"),
        {
            "kind": "kobayakawa",
            "seat_count": seats,
            "time_control": "day",
            "first": "host",
            "reminders": "on",
            "visibility": "public",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return Game.objects.get(host=host, kind="kobayakawa")


def test_the_create_form_checks_kobayakawas_seat_range(client, ana):
    client.force_login(ana)
    response = client.post(
        reverse("game_create"), {"kind": "kobayakawa", "seat_count": 7, "time_control": "day", "first": "host"}
    )
    assert response.status_code == 200
    assert "Kobayakawa is played by 3 to 6 players." in response.content.decode()
    assert not Game.objects.filter(kind="kobayakawa").exists()


def test_kobayakawa_refuses_coup_variants_ticked_on_the_form(client, ana):
    client.force_login(ana)
    response = client.post(
        reverse("game_create"),
        {"kind": "kobayakawa", "seat_count": 4, "time_control": "day", "first": "host", "variants": ["inquisitor"]},
    )
    assert response.status_code == 200
    assert (
        "Kobayakawa has no variant Inquisitor: untick it, or choose the game it belongs to."
        in response.content.decode()
    )
    assert not Game.objects.filter(kind="kobayakawa").exists()


def _pages(client, game, user) -> dict:
    client.force_login(user)
    pages = {
        "game": client.get(reverse("game", args=[game.pk])),
        "live": client.get(reverse("game_live", args=[game.pk])),
        "home": client.get(reverse("home")),
    }
    for name, response in pages.items():
        assert response.status_code == 200, (name, response.status_code)
    return {name: response.content.decode() for name, response in pages.items()}


def _spectator_pages(client, game) -> dict:
    """What a spectator fetches: the page, its live partial and its chats."""
    pages = {
        "watch": client.get(reverse("game_watch", args=[game.pk])),
        "watch-live": client.get(reverse("game_watch_live", args=[game.pk])),
        "watch-chat": client.get(reverse("game_watch_chat", args=[game.pk])),
    }
    for name, response in pages.items():
        assert response.status_code == 200, (name, response.status_code)
    return {name: response.content.decode() for name, response in pages.items()}


def _check_no_leak(html: str, state, player: str | None, where: str) -> None:
    """``player``: the viewer's seat; None for a spectator, who holds no card."""
    me = state.by_name[player] if player is not None else None
    own = {c for c in (me.card, me.drawn) if c is not None} if me is not None else set()
    marked = {int(v) for v in re.findall(r'data-card="(\d+)"', html)}
    assert marked <= own, f"{where}: data-card {marked} beyond the viewer's own {own}"
    over = KINDS["kobayakawa"].rules.is_over(state)  # then every card is face up
    shown = {p.card for p in state.players if (p.shown or over) and p.name != player}
    revealed = {int(v) for v in re.findall(r'data-revealed="(\d+)"', html)}
    assert revealed <= shown, f"{where}: data-revealed {revealed} beyond the shown cards {shown}"
    for other in state.players:
        if other.name != player and not other.shown and not over and other.card is not None:
            assert f'data-card="{other.card}"' not in html or other.card in own
            assert f'data-revealed="{other.card}"' not in html or other.card in shown
    assert "data-deck" not in html and "data-hand" not in html
    deck = list(state.deck)
    if len(deck) >= 4:
        for sep in (", ", ",", " "):
            assert sep.join(map(str, deck[:4])) not in html, f"{where}: the deck order shows"


@pytest.mark.parametrize("seed", [1, 2])
def test_a_kobayakawa_game_is_played_to_the_end_and_no_page_leaks(client, ana, ben, cai, dora, seed, smtp):
    game = _create(client, ana)
    spectator = Client()  # Dora, watching and following the game
    spectator.force_login(dora)
    spectator.post(reverse("game_follow", args=[game.pk]))
    for user in (ben, cai):
        gathering.seat_join(game=game, user=user, join_token=game.join_token)
    client.force_login(ana)
    waiting = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Kobayakawa" in waiting and "cards numbered 1 to 15" in waiting
    gathering.game_start(game=game, by=ana)
    users = {seat.player: seat.user for seat in game.seats.all()}
    rules = KINDS["kobayakawa"].rules
    rng = random.Random(seed)
    seen_labels = set()
    for step in range(400):
        game.refresh_from_db()
        state = game_state(game)
        for player, user in users.items():
            pages = _pages(client, game, user)
            for name, html in pages.items():
                _check_no_leak(html, state, player, f"step {step} {player} {name}")
            if player in state.awaiting:
                assert 'section class="decisions' in pages["game"]
                seen_labels.update(re.findall(r'option option--\w+">([^<]+)<', pages["game"]))
        for name, html in _spectator_pages(spectator, game).items():
            _check_no_leak(html, state, None, f"step {step} spectator {name}")
            assert "data-card=" not in html
        if game.status != Game.Status.ACTIVE:
            break
        player, _kind, version = rng.choice(rules.awaiting(state))
        command = rng.choice(rules.options(state, player))
        play.decision_submit(game=game, user=users[player], command=command, version=version)
    else:
        pytest.fail("the game did not end")
    assert game.status == Game.Status.FINISHED
    assert any(label.startswith("Bet") for label in seen_labels)
    assert any(label.startswith("Draw the top card") for label in seen_labels)
    html = _pages(client, game, ana)["game"]
    assert "won the game" in html or "share the win" in html or "You won the game!" in html
    assert "Watch the replay" in html
    emails.send_followed_result(game.pk)  # queued as the game ends (tests/web/test_spectators.py)
    [mail] = smtp.to(dora.email)
    assert "Game over" in mail.subject and "data-card" not in mail.html and "data-revealed" not in mail.html
    # The replay of the finished game shows every card, for every seat.
    for user in users.values():
        client.force_login(user)
        for step in (1, 10, 100000):
            response = client.get(reverse("game_replay", args=[game.pk]) + f"?step={step}")
            assert response.status_code == 200
        partial = client.get(reverse("game_replay", args=[game.pk]) + "?step=2", HTTP_HX_REQUEST="true")
        assert partial.status_code == 200 and b'id="replay"' in partial.content


def test_the_kobayakawa_table_shows_the_card_discards_medals_and_centre(client, ana, ben, cai):
    game = _create(client, ana)
    for user in (ben, cai):
        gathering.seat_join(game=game, user=user, join_token=game.join_token)
    gathering.game_start(game=game, by=ana)
    state = game_state(game)
    version = dict((p, v) for p, _k, v in KINDS["kobayakawa"].rules.awaiting(state))["p1"]
    play.decision_submit(game=game, user=ana, command={"act": "draw"}, version=version)
    game.refresh_from_db()
    state = game_state(game)
    me = state.by_name["p1"]
    version = dict((p, v) for p, _k, v in KINDS["kobayakawa"].rules.awaiting(state))["p1"]
    play.decision_submit(game=game, user=ana, command={"act": "discard", "card": me.drawn}, version=version)
    game.refresh_from_db()
    state = game_state(game)
    html = _pages(client, game, ben)["game"]
    assert f'data-kobayakawa="{state.kobayakawa}"' in html
    assert f'data-discard="{state.by_name["p1"].discards[0]}"' in html
    assert "Centre: 8 medals" in html and "4 medals" in html
    assert f'data-card="{state.by_name["p2"].card}"' in html
    assert "Ana discarded" in html
