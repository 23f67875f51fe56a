"""Notification emails, sent over real SMTP: content, threading, headers, language."""

import re
from urllib.parse import urlsplit

import pytest
from celery.exceptions import Retry
from django.core import signing

from accounts.models import EmailMode, Profile, profile_of
from games.mail import emails
from games.mail.tokens import ANSWER_SALT, read_reply_address
from games.models import Game
from games.selectors import game_state
from games.services import play
from tests.players import awaited, make_player, started_game


def start_with_emails(django_capture_on_commit_callbacks, *users, **options):
    with django_capture_on_commit_callbacks(execute=True):
        return started_game(*users, **options)


@pytest.fixture
def named(ana, ben, cai):
    """Ana, Ben and Cai, by their display names."""
    return ana, ben, cai


def test_the_first_player_is_asked_and_the_others_told_the_game_started(
    named, smtp, django_capture_on_commit_callbacks
):
    ana, ben, cai = named
    game = start_with_emails(django_capture_on_commit_callbacks, ana, ben, cai)
    [to_ana] = smtp.to("ana@example.com")
    assert "it is your move" in to_ana.text and f"Coup #{game.pk}" in to_ana.subject
    hand = game_state(game).by_name["p1"].hand
    assert all(card.capitalize() in to_ana.text for card in hand)
    answer_links = [link for link in to_ana.links if "/a/" in link]
    assert answer_links
    for link in answer_links:  # URLs reach access logs: no card may be readable in one
        token = link.rstrip("/").rsplit("/", 1)[1]
        assert set(signing.loads(token, salt=ANSWER_SALT)) == {"g", "s", "v", "o"}
    assert "has started" in smtp.to("ben@example.com")[0].text
    assert "has started" in smtp.to("cai@example.com")[0].text


def test_a_decision_email_hides_other_hands(named, smtp, django_capture_on_commit_callbacks):
    ana, ben, cai = named
    game = start_with_emails(django_capture_on_commit_callbacks, ana, ben, cai)
    state = game_state(game)
    mail = smtp.to("ana@example.com")[0]
    for other in ("p2", "p3"):
        hidden = set(state.by_name[other].hand) - set(state.by_name["p1"].hand)
        for card in hidden:
            assert f'data-card="{card}"' not in mail.html
    # The email names only Ana's own cards in her hand line.
    hand_line = next(line for line in mail.text.splitlines() if line.startswith("Your hand:"))
    for card in {"duke", "assassin", "captain", "ambassador", "contessa"} - set(state.by_name["p1"].hand):
        assert card.capitalize() not in hand_line


def test_emails_thread_and_carry_unsubscribe_headers(named, smtp, django_capture_on_commit_callbacks):
    ana, ben, cai = named
    game = start_with_emails(django_capture_on_commit_callbacks, ana, ben, cai)
    with django_capture_on_commit_callbacks(execute=True):
        play.decision_submit(game=game, user=ana, command={"act": "income"}, version=awaited(game)["p1"][1])
    first, second = smtp.to("ben@example.com")
    thread = f"<game-{game.pk}@localhost>"
    for mail in (first, second):
        message = mail.message
        assert message["In-Reply-To"] == thread and thread in message["References"]
        assert message["Message-ID"] and message["Message-ID"] != thread
        assert message["List-Unsubscribe"].startswith("<http") and "/unsubscribe/" in message["List-Unsubscribe"]
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert mail.text and mail.html
    assert first.subject == f"Started: Coup #{game.pk} with Ana, Ben, Cai"
    assert second.subject == f"Your move: Choose an action — Coup #{game.pk}"
    assert first.message["Message-ID"] != second.message["Message-ID"]
    assert read_reply_address(second.message["Reply-To"]) == (game.pk, 1)
    assert "Ana took Income" in second.text or "Ana" in second.text


def test_emails_are_in_the_players_language(named, smtp, django_capture_on_commit_callbacks):
    ana, ben, cai = named
    profile = profile_of(ana)
    profile.language = "es"
    profile.save()
    start_with_emails(django_capture_on_commit_callbacks, ana, ben, cai)
    assert (
        "te toca" in smtp.to("ana@example.com")[0].text.lower()
        or "tu turno" in smtp.to("ana@example.com")[0].text.lower()
    )
    assert "has started" in smtp.to("ben@example.com")[0].text


