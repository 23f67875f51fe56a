"""Every password guess meets allauth's rate limits: the admin signs in through
allauth's form, and behind a reverse proxy the limits count each client's own
address (ALLAUTH_TRUSTED_PROXY_COUNT), so one abuser locks out nobody else."""

import pyotp
import pytest
from django.test import Client
from django.urls import reverse

from tests.players import make_staff
from tests.web.conftest import PASSWORD, make_player

pytestmark = pytest.mark.django_db

PROXY = "10.0.0.1"


@pytest.fixture
def staff(db):
    user = make_player("Sam")
    user.totp_secret = make_staff(user)
    return user


def signed_in(client) -> bool:
    return client.get(reverse("profile")).status_code == 200


def test_the_admin_sign_in_is_allauths(client):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"] == reverse("account_login") + "?next=%2Fadmin%2F"


def test_the_admins_own_form_takes_no_password(client, staff):
    for password in ("wrong-1", "wrong-2", PASSWORD):
        response = client.post("/admin/login/?next=/admin/", {"username": staff.username, "password": password})
        assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    assert not signed_in(client)
    assert client.get("/admin/").status_code == 302


def test_staff_reach_the_admin_after_signing_in_through_allauth(client, staff):
    client.post(reverse("account_login"), {"login": staff.email, "password": PASSWORD})
    assert client.get("/admin/").status_code == 302  # the second factor is still to come
    client.post(reverse("mfa_authenticate"), {"code": pyotp.TOTP(staff.totp_secret).now()})
    assert client.get("/admin/").status_code == 200


def locked_out_after_failing(client, *, forwarded_for: str, times: int = 11) -> bool:
    """Wrong passwords for as many different addresses, from one client: whether
    the last attempt was refused for too many failures."""
    for number in range(times):
        response = client.post(
            reverse("account_login"),
            {"login": f"guess{number}@example.com", "password": "wrong-password"},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR=forwarded_for,
        )
    return response.status_code == 429 or "Too many failed login attempts" in response.content.decode()


def ana_signs_in(ana, forwarded_for: str) -> bool:
    client = Client()
    client.post(
        reverse("account_login"),
        {"login": ana.email, "password": PASSWORD},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )
    return signed_in(client)


def test_behind_a_trusted_proxy_an_abuser_locks_out_only_themselves(client, ana, settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    assert locked_out_after_failing(client, forwarded_for="203.0.113.9")
    assert ana_signs_in(ana, forwarded_for="198.51.100.7")


def test_without_trusting_the_proxy_every_client_shares_its_address(client, ana, settings):
    """Why the setting matters: counted on the proxy's address, one abuser locks
    every player out."""
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 0
    assert locked_out_after_failing(client, forwarded_for="203.0.113.9")
    assert not ana_signs_in(ana, forwarded_for="198.51.100.7")
