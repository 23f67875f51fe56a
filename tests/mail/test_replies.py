"""Answers written in a reply to a notification (games/mail/inbound.py), on PostgreSQL
with a real SMTP server catching the explanations we send back."""

import base64
import io
import json
import mailbox
import os
import secrets
import subprocess
import sys
import time
from datetime import timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import TestCase
from django.utils import timezone, translation
from django.utils.translation import gettext

from accounts.models import profile_of
from games.kinds.coup.words.replies import read_line
from games.mail.inbound import first_line, html_to_text
from games.mail.inbound import receive as inbound_receive
from games.mail.tokens import reply_address
from games.selectors import game_state, table_for
from games.services.play import decision_submit
from tests.players import awaited, started_game

SPANISH = {
    "duke": "Duque",
    "assassin": "Asesino",
    "captain": "Capitán",
    "ambassador": "Embajador",
    "contessa": "Condesa",
}


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Replies are remembered by Message-ID and explanations counted in the cache."""
    cache.clear()
    yield
    cache.clear()


def receive(message):
    """Receive ``message`` as the webhook or ``read_mail`` does, outside a
    transaction: the explanation it queues leaves when its change commits."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return inbound_receive(message)


def explanations(smtp) -> list:
    """The emails telling a player their reply was not played (not the game's own)."""
    return [mail for mail in smtp.messages if "Reply not played" in mail.subject]


def seat_of(game, user):
    return game.seats.select_related("user").get(user=user)


def reply(game, user, body: str, *, to=None, sender=None, headers=None, written=None, html=None) -> EmailMessage:
    """The reply ``user`` sends to a notification of ``game``, with ``body`` as its text."""
    message = EmailMessage()
    message["From"] = sender or f"{user.username.title()} <{user.email}>"
    message["To"] = to or f"Coup by email <{reply_address(seat_of(game, user))}>"
    message["Subject"] = f"Re: Coup #{game.pk}"
    message["Date"] = format_datetime(written or timezone.now())
    message["Message-ID"] = make_msgid(domain="example.com")
    for name, value in (headers or {}).items():
        message[name] = value
    if html is not None and body is None:
        message.set_content(html, subtype="html")
    else:
        message.set_content(body)
        if html is not None:
            message.add_alternative(html, subtype="html")
    return message


def state_of(game):
    game.refresh_from_db()
    return game_state(game)


def options(game, user) -> list[dict]:
    game.refresh_from_db()
    return table_for(game, user).options


def decision_of(game, user) -> str | None:
    entry = awaited(game).get(seat_of(game, user).player)
    return entry[0] if entry else None


def play(game, user, text: str):
    outcome = receive(reply(game, user, text))
    assert outcome.status == "played", outcome
    return outcome


# ---- each kind of answer -----------------------------------------------------------------


def test_income_written_in_a_reply_is_played(game, ana, smtp):
    outcome = receive(reply(game, ana, "income"))
    assert (outcome.status, outcome.answer) == ("played", "income")
    assert state_of(game).by_name["p1"].coins == 3
    assert explanations(smtp) == []


def test_steal_names_the_target_by_display_name(game, ana, ben):
    play(game, ana, "Steal from Ben!")
    game.refresh_from_db()
    assert state_of(game).action.kind == "steal" and state_of(game).action.target == "p2"


def test_allow_lets_the_action_pass(game, ana, ben):
    play(game, ana, "steal ben")
    outcome = play(game, ben, "allow")
    assert outcome.answer == "allow"
    assert decision_of(game, ben) is None


def test_challenge_challenges_the_claim(game, ana, ben, cai):
    play(game, ana, "steal ben")
    play(game, cai, "Challenge")
    assert decision_of(game, ana) == "challenged"


def test_block_duke_blocks_foreign_aid(game, ana, ben):
    play(game, ana, "foreign aid")
    outcome = play(game, ben, "block duke")
    assert outcome.answer == "block duke"
    assert state_of(game).action.blocker == "p2"