def test_email_preferences_are_honoured(named, smtp, django_capture_on_commit_callbacks):
    ana, ben, cai = named
    for user, mode in ((ben, EmailMode.NONE), (cai, EmailMode.DIGEST)):
        profile = profile_of(user)
        profile.email_mode = mode
        profile.save()
    game = start_with_emails(django_capture_on_commit_callbacks, ana, ben, cai)
    with django_capture_on_commit_callbacks(execute=True):
        play.decision_submit(game=game, user=ana, command={"act": "tax"}, version=awaited(game)["p1"][1])
    assert smtp.to("ben@example.com") == []
    assert [m for m in smtp.to("cai@example.com") if "your move" in m.text] == []


def test_one_click_unsubscribe_follows_rfc_8058(named, smtp, client, django_capture_on_commit_callbacks):
    ana, ben, cai = named
    start_with_emails(django_capture_on_commit_callbacks, ana, ben, cai)
    delivered = smtp.to("ben@example.com")[0]
    # On the wire, as a mail client reads it (RFC 2369): the URL itself in angle
    # brackets on one line, never RFC 2047 encoded words, which no client takes for a URL.
    on_wire = re.findall(rb"^List-Unsubscribe: (.*)$", delivered.raw, re.MULTILINE)
    assert [line.rstrip(b"\r") for line in on_wire] == [delivered.message["List-Unsubscribe"].encode()]
    url = delivered.message["List-Unsubscribe"].strip("<>")
    assert re.fullmatch(r"https?://[^\s<>]+/unsubscribe/[^\s<>]+/", url)
    path = url.split("://", 1)[1].split("/", 1)[1]
    assert client.get("/" + path).status_code == 200
    assert profile_of(ben).email_mode == EmailMode.EVERY  # GET changes nothing
    response = client.post("/" + path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    ben.profile.refresh_from_db()
    assert ben.profile.email_mode == EmailMode.NONE


def test_a_failed_send_never_breaks_a_move(named, settings, django_capture_on_commit_callbacks):
    """With the SMTP server unreachable, the move is stored and Celery schedules the
    email again (eagerly run here, the retry surfaces as ``Retry``)."""
    ana, ben, cai = named
    game = started_game(ana, ben, cai)
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": 9, "timeout": 2},
        }
    }
    with pytest.raises(Retry, match="Connection refused"), django_capture_on_commit_callbacks(execute=True):
        play.decision_submit(game=game, user=ana, command={"act": "income"}, version=awaited(game)["p1"][1])
    game.refresh_from_db()
    assert game_state(game).by_name["p1"].coins == 3 and game.status == Game.Status.ACTIVE


def test_an_email_the_mail_server_refuses_is_tried_again_later_with_the_same_ids(named, smtp):
    ana, ben, cai = named
    game = started_game(ana, ben, cai)
    seat = game.seats.get(user=ben)
    smtp.refused.add(ben.email)
    with pytest.raises(Retry) as retry:
        emails.send_started.apply(args=[seat.pk], throw=True)
    assert list(retry.value.sig.args) == [seat.pk]
    assert 0 <= retry.value.when <= 30  # the first pause, the shortest
    smtp.refused.clear()
    emails.send_started.apply(args=retry.value.sig.args, throw=True)
    assert [mail.subject for mail in smtp.to(ben.email)] == [f"Started: Coup #{game.pk} with Ana, Ben, Cai"]


def test_eliminated_and_finished_players_are_told(named, smtp, django_capture_on_commit_callbacks):
    ana, ben, cai = named
    game = start_with_emails(django_capture_on_commit_callbacks, ana, ben, cai)
    with django_capture_on_commit_callbacks(execute=True):
        play.game_resign(game=game, user=cai)
    assert any("out of the game" in m.text for m in smtp.to("cai@example.com"))
    with django_capture_on_commit_callbacks(execute=True):
        play.game_resign(game=game, user=ben)
    for address in ("ana@example.com", "ben@example.com", "cai@example.com"):
        assert any("The game is over: Ana wins." in m.text for m in smtp.to(address)), address


