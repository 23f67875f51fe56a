"""Garbage in forms and URLs gets a clear message or a 404, never a 500, and
changes nothing."""

import pytest
from django.urls import reverse

from games.models import Game
from games.services import gathering
from tests.players import make_staff
from tests.web.conftest import awaited, gathering_game

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
    # Deeper than the JSON parser's recursion limit, and just long.
    {"command": "[" * 100_000 + "]" * 100_000, "version": CURRENT},
    {"command": '{"act": "income", "x": "' + "y" * 2000 + '"}', "version": CURRENT},
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
    [
        "/a/garbage/",
        "/a/%00/",
        "/unsubscribe/x/",
        "/join/zzz/",
        "/invitations/zzz/",
        "/games/999999/",
        "/games/999999/table",
        "/games/999999/replay/?step=abc",
    ],
)
def test_garbage_urls_never_fail(client, ana, path):
    client.force_login(ana)
    assert client.get(path).status_code < 500
    assert client.post(path).status_code < 500


@pytest.mark.parametrize("signed_in", [False, True])
@pytest.mark.parametrize("route", ["join", "invitation"])
def test_a_nul_byte_in_a_token_is_not_found(client, ana, route, signed_in):
    """PostgreSQL refuses NUL in text: such a token never reaches it."""
    gathered = gathering_game(ana, seats=3)
    token = (
        gathered.join_token
        if route == "join"
        else gathering.invitation_send(game=gathered, by=ana, email="zed@example.com").token
    )
    if signed_in:
        client.force_login(ana)
    for bad in ("%00", token + "%00", "a%00b", "\x00"):
        path = reverse(route, args=[token]).replace(token, bad)
        assert client.get(path).status_code == 404, path
        assert client.post(path, {"answer": "decline"}).status_code == 404, path


def test_numbers_that_are_not_ascii_digits_never_fail(client, game, ana):
    """ "²" is a digit to str.isdigit, but no number to int()."""
    client.force_login(ana)
    waiting = gathering_game(ana, seats=3)
    for url in (
        f"/games/{game.pk}/table?since=²",
        f"/games/{game.pk}/chat?after=²",
        f"/games/{waiting.pk}/table?seats=²",
        "/games/past/?opponent=²",
    ):
        assert client.get(url).status_code == 200, url


def test_an_answer_sent_by_htmx_to_a_game_not_started_reloads_the_page(client, ana):
    waiting = gathering_game(ana, seats=3)
    client.force_login(ana)
    response = client.post(reverse("game_decide", args=[waiting.pk]), {}, headers={"HX-Request": "true"})
    assert response.status_code == 204 and response["HX-Refresh"] == "true"


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
    gathered = gathering_game(ana, ben, seats=3)
    client.force_login(ana)
    for email in ("", "not-an-address", "a" * 500 + "@example.com"):
        assert client.post(reverse("game_invite", args=[gathered.pk]), {"email": email}, follow=True).status_code == 200
    assert gathered.invitations.count() == 0


def test_bad_table_talk_changes_nothing(client, game, ana):
    client.force_login(ana)
    for text in ("", "   ", "x" * 5000):
        assert client.post(reverse("game_chat", args=[game.pk]), {"text": text}, follow=True).status_code == 200
    assert game.chat.count() == 0


@pytest.mark.parametrize("query", ["email_mode=%00", "q=a%00b", "%00=1"])
def test_a_nul_character_in_a_query_string_is_refused_in_the_readers_language(client, ana, query):
    # The admin's list filters and search passed it on to PostgreSQL, which refuses it.
    make_staff(ana)
    ana.profile.language = "es"
    ana.profile.save()
    client.force_login(ana)
    for path in ("/admin/accounts/profile/", reverse("home")):
        response = client.get(f"{path}?{query}")
        assert response.status_code == 400, path
        assert "No se pudo leer esta dirección" in response.content.decode()
    assert client.get("/admin/accounts/profile/?email_mode=immediate").status_code == 200
