"""One-click answer links: GET shows, POST acts; bad links change nothing."""

import re
from datetime import timedelta

import pytest
from django.core import signing
from django.urls import reverse

from games.kinds import KINDS
from games.mail.tokens import ANSWER_SALT, answer_token, read_reply_address, reply_address
from games.models import Game, Seat
from games.selectors import game_state
from tests.players import awaited
from tests.web.conftest import answer


@pytest.fixture
def ana_seat(game):
    return Seat.objects.get(game=game, position=0)


def link(seat, command, version=None):
    """The link for ``seat`` to answer ``command`` (a legal answer of the first
    player's current decision) to the decision asked at ``version``."""
    version = awaited(seat.game)["p1"][1] if version is None else version
    options = KINDS["coup"].rules.options(game_state(Game.objects.get(pk=seat.game_id)), "p1")
    return reverse("answer", args=[answer_token(seat, version, options.index(command))])


def version_of(game):
    return Game.objects.get(pk=game.pk).version


def test_get_shows_the_answer_and_changes_nothing(client, game, ana_seat):
    before = version_of(game)
    response = client.get(link(ana_seat, {"act": "income"}))
    assert response.status_code == 200
    assert "Confirm" in response.content.decode()
    assert version_of(game) == before


def test_post_plays_the_answer_without_signing_in(client, game, ana_seat):
    url = link(ana_seat, {"act": "income"})
    response = client.post(url)
    assert response.status_code == 200 and "Done" in response.content.decode()
    game.refresh_from_db()
    assert game_state(game).by_name["p1"].coins == 3


def test_a_used_link_says_the_decision_passed(client, game, ana_seat):
    url = link(ana_seat, {"act": "income"})
    client.post(url)
    before = version_of(game)
    for response in (client.get(url), client.post(url)):
        assert response.status_code == 409
        assert "already passed" in response.content.decode()
    assert version_of(game) == before


def hand_shown(response) -> list[str]:
    """The face-down cards a page shows as the viewer's own (``data-card``)."""
    return sorted(re.findall(r'data-card="(\w+)"', response.content.decode()))


def card_names(cards) -> list[str]:
    from games.kinds.coup.words.names import card_name

    return [card_name(card) for card in cards]


def test_a_live_link_shows_the_hand_its_answer_needs(client, game, ana_seat):
    response = client.get(link(ana_seat, {"act": "income"}))
    assert hand_shown(response) == sorted(game_state(Game.objects.get(pk=game.pk)).by_name["p1"].hand)


def test_a_used_link_shows_no_hand_and_sends_to_the_game(client, game, ana_seat):
    url = link(ana_seat, {"act": "income"})
    client.post(url)
    hand = game_state(Game.objects.get(pk=game.pk)).by_name["p1"].hand
    for response in (client.get(url), client.post(url)):
        html = response.content.decode()
        assert response.status_code == 409 and hand_shown(response) == []
        assert not any(name in html for name in card_names(hand)) and "Your hand" not in html
        assert f'href="{reverse("game", args=[game.pk])}"' in html
    # The game page asks whoever holds the link to sign in.
    opened = client.get(reverse("game", args=[game.pk]))
    assert opened.status_code == 302 and opened["Location"].startswith(reverse("account_login"))


def test_a_stale_link_shows_no_hand(client, game, ana_seat, ana, ben, cai):
    """A link to a decision that passed without it (another answer, a timeout):
    the seat's hand stays off the page, though the seat is awaited again."""
    url = link(ana_seat, {"act": "income"})
    answer(game, ana, {"act": "income"})
    answer(game, ben, {"act": "income"})
    answer(game, cai, {"act": "income"})  # Ana's turn again: a new decision, a new version
    response = client.get(url)
    assert response.status_code == 409 and hand_shown(response) == []


