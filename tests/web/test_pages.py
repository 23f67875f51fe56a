"""The game pages: who may see them, what they show, and how a click is handled."""

import json
import re

import pytest
from django.core import mail
from django.urls import reverse

from games.models import ChatMessage, Game, Invitation
from games.services import gathering, play
from games.web.views import clock_of
from tests.web.conftest import answer, awaited, gathering_game, make_player, player_of, started_game

pytestmark = pytest.mark.django_db


def as_user(client, user):
    client.force_login(user)
    return client


def page(client, user, url):
    response = as_user(client, user).get(url)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def buttons(html: str) -> list[dict]:
    """The decision forms of a page: command (parsed) and version."""
    found = []
    for form in re.findall(r'<form method="post" action="[^"]*/decide".*?</form>', html, re.S):
        version = re.search(r'name="version" value="(\d+)"', form).group(1)
        command = re.search(r'name="command" value="([^"]*)"', form).group(1)
        command = json.loads(command.replace("&quot;", '"'))
        label = re.search(r"<button[^>]*>(.*?)</button>", form, re.S).group(1).strip()
        found.append({"version": int(version), "command": command, "label": label})
    return found


# ---- home and creating a game ---------------------------------------------------------


def test_home_invites_visitors_to_sign_up(client):
    html = client.get("/").content.decode()
    assert reverse("account_signup") in html


def test_home_lists_my_games_with_my_move_first(client, game, ana, ben):
    html = page(client, ana, "/")
    assert "Your move" in html
    assert reverse("game", args=[game.pk]) in html
    assert "Your move" not in page(client, ben, "/")


def test_create_game_form_explains_each_variant(client, ana):
    html = page(client, ana, reverse("game_create"))
    for explanation in (
        "The Inquisitor replaces the Ambassador",
        "Players belong to two factions",
        "A Coup names a character",
    ):
        assert explanation in html
    for preset in (
        "24 h per turn / 8 h per response",
        "3 days per turn / 1 day per response",
        "Live: 2 min per turn / 30 s per response",
    ):
        assert preset in html


def create(client, user, **fields):
    data = {"seat_count": 3, "time_control": "day", "first": "random", "reminders": "on", "first_faction": "loyalist"}
    data.update(fields)
    return as_user(client, user).post(reverse("game_create"), data)


def test_the_create_form_asks_each_kinds_own_choices_and_stores_them(client, ana):
    html = page(client, ana, reverse("game_create"))
    assert 'name="first_faction"' in html and "Kobayakawa: 3 to 6" in html
    create(client, ana, seat_count=4, variants=["factions"], first_faction="reformist")
    assert Game.objects.get().options["first_faction"] == "reformist"


def test_creating_a_game_seats_the_host_and_opens_the_waiting_room(client, ana):
    response = create(client, ana, seat_count=4, variants=["inquisitor", "factions"], time_control="live", first="host")
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    assert game.seat_count == 4 and game.variants == ["factions", "inquisitor"]
    assert (game.turn_seconds, game.response_seconds) == (120, 30)
    assert game.options["first"] == "host" and game.reminders
    assert game.seats.get().user == ana


@pytest.mark.parametrize(
    "fields, error",
    [
        ({"seat_count": 3, "variants": ["two_player_draft"]}, "The two-player draft needs exactly 2 players."),
        ({"seat_count": 11}, "Ensure this value is less than or equal to 10."),
        ({"seat_count": 1}, "Ensure this value is greater than or equal to 2."),
        ({"variants": ["declared_assassination"]}, "Declared Assassination is played together with Declared Coup."),
        ({"variants": ["no_such_variant"]}, "Select a valid choice."),
    ],
)
def test_creating_a_game_validates_seats_against_variants(client, ana, fields, error):
    response = create(client, ana, **fields)
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not Game.objects.exists()


