"""Bounces and complaints: the VERP address each email leaves with over real SMTP, the
delivery reports of real mail servers read through the same door as replies, the
suppression policy, an email provider's tracking webhook, and every kind of email
held while an address fails."""

import base64
import email
import email.policy
import json
import mailbox
from datetime import timedelta
from email.utils import make_msgid
from io import StringIO
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.core.mail import send_mail
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as settings_profile
from hypothesis import strategies as st

from accounts.bounces import SOFT_PAUSE, SOFT_STOP_COUNT, failure_of, mail_failed
from accounts.models import MailFailure, SentEmail
from games.mail import emails
from games.mail.inbound import receive
from games.mail.tokens import bounce_address, read_bounce_address
from games.services import gathering, play
from games.services.errors import ServiceError
from tests.players import awaited, gathering_game, make_player, started_game

SAMPLES = Path(__file__).parent / "bounces"
DOMAIN = "coup.example.org"


@pytest.fixture(autouse=True)
def _site_domain(settings):
    settings.DEFAULT_FROM_EMAIL = f"Coup by email <coup@{DOMAIN}>"
    settings.REPLY_ADDRESS = f"play@{DOMAIN}"


def sample(name: str, to: str) -> email.message.EmailMessage:
    """The sample report ``name``, sent back to the bounce address ``to``, as a
    message of its own (a Message-ID of its own: a message is read once)."""
    raw = (SAMPLES / name).read_bytes().replace(b"BOUNCE_ADDRESS", to.encode())
    message = email.message_from_bytes(raw, policy=email.policy.default)
    del message["Message-ID"]
    message["Message-ID"] = make_msgid()
    return message


def sent_to(address: str) -> str:
    """The bounce address of an email just sent to ``address``."""
    return bounce_address(SentEmail.objects.create(address=address).pk)


# ---- VERP on the wire ----------------------------------------------------------------------


def test_each_email_over_smtp_leaves_with_a_signed_bounce_address_of_its_own(smtp, ana, ben):
    send_mail("Hello", "Hi", None, [ana.email, ben.email])
    first, second = smtp.messages
    assert {first.to[0], second.to[0]} == {ana.email, ben.email}  # one transaction per recipient
    for message in (first, second):
        local, domain = message.mail_from.split("@")
        assert domain == DOMAIN and local.startswith("bounce+")
        sent = SentEmail.objects.get(pk=read_bounce_address(message.mail_from))
        assert sent.address == message.to[0]
    assert first.mail_from != second.mail_from


def test_without_verp_the_envelope_sender_is_the_from_address(smtp, ana, settings):
    settings.VERP_BOUNCES = False
    send_mail("Hello", "Hi", None, [ana.email])
    assert smtp.wait_for(to=ana.email).mail_from == f"coup@{DOMAIN}"
    assert not SentEmail.objects.exists()


def test_a_game_email_sent_by_the_worker_bounces_back_and_stops_the_address(celery_worker, smtp, settings):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben)
    celery_worker.drain()
    decision = smtp.wait_for(to=ana.email, subject_contains="Your")
    # The worker runs with the site's default sender domain: its bounce address is signed there.
    settings.DEFAULT_FROM_EMAIL = "Coup by email <coup@localhost>"
    assert decision.mail_from.startswith("bounce+") and decision.mail_from.endswith("@localhost")
    outcome = receive(sample("postfix-user-unknown.eml", decision.mail_from))
    assert (outcome.status, outcome.reason) == ("recorded", "hard-bounce")
    assert failure_of(ana.email).stopped
    assert game.seats.get(user=ana)  # the game goes on