def _ana_must_lose_a_card(game, ana, ben):
    """Ana concedes without choosing the card, as a deadline concedes for her: the
    card is then a question of its own (a reply conceding names it at once)."""
    play(game, ana, "tax")
    play(game, ben, "challenge")
    with TestCase.captureOnCommitCallbacks(execute=True):
        decision_submit(game=game, user=ana, command={"act": "concede"}, version=awaited(game)["p1"][1])
    assert decision_of(game, ana) == "lose"
    return [option["card"] for option in options(game, ana)]


def test_lose_a_card(game, ana, ben):
    card = _ana_must_lose_a_card(game, ana, ben)[-1]
    outcome = play(game, ana, f"lose {card}")
    assert outcome.answer == f"lose {card}"
    assert card in state_of(game).by_name["p1"].revealed


def test_a_card_named_in_spanish_with_its_accent(game, ana, ben):
    card = _ana_must_lose_a_card(game, ana, ben)[0]
    play(game, ana, f"Pierdo mi {SPANISH[card]}")
    assert state_of(game).by_name["p1"].revealed == [card]


@pytest.mark.parametrize(
    ("language", "steal", "block"),
    [
        ("en", "steal ben", "block captain"),
        ("es", "robar a ben", "bloquear capitán"),
        ("pt-br", "roubar do ben", "bloquear capitão"),
    ],
)
def test_replies_are_read_in_each_language(game, ana, ben, smtp, language, steal, block):
    for user in (ana, ben):
        profile = profile_of(user)
        profile.language = language
        profile.save()
    play(game, ana, steal)
    play(game, ben, block)
    assert state_of(game).action.blocker == "p2" and state_of(game).action.block_card == "captain"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "allow / challenge / block captain / block ambassador"),
        ("es", "dejar pasar / desafiar / bloquear capitán / bloquear embajador"),
        ("pt-br", "deixar passar / desafiar / bloquear capitão / bloquear embaixador"),
    ],
)
def test_the_decision_email_lists_the_reply_words_in_the_readers_language(game, ana, ben, smtp, language, words):
    profile = profile_of(ben)
    profile.language = language
    profile.save()
    play(game, ana, "steal ben")  # its emails leave as its change commits (``receive``)
    [decision] = [mail for mail in smtp.to("ben@example.com") if words in mail.text]
    assert words in decision.html


def test_keep_cards_after_an_exchange(game, ana, ben, cai):
    play(game, ana, "exchange")
    play(game, ben, "allow")
    play(game, cai, "pass")
    assert decision_of(game, ana) == "keep"
    cards = options(game, ana)[-1]["cards"]
    outcome = play(game, ana, "Keep " + " and ".join(cards))
    assert outcome.answer == "keep " + " ".join(cards)
    assert sorted(state_of(game).by_name["p1"].hand) == sorted(cards)


def test_a_unique_answer_may_leave_out_what_only_one_option_has(ana, ben):
    game = started_game(ana, ben)
    play(game, ana, "steal")  # only Ben to steal from
    assert state_of(game).action.target == "p2"


# ---- what the player wrote ---------------------------------------------------------------


def test_quoted_text_and_the_attribution_are_not_the_answer(game, ana, smtp):
    body = (
        "On Tue, 3 Mar 2026 at 10:00, Coup by email\n<play+1.0.abc@localhost> wrote:\n"
        "> ana, it is your move: choose your action.\n> steal ben\n\n"
        "income\n\n-- \nAna\nsteal cai\n"
    )
    outcome = receive(reply(game, ana, body))
    assert (outcome.status, outcome.answer) == ("played", "income")


def test_a_top_posted_reply_with_a_signature(game, ana):
    body = "Tax, please\n\nSent from my phone\n-- \nAna\n\nOn Mon, ana wrote:\n> income\n"
    assert receive(reply(game, ana, body)).answer == "tax"


def test_an_html_reply_without_the_gmail_quote(game, ana):
    html = (
        '<div dir="ltr">Income<br></div><br><div class="gmail_quote"><div class="gmail_attr">On Mon, Coup wrote:'
        "</div><blockquote>steal ben</blockquote></div>"
    )
    assert receive(reply(game, ana, None, html=html)).answer == "income"