def test_two_player_draft_with_two_seats_is_accepted(client, ana):
    create(client, ana, seat_count=2, variants=["two_player_draft"])
    assert Game.objects.get().variants == ["two_player_draft"]


def test_creating_a_game_needs_an_account(client):
    response = client.get(reverse("game_create"))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]


# ---- the waiting room, the link and the invitations --------------------------------------


def test_waiting_room_shows_the_seats_the_link_and_the_start_button(client, ana, ben):
    game = gathering_game(ana, ben, seats=3)
    html = page(client, ana, reverse("game", args=[game.pk]))
    assert "Ana" in html and "Ben" in html and "free seat" in html
    assert reverse("join", args=[game.join_token]) in html
    assert "Start the game" in html and "disabled" in html
    ben_html = page(client, ben, reverse("game", args=[game.pk]))
    assert "Start the game" not in ben_html and "Leave the game" in ben_html


def test_a_game_is_not_found_for_someone_without_a_seat(client, game, dora):
    as_user(client, dora)
    for name in ("game", "game_live", "game_chat"):
        assert client.get(reverse(name, args=[game.pk])).status_code == 404
    for name in ("game_decide", "game_resign", "game_invite", "game_start", "game_leave", "game_cancel"):
        assert client.post(reverse(name, args=[game.pk]), {"version": 1, "command": "{}"}).status_code == 404


def test_a_well_formed_decision_from_someone_without_a_seat_is_not_found_and_changes_nothing(client, game, ana, dora):
    """The decision is read under the game's lock, and the seat is checked there
    first: a stranger who sends the answer awaited of a seat learns nothing,
    whether the game exists, is in play or not."""
    kind, version = awaited(game)[player_of(game, ana)]
    form = {"version": version, "command": json.dumps({"act": "income"})}
    as_user(client, dora)
    for pk in (game.pk, 999999):
        assert client.post(reverse("game_decide", args=[pk]), form, HTTP_HX_REQUEST="true").status_code == 404
    assert Game.objects.get(pk=game.pk).version == game.version
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    response = client.post(reverse("game_decide", args=[game.pk]), form, HTTP_HX_REQUEST="true")
    assert response.status_code == 404 and "not in play" not in response.content.decode()


def test_a_missing_game_is_a_friendly_404(client, ana):
    response = as_user(client, ana).get(reverse("game", args=[999999]))
    assert response.status_code == 404
    assert "Nothing here" in response.content.decode()


def test_the_game_page_asks_visitors_to_sign_in(client, game):
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 302 and reverse("account_login") in response["Location"]


def test_the_shareable_link_shows_the_game_and_seats_a_new_player(client, ana, dora):
    game = gathering_game(ana, seats=2)
    url = reverse("join", args=[game.join_token])
    anonymous = client.get(url).content.decode()
    assert "Ana invites you to play Coup" in anonymous and reverse("account_signup") in anonymous
    response = as_user(client, dora).post(url)
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    assert game.seats.filter(user=dora).exists()


def test_a_full_game_refuses_the_link_with_a_message(client, ana, ben, dora):
    game = gathering_game(ana, ben)
    response = as_user(client, dora).post(reverse("join", args=[game.join_token]), follow=True)
    assert "This game is full." in response.content.decode()
    assert not game.seats.filter(user=dora).exists()


def test_an_unknown_link_is_not_found(client, dora):
    assert as_user(client, dora).get(reverse("join", args=["nope"])).status_code == 404
    assert client.get(reverse("invitation", args=["nope"])).status_code == 404


def test_inviting_by_email_sends_the_invitation_link(client, ana):
    game = gathering_game(ana, seats=3)
    response = as_user(client, ana).post(
        reverse("game_invite", args=[game.pk]), {"email": "friend@example.com"}, follow=True
    )
    assert "Invitation sent to friend@example.com." in response.content.decode()
    invitation = Invitation.objects.get()
    assert invitation.email == "friend@example.com"
    assert "friend@example.com" in response.content.decode()


