"""Garbage in forms and URLs gets a clear message or a 404, never a 500, and
changes nothing."""

import pytest
from django.urls import reverse

from games.models import Game

from .conftest import awaited, gathering_game

CURRENT = "{current}"  # replaced by the version of the decision awaited now
BAD = [
    {},
    {"command": "not json", "version": CURRENT},
    {"command": '{"act": "income"}', "version": "abc"},
    {"command": '{"act": "income"}'},
    {"command": '["a list"]', "version": CURRENT},
    {"command": "null", "version": CURRENT},
    {"command": '{"act": {"x": 1}}', "version": CURRENT},
    {"command": '{"act": "nonsense"}', "version": CURRENT},
    {"command": '{"act": "steal", "target": "p9"}', "version": CURRENT},
    {"command": '{"act": "steal", "target": ["p2"]}', "version": CURRENT},
    {"command": '{"act": "coup", "target": "p2"}', "version": CURRENT},
    {"command": '{"act": "income"}', "version": "99999999999999999999"},
]


@pytest.mark.parametrize("data", BAD)
def test_garbage_decisions_get_a_message_and_change_nothing(client, game, ana, data):
    current = str(awaited(game)["p1"][1])
    data = {key: current if value == CURRENT else value for key, value in data.items()}
    client.force_login(ana)
    before = Game.objects.get(pk=game.pk).version
    response = client.post(reverse("game_decide", args=[game.pk]), data, follow=True)
    assert response.status_code == 200
    assert 'role="alert"' in response.content.decode() or "message--error" in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == before


@pytest.mark.parametrize(
    "path",
    ["/a/garbage/", "/a/%00/", "/unsubscribe/x/", "/join/zzz/", "/invitations/zzz/", "/games/999999/",
     "/games/999999/table", "/games/999999/replay/?step=abc"],
)
def test_garbage_urls_never_fail(client, ana, path):
    client.force_login(ana)
    assert client.get(path).status_code < 500
    assert client.post(path).status_code < 500


def test_garbage_replay_steps_never_fail(client, game, ana):
    client.force_login(ana)
    for step in ("abc", "-5", "99999999999999999999"):
        assert client.get(f"/games/{game.pk}/replay/?step={step}").status_code < 500


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"kind": "chess", "seat_count": "3", "time_control": "day", "first": "random"},
        {"kind": "coup", "seat_count": "abc", "time_control": "day", "first": "random"},
        {"kind": "coup", "seat_count": "99", "time_control": "day", "first": "random"},
        {"kind": "coup", "seat_count": "3", "variants": ["nonsense"], "time_control": "day", "first": "random"},
        {"kind": "coup", "seat_count": "3", "variants": ["two_player_draft"], "time_control": "day", "first": "random"},
        {"kind": "kobayakawa", "seat_count": "2", "time_control": "day", "first": "random"},
        {"kind": "coup", "seat_count": "3", "time_control": "forever", "first": "random"},
        {"kind": "coup", "seat_count": "3", "time_control": "day", "first": "someone"},
    ],
)
def test_a_bad_game_form_is_shown_again_and_creates_nothing(client, ana, data):
    client.force_login(ana)
    before = Game.objects.count()
    response = client.post(reverse("game_create"), data)
    assert response.status_code == 200  # the form again, with its errors
    assert Game.objects.count() == before


def test_bad_invitations_change_nothing(client, ana, ben):
    gathering = gathering_game(ana, ben, seats=3)
    client.force_login(ana)
    for email in ("", "not-an-address", "a" * 500 + "@example.com"):
        assert client.post(reverse("game_invite", args=[gathering.pk]), {"email": email}, follow=True).status_code == 200
    assert gathering.invitations.count() == 0


def test_bad_table_talk_changes_nothing(client, game, ana):
    client.force_login(ana)
    for text in ("", "   ", "x" * 5000):
        assert client.post(reverse("game_chat", args=[game.pk]), {"text": text}, follow=True).status_code == 200
    assert game.chat.count() == 0
