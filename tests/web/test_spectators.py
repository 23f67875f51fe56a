"""Spectators and moderation: who may watch which game, the spectators' own chat
kept from the players while the game runs, following a game's result, blocking,
reporting and the rate limits; bad input says why and changes nothing."""

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Block, ChatMessage, ChatReport, Follow, Game
from games.selectors.moderation import blocked_either_way
from games.services import gathering, play
from tests.players import gathering_game, make_player, make_staff, started_game

pytestmark = pytest.mark.django_db


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def watcher(db):
    return make_player("Wes")


@pytest.fixture
def public_game(ana, ben, cai):
    return started_game(ana, ben, cai, visibility=Game.Visibility.PUBLIC)


def test_a_public_game_is_listed_on_the_landing_page_and_the_watch_list(public_game, ana, ben, cai):
    private = started_game(ana, ben, cai)
    unlisted = started_game(ana, ben, cai, visibility=Game.Visibility.UNLISTED)
    visitor = Client()
    for page in (visitor.get("/"), visitor.get(reverse("watch_list"))):
        html = page.content.decode()
        assert reverse("game_watch", args=[public_game.pk]) in html
        assert reverse("game_watch", args=[private.pk]) not in html
        assert reverse("game_watch", args=[unlisted.pk]) not in html
    assert visitor.get(reverse("game_watch", args=[unlisted.pk])).status_code == 200


def test_a_private_game_is_not_found_by_a_spectator_and_its_chat_refuses_them(ana, ben, cai, watcher):
    game = started_game(ana, ben, cai)
    client = signed_in(watcher)
    for name in ("game_watch", "game_watch_live", "game_watch_chat"):
        response = client.get(reverse(name, args=[game.pk]))
        assert response.status_code == 404, name
    response = client.post(reverse("game_watch_chat", args=[game.pk]), {"text": "psst"})
    assert response.status_code == 404
    assert b"not found" in response.content.lower() or b"no such" in response.content.lower()
    assert not ChatMessage.objects.exists()
    assert client.get(reverse("game_watch", args=[987654])).status_code == 404


def test_the_spectator_page_says_who_is_to_act_and_by_when(public_game, watcher):
    html = Client().get(reverse("game_watch", args=[public_game.pk])).content.decode()
    assert 'id="to-act"' in html and "Ana" in html and "data-deadline=" in html
    assert "data-card=" not in html
    live = Client().get(reverse("game_watch_live", args=[public_game.pk]), {"since": public_game.version, "clock": "x"})
    assert live.status_code == 200 and 'id="live"' in live.content.decode()
    assert "data-card=" not in live.content.decode()


def test_a_player_opening_the_spectators_page_goes_to_their_own(public_game, ana):
    response = signed_in(ana).get(reverse("game_watch", args=[public_game.pk]))
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[public_game.pk])


