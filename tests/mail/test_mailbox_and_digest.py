"""The local mailbox (Maildir backend and its DEBUG-only page) and the daily digest."""

import html
import mailbox
import re
import time
import zoneinfo
from datetime import UTC, datetime, timedelta
from urllib.parse import urlparse

import pytest
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from django.urls import Resolver404, resolve
from django.utils import timezone

from accounts.models import EmailMode, Profile, profile_of
from games import tasks
from games.mail import emails
from tests.players import make_player, started_game

MAILDIR_BACKEND = "coupsite.mailbox.EmailBackend"


@pytest.fixture
def maildir(settings, tmp_path):
    """Send this test's email to a Maildir of its own, as the embedded default does."""
    path = tmp_path / "mailbox"
    settings.MAILERS = {"default": {"BACKEND": MAILDIR_BACKEND, "OPTIONS": {"file_path": str(path)}}}
    return path


@pytest.fixture
def debug_on(routes_with):
    """DEBUG on, with the URLs coupsite/urls.py declares then; as before afterwards."""
    routes_with(DEBUG=True)


@pytest.fixture
def debug_off(routes_with):
    routes_with(DEBUG=False)


def _send(subject: str, to: str = "ana@example.com", html_body: str = "<p>Hello</p>"):
    message = EmailMultiAlternatives(subject, "Hello in text", to=[to], headers={"List-Unsubscribe": "<https://x/u>"})
    message.attach_alternative(html_body, "text/html")
    message.send()


# ---- the Maildir backend -------------------------------------------------------------


def test_the_maildir_backend_stores_each_message_as_a_file(maildir):
    _send("First")
    _send("Second", to="ben@example.com")
    stored = sorted(str(message["Subject"]) for message in mailbox.Maildir(maildir, create=False))
    assert stored == ["First", "Second"]
    assert len(list((maildir / "new").iterdir())) == 2


# ---- the mailbox page ------------------------------------------------------------------


def test_the_mailbox_lists_stored_emails_newest_first(maildir, debug_on, client):
    _send("Older", to="ana@example.com")
    _send("Newer", to="ben@example.com")
    page = client.get("/mailbox/").content.decode()
    assert page.index("Newer") < page.index("Older")
    assert "ana@example.com" in page and "ben@example.com" in page


def test_the_mailbox_shows_an_email_sandboxed_with_its_text_and_headers(maildir, debug_on, client):
    _send(
        "Look",
        html_body='<html><body><a href="http://127.0.0.1:8000/a/x/">Allow</a><script>alert(1)</script></body></html>',
    )
    key = re.search(r'href="/mailbox/([^"/]+)/"', client.get("/mailbox/").content.decode())[1]
    page = client.get(f"/mailbox/{key}/").content.decode()
    frame = re.search(r"<iframe[^>]*>", page)[0]
    sandbox = re.search(r'sandbox="([^"]*)"', frame)[1]
    assert "allow-scripts" not in sandbox and "allow-same-origin" not in sandbox
    assert "<script>" not in page  # the email's HTML is not in the page, only behind the iframe's address
    assert "Hello in text" in page
    assert "List-Unsubscribe" in page
    email = client.get(html.unescape(re.search(r'src="([^"]*)"', frame)[1]))
    shown = email.content.decode()
    assert '<base target="_blank">' in shown and 'href="http://127.0.0.1:8000/a/x/"' in shown
    # Its own policy: its inline styles, no script, sandboxed even when opened alone,
    # framed by the mailbox page only.
    policy = email["Content-Security-Policy"]
    assert "default-src 'none'" in policy and "script-src" not in policy
    assert "sandbox allow-popups allow-popups-to-escape-sandbox" in policy
    assert "frame-ancestors 'self'" in policy and email["X-Frame-Options"] == "SAMEORIGIN"