# ---- reports of real mail servers ----------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "reason", "kind", "stopped"),
    [
        ("postfix-user-unknown.eml", "hard-bounce", MailFailure.Kind.HARD, True),
        ("gmail-no-such-user.eml", "hard-bounce", MailFailure.Kind.HARD, True),
        ("microsoft365-recipient-not-found.eml", "hard-bounce", MailFailure.Kind.HARD, True),
        ("exim-plain-text.eml", "hard-bounce", MailFailure.Kind.HARD, True),
        ("postfix-delayed.eml", "soft-bounce", MailFailure.Kind.SOFT, False),
        ("postfix-mailbox-full-gave-up.eml", "soft-bounce", MailFailure.Kind.SOFT, False),
    ],
)
def test_a_delivery_report_marks_the_address_its_email_was_sent_to(db, name, reason, kind, stopped):
    # The report names another address (a forwarded mailbox): the bounce address decides.
    outcome = receive(sample(name, sent_to("ana@example.com")))
    assert (outcome.status, outcome.reason) == ("recorded", reason)
    failure = failure_of("ana@example.com")
    assert (failure.kind, failure.stopped) == (kind, stopped)
    assert not MailFailure.objects.exclude(address="ana@example.com").exists()


def test_a_complaint_through_a_feedback_loop_names_the_address_by_the_enclosed_return_path(db):
    outcome = receive(sample("arf-complaint.eml", sent_to("eve@example.com")))
    assert (outcome.status, outcome.reason) == ("recorded", "complaint")
    failure = failure_of("eve@example.com")
    assert (failure.kind, failure.stopped) == (MailFailure.Kind.COMPLAINT, True)


def test_a_report_read_twice_counts_once(db):
    message = sample("postfix-delayed.eml", sent_to("ana@example.com"))
    assert receive(message).status == "recorded"
    assert (receive(message).status, receive(message).reason) == ("ignored", "duplicate")
    assert len(MailFailure.objects.get().soft_failures) == 1


# ---- the policy ----------------------------------------------------------------------------


def test_a_soft_bounce_pauses_for_a_day_and_the_third_in_a_week_stops(db):
    start = timezone.now()
    failure = mail_failed(address="Ana@Example.com", kind=MailFailure.Kind.SOFT, at=start)
    assert (failure.address, failure.stopped, failure.paused_until) == ("ana@example.com", False, start + SOFT_PAUSE)
    mail_failed(address="ana@example.com", kind=MailFailure.Kind.SOFT, at=start - timedelta(days=8))  # too old
    assert not MailFailure.objects.get().stopped
    for days in range(1, SOFT_STOP_COUNT):
        failure = mail_failed(address="ana@example.com", kind=MailFailure.Kind.SOFT, at=start - timedelta(days=days))
    assert failure.stopped


def test_a_paused_address_gets_mail_again_once_the_day_is_over(db):
    mail_failed(address="ana@example.com", kind=MailFailure.Kind.SOFT, at=timezone.now() - SOFT_PAUSE)
    assert failure_of("ana@example.com") is None


def test_a_soft_bounce_after_a_hard_one_keeps_the_stop_and_its_reason(db):
    mail_failed(address="ana@example.com", kind=MailFailure.Kind.HARD)
    failure = mail_failed(address="ana@example.com", kind=MailFailure.Kind.SOFT)
    assert (failure.kind, failure.stopped) == (MailFailure.Kind.HARD, True)


# ---- bad input -----------------------------------------------------------------------------


def _nothing_changed():
    return not MailFailure.objects.exists()


def test_a_flood_of_reports_for_unknown_emails_changes_nothing(db):
    for number in range(1, 301):
        outcome = receive(sample("postfix-user-unknown.eml", bounce_address(10_000_000 + number)))
        assert (outcome.status, outcome.reason) == ("ignored", "unknown-sent-email")
    assert _nothing_changed()


@pytest.mark.parametrize(
    "forged",
    [
        "bounce+1.0123456789abcdef@" + DOMAIN,
        "bounce+1@" + DOMAIN,
        "bounce+x.y.z@" + DOMAIN,
        "bounce+٣.0123456789abcdef@" + DOMAIN,
        "bounce+" + "9" * 40 + ".0123456789abcdef@" + DOMAIN,
    ],
)
def test_a_report_to_a_forged_bounce_address_changes_nothing(db, forged):
    SentEmail.objects.create(address="ana@example.com")
    outcome = receive(sample("postfix-user-unknown.eml", forged))
    assert (outcome.status, outcome.reason) == ("ignored", "forged-bounce-address")
    assert _nothing_changed()