def test_an_invalid_invitation_address_is_refused_with_a_message(client, ana):
    game = gathering_game(ana, seats=3)
    response = as_user(client, ana).post(reverse("game_invite", args=[game.pk]), {"email": "not-an-email"}, follow=True)
    assert "Enter a valid email address." in response.content.decode()
    assert not Invitation.objects.exists()


def test_accepting_an_invitation_takes_a_seat(client, ana, dora):
    game = gathering_game(ana, seats=2)
    invitation = gathering.invitation_send(game=game, by=ana, email=dora.email)
    url = reverse("invitation", args=[invitation.token])
    assert "Accept and take a seat" in page(client, dora, url)
    response = client.post(url, {"answer": "accept"})
    assert response["Location"] == reverse("game", args=[game.pk])
    assert game.seats.filter(user=dora).exists()


def test_declining_an_invitation_takes_no_seat(client, ana, dora):
    game = gathering_game(ana, seats=2)
    invitation = gathering.invitation_send(game=game, by=ana, email=dora.email)
    as_user(client, dora).post(reverse("invitation", args=[invitation.token]), {"answer": "decline"})
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED
    assert not game.seats.filter(user=dora).exists()


def test_pending_invitations_show_on_the_home_page(client, ana, dora):
    game = gathering_game(ana, seats=2)
    invitation = gathering.invitation_send(game=game, by=ana, email=dora.email)
    assert reverse("invitation", args=[invitation.token]) in page(client, dora, "/")