def test_the_mailbox_page_itself_keeps_the_sites_policy(maildir, debug_on, client):
    _send("Look")
    page = client.get("/mailbox/")
    assert "'unsafe-inline'" not in page["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in page["Content-Security-Policy"]


def test_an_unknown_message_is_not_found(maildir, debug_on, client):
    assert client.get("/mailbox/1234.M5P6Q7.nowhere/").status_code == 404
    assert client.get("/mailbox/..%2F..%2Fetc%2Fpasswd/").status_code == 404


def test_a_one_click_answer_from_the_mailbox_opens_its_confirmation(
    maildir, debug_on, client, ana, ben, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(ana, ben)
    page = client.get("/mailbox/").content.decode()
    keys = re.findall(r'href="/mailbox/([^"/]+)/"', page)
    shown = [client.get(f"/mailbox/{key}/").content.decode() for key in keys]
    decision = next(p for p in shown if "ana@example.com" in p and "/a/" in p)
    links = re.findall(r'href="(http://[^"]+/a/[^"]+)"', html.unescape(decision))
    confirmation = client.get(urlparse(links[0]).path)
    assert confirmation.status_code == 200
    assert f"/games/{game.pk}/" in confirmation.content.decode()


def test_without_debug_the_mailbox_is_not_even_routed(maildir, debug_off, client):
    _send("Secret")
    with pytest.raises(Resolver404):
        resolve("/mailbox/")
    response = client.get("/mailbox/")
    assert response.status_code == 404
    assert "Secret" not in response.content.decode()


def test_the_mailbox_view_refuses_without_debug_even_if_routed(maildir, debug_on, settings, rf):
    from django.http import Http404

    from coupsite.mailbox_views import mailbox as mailbox_view

    settings.DEBUG = False
    with pytest.raises(Http404):
        mailbox_view(rf.get("/mailbox/"))


# ---- the daily digest -------------------------------------------------------------------


def _choose(user, mode):
    profile = profile_of(user)
    profile.email_mode = mode
    profile.save()


def _digests():
    return [m for m in mail.outbox if "waiting for you" in m.subject]


def test_the_digest_lists_only_the_games_waiting_for_the_player(ana, ben, cai):
    _choose(ana, EmailMode.DIGEST)
    waiting = started_game(ana, ben)  # the host moves first: waits for Ana
    other = started_game(ben, ana, cai)  # waits for Ben
    mail.outbox.clear()
    assert emails.send_digest(ana.pk) is True
    [digest] = _digests()
    assert digest.to == ["ana@example.com"]
    text = digest.body
    html_part = digest.alternatives[0].content
    for body in (text, html_part):
        assert f"/games/{waiting.pk}/" in body
        assert f"/games/{other.pk}/" not in body
    assert f"#{waiting.pk}" in text and "choose your action" in text and "UTC" in text
    assert "List-Unsubscribe" in digest.extra_headers


def _live_in(user, zone: str, digest_hour: int = 8):
    profile = profile_of(user)
    profile.time_zone = zone
    profile.digest_hour = digest_hour
    profile.save()


def _queued_digests(at: str, capture) -> list:
    """Run the hourly digest pass at the UTC instant ``at`` and return the addresses
    it wrote to."""
    mail.outbox.clear()
    with capture(execute=True):
        tasks.queue_digests(datetime.fromisoformat(at).replace(tzinfo=UTC))
    return sorted(m.to[0] for m in _digests())


def test_the_digest_task_writes_to_digest_players_only_and_once_a_day(
    ana, ben, cai, django_capture_on_commit_callbacks
):
    _choose(ana, EmailMode.DIGEST)
    _choose(cai, EmailMode.DIGEST)
    started_game(ana, ben)  # waits for Ana
    started_game(ben, cai)  # waits for Ben, who chose every email: no digest
    # None of them moved from UTC: their 8:00 is 08:00 UTC.
    # And none to Cai, whom nothing waits for.
    assert _queued_digests("2026-11-27T08:00", django_capture_on_commit_callbacks) == ["ana@example.com"]
    assert _queued_digests("2026-11-27T08:00", django_capture_on_commit_callbacks) == []


def test_each_player_gets_the_digest_at_their_own_morning_and_once_a_day(
    ana, ben, cai, django_capture_on_commit_callbacks
):
    for user, zone in ((ana, "America/Sao_Paulo"), (cai, "Europe/Madrid")):
        _choose(user, EmailMode.DIGEST)
        _live_in(user, zone)
    started_game(ana, ben)  # waits for Ana
    started_game(cai, ben)  # waits for Cai
    capture = django_capture_on_commit_callbacks
    # In November Madrid is UTC+1 and São Paulo UTC-3: 8:00 there is 07:00 and 11:00 UTC.
    assert _queued_digests("2026-11-27T06:00", capture) == []
    assert _queued_digests("2026-11-27T07:00", capture) == ["cai@example.com"]
    assert _queued_digests("2026-11-27T07:40", capture) == []  # the same hour again: nothing twice
    assert _queued_digests("2026-11-27T08:00", capture) == []
    assert _queued_digests("2026-11-27T11:00", capture) == ["ana@example.com"]
    assert _queued_digests("2026-11-27T11:00", capture) == []
    assert _queued_digests("2026-11-28T07:00", capture) == ["cai@example.com"]  # the next morning


def test_the_digest_comes_at_the_hour_the_player_chose(ana, ben, django_capture_on_commit_callbacks):
    _choose(ana, EmailMode.DIGEST)
    _live_in(ana, "Europe/Madrid", digest_hour=6)
    started_game(ana, ben)
    assert _queued_digests("2026-11-27T07:00", django_capture_on_commit_callbacks) == []
    assert _queued_digests("2026-11-27T05:00", django_capture_on_commit_callbacks) == ["ana@example.com"]


def _now_with_the_hour_to_run_in(room=timedelta(minutes=2)):
    """Now, once at least ``room`` is left of the current hour (else after waiting for
    the next one): the worker must run the digests in the hour the test chose."""
    now = timezone.now()
    left = now.replace(minute=0, second=0, microsecond=0) + timedelta(hours=1) - now
    if left < room:
        time.sleep(left.total_seconds() + 1)
        now = timezone.now()
    return now


def test_the_worker_sends_each_player_one_digest_at_their_hour_over_smtp(celery_worker, smtp):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    now = _now_with_the_hour_to_run_in()
    zones = {ana: "America/Sao_Paulo", cai: "Europe/Madrid"}
    for user, zone in zones.items():
        _choose(user, EmailMode.DIGEST)
        # The hour it is now there: each one's digest is due in this run.
        _live_in(user, zone, digest_hour=now.astimezone(zoneinfo.ZoneInfo(zone)).hour)
    started_game(ana, ben)
    started_game(cai, ben)
    celery_worker.drain()
    smtp.clear()
    for _run in range(2):  # a beat run delivered twice
        tasks.send_digests.delay()
        celery_worker.drain()
    digests = [m for m in smtp.messages if "waiting for you" in m.subject]
    assert sorted(m.to[0] for m in digests) == [ana.email, cai.email]
    assert not Profile.objects.filter(user__in=list(zones), digest_sent_on=None).exists()


def test_no_digest_when_no_game_waits(ana, ben):
    _choose(ben, EmailMode.DIGEST)
    started_game(ana, ben)
    mail.outbox.clear()
    assert emails.send_digest(ben.pk) is False
    assert _digests() == []


def test_no_digest_for_players_who_chose_every_email_or_none(ana, ben):
    started_game(ana, ben)
    for mode in (EmailMode.EVERY, EmailMode.NONE):
        _choose(ana, mode)
        mail.outbox.clear()
        assert emails.send_digest(ana.pk) is False
        assert _digests() == []


def test_the_digest_is_written_in_the_players_language(ana, ben):
    _choose(ana, EmailMode.DIGEST)
    profile = profile_of(ana)
    profile.language = "es"
    profile.save()
    started_game(ana, ben)
    mail.outbox.clear()
    emails.send_digest(ana.pk)
    [message] = mail.outbox
    assert message.subject == "Coup: una partida te está esperando"