def test_reading_the_first_line():
    assert first_line("\n  allow  \n\nOn Mon, 1 Jan 2026, X <x@y>\nwrote:\n> challenge") == "allow"
    assert first_line("On Mon, 1 Jan 2026, X <x@y> wrote:\n> challenge\n\nallow\n") == "allow"  # written below
    assert first_line("-- \nallow") == ""
    html = "<p>block <b>duke</b></p><blockquote>allow<blockquote>\n  <p>steal</p></blockquote></blockquote>"
    assert html_to_text(html).split("\n")[:3] == ["block duke", "> allow", "> steal"]
    reading = read_line("Bloqueo como Capitán, gracias", {"p1": "Ana", "p2": "Ben"})
    assert (reading.act_names, reading.cards, reading.unknown) == (["block"], ["captain"], [])


# Replies as mail clients write them (tests/mail/replies/), each answering Ana's first
# move with a quoted original that lists other answers: the language Ana reads and the
# answer her own words give, or None where she wrote none above the quote.
CORPUS = Path(__file__).parent / "replies"
MAIL_CLIENT_REPLIES = {
    "gmail-en-plain.eml": ("en", "tax"),
    "gmail-en-plain-signature-only.eml": ("en", None),
    "gmail-en-html.eml": ("en", "exchange"),
    "gmail-es-html.eml": ("es", "impuestos"),
    "gmail-pt-plain.eml": ("pt-br", "imposto"),
    "outlook-en-plain.eml": ("en", "foreign aid"),
    "outlook-en-plain-empty.eml": ("en", None),
    "outlook-en-plain-original-message.eml": ("en", "steal cai"),
    "outlook-en-html-empty.eml": ("en", None),
    "outlook-es-plain.eml": ("es", "intercambio"),
    "outlook-es-plain-empty.eml": ("es", None),
    "outlook-es-html.eml": ("es", "impuestos"),
    "outlook-pt-plain.eml": ("pt-br", "imposto"),
    "outlook-pt-html-empty.eml": ("pt-br", None),
    "apple-en-plain.eml": ("en", "steal ben"),
    "apple-es-html.eml": ("es", "ayuda exterior"),
    "apple-pt-plain.eml": ("pt-br", "roubar cai"),
    "thunderbird-en-plain.eml": ("en", "income"),
    "thunderbird-es-plain.eml": ("es", "robar ben"),
    "thunderbird-pt-html.eml": ("pt-br", "renda"),
}


def test_the_corpus_holds_every_reply_listed():
    assert sorted(path.name for path in CORPUS.glob("*.eml")) == sorted(MAIL_CLIENT_REPLIES)


@pytest.mark.parametrize("name", sorted(MAIL_CLIENT_REPLIES))
def test_a_reply_written_by_a_mail_client_plays_what_its_player_wrote(game, ana, smtp, name):
    language, answer = MAIL_CLIENT_REPLIES[name]
    profile = profile_of(ana)
    profile.language = language
    profile.save()
    message = message_from_bytes((CORPUS / name).read_bytes(), policy=policy.default)
    # Sent to this game's signed address, just now (the corpus was written for game #1).
    message.replace_header("To", reply_address(seat_of(game, ana)))
    message.replace_header("Date", format_datetime(timezone.now()))
    version = game.version
    outcome = receive(message)
    game.refresh_from_db()
    with translation.override(language):
        subject, problem = gettext("Reply not played:"), gettext("We found no answer in your reply.")
    explained = [mail for mail in smtp.to(ana.email) if mail.subject.startswith(subject)]
    if answer is None:
        assert (outcome.status, outcome.reason) == ("explained", "no-answer")
        assert game.version == version
        assert len(explained) == 1 and problem in explained[0].text
    else:
        assert (outcome.status, outcome.answer) == ("played", answer)
        assert game.version > version
        assert explained == []


def test_a_huge_reply_is_read_in_a_moment():
    """Reading all of a 2 MB quote would take the quote finder many seconds."""
    started = time.perf_counter()
    assert first_line("tax\n\nOn Mon, Coup wrote:\n" + "> steal ben, then steal cai\n" * 80_000) == "tax"
    assert time.perf_counter() - started < 2


