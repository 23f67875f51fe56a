"""The admin opens to staff with a second factor only, outside DEBUG; on a
development machine it stays open. Refused staff are told how to add one."""

import pytest
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.mfa.totp.internal.auth import TOTP
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.web.conftest import make_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db):
    user = make_player("Sam")
    get_user_model().objects.filter(pk=user.pk).update(is_staff=True, is_superuser=True)
    user.refresh_from_db()
    return user


def test_staff_without_a_second_factor_are_refused_and_shown_how_to_add_one(client, staff, settings):
    settings.DEBUG = False
    client.force_login(staff)
    for path in ("/admin/", "/admin/accounts/profile/", f"/admin/auth/user/{staff.pk}/change/"):
        response = client.get(path)
        assert response.status_code == 403, path
        assert reverse("mfa_index") in response.content.decode()
        assert "no-cache" in response["Cache-Control"]
    # Recovery codes alone are no factor sign-in asks for.
    RecoveryCodes.activate(staff)
    assert client.get("/admin/").status_code == 403


def test_staff_with_an_authenticator_app_are_let_in(client, staff, settings):
    settings.DEBUG = False
    TOTP.activate(staff, "JBSWY3DPEHPK3PXP")
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/accounts/profile/").status_code == 200


def test_on_a_development_machine_the_admin_stays_open(client, staff, settings):
    settings.DEBUG = True
    client.force_login(staff)
    assert client.get("/admin/").status_code == 200


def test_players_and_strangers_are_sent_to_sign_in_not_told_about_factors(client, settings):
    settings.DEBUG = False
    response = client.get("/admin/")
    assert response.status_code == 302 and reverse("mfa_index") not in response.content.decode()
    client.force_login(make_player("Pat"))
    response = client.get("/admin/", follow=True)
    assert response.status_code == 403
    assert reverse("mfa_index") not in response.content.decode()