def test_a_report_about_another_sites_mail_changes_nothing(db):
    outcome = receive(sample("another-sites-dsn.eml", "unused"))
    assert (outcome.status, outcome.reason) == ("ignored", "report-not-ours")
    signed_elsewhere = sent_to("ana@example.com").replace(DOMAIN, "other.example")
    outcome = receive(sample("postfix-user-unknown.eml", signed_elsewhere))
    assert (outcome.status, outcome.reason) == ("ignored", "report-not-ours")
    assert _nothing_changed()


@pytest.mark.parametrize(
    ("name", "reason"),
    [("report-without-delivery-status.eml", "no-report-part"), ("no-text-part.eml", "not-a-failure")],
)
def test_a_message_to_a_bounce_address_that_reports_nothing_changes_nothing(db, name, reason):
    outcome = receive(sample(name, sent_to("ana@example.com")))
    assert (outcome.status, outcome.reason) == ("ignored", reason)
    assert _nothing_changed()


def test_read_mail_says_what_each_report_did(db, tmp_path):
    box = mailbox.Maildir(tmp_path / "Maildir")
    for name in ("postfix-user-unknown.eml", "postfix-delayed.eml", "no-text-part.eml"):
        box.add(sample(name, sent_to(f"{name.split('.')[0]}@example.com")).as_bytes())
    box.add(sample("postfix-user-unknown.eml", "bounce+1.0123456789abcdef@" + DOMAIN).as_bytes())
    out = StringIO()
    call_command("read_mail", str(tmp_path / "Maildir"), stdout=out)
    lines = sorted(line.split(": ", 1)[1] for line in out.getvalue().splitlines())
    assert lines == [
        "ignored: it reports no failed delivery.",
        "ignored: its bounce address was not signed by this site.",
        "recorded a hard bounce: no more email goes to its address.",
        "recorded a soft bounce: email to its address waits a day (the third in a week stops it).",
    ]


# ---- an email provider's tracking webhook --------------------------------------------------


def _postmark_bounce(address: str, type_: str = "HardBounce", details: str = "smtp;550 5.1.1 unknown") -> str:
    # Bounced now: a soft bounce pauses mail for a day from when it happened, so a
    # fixed date would leave nothing paused once that day has passed.
    return json.dumps(
        {
            "RecordType": "Bounce",
            "ID": 42,
            "Type": type_,
            "TypeCode": 1,
            "MessageID": "883953f4-6105-42a2-a16a-77a8eac79483",
            "Email": address,
            "BouncedAt": timezone.now().isoformat(),
            "Details": details,
            "Description": "The server was unable to deliver your message.",
        }
    )


def _basic_auth(secret: str) -> dict:
    return {"HTTP_AUTHORIZATION": "Basic " + base64.b64encode(secret.encode()).decode()}


@pytest.fixture
def postmark(settings, routes_with):
    settings.ANYMAIL = {"WEBHOOK_SECRET": "postmark:s3cret"}
    routes_with(INBOUND_ESP="postmark")
    return "/anymail/postmark/tracking/"


def test_the_providers_tracking_webhook_stops_a_hard_bounce_and_pauses_a_soft_one(db, client, postmark):
    response = client.post(
        postmark, _postmark_bounce("ana@example.com"), "application/json", **_basic_auth("postmark:s3cret")
    )
    assert response.status_code == 200
    assert failure_of("ana@example.com").stopped
    soft = _postmark_bounce("ben@example.com", "SoftBounce", "smtp;452 4.2.2 mailbox full")
    assert client.post(postmark, soft, "application/json", **_basic_auth("postmark:s3cret")).status_code == 200
    failure = failure_of("ben@example.com")
    assert (failure.kind, failure.stopped) == (MailFailure.Kind.SOFT, False)


def test_the_tracking_webhook_refuses_a_post_without_the_secret(db, client, postmark):
    for auth in ({}, _basic_auth("postmark:wrong")):
        response = client.post(postmark, _postmark_bounce("ana@example.com"), "application/json", **auth)
        assert response.status_code in (400, 401, 403)
    assert _nothing_changed()