# ---- what is not played ------------------------------------------------------------------


def test_an_illegal_reply_gets_an_email_listing_the_legal_answers(game, ana, smtp):
    version = game.version
    outcome = receive(reply(game, ana, "coup ben"))
    assert (outcome.status, outcome.reason) == ("explained", "not-legal")
    game.refresh_from_db()
    assert game.version == version
    mail = smtp.wait_for(to=ana.email, subject_contains="not played")
    assert "“coup ben”" in mail.text and "What we understood: coup ben" in mail.text
    assert "That is not one of your answers now." in mail.text
    assert "- income — Income — take 1 coin" in mail.text and "- steal ben" in mail.text and "- steal cai" in mail.text
    assert "steal cai" in mail.html
    assert mail.message["Reply-To"] == reply_address(seat_of(game, ana))
    assert mail.message["In-Reply-To"] == f"<game-{game.pk}@localhost>"


def test_an_ambiguous_reply_lists_what_it_could_mean(game, ana, smtp):
    outcome = receive(reply(game, ana, "steal"))
    assert outcome.reason == "ambiguous"
    assert "That could mean more than one answer: steal ben / steal cai." in smtp.wait_for(to=ana.email).text


def test_unknown_words_are_not_guessed(game, ana, smtp):
    outcome = receive(reply(game, ana, "steal bob"))
    assert outcome.reason == "not-understood"
    assert "We did not understand: “bob”." in smtp.wait_for(to=ana.email).text
    assert state_of(game).action is None


def test_a_negated_answer_is_not_played(game, ana, ben, smtp):
    play(game, ana, "steal ben")
    assert receive(reply(game, ben, "Don't challenge")).reason == "not-understood"
    assert decision_of(game, ben) == "respond"


def test_the_explanation_is_in_the_players_language(game, ana, smtp):
    profile = profile_of(ana)
    profile.language = "es"
    profile.save()
    receive(reply(game, ana, "golpe ben"))
    mail = smtp.wait_for(to=ana.email)
    assert "No es una de tus respuestas posibles ahora." in mail.text
    assert "Ingresos" in mail.text


def test_a_stale_reply_is_not_played_on_a_later_decision(game, ana, ben, smtp):
    """Ben answered "allow" to an earlier question; the game has moved on to a new one."""
    written = timezone.now() - timedelta(minutes=5)
    play(game, ana, "steal ben")
    outcome = receive(reply(game, ben, "allow", written=written))
    assert (outcome.status, outcome.reason) == ("explained", "stale")
    assert decision_of(game, ben) == "respond"
    mail = smtp.wait_for(to=ben.email, subject_contains="Reply not played")
    assert "You wrote before the game asked the question it is waiting for now" in mail.text
    assert "- allow" in mail.text


def test_a_reply_when_nothing_is_awaited_is_explained(game, ben, smtp):
    assert receive(reply(game, ben, "income")).reason == "not-awaited"
    assert "You have nothing to answer now" in smtp.wait_for(to=ben.email).text


def test_a_forged_reply_address_is_ignored_silently(game, ana, smtp):
    seat = seat_of(game, ana)
    forged = reply_address(seat).replace(reply_address(seat).split("@")[0].rsplit(".", 1)[1], "0" * 20)
    outcome = receive(reply(game, ana, "income", to=forged))
    assert (outcome.status, outcome.reason) == ("ignored", "forged-address")
    other_seat = reply_address(seat).replace(f"+{game.pk}.0.", f"+{game.pk}.1.")  # ana's signature, Ben's seat
    assert receive(reply(game, ana, "income", to=other_seat)).reason == "forged-address"
    assert receive(reply(game, ana, "income", to="play@localhost")).reason == "no-reply-address"
    assert state_of(game).by_name["p1"].coins == 2 and smtp.messages == []