def test_the_confirmation_of_an_answer_tells_it_as_the_table_saw_it(client, game, ana_seat, ana, ben, cai):
    """Even an exchange, whose answer names the cards kept: the confirmation
    names none of them."""
    answer(game, ana, {"act": "exchange"})
    answer(game, ben, {"act": "allow"})
    answer(game, cai, {"act": "allow"})
    state = game_state(Game.objects.get(pk=game.pk))
    kind, version = awaited(game)["p1"]
    assert kind == "keep"
    options = KINDS["coup"].rules.options(state, "p1")
    asked = client.get(reverse("answer", args=[answer_token(ana_seat, version, 0)]))
    assert hand_shown(asked)  # the choice needs the cards in hand and drawn
    response = client.post(reverse("answer", args=[answer_token(ana_seat, version, 0)]))
    html = response.content.decode()
    assert response.status_code == 200 and "Done: your answer is played." in html
    assert "Ana chose the cards to keep and returned the others to the court deck." in html
    kept = game_state(Game.objects.get(pk=game.pk)).by_name["p1"].hand
    assert sorted(kept) == sorted(options[0]["cards"])
    assert hand_shown(response) == [] and not any(
        name in html for name in card_names(state.by_name["p1"].hand + state.by_name["p1"].drawn)
    )


def test_a_forged_link_is_refused(client, game, ana_seat):
    url = link(ana_seat, {"act": "income"})
    forged = url.replace("income", "incomf")
    before = version_of(game)
    response = client.post(forged[:-3] + "abc/")
    assert response.status_code == 400 and "not valid" in response.content.decode()
    assert version_of(game) == before


def test_an_edited_answer_in_a_link_is_refused(client, game, ana_seat):
    token = answer_token(ana_seat, awaited(game)["p1"][1], 0)
    payload, signature = token.rsplit(":", 1)
    tampered = signing.dumps({"g": game.pk, "s": ana_seat.pk, "v": 0, "o": 1}, salt="other")
    for bad in (tampered, payload + ":" + "x" * len(signature)):
        assert client.post(reverse("answer", args=[bad])).status_code == 400
    assert game_state(Game.objects.get(pk=game.pk)).by_name["p1"].coins == 2


def test_an_expired_link_is_refused(client, game, ana_seat, monkeypatch):
    url = link(ana_seat, {"act": "income"})
    monkeypatch.setattr("games.mail.tokens.ANSWER_MAX_AGE", timedelta(seconds=-1))
    response = client.post(url)
    assert response.status_code == 400 and "expired" in response.content.decode()
    assert game_state(Game.objects.get(pk=game.pk)).by_name["p1"].coins == 2


def test_a_link_for_another_seat_cannot_act_for_this_one(client, game):
    ben = Seat.objects.get(game=game, position=1)
    # Ben's link names Ben's seat: it can only ever answer for Ben, who is not awaited.
    response = client.post(link(ben, {"act": "income"}, version=awaited(game)["p1"][1]))
    assert response.status_code == 409
    assert game_state(Game.objects.get(pk=game.pk)).by_name["p1"].coins == 2


def test_a_link_to_an_answer_that_does_not_exist_changes_nothing(client, game, ana_seat):
    url = reverse("answer", args=[answer_token(ana_seat, awaited(game)["p1"][1], 99)])
    response = client.post(url)
    assert response.status_code == 409 and "already passed" in response.content.decode()
    assert game_state(Game.objects.get(pk=game.pk)).by_name["p1"].coins == 2


def test_a_link_names_its_answer_by_position_only(game, ana_seat):
    """Signed data is readable, and URLs reach access logs: a link must not spell
    out an answer such as "keep duke captain"."""
    token = answer_token(ana_seat, 5, 3)
    assert signing.loads(token, salt=ANSWER_SALT) == {"g": game.pk, "s": ana_seat.pk, "v": 5, "o": 3}


def test_reply_addresses_are_signed_per_seat(game, ana_seat):
    address = reply_address(ana_seat)
    assert read_reply_address(address) == (game.pk, 0)
    assert read_reply_address(re.sub(r"\.0\.", ".1.", address)) is None
    assert read_reply_address("play@localhost") is None