def test_spectators_chat_apart_from_the_players_until_the_replay(public_game, ana, ben, cai, watcher):
    play.chat_post(game=public_game, user=ben, text="Ben bluffs a Duke")
    spectator = signed_in(watcher)
    response = spectator.post(
        reverse("game_watch_chat", args=[public_game.pk]),
        {"text": "Cai holds the Captain!"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200 and "Cai holds the Captain!" in response.content.decode()
    assert "Ben bluffs a Duke" in spectator.get(reverse("game_watch", args=[public_game.pk])).content.decode()
    player = signed_in(cai)
    for page in (
        player.get(reverse("game", args=[public_game.pk])),
        player.get(reverse("game_chat", args=[public_game.pk])),
        player.get(reverse("game_live", args=[public_game.pk]), {"since": "none"}),
    ):
        assert "Cai holds the Captain!" not in page.content.decode()
    for name in ("game_watch_chat", "game_watch_live"):
        peek = player.get(reverse(name, args=[public_game.pk]), headers={"HX-Request": "true"})
        assert peek["HX-Redirect"] == reverse("game", args=[public_game.pk]) and not peek.content
    refused = player.post(reverse("game_watch_chat", args=[public_game.pk]), {"text": "hi"}, follow=True)
    assert "chat opens to you once it is over" in refused.content.decode()
    assert "Cai holds the Captain!" not in refused.content.decode()
    assert ChatMessage.objects.filter(audience=ChatMessage.Audience.SPECTATORS).count() == 1
    play.game_resign(game=public_game, user=cai)
    play.game_resign(game=public_game, user=ben)
    replay = player.get(reverse("game_replay", args=[public_game.pk])).content.decode()
    assert "Cai holds the Captain!" in replay


def test_a_block_keeps_both_chats_apart_both_ways(public_game, ana, ben, watcher):
    play.chat_post(game=public_game, user=ben, text="From Ben")
    signed_in(watcher).post(reverse("game_watch_chat", args=[public_game.pk]), {"text": "From Wes"})
    response = signed_in(watcher).post(reverse("player_block", args=[ben.pk]), {"next": "/"})
    assert (
        response.status_code == 302
        and blocked_either_way(watcher) == {ben.pk}
        and watcher.pk in blocked_either_way(ben)
    )
    assert "From Ben" not in signed_in(watcher).get(reverse("game_watch", args=[public_game.pk])).content.decode()
    assert ana.pk not in blocked_either_way(watcher)
    signed_in(watcher).post(reverse("player_block", args=[ben.pk]), {"block": "0"})
    assert blocked_either_way(watcher) == set()


def test_blocking_yourself_or_nobody_and_reporting_twice_say_why(public_game, ben, watcher):
    client = signed_in(watcher)
    for user_id, words in ((watcher.pk, "You cannot block yourself."), (987654, "There is no such player.")):
        page = client.post(reverse("player_block", args=[user_id]), {"next": "/games/watch/"}, follow=True)
        assert words in page.content.decode()
    assert not Block.objects.exists()
    message = play.chat_post(game=public_game, user=ben, text="rude words")
    first = client.post(reverse("chat_report", args=[message.pk]), {"next": "/games/watch/"}, follow=True)
    assert "Reported" in first.content.decode()
    again = client.post(reverse("chat_report", args=[message.pk]), {"next": "/games/watch/"}, follow=True)
    assert "You already reported this message" in again.content.decode()
    forged = client.post(reverse("chat_report", args=[987654]), {"next": "//evil.example/"}, follow=True)
    assert "There is no such message." in forged.content.decode() and forged.redirect_chain[-1][0] == "/"
    assert ChatReport.objects.count() == 1


def test_a_message_in_a_private_game_cannot_be_reported_by_a_stranger(ana, ben, watcher):
    game = started_game(ana, ben)
    message = play.chat_post(game=game, user=ben, text="between us")
    page = signed_in(watcher).post(reverse("chat_report", args=[message.pk]), follow=True)
    assert "There is no such message." in page.content.decode() and not ChatReport.objects.exists()


def test_staff_hide_a_reported_message_from_the_admin(public_game, ben, watcher):
    message = play.chat_post(game=public_game, user=ben, text="hide me")
    ChatReport.objects.create(message=message, reporter=watcher)
    staff = make_player("Staff")
    make_staff(staff)
    admin = signed_in(staff)
    listed = admin.get(reverse("admin:games_chatmessage_changelist"), {"reported": "yes"})
    assert "hide me" in listed.content.decode()
    admin.post(reverse("admin:games_chatmessage_changelist"), {"action": "hide", "_selected_action": [message.pk]})
    message.refresh_from_db()
    assert message.hidden_at is not None
    assert "hide me" not in signed_in(watcher).get(reverse("game_watch", args=[public_game.pk])).content.decode()


def test_chat_is_rate_limited_with_a_clear_message(public_game, ben, settings):
    settings.CHAT_MESSAGES_PER_MINUTE = 3
    for number in range(3):
        play.chat_post(game=public_game, user=ben, text=f"message {number}")
    page = signed_in(ben).post(reverse("game_chat", args=[public_game.pk]), {"text": "one more"}, follow=True)
    assert "faster than 3 messages a minute" in page.content.decode()
    assert ChatMessage.objects.filter(user=ben).count() == 3


def test_game_creation_is_rate_limited_with_a_clear_message(ana, settings):
    settings.GAMES_CREATED_PER_HOUR = 2
    gathering_game(ana, seats=3)
    gathering_game(ana, seats=3)
    page = signed_in(ana).post(
        reverse("game_create"),
        {"kind": "coup", "seat_count": 3, "time_control": "day", "first": "random", "takeover": "2"},
    )
    assert "the most one may" in page.content.decode()
    assert Game.objects.filter(host=ana).count() == 2


def test_the_host_chooses_who_may_watch_at_creation_and_while_gathering(ana, ben):
    client = signed_in(ana)
    client.post(
        reverse("game_create"),
        {
            "kind": "coup",
            "seat_count": 2,
            "time_control": "day",
            "first": "random",
            "takeover": "2",
            "visibility": "public",
        },
    )
    game = Game.objects.get(host=ana)
    assert game.visibility == Game.Visibility.PUBLIC
    client.post(reverse("game_visibility", args=[game.pk]), {"visibility": "unlisted"})
    game.refresh_from_db()
    assert game.visibility == Game.Visibility.UNLISTED
    gathering.seat_join(game=game, user=ben, join_token=game.join_token)
    page = signed_in(ben).post(reverse("game_visibility", args=[game.pk]), {"visibility": "private"}, follow=True)
    assert "Only the host chooses who may watch the game." in page.content.decode()
    bad = client.post(reverse("game_visibility", args=[game.pk]), {"visibility": "everyone"}, follow=True)
    assert "Choose who may watch the game." in bad.content.decode()
    gathering.game_start(game=game, by=ana)
    late = client.post(reverse("game_visibility", args=[game.pk]), {"visibility": "private"}, follow=True)
    assert "Who may watch is chosen before the game starts." in late.content.decode()
    game.refresh_from_db()
    assert game.visibility == Game.Visibility.UNLISTED


def test_an_invited_game_is_private_by_default(ana):
    assert gathering_game(ana, seats=3).visibility == Game.Visibility.PRIVATE


def test_a_follower_is_emailed_the_result_and_no_hand(
    public_game, ana, ben, cai, watcher, smtp, django_capture_on_commit_callbacks
):
    fan = make_player("Fan")
    client = signed_in(watcher)
    client.post(reverse("game_follow", args=[public_game.pk]))
    signed_in(fan).post(reverse("player_follow", args=[ana.pk]))
    assert Follow.objects.count() == 2
    refused = signed_in(ana).post(reverse("game_follow", args=[public_game.pk]), follow=True)
    assert "you will be told its result as a player" in refused.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        play.game_resign(game=public_game, user=cai)
        play.game_resign(game=public_game, user=ben)
    for follower in (watcher, fan):
        [mail] = smtp.to(follower.email)
        assert f"Game over: Ana wins — Coup #{public_game.pk}" == mail.subject
        assert "Ana" in mail.text and "data-card" not in mail.html
        assert reverse("game_watch", args=[public_game.pk]) in mail.text


def test_a_players_follower_hears_nothing_of_their_private_games(
    ana, ben, watcher, smtp, django_capture_on_commit_callbacks
):
    signed_in(watcher).post(reverse("player_follow", args=[ana.pk]))
    game = started_game(ana, ben)
    with django_capture_on_commit_callbacks(execute=True):
        play.game_resign(game=game, user=ben)
    assert smtp.to(watcher.email) == []


def test_a_public_game_gathering_players_and_a_finished_one_can_be_watched(ana, ben, watcher):
    waiting = gathering_game(ana, seats=3, visibility=Game.Visibility.PUBLIC)
    html = signed_in(watcher).get(reverse("game_watch", args=[waiting.pk])).content.decode()
    assert "gathering its players" in html
    finished = started_game(ana, ben, visibility=Game.Visibility.PUBLIC)
    play.game_resign(game=finished, user=ben)
    finished.refresh_from_db()
    for client in (signed_in(watcher), signed_in(ben)):  # a player too, once it is over
        page = client.get(reverse("game_watch", args=[finished.pk]))
        assert page.status_code == 200 and "Ana won the game." in page.content.decode()
    live = Client().get(reverse("game_watch_live", args=[finished.pk]), {"since": finished.version, "clock": "none"})
    assert live.status_code == 286
    late = signed_in(watcher).post(reverse("game_watch_chat", args=[finished.pk]), {"text": "gg"}, follow=True)
    assert not ChatMessage.objects.filter(text="gg").exists()
    assert late.status_code == 200


def test_the_watch_list_costs_the_same_queries_for_two_games_or_eight(ana, ben, cai):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert Client().get(reverse("watch_list")).status_code == 200
        return len(captured)

    for _ in range(2):
        started_game(ana, ben, cai, visibility=Game.Visibility.PUBLIC)
    few = queries()
    for _ in range(6):
        started_game(ana, ben, visibility=Game.Visibility.PUBLIC)
    assert queries() == few
