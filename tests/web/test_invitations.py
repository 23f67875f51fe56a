"""Invitations are no open relay: only the host invites, within limits per game
and per day; an invitation can be stopped in one click by someone with no
account; an address that declined or stopped is never emailed again, by anyone,
by any path. And nobody seated learns another player's address."""

from datetime import timedelta
from urllib.parse import urlparse

import pytest
from django.urls import reverse

from accounts.models import AddressOptOut
from games.mail import emails
from games.models import Invitation
from games.services import gathering, play
from games.services.errors import ServiceError
from games.services.gathering import INVITATIONS_PER_DAY, INVITATIONS_PER_GAME
from tests.web.conftest import gathering_game, make_player, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(django_capture_on_commit_callbacks, smtp):
    """Run the emails a block of code queues (``with sent():``), over real SMTP."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


def invite(client, host, game, email):
    client.force_login(host)
    return client.post(reverse("game_invite", args=[game.pk]), {"email": email}, follow=True).content.decode()


# ---- who invites, and how many -----------------------------------------------------------


def test_only_the_host_invites(client, ana, ben):
    game = gathering_game(ana, ben, seats=3)
    page = invite(client, ben, game, "zed@example.com")
    assert "Only the host can invite players." in page
    assert not Invitation.objects.exists()
    assert reverse("game_invite", args=[game.pk]) not in page  # no form for Ben
    client.force_login(ana)
    assert reverse("game_invite", args=[game.pk]) in client.get(reverse("game", args=[game.pk])).content.decode()


def test_an_address_is_shown_only_to_the_host_who_typed_it(client, ana, ben):
    game = gathering_game(ana, ben, seats=3)
    invite(client, ana, game, "zed@example.com")
    client.force_login(ana)
    assert "zed@example.com — Pending" in client.get(reverse("game", args=[game.pk])).content.decode()
    client.force_login(ben)
    for url in (reverse("game", args=[game.pk]), reverse("home")):
        assert "zed@example.com" not in client.get(url).content.decode()
    live = client.get(reverse("game_live", args=[game.pk]), {"seats": "0"})
    assert "zed@example.com" not in live.content.decode()


def test_a_game_sends_a_limited_number_of_invitations(client, ana, sent):
    game = gathering_game(ana, seats=10)
    with sent():
        for number in range(INVITATIONS_PER_GAME):
            gathering.invitation_send(game=game, by=ana, email=f"friend{number}@example.com")
    page = invite(client, ana, game, "one-more@example.com")
    assert f"This game has sent {INVITATIONS_PER_GAME} invitations, the most one game may send." in page
    assert not Invitation.objects.filter(email="one-more@example.com").exists()


def test_a_host_invites_a_limited_number_of_addresses_a_day(client, ana, sent):
    games = [gathering_game(ana, seats=10) for _ in range(INVITATIONS_PER_DAY // INVITATIONS_PER_GAME + 1)]
    with sent():
        for number in range(INVITATIONS_PER_DAY):
            game = games[number // INVITATIONS_PER_GAME]
            gathering.invitation_send(game=game, by=ana, email=f"friend{number}@example.com")
    fresh = gathering_game(ana, seats=3)
    page = invite(client, ana, fresh, "one-more@example.com")
    assert f"You have sent {INVITATIONS_PER_DAY} invitations in the last 24 hours" in page
    assert not fresh.invitations.exists()
    # A day later the host may invite again.
    Invitation.objects.update(created_at=Invitation.objects.first().created_at - timedelta(days=1, minutes=1))
    assert "Invitation sent to one-more@example.com." in invite(client, ana, fresh, "one-more@example.com")


def test_an_address_is_invited_once_per_game(client, ana, sent):
    game = gathering_game(ana, seats=3)
    with sent():
        gathering.invitation_send(game=game, by=ana, email="zed@example.com")
    assert "ZED@example.com is already invited to this game." in invite(client, ana, game, "ZED@example.com")
    assert game.invitations.count() == 1


# ---- stopping them -------------------------------------------------------------------------


def test_an_invitation_can_be_stopped_in_one_click_and_no_one_invites_the_address_again(client, ana, dora, smtp, sent):
    game = gathering_game(ana, seats=3)
    with sent():
        gathering.invitation_send(game=game, by=ana, email="zed@example.com")
    [message] = smtp.to("zed@example.com")
    header = message.message["List-Unsubscribe"]
    assert message.message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    stop = urlparse(header.strip("<>")).path
    assert stop.startswith("/stop/") and stop in message.text and stop in message.html
    # RFC 8058: the mail client POSTs, without cookies or a CSRF token.
    assert client.post(stop, {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert AddressOptOut.objects.get().scope == AddressOptOut.Scope.ALL
    smtp.clear()
    other = gathering_game(dora, seats=3)
    assert "Zed@Example.com asked not to receive invitations." in invite(client, dora, other, "Zed@Example.com")
    with sent():  # an invitation made before the stop is not sent either
        emails.send_invitation(game.invitations.get().pk)
    assert smtp.messages == []


def test_the_stop_page_stops_and_allows_again(client, smtp):
    from games.mail.tokens import stop_token

    url = reverse("stop_mail", args=[stop_token("Zed@example.com")])
    assert "Stop every email from Coup by email to zed@example.com?" in client.get(url).content.decode()
    page = client.post(url, {"mail": "stop"}).content.decode()
    assert "Coup by email sends nothing to zed@example.com" in page
    assert AddressOptOut.objects.filter(address="zed@example.com", scope=AddressOptOut.Scope.ALL).exists()
    page = client.post(url, {"mail": "allow"}).content.decode()
    assert "Emails to zed@example.com are allowed again." in page
    assert not AddressOptOut.objects.exists()
    assert client.get(reverse("stop_mail", args=["forged"])).status_code == 400


def test_declining_needs_no_account_and_no_one_invites_the_address_again(client, ana, dora, sent):
    game = gathering_game(ana, seats=3)
    with sent():
        invitation = gathering.invitation_send(game=game, by=ana, email="zed@example.com")
    url = reverse("invitation", args=[invitation.token])
    assert 'value="decline"' in client.get(url).content.decode()
    page = client.post(url, {"answer": "decline"}, follow=True).content.decode()
    assert "You declined the invitation. Nobody can invite this address again." in page
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.DECLINED and invitation.user is None
    for host, where in ((ana, game), (dora, gathering_game(dora, seats=3))):
        assert "zed@example.com asked not to receive invitations." in invite(client, host, where, "zed@example.com")
    assert Invitation.objects.count() == 1
    # Accepting still needs an account.
    again = gathering.invitation_send(game=game, by=ana, email="yan@example.com")
    client.logout()
    response = client.post(reverse("invitation", args=[again.token]), {"answer": "accept"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))


def test_a_declined_address_still_gets_the_email_of_its_games(ana, ben, smtp, sent):
    game = gathering_game(ana, seats=3)
    invitation = gathering.invitation_send(game=game, by=ana, email=ben.email)
    gathering.invitation_respond(token=invitation.token, user=ben, accept=False)
    with sent():
        started_game(ana, ben)
    assert smtp.to(ben.email)  # declining stops invitations, not the games Ben plays


def test_a_stopped_address_is_emailed_by_no_path(client, ana, ben, cai, smtp, sent):
    """Every way the site emails an address: the game's emails (start, decisions,
    rematch invitation, digest) and allauth's (password reset, sign-in code,
    sign-up of a taken address, unknown account)."""
    from accounts.mail import address_opt_out
    from accounts.models import EmailMode, profile_of

    for address in (ben.email, "zed@example.com"):
        address_opt_out(address=address.upper(), scope=AddressOptOut.Scope.ALL)
    with sent():
        game = started_game(ana, ben, cai)
        for user in (ana, cai):
            play.game_resign(game=game, user=user)
        gathering.game_rematch(game=game, by=ana)
    profile = profile_of(ben)
    profile.email_mode = EmailMode.DIGEST
    profile.save()
    with sent():
        emails.send_digest(ben.pk)
    for address in (ben.email, "zed@example.com", "yan@example.com"):
        client.post(reverse("account_reset_password"), {"email": address})
        client.post(reverse("account_request_login_code"), {"email": address})
    client.post(
        reverse("account_signup"),
        {
            "email": ben.email,
            "password1": "x-Very-long-pass-1",
            "password2": "x-Very-long-pass-1",
            "display_name": "Ben again",
            "language": "en",
        },
    )
    assert smtp.to(ben.email) == [] and smtp.to("zed@example.com") == []
    # The same paths did send: to the others, and to an address that asked nothing.
    assert smtp.to(ana.email) and smtp.to(cai.email) and smtp.to("yan@example.com")
    assert Invitation.objects.filter(user=ben, status=Invitation.Status.PENDING).exists()  # on Ben's dashboard


def test_an_invitation_to_a_players_account_is_answered_by_that_account_only(ana, ben, cai):
    game = started_game(ana, ben)
    play.game_resign(game=game, user=ana)
    rematch = gathering.game_rematch(game=game, by=ben)
    invitation = rematch.invitations.get()
    assert invitation.invited_account == ana and invitation.email == ""
    with pytest.raises(ServiceError, match="another player"):
        gathering.invitation_respond(token=invitation.token, user=cai, accept=True)
    with pytest.raises(ServiceError, match="another player"):
        gathering.invitation_respond(token=invitation.token, user=None, accept=False)
    assert gathering.invitation_respond(token=invitation.token, user=ana, accept=True) is not None
    assert not AddressOptOut.objects.exists()


def test_a_rematch_invitation_is_emailed_in_the_players_language(ana, smtp, sent):
    bruno = make_player("Bruno", language="pt-br")
    game = started_game(ana, bruno)
    play.game_resign(game=game, user=ana)
    with sent():
        gathering.game_rematch(game=game, by=ana)
    [message] = smtp.to(bruno.email)
    assert "convida" in message.subject or "convida" in message.text


# ---- what an invitation says, and in which language --------------------------------------


def test_a_typed_address_with_an_account_is_invited_in_that_accounts_language(client, ana, smtp, sent):
    bruno = make_player("Bruno", language="es")
    game = gathering_game(ana, seats=3)
    with sent():
        invite(client, ana, game, "BRUNO@example.com")
    [message] = smtp.to(bruno.email)
    assert message.subject == "Ana te invita a una partida de Coup"
    with sent():
        invite(client, ana, game, "nobody@example.com")  # no account: the host's language
    assert smtp.to("nobody@example.com")[0].subject == "Ana invites you to a game of Coup"


def test_an_invitation_tells_the_clock_the_variants_and_the_seats(client, ana, ben, smtp, sent):
    live = gathering_game(ana, ben, seats=4, variants=["inquisitor"], turn_seconds=120, response_seconds=30)
    with sent():
        invite(client, ana, live, "dora@example.com")
    [message] = smtp.to("dora@example.com")
    for text in (message.text, message.html):
        assert "Variants: Inquisitor" in text
        assert "Seats: 2 of 4 taken" in text
        assert "Time to answer: 2 minutes per turn, 30 seconds per response" in text
        assert "A live game" in text and "own pace" not in text
    slow = gathering_game(ana, seats=3)
    with sent():
        invite(client, ana, slow, "eva@example.com")
    [message] = smtp.to("eva@example.com")
    assert "Variants: Classic" in message.text and "Seats: 1 of 3 taken" in message.text
    assert "1 day per turn, 8 hours per response" in message.text and "own pace" in message.text


def test_an_invitation_tells_the_game_in_the_invitees_language(client, smtp, sent):
    anita = make_player("Anita", language="pt-br")
    game = gathering_game(anita, seats=2, turn_seconds=120, response_seconds=30)
    with sent():
        invite(client, anita, game, "dora@example.com")
    [message] = smtp.to("dora@example.com")
    assert "2 minutos por turno, 30 segundos por resposta" in message.text
    assert "Variantes: Clássico" in message.text