def test_the_from_header_is_not_what_authorises(game, ana, ben, smtp):
    """The signed address decides the seat: a From that names someone else (a
    player's alias, or a forger) neither blocks the play nor redirects it."""
    outcome = receive(reply(game, ana, "income", sender="Ben <ben@example.com>"))
    assert (outcome.status, outcome.position) == ("played", 0)
    assert state_of(game).by_name["p1"].coins == 3
    receive(reply(game, ben, "steal nobody", sender="Mallory <mallory@evil.example>"))
    assert [mail.to for mail in explanations(smtp)] == [[ben.email]]  # the explanation goes to the seat's player


@pytest.mark.parametrize(
    "headers",
    [{"Auto-Submitted": "auto-replied"}, {"Precedence": "bulk"}, {"X-Autoreply": "yes"}, {"Return-Path": "<>"}],
)
def test_auto_replies_are_ignored(game, ana, smtp, headers):
    outcome = receive(reply(game, ana, "I am out of the office until Monday. income", headers=headers))
    assert (outcome.status, outcome.reason) == ("ignored", "auto-reply")
    assert state_of(game).by_name["p1"].coins == 2 and smtp.messages == []


def test_our_own_email_coming_back_is_ignored(game, ana, smtp, settings):
    outcome = receive(reply(game, ana, "ana, we did not play your reply.", sender=settings.DEFAULT_FROM_EMAIL))
    assert (outcome.status, outcome.reason) == ("ignored", "our-own-email")
    assert smtp.messages == []


def test_a_message_received_twice_is_played_once(game, ana, smtp):
    message = reply(game, ana, "income")
    assert receive(message).status == "played"
    assert receive(message).reason == "duplicate"
    assert state_of(game).by_name["p1"].coins == 3


def test_explanations_stop_when_a_robot_keeps_writing(game, ana, smtp):
    outcomes = [receive(reply(game, ana, "hello")).status for _ in range(7)]
    assert outcomes == ["explained"] * 5 + ["ignored"] * 2
    assert len(smtp.messages) == 5


# ---- the ways mail arrives ---------------------------------------------------------------


def test_the_anymail_postmark_inbound_webhook_plays_the_reply(game, ana, client, settings, routes_with, smtp):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "postmark:s3cret"}
    routes_with(INBOUND_ESP="postmark")
    raw = reply(game, ana, "income").as_string()
    payload = json.dumps({"RawEmail": raw, "MessageID": "abc"})
    refused = client.post("/anymail/postmark/inbound/", payload, content_type="application/json")
    assert refused.status_code == 400
    assert state_of(game).by_name["p1"].coins == 2
    auth = "Basic " + base64.b64encode(b"postmark:s3cret").decode()
    response = client.post(
        "/anymail/postmark/inbound/", payload, content_type="application/json", HTTP_AUTHORIZATION=auth
    )
    assert response.status_code == 200
    game.refresh_from_db()
    assert state_of(game).by_name["p1"].coins == 3


OTHER_ESP_PATHS = [
    "/anymail/mailgun/inbound/",
    "/anymail/mailgun/inbound_mime/",
    "/anymail/sendgrid/inbound/",
    "/anymail/amazon_ses/inbound/",
    "/anymail/mailgun/tracking/",
    "/anymail/mandrill/",
    "/anymail/brevo/inbound/",
]


def test_only_the_webhooks_of_the_configured_provider_are_mounted(game, client, settings, routes_with):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "postmark:s3cret"}
    routes_with(INBOUND_ESP="postmark")
    for path in OTHER_ESP_PATHS:
        assert client.post(path, "{}", content_type="application/json").status_code == 404, path
    assert client.post("/anymail/postmark/inbound/", "{}", content_type="application/json").status_code == 400
    # Its tracking webhook too (games/mail/bounces.py), behind the same secret.
    assert client.post("/anymail/postmark/tracking/", "{}", content_type="application/json").status_code == 400


def test_without_a_configured_provider_no_webhook_takes_replies(game, ana, client, settings, routes_with):
    settings.ANYMAIL = {"WEBHOOK_SECRET": ""}
    routes_with(INBOUND_ESP="")
    payload = json.dumps({"RawEmail": reply(game, ana, "income").as_string(), "MessageID": "abc"})
    for path in ["/anymail/postmark/inbound/", "/anymail/postmark/tracking/", *OTHER_ESP_PATHS]:
        assert client.post(path, payload, content_type="application/json").status_code == 404, path
    assert state_of(game).by_name["p1"].coins == 2