def test_only_the_host_starts_the_game(client, ana, ben):
    game = gathering_game(ana, ben)
    response = as_user(client, ben).post(reverse("game_start", args=[game.pk]), follow=True)
    assert "Only the host can start the game." in response.content.decode()
    as_user(client, ana).post(reverse("game_start", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_starting_before_every_seat_is_taken_is_refused(client, ana, ben):
    game = gathering_game(ana, ben, seats=3)
    response = as_user(client, ana).post(reverse("game_start", args=[game.pk]), follow=True)
    assert "Wait until every seat is taken." in response.content.decode()


def test_a_player_may_leave_and_the_host_may_cancel_before_the_start(client, ana, ben):
    game = gathering_game(ana, ben, seats=3)
    as_user(client, ben).post(reverse("game_leave", args=[game.pk]))
    assert not game.seats.filter(user=ben).exists()
    as_user(client, ana).post(reverse("game_cancel", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED


def test_the_waiting_room_poll_answers_204_until_someone_joins(client, ana, ben):
    game = gathering_game(ana, seats=2)
    url = reverse("game_live", args=[game.pk])
    as_user(client, ana)
    assert client.get(url, {"seats": 1}).status_code == 204
    gathering.seat_join(game=game, user=ben, join_token=game.join_token)
    response = client.get(url, {"seats": 1})
    assert response.status_code == 200 and "Ben" in response.content.decode()
    gathering.game_start(game=game, by=ana)
    assert client.get(url, {"seats": 2})["HX-Refresh"] == "true"


# ---- the game page ---------------------------------------------------------------------


def test_the_game_page_shows_table_hand_decisions_history_chat_and_rules(client, game, ana):
    html = page(client, ana, reverse("game", args=[game.pk]))
    assert "Your decision: choose your action" in html
    assert len(re.findall(r'data-card="', html)) == 2  # Ana's own two face-down cards
    assert "Income — take 1 coin" in html
    assert "Steal — next, choose the target" in html
    assert "Turn 1 — you." in html
    assert "Table talk" in html
    assert "Rules of this game" in html
    assert "Court deck: 9 cards" in html
    for name in ("Ana", "Ben", "Cai"):
        assert name in html


def test_only_legal_decisions_are_offered(client, game, ana, ben):
    ana_buttons = buttons(page(client, ana, reverse("game", args=[game.pk])))
    acts = {b["command"]["act"] for b in ana_buttons}
    assert acts == {"income", "foreign_aid", "tax", "exchange"}  # no Coup or Assassination with 2 coins
    assert re.findall(r'name="action" value="(\w+)"', page(client, ana, reverse("game", args=[game.pk]))) == ["steal"]
    assert buttons(page(client, ben, reverse("game", args=[game.pk]))) == []


def test_a_decision_click_plays_the_move(client, game, ana):
    [income] = [
        b for b in buttons(page(client, ana, reverse("game", args=[game.pk]))) if b["command"]["act"] == "income"
    ]
    version = game.version
    response = client.post(
        reverse("game_decide", args=[game.pk]), {"version": income["version"], "command": json.dumps(income["command"])}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.version > version
    assert "Ana took Income." in page(client, ana, reverse("game", args=[game.pk]))


def test_a_stale_click_gets_a_message_and_the_current_state(client, game, ana):
    [income] = [
        b for b in buttons(page(client, ana, reverse("game", args=[game.pk]))) if b["command"]["act"] == "income"
    ]
    form = {"version": income["version"], "command": json.dumps(income["command"])}
    client.post(reverse("game_decide", args=[game.pk]), form)
    version = Game.objects.get(pk=game.pk).version
    response = client.post(reverse("game_decide", args=[game.pk]), form, follow=True)
    assert response.status_code == 200
    html = response.content.decode()
    assert "That decision has already passed" in html
    assert "Ana took Income." in html  # the current state is shown
    assert Game.objects.get(pk=game.pk).version == version


def test_an_illegal_click_gets_a_message_never_a_500(client, game, ana):
    kind, version = awaited(game)[player_of(game, ana)]
    as_user(client, ana)
    for command in ({"act": "coup", "target": "p2"}, {"act": "steal", "target": "p1"}, {"act": "fly"}):
        response = client.post(
            reverse("game_decide", args=[game.pk]), {"version": version, "command": json.dumps(command)}, follow=True
        )
        assert response.status_code == 200
        assert [m for m in messages_of(response) if m], command
    game.refresh_from_db()
    assert awaited(game)[player_of(game, ana)] == (kind, version)


@pytest.mark.parametrize(
    "form",
    [
        {},
        {"version": "x", "command": "{}"},
        {"version": "3", "command": "not json"},
        {"version": "3", "command": "[1]"},
    ],
)
def test_a_garbled_click_gets_a_message(client, game, ana, form):
    response = as_user(client, ana).post(reverse("game_decide", args=[game.pk]), form, follow=True)
    assert response.status_code == 200
    assert "That answer could not be read" in response.content.decode()


def test_a_seated_player_cannot_answer_for_another_seat(client, game, ana, ben):
    kind, version = awaited(game)[player_of(game, ana)]
    response = as_user(client, ben).post(
        reverse("game_decide", args=[game.pk]),
        {"version": version, "command": json.dumps({"act": "income", "player": "p1"})},
        follow=True,
    )
    assert response.status_code == 200
    assert messages_of(response)
    assert awaited(game)[player_of(game, ana)] == (kind, version)


def test_an_htmx_click_answers_with_the_live_partial(client, game, ana):
    [income] = [
        b for b in buttons(page(client, ana, reverse("game", args=[game.pk]))) if b["command"]["act"] == "income"
    ]
    response = client.post(
        reverse("game_decide", args=[game.pk]),
        {"version": income["version"], "command": json.dumps(income["command"])},
        headers={"HX-Request": "true"},
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="live"')
    assert "Ana took Income." in html


def test_the_open_page_polls_and_gets_204_until_the_game_moves(client, game, ana, ben):
    url = reverse("game_live", args=[game.pk])
    as_user(client, ben)
    html = page(client, ben, reverse("game", args=[game.pk]))
    poll = re.search(r'hx-get="([^"]*/table\?[^"]*)"', html).group(1).replace("&amp;", "&")
    assert client.get(poll).status_code == 204
    answer(game, ana, {"act": "income"})
    response = client.get(url, {"since": game.version - 1})
    assert response.status_code == 200
    html = response.content.decode()
    assert f"since={game.version}" in html
    assert "Ana took Income." in html


def test_polling_stops_once_the_game_is_over(client, game, ana, ben, cai):
    for user in (ben, cai):
        play.game_resign(game=game, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    as_user(client, ana)
    poll = {"since": game.version, "clock": clock_of(game)}
    assert client.get(reverse("game_live", args=[game.pk]), poll).status_code == 286
    html = page(client, ana, reverse("game", args=[game.pk]))
    assert "You won the game!" in html
    assert "hx-trigger" not in html.split('id="live"')[1].split(">")[0]


def test_table_talk_posts_and_polls(client, game, ana, ben):
    url = reverse("game_chat", args=[game.pk])
    as_user(client, ana)
    assert client.get(url, {"after": 0}).status_code == 204
    response = client.post(url, {"text": "Ben, shall we team up?"}, headers={"HX-Request": "true"})
    assert response.status_code == 200 and "Ben, shall we team up?" in response.content.decode()
    last = ChatMessage.objects.get().pk
    as_user(client, ben)
    assert client.get(url, {"after": last}).status_code == 204
    assert "Ben, shall we team up?" in client.get(url, {"after": 0}).content.decode()
    assert "Ben, shall we team up?" in page(client, ben, reverse("game", args=[game.pk]))


def test_table_talk_without_javascript_redirects_back_with_errors_as_messages(client, game, ana):
    url = reverse("game_chat", args=[game.pk])
    response = as_user(client, ana).post(url, {"text": "   "}, follow=True)
    assert response.status_code == 200
    assert not ChatMessage.objects.exists()
    response = client.post(url, {"text": "hello"})
    assert response.status_code == 302 and ChatMessage.objects.count() == 1


def test_chat_is_escaped(client, game, ana):
    as_user(client, ana).post(reverse("game_chat", args=[game.pk]), {"text": "<script>alert(1)</script>"})
    html = page(client, ana, reverse("game", args=[game.pk]))
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;" in html


def test_resigning_turns_the_cards_face_up(client, game, ana, ben):
    response = as_user(client, ben).post(reverse("game_resign", args=[game.pk]), follow=True)
    assert "You resigned." in response.content.decode()
    assert 'data-card="' not in response.content.decode()


def test_the_rules_summary_follows_the_variants(client, ana, ben, cai):
    game = started_game(ana, ben, cai, variants=["inquisitor", "lawyer"])
    html = page(client, ana, reverse("game", args=[game.pk]))
    assert "Inquisitor (replaces the Ambassador)" in html
    assert "Lawyer (replaces the Contessa)" in html
    assert "Reformation:" not in html


def test_factions_and_the_reserve_are_on_the_table(client, ana, ben, cai):
    game = started_game(ana, ben, cai, variants=["factions"])
    html = page(client, ana, reverse("game", args=[game.pk]))
    assert "Treasury reserve: 0 coins" in html
    assert "Loyalist" in html and "Reformist" in html


def test_the_page_follows_the_profile_language(client, game, ana):
    profile = ana.profile
    profile.language = "es"
    profile.save()
    response = as_user(client, ana).get(reverse("game", args=[game.pk]))
    assert response["Content-Language"] == "es"
    assert 'lang="es"' in response.content.decode()


def test_custom_404_template_is_used(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert "Nothing here" in response.content.decode()


def test_server_error_page_renders_without_a_request_context():
    from django.test import RequestFactory

    from games.web.views import server_error

    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500 and b"Something went wrong" in response.content


def test_the_invitation_email_carries_the_invitation_link(client, ana, django_capture_on_commit_callbacks):
    game = gathering_game(ana, seats=2)
    with django_capture_on_commit_callbacks(execute=True):
        as_user(client, ana).post(reverse("game_invite", args=[game.pk]), {"email": "zoe@example.com"})
    invitation = Invitation.objects.get(email="zoe@example.com")
    [message] = [m for m in mail.outbox if "zoe@example.com" in m.to]
    assert reverse("invitation", args=[invitation.token]) in message.body


def test_a_second_player_sees_the_same_table_without_the_first_players_cards(client, game, ana, ben):
    ana_html = page(client, ana, reverse("game", args=[game.pk]))
    ben_html = page(client, ben, reverse("game", args=[game.pk]))
    ana_cards = sorted(re.findall(r'data-card="(\w+)"', ana_html))
    ben_cards = sorted(re.findall(r'data-card="(\w+)"', ben_html))
    assert len(ana_cards) == len(ben_cards) == 2
    from games.selectors import game_state

    state = game_state(game)
    assert ana_cards == sorted(state.by_name[player_of(game, ana)].hand)
    assert ben_cards == sorted(state.by_name[player_of(game, ben)].hand)


def test_make_player_has_a_profile(db):
    user = make_player("Zed", language="pt-br")
    assert user.profile.display_name == "Zed" and user.profile.language == "pt-br"


def test_the_host_pauses_and_resumes_the_clock_and_open_pages_notice(client, game, ana, ben):
    as_user(client, ben)
    poll = {"since": game.version, "clock": clock_of(game)}
    assert client.get(reverse("game_live", args=[game.pk]), poll).status_code == 204
    response = client.post(reverse("game_pause", args=[game.pk]), follow=True)
    assert "Only the host can pause the game." in response.content.decode()
    response = as_user(client, ana).post(reverse("game_pause", args=[game.pk]), follow=True)
    assert "The clock is paused by the host." in response.content.decode()
    game.refresh_from_db()
    assert game.paused_remaining is not None and game.deadline_at is None
    as_user(client, ben)
    assert client.get(reverse("game_live", args=[game.pk]), poll).status_code == 200
    as_user(client, ana).post(reverse("game_resume", args=[game.pk]))
    game.refresh_from_db()
    assert game.paused_remaining is None and game.deadline_at is not None


def test_an_awaited_player_may_ask_for_more_time_once(client, game, ana):
    html = page(client, ana, reverse("game", args=[game.pk]))
    assert "Ask for more time" in html
    before = game.deadline_at
    response = client.post(reverse("game_extend", args=[game.pk]), follow=True)
    assert "You have more time for this decision." in response.content.decode()
    game.refresh_from_db()
    assert game.deadline_at > before
    assert "Ask for more time" not in response.content.decode()
    response = client.post(reverse("game_extend", args=[game.pk]), follow=True)
    assert "You have already had your extra time in this game." in response.content.decode()


# ---- the clock ---------------------------------------------------------------------------


def test_a_deadline_under_an_hour_away_is_shown_to_the_second(client, ana, ben):
    live = started_game(ana, ben, turn_seconds=30, response_seconds=30)
    assert re.search(r"\(\d{1,2}:\d\d:\d\d [ap]\.m\. UTC\)", page(client, ana, f"/games/{live.pk}/"))
    by_email = started_game(ana, ben)
    html = page(client, ana, f"/games/{by_email.pk}/")
    assert re.search(r"\(\w+\.? \d{1,2}, \d{4}, (\d{1,2}(:\d\d)? [ap]\.m\.|noon|midnight) UTC\)", html)


def test_the_dashboard_shows_a_deadline_under_an_hour_away_to_the_second(client, ana, ben):
    started_game(ana, ben, turn_seconds=30, response_seconds=30)
    assert re.search(r"<time [^>]*>\d{1,2}:\d\d:\d\d [ap]\.m\. UTC</time>", page(client, ana, "/"))