# ---- no email of any kind to a failing address ---------------------------------------------


@pytest.fixture
def failing_ana(ana):
    mail_failed(address=ana.email, kind=MailFailure.Kind.SOFT)
    return ana


def test_no_game_email_goes_to_a_failing_address(smtp, failing_ana, ben):
    game = started_game(failing_ana, ben)
    emails.send_started(game.seats.get(user=failing_ana).pk)
    emails.send_started(game.seats.get(user=ben).pk)
    assert smtp.to(ben.email) and not smtp.to(failing_ana.email)


def test_no_email_of_a_batch_goes_to_a_failing_address(smtp, failing_ana, ben, cai):
    game = started_game(failing_ana, ben, cai)
    # Everyone is asked to respond to a claim: the emails leave together, in a Batch.
    play.decision_submit(game=game, user=failing_ana, command={"act": "tax"}, version=awaited(game)["p1"][1])
    asked = awaited(game)
    seats = {seat.player: seat for seat in game.seats.all()}
    smtp.clear()
    emails.send_decisions(game.pk, [(seats[player].pk, version) for player, (_kind, version) in asked.items()])
    assert smtp.to(ben.email) and smtp.to(cai.email)
    mail_failed(address=ben.email, kind=MailFailure.Kind.COMPLAINT)
    smtp.clear()
    emails.send_decisions(game.pk, [(seats[player].pk, version) for player, (_kind, version) in asked.items()])
    assert smtp.to(cai.email) and not smtp.to(ben.email)


def test_no_password_reset_goes_to_a_failing_address(smtp, failing_ana, client):
    response = client.post(reverse("account_reset_password"), {"email": failing_ana.email}, follow=True)
    assert response.status_code == 200
    assert not smtp.to(failing_ana.email)
    assert "We can&#x27;t deliver email to ana@example.com" in response.content.decode()


def test_no_invitation_goes_to_a_failing_address_and_the_host_is_told(smtp, ana, ben, client):
    game = gathering_game(ana, ben, seats=3)
    invitation = gathering.invitation_send(game=game, by=ana, email="dora@example.com")
    mail_failed(address="dora@example.com", kind=MailFailure.Kind.HARD)
    emails.send_invitation(invitation.pk)
    assert not smtp.to("dora@example.com")
    client.force_login(ana)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "dora@example.com" in page and "the invitation did not arrive" in page
    # Another player of the table sees neither the address nor its trouble.
    client.force_login(ben)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "dora@example.com" not in page and "did not arrive" not in page
    with pytest.raises(ServiceError, match="bounces"):
        gathering.invitation_send(game=game, by=ana, email="Dora@example.com ")


def test_no_sign_in_code_goes_to_a_failing_address_and_the_page_says_so(smtp, failing_ana, client):
    response = client.post(reverse("account_request_login_code"), {"email": failing_ana.email}, follow=True)
    assert not smtp.to(failing_ana.email)
    assert "We can&#x27;t deliver email to ana@example.com" in response.content.decode()


def test_a_player_whose_mail_fails_sees_the_banner_and_sends_a_test(
    smtp, failing_ana, ben, client, django_capture_on_commit_callbacks
):
    client.force_login(ben)
    assert "mail-failure" not in client.get(reverse("home")).content.decode()
    client.force_login(failing_ana)
    page = client.get(reverse("home")).content.decode()
    assert "We can't deliver email to <strong>ana@example.com</strong>" in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("mail_test"), {"next": reverse("profile")})
    assert response.status_code == 302 and response["Location"] == reverse("profile")
    assert failure_of(failing_ana.email) is None
    test = smtp.wait_for(to=failing_ana.email, subject_contains="test email")
    assert test.mail_from.startswith("bounce+")
    # If the test bounces too, the banner is back.
    receive(sample("postfix-user-unknown.eml", test.mail_from))
    assert "mail-failure" in client.get(reverse("home")).content.decode()