def _inbound_checks():
    from django.core.checks import run_checks

    return {message.id: message for message in run_checks() if message.id.startswith("games.")}


def test_a_webhook_without_a_secret_stops_the_site_outside_debug(settings):
    settings.INBOUND_ESP = "postmark"
    settings.ANYMAIL = {"WEBHOOK_SECRET": ""}
    settings.DEBUG = False
    found = _inbound_checks()
    assert set(found) == {"games.E002"} and found["games.E002"].is_serious()
    assert "/anymail/postmark/inbound/" in found["games.E002"].msg
    settings.DEBUG = True  # a developer trying the webhook is warned, not stopped
    assert set(_inbound_checks()) == {"games.W001"}
    settings.DEBUG = False
    settings.ANYMAIL = {"WEBHOOK_SECRET": "postmark:s3cret"}
    assert _inbound_checks() == {}
    settings.INBOUND_ESP = "carrier-pigeon"
    assert set(_inbound_checks()) == {"games.E001"}
    settings.INBOUND_ESP = ""
    settings.ANYMAIL = {"WEBHOOK_SECRET": ""}
    assert _inbound_checks() == {}


def test_the_site_refuses_to_start_with_an_open_webhook(tmp_path):
    env = {
        **os.environ,
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "INBOUND_ESP": "postmark",
        "ANYMAIL_WEBHOOK_SECRET": "",
    }
    done = subprocess.run(
        [sys.executable, "manage.py", "check"], capture_output=True, text=True, cwd=_root(), env=env, check=False
    )
    assert done.returncode != 0 and "games.E002" in done.stderr


def test_read_mail_plays_every_unread_message_of_a_maildir(game, ana, ben, cai, tmp_path, capfd):
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(reply(game, ana, "steal ben").as_bytes())
    box.add(reply(game, ana, "income", to="someone@localhost").as_bytes())
    out = io.StringIO()
    call_command("read_mail", str(tmp_path / "Maildir"), stdout=out)
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    assert any(line.endswith(f": played the answer in game #{game.pk}, seat 1.") for line in lines), lines
    assert not any("steal" in line for line in lines)  # what a player wrote stays out of logs
    assert any(line.endswith(": ignored: it is not addressed to a game's reply address.") for line in lines), lines
    assert capfd.readouterr().err == ""  # one sentence per message, nothing else
    assert state_of(game).action.kind == "steal"
    again = io.StringIO()
    call_command("read_mail", str(tmp_path / "Maildir"), "--maildir", stdout=again)
    assert again.getvalue() == ""  # both are marked seen


def test_read_mail_reads_an_mbox(game, ana, tmp_path):
    box = mailbox.mbox(tmp_path / "inbox")
    box.add(reply(game, ana, "income").as_bytes())
    box.close()
    out = io.StringIO()
    call_command("read_mail", str(tmp_path / "inbox"), "--mbox", stdout=out)
    assert ": played the answer in game #" in out.getvalue()


def test_read_mail_reads_one_message_on_stdin(game, ana, monkeypatch):
    raw = reply(game, ana, "income").as_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(raw)))
    out = io.StringIO()
    call_command("read_mail", stdout=out)
    assert out.getvalue().startswith(f"-: played the answer in game #{game.pk}, seat 1.")
    assert state_of(game).by_name["p1"].coins == 3


def test_read_mail_on_an_unreadable_path_exits_2_with_one_line(tmp_path):
    for args in ([str(tmp_path / "missing")], [str(tmp_path), "--maildir"]):
        done = subprocess.run(
            [sys.executable, "manage.py", "read_mail", *args], capture_output=True, text=True, cwd=_root(), check=False
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.strip().startswith("error: ") and len(done.stderr.strip().splitlines()) == 1


def _root():
    from django.conf import settings

    return settings.BASE_DIR
