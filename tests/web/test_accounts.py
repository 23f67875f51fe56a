"""Accounts: sign-up with a display name, email verification, login by password or
code, no user enumeration, rate limits on the shared cache, the profile page."""

import re

import pytest
from allauth.account import app_settings as allauth_settings
from allauth.account.models import EmailAddress
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse
from django.utils import translation

from accounts.models import Profile, display_name_of
from tests.players import profile_form_data
from tests.web.conftest import PASSWORD, make_player

pytestmark = pytest.mark.django_db


def sign_up(client, email="zoe@example.com", name="Zoe", language="es", **fields):
    return client.post(
        reverse("account_signup"),
        {
            "email": email,
            "display_name": name,
            "language": language,
            "password1": PASSWORD,
            "password2": PASSWORD,
            **fields,
        },
    )


def test_the_signup_form_asks_for_a_display_name_and_a_language(client):
    html = client.get(reverse("account_signup")).content.decode()
    assert 'name="display_name"' in html
    assert 'name="language"' in html
    assert "Brazilian Portuguese" in html or "Português" in html


def test_signing_up_creates_the_profile_and_asks_to_verify_the_address(client):
    response = sign_up(client)
    assert response.status_code == 302
    user = get_user_model().objects.get(email="zoe@example.com")
    assert user.profile.display_name == "Zoe"
    assert user.profile.language == "es"
    assert not EmailAddress.objects.get(user=user).verified
    [message] = mail.outbox
    assert message.to == ["zoe@example.com"]


def test_signing_up_keeps_the_browsers_time_zone_and_quiet_nights(client):
    html = client.get(reverse("account_signup")).content.decode()
    assert re.search(r'<input type="hidden" name="time_zone"[^>]*data-browser-zone', html)
    assert re.search(r'<input type="checkbox" name="quiet_nights"[^>]*checked', html)
    assert sign_up(client, time_zone="America/Sao_Paulo", quiet_nights="on").status_code == 302
    profile = Profile.objects.get(user__email="zoe@example.com")
    assert (profile.time_zone, profile.quiet_nights, profile.quiet_from, profile.quiet_until) == (
        "America/Sao_Paulo",
        True,
        22,
        7,
    )


@pytest.mark.parametrize("zone", ["", "Mars/Olympus_Mons", "<script>", "x" * 300, "Europe/../../etc/passwd"])
def test_a_time_zone_this_system_does_not_know_signs_up_on_utc_without_a_word(client, zone):
    response = sign_up(client, time_zone=zone)
    assert response.status_code == 302
    profile = Profile.objects.get(user__email="zoe@example.com")
    assert (profile.time_zone, profile.quiet_nights) == ("UTC", False)  # unticked: no quiet nights


def test_the_profile_page_sets_the_hours_of_quiet_nights(client, ana):
    client.force_login(ana)
    html = client.get(reverse("profile")).content.decode()
    assert 'name="quiet_nights"' in html and 'name="quiet_from"' in html and 'name="quiet_until"' in html
    data = profile_form_data(ana, quiet_nights="on", quiet_from="23", quiet_until="8")
    assert client.post(reverse("profile"), data).status_code == 302
    profile = Profile.objects.get(user=ana)
    assert (profile.quiet_nights, profile.quiet_from, profile.quiet_until) == (True, 23, 8)
    assert client.post(reverse("profile"), {**data, "quiet_from": "24"}).status_code == 200  # refused, said so
    assert Profile.objects.get(user=ana).quiet_from == 23


def test_an_unverified_account_cannot_play_yet(client):
    sign_up(client)
    response = client.get(reverse("game_create"))
    assert response.status_code == 302  # still signed out: verification is mandatory


def test_signing_up_with_a_taken_address_does_not_reveal_the_account(client, ana):
    response = sign_up(client, email=ana.email, name="Impostor")
    assert response.status_code == 302
    assert response["Location"] == reverse("account_email_verification_sent")
    assert get_user_model().objects.filter(email=ana.email).count() == 1


def test_password_reset_answers_the_same_for_known_and_unknown_addresses(client, ana):
    known = client.post(reverse("account_reset_password"), {"email": ana.email})
    unknown = client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]


