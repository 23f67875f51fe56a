"""Response headers: a Content-Security-Policy (Django's own) that needs neither
'unsafe-inline' nor 'unsafe-eval', because no page holds an inline script,
style or event handler; a Permissions-Policy; the language cookie Secure under
HTTPS like the session's."""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import RequestFactory
from django.urls import reverse

from games.mail.tokens import answer_token, stop_token, unsubscribe_token
from games.models import Seat
from games.services import gathering, play
from games.web.views import server_error
from tests.players import make_staff
from tests.web.conftest import awaited, gathering_game, started_game

pytestmark = pytest.mark.django_db

TEMPLATES = Path(settings.BASE_DIR) / "templates"
# What a policy without 'unsafe-inline' (and without 'unsafe-eval') refuses.
INLINE = {
    # A data block (type="application/json", as allauth's email page has) is never run.
    "inline script": re.compile(r"<script\b(?![^>]*\b(?:src=|type=\"application/json\"))[^>]*>", re.IGNORECASE),
    "style element": re.compile(r"<style\b", re.IGNORECASE),
    "style attribute": re.compile(r"\sstyle\s*=", re.IGNORECASE),
    "event handler": re.compile(r"\son[a-z]+\s*=", re.IGNORECASE),
    "htmx handler (eval)": re.compile(r"\shx-on", re.IGNORECASE),
    "javascript: URL": re.compile(r"javascript:", re.IGNORECASE),
}


def inline_parts(html: str) -> list[str]:
    return [name for name, pattern in INLINE.items() if pattern.search(html)]


def pages(client, ana, ben, cai) -> dict:
    """One of every page: signed out, then as a player of games in every state."""
    found = {}
    for name in ("home", "account_login", "account_signup", "account_reset_password", "account_request_login_code"):
        found[name] = client.get(reverse(name))
    gathered = gathering_game(ana, seats=3)
    invitation = gathering.invitation_send(game=gathered, by=ana, email="zed@example.com")
    found["invitation"] = client.get(reverse("invitation", args=[invitation.token]))
    found["join"] = client.get(reverse("join", args=[gathered.join_token]))
    found["stop"] = client.get(reverse("stop_mail", args=[stop_token("zed@example.com")]))
    found["unsubscribe"] = client.get(reverse("unsubscribe", args=[unsubscribe_token(ana)]))
    game = started_game(ana, ben, cai)
    seat = Seat.objects.get(game=game, user=ana)
    found["answer"] = client.get(reverse("answer", args=[answer_token(seat, awaited(game)["p1"][1], 0)]))
    finished = started_game(ana, ben)
    play.game_resign(game=finished, user=ben)
    client.force_login(ana)
    for name, url in {
        "dashboard": reverse("home"),
        "waiting": reverse("game", args=[gathered.pk]),
        "game": reverse("game", args=[game.pk]),
        "live": reverse("game_live", args=[game.pk]) + "?since=none",
        "chat": reverse("game_chat", args=[game.pk]),
        "finished": reverse("game", args=[finished.pk]),
        "replay": reverse("game_replay", args=[finished.pk]),
        "create": reverse("game_create"),
        "past": reverse("past_games"),
        "stats": reverse("stats"),
        "profile": reverse("profile"),
        "email": reverse("account_email"),
        "password": reverse("account_change_password"),
        "passkeys and codes": reverse("mfa_index"),
        "sessions": reverse("usersessions_list"),
        "not found": "/games/999999/",
    }.items():
        found[name] = client.get(url)
    return found


def test_every_page_has_a_policy_without_unsafe_inline_and_holds_nothing_it_refuses(client, ana, ben, cai):
    for name, response in pages(client, ana, ben, cai).items():
        assert response.status_code in (200, 404), (name, response.status_code)
        policy = response["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy, name
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy, name
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, name
        assert inline_parts(response.content.decode()) == [], name


def test_no_template_of_a_page_holds_an_inline_script_or_style():
    """Emails are left out: mail clients load no stylesheet, so emails style themselves."""
    found = {
        str(path.relative_to(TEMPLATES)): inline_parts(path.read_text())
        for path in TEMPLATES.rglob("*.html")
        if "emails" not in path.relative_to(TEMPLATES).parts
    }
    assert {path: parts for path, parts in found.items() if parts} == {}


def test_the_server_error_page_holds_no_inline_style_either():
    response = server_error(RequestFactory().get("/"))
    assert inline_parts(response.content.decode()) == []


def test_the_admin_gets_the_nonce_it_marks_its_own_inline_style_with(client, ana):
    make_staff(ana)
    client.force_login(ana)
    response = client.get("/admin/accounts/profile/")
    assert response.status_code == 200
    nonce = re.search(r'nonce="([^"]+)"', response.content.decode())[1]
    assert f"style-src 'self' 'nonce-{nonce}'" in response["Content-Security-Policy"]


def test_every_page_has_a_permissions_policy(client):
    policy = client.get("/")["Permissions-Policy"]
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert f"{feature}=()" in policy


def test_the_language_cookie_follows_the_cookie_settings(client, ana, settings):
    """Under HTTPS (LANGUAGE_COOKIE_SECURE, set with the session's cookie) the
    language cookie is Secure, whichever page sets it."""
    settings.LANGUAGE_COOKIE_SECURE = True
    response = client.post(reverse("set_language"), {"language": "es", "next": "/"})
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie["secure"] and cookie["httponly"] and cookie["samesite"] == "Lax"
    client.force_login(ana)
    response = client.post(reverse("profile"), {"display_name": "Ana", "language": "pt-br", "email_mode": "every"})
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "pt-br" and cookie["secure"] and cookie["httponly"] and cookie["samesite"] == "Lax"