def test_the_subject_tells_a_move_from_news_from_the_end(named, smtp, django_capture_on_commit_callbacks):
    ana, ben, cai = named
    game = start_with_emails(django_capture_on_commit_callbacks, ana, ben, cai)
    with django_capture_on_commit_callbacks(execute=True):
        play.decision_submit(
            game=game, user=ana, command={"act": "steal", "target": "p2"}, version=awaited(game)["p1"][1]
        )
    assert smtp.to("ben@example.com")[-1].subject == f"Your move: Respond to Ana's Steal — Coup #{game.pk}"
    with django_capture_on_commit_callbacks(execute=True):
        play.game_resign(game=game, user=cai)
    assert f"News: you are out of Coup #{game.pk}" in [mail.subject for mail in smtp.to("cai@example.com")]
    with django_capture_on_commit_callbacks(execute=True):
        play.game_resign(game=game, user=ben)
    assert smtp.to("ana@example.com")[-1].subject == f"Game over: Ana wins — Coup #{game.pk}"
    thread = f"<game-{game.pk}@localhost>"
    assert {mail.message["References"] for mail in smtp.messages} == {thread}
    assert {mail.message["In-Reply-To"] for mail in smtp.messages} == {thread}


def test_an_account_with_no_profile_yet_is_emailed_as_a_new_profile_would_be(ana, ben, cai):
    """Accounts made outside sign-up (createsuperuser, the admin) may have no profile
    row yet: their player gets the emails of the default mode, every decision."""
    game = started_game(ana, ben, cai)
    [(first, (_kind, version))] = awaited(game).items()
    seats = {seat.player: seat for seat in game.seats.select_related("user")}
    Profile.objects.filter(user=seats[first].user).delete()
    found = emails.emails_for_update(Game.objects.get(pk=game.pk), 0, game.version)
    assert found.decisions == [(seats[first].pk, version)]
    assert sorted(found.started) == sorted(seat.pk for player, seat in seats.items() if player != first)


# ---- the clock in words, and the replay --------------------------------------------------


def test_a_deadline_under_an_hour_away_is_told_to_the_second(ana, smtp, django_capture_on_commit_callbacks):
    benito = make_player("Benito", language="es")
    game = start_with_emails(django_capture_on_commit_callbacks, ana, benito, turn_seconds=30, response_seconds=30)
    with django_capture_on_commit_callbacks(execute=True):
        play.decision_submit(game=game, user=ana, command={"act": "income"}, version=awaited(game)["p1"][1])
    [to_ana] = smtp.to("ana@example.com")
    for text in (to_ana.text, to_ana.html):
        assert re.search(r"Answer before: \d{1,2}:\d\d:\d\d [ap]\.m\. UTC", text), text
    to_benito = smtp.to("benito@example.com")[-1]
    assert re.search(r"Responde antes de: \d\d:\d\d:\d\d UTC", to_benito.text), to_benito.text


def test_a_deadline_an_hour_or_more_away_is_told_by_its_date(named, smtp, django_capture_on_commit_callbacks):
    ana, ben, cai = named
    start_with_emails(django_capture_on_commit_callbacks, ana, ben, cai)
    [to_ana] = smtp.to("ana@example.com")
    assert re.search(
        r"Answer before: \w+\.? \d{1,2}, \d{4}, (\d{1,2}(:\d\d)? [ap]\.m\.|noon|midnight) UTC", to_ana.text
    ), to_ana.text
    assert not re.search(r"\d:\d\d:\d\d", to_ana.text)


def test_the_game_over_email_links_the_replay(named, smtp, client, django_capture_on_commit_callbacks):
    ana, ben, cai = named
    game = started_game(ana, ben, cai)
    with django_capture_on_commit_callbacks(execute=True):
        play.game_resign(game=game, user=cai)
        play.game_resign(game=game, user=ben)
    over = smtp.to("ana@example.com")[-1]
    assert over.subject.startswith("Game over: Ana wins")
    [replay] = [link for link in over.links if link.endswith(f"/games/{game.pk}/replay/")]
    assert replay in over.text and f'href="{replay}"' in over.html
    client.force_login(ana)
    assert client.get(urlsplit(replay).path).status_code == 200