def test_login_with_a_password(client, ana):
    response = client.post(reverse("account_login"), {"login": ana.email, "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200


def test_login_by_emailed_code(client, ana):
    response = client.post(reverse("account_request_login_code"), {"email": ana.email})
    assert response.status_code == 302
    [message] = mail.outbox
    code = re.search(r"^\s*([A-Z0-9][A-Z0-9-]{3,11})\s*$", message.body, re.M).group(1)
    response = client.post(reverse("account_confirm_login_code"), {"code": code})
    assert response.status_code == 302
    assert client.get(reverse("profile")).status_code == 200


def test_login_by_code_for_an_unknown_address_looks_the_same(client, ana):
    known = client.post(reverse("account_request_login_code"), {"email": ana.email})
    client.logout()
    unknown = client.post(reverse("account_request_login_code"), {"email": "nobody@example.com"})
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"]


def test_allauth_settings_prevent_enumeration_and_rate_limit_on_the_shared_cache():
    assert allauth_settings.PREVENT_ENUMERATION is True
    assert allauth_settings.LOGIN_BY_CODE_ENABLED is True
    limits = allauth_settings.RATE_LIMITS
    for action in ("login", "login_failed", "signup", "request_login_code", "reset_password"):
        assert limits[action]
    if settings.REDIS_URL:
        assert settings.CACHES["default"]["BACKEND"] == "coupsite.cache.RedisCache"


def test_repeated_failed_logins_are_rate_limited(client, ana):
    for _ in range(6):
        response = client.post(reverse("account_login"), {"login": ana.email, "password": "wrong-password"})
    assert response.status_code in (200, 429)
    response = client.post(reverse("account_login"), {"login": ana.email, "password": PASSWORD})
    assert client.get(reverse("profile")).status_code == 302  # still locked out


def test_the_profile_page_edits_name_and_language(client, ana):
    client.force_login(ana)
    html = client.get(reverse("profile")).content.decode()
    assert 'value="Ana"' in html
    response = client.post(
        reverse("profile"), {"display_name": "Ana Lúcia", "language": "pt-br", "email_mode": "every"}, follow=True
    )
    assert response.status_code == 200
    profile = Profile.objects.get(user=ana)
    assert (profile.display_name, profile.language) == ("Ana Lúcia", "pt-br")
    assert response["Content-Language"] == "pt-br"
    assert translation.get_language() == settings.LANGUAGE_CODE  # the thread is left in the site's language


def test_a_blank_display_name_is_refused(client, ana):
    client.force_login(ana)
    response = client.post(reverse("profile"), {"display_name": "  ", "language": "en"})
    assert response.status_code == 200
    assert Profile.objects.get(user=ana).display_name == "Ana"


def test_switching_language_in_the_footer_saves_it_in_the_profile(client, ana):
    client.force_login(ana)
    client.post(reverse("set_language"), {"language": "es", "next": "/"})
    assert Profile.objects.get(user=ana).language == "es"
    assert client.get("/")["Content-Language"] == "es"


def test_visitors_switch_language_with_the_cookie(client):
    client.post(reverse("set_language"), {"language": "pt-br", "next": "/"})
    assert client.get("/")["Content-Language"] == "pt-br"


def test_every_user_gets_a_profile_and_a_name_without_the_email_domain(db):
    user = get_user_model().objects.create_user(username="x", email="secret.name@example.com", password=PASSWORD)
    assert Profile.objects.filter(user=user).exists()
    assert display_name_of(user) == "secret.name"
    assert "example.com" not in display_name_of(user)


def test_allauth_pages_use_the_site_layout(client):
    for name in ("account_login", "account_signup", "account_request_login_code", "account_reset_password"):
        html = client.get(reverse(name)).content.decode()
        assert 'class="site-header"' in html, name
        assert "css/site.css" in html


def test_the_profile_needs_an_account(client):
    assert client.get(reverse("profile")).status_code == 302


def test_make_player_is_verified(db):
    user = make_player("Yan")
    assert EmailAddress.objects.get(user=user).verified