def test_test_emails_are_limited_to_a_few_a_day(smtp, failing_ana, client, django_capture_on_commit_callbacks):
    client.force_login(failing_ana)
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            client.post(reverse("mail_test"))
    smtp.wait_for(to=failing_ana.email, count=3)
    response = client.post(reverse("mail_test"), follow=True)
    assert "enough test emails today" in response.content.decode()
    assert len(smtp.to(failing_ana.email)) == 3


def test_confirming_an_address_through_allauth_lifts_its_mark(failing_ana, rf):
    from allauth.account.models import EmailAddress
    from allauth.account.signals import email_confirmed

    address, _ = EmailAddress.objects.get_or_create(user=failing_ana, email=failing_ana.email)
    email_confirmed.send(sender=EmailAddress, request=rf.get("/"), email_address=address)
    assert failure_of(failing_ana.email) is None


def test_mail_check_shows_the_verp_return_path_or_the_from_address(settings, db):
    settings.MAILERS = {"default": {"BACKEND": "coupsite.smtp.EmailBackend", "OPTIONS": {"host": "smtp.example.org"}}}
    out = StringIO()
    with pytest.raises(CommandError):  # DKIM is missing here
        call_command("mail_check", stdout=out)
    assert f"Return-Path  bounce+<id>.<signature>@{DOMAIN} (VERP, domain {DOMAIN}, aligned with From)" in out.getvalue()
    assert f"MX     {DOMAIN}: the server that hands the bounces" in out.getvalue()
    settings.VERP_BOUNCES = False
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("mail_check", stdout=out)
    assert f"Return-Path  coup@{DOMAIN} (domain {DOMAIN}, aligned with From; VERP_BOUNCES is off)" in out.getvalue()


def test_changing_the_address_through_allauth_ends_the_banner(smtp, failing_ana, client):
    client.force_login(failing_ana)
    client.post(reverse("account_email"), {"email": "ana.new@example.com", "action_add": ""})
    confirmation = smtp.wait_for(to="ana.new@example.com")
    [link] = [link for link in confirmation.links if "/confirm-email/" in link]
    client.post(urlsplit(link).path)
    client.post(reverse("account_email"), {"email": "ana.new@example.com", "action_primary": ""})
    failing_ana.refresh_from_db()
    assert failing_ana.email == "ana.new@example.com"
    assert "mail-failure" not in client.get(reverse("home")).content.decode()
    assert failure_of("ana@example.com") is not None  # the old address still fails: no mail goes there


REPORT_TEMPLATE = """\
From: MAILER-DAEMON@mx.example
To: {to}
Subject: report
Message-ID: {message_id}
MIME-Version: 1.0
Content-Type: multipart/report; report-type={report_type}; boundary="B"

--B
Content-Type: text/plain

{text}
--B
Content-Type: {part_type}

Reporting-MTA: dns; mx.example

Final-Recipient: {recipient}
Action: {action}
Status: {status}

--B--
"""


@settings_profile(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    report_type=st.sampled_from(["delivery-status", "feedback-report", "", "x"]) | st.text(max_size=20),
    part_type=st.sampled_from(["message/delivery-status", "message/feedback-report", "text/plain", "message/rfc822"]),
    text=st.text(max_size=200),
    recipient=st.text(max_size=60),
    action=st.sampled_from(["failed", "delayed", "delivered", ""]) | st.text(max_size=20),
    status=st.sampled_from(["5.1.1", "4.2.2", "2.0.0", ""]) | st.text(max_size=12),
)
def test_any_report_to_a_bounce_address_is_recorded_or_ignored_never_raised(
    db, report_type, part_type, text, recipient, action, status
):
    fields = {"report_type": report_type, "part_type": part_type, "text": text}
    fields |= {"recipient": recipient, "action": action, "status": status}
    fields = {name: value.replace("\r", " ").replace("\n", " ") for name, value in fields.items()}
    raw = REPORT_TEMPLATE.format(to=sent_to("ana@example.com"), message_id=make_msgid(), **fields)
    outcome = receive(email.message_from_string(raw, policy=email.policy.default))
    assert outcome.status in {"recorded", "ignored"}
    assert MailFailure.objects.exclude(address="ana@example.com").count() == 0
