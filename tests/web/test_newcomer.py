"""A newcomer's first minutes: in development the sign-up page points to the local
mailbox, the confirmation link signs the player in, allauth names the player by
their display name and signs with the site's name; a favicon."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.core import mail
from django.urls import reverse

from tests.web.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def _sign_up(client):
    return client.post(
        reverse("account_signup"),
        {
            "email": "zoe@example.com",
            "display_name": "Zoé",
            "language": "en",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        follow=True,
    )


def test_in_development_the_sign_up_page_points_to_the_local_mailbox(client, routes_with):
    routes_with(DEBUG=True)
    html = _sign_up(client).content.decode()
    assert 'href="/mailbox/"' in html and "the local mailbox" in html


def test_outside_development_there_is_no_mailbox_to_point_to(client, routes_with):
    routes_with(DEBUG=False)
    assert "/mailbox/" not in _sign_up(client).content.decode()


def test_confirming_the_address_signs_the_player_in_with_their_display_name(client, settings):
    settings.SITE_URL = "http://coup.example.org"
    _sign_up(client)
    [message] = mail.outbox
    text = message.body
    assert "Hello from Coup by email!" in text and "coup.example.org" in text
    assert "Hello from testserver" not in text and "user zoe" not in text.lower()
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+", text).group(0)
    path = re.sub(r"^https?://[^/]+", "", link)
    response = client.post(path, follow=True)
    user = get_user_model().objects.get(email="zoe@example.com")
    assert response.context["user"] == user and user.is_authenticated
    messages = [str(m) for m in response.context["messages"]]
    assert "Successfully signed in as Zoé." in messages, messages


def test_every_page_links_a_favicon_that_exists(client):
    html = client.get("/").content.decode()
    icon = re.search(r'<link rel="icon" href="/static/([^"]+)"', html)
    assert icon and finders.find(icon.group(1))
