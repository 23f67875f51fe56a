"""Deleting one's account and downloading one's data, through the pages: the
confirmations, and every bad input told clearly, nothing lost."""

import io
import json
import time
import zipfile
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts import export
from accounts.leaving import account_delete
from accounts.models import DataExport
from games.kinds import KINDS
from games.mail.tokens import answer_token
from games.models import Event, Game
from games.services import play
from tests.players import PASSWORD, started_game
from tests.worker import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(client, user):
    client.force_login(user)
    return client


def test_a_wrong_password_deletes_nothing(client, ana, ben):
    signed_in(client, ana)
    response = client.post(reverse("account_delete"), {"action": "delete", "password": "not it"})
    assert response.status_code == 400
    assert "That is not your password" in response.content.decode()
    assert get_user_model().objects.filter(pk=ana.pk, is_active=True).exists()


def test_the_page_lists_what_happens_in_spanish(client, ana):
    ana.profile.language = "es"
    ana.profile.save()
    html = signed_in(client, ana).get(reverse("account_delete")).content.decode()
    assert "Eliminar mi cuenta" in html and "Jugador antiguo 4821" in html


def test_an_account_without_password_confirms_with_an_emailed_code(client, ana, ben, smtp):
    ana.set_unusable_password()
    ana.save()
    game = started_game(ana, ben, takeover=0)
    signed_in(client, ana)
    refused = client.post(reverse("account_delete"), {"action": "delete", "code": "123456"})
    assert refused.status_code == 400 and "Ask for a code first" in refused.content.decode()
    client.post(reverse("account_delete"), {"action": "send-code"})
    email = smtp.wait_for(to=ana.email, subject_contains="code")
    code = next(
        word.strip(".:") for word in email.text.split() if word.strip(".:").isdigit() and len(word.strip(".:")) == 6
    )
    wrong = client.post(
        reverse("account_delete"), {"action": "delete", "code": "000000" if code != "000000" else "111111"}
    )
    assert wrong.status_code == 400 and "That is not the code" in wrong.content.decode()
    response = client.post(reverse("account_delete"), {"action": "delete", "code": code}, follow=True)
    assert "Account deleted" in response.content.decode()
    assert not get_user_model().objects.filter(pk=ana.pk).exists()
    game.refresh_from_db()
    assert game.status == game.Status.FINISHED  # she resigned
    again = client.post(reverse("account_delete"), {"action": "delete", "code": code})
    assert again.status_code == 410 and "deleted already" in again.content.decode()


def test_deleting_with_the_password_signs_out_and_a_second_click_is_told(client, ana, ben):
    signed_in(client, ana)
    response = client.post(reverse("account_delete"), {"action": "delete", "password": PASSWORD})
    assert response.status_code == 302
    assert "Former player" in client.get(response.url).content.decode()
    again = client.post(reverse("account_delete"), {"action": "delete", "password": PASSWORD})
    assert again.status_code == 410


def _archive(response) -> tuple[dict, str]:
    with zipfile.ZipFile(
        io.BytesIO(b"".join(response.streaming_content) if response.streaming else response.content)
    ) as archive:
        return json.loads(archive.read("data.json")), archive.read("README.md").decode()


def test_the_data_holds_the_games_as_the_players_seat_saw_them(client, ana, ben, smtp):
    ben.username = "bens-login"
    ben.save()
    finished = started_game(ana, ben, takeover=0)
    play.game_resign(game=finished, user=ben)
    game = started_game(ana, ben)
    play.chat_post(game=game, user=ana, text="Hello from Ana")
    signed_in(client, ana)
    client.post(reverse("data_export"))
    email = smtp.wait_for(to=ana.email, subject_contains="ready")
    link = next(link for link in email.links if "/profile/data/" in link)
    response = client.get(link[link.index("/accounts/") :])
    assert response["Content-Type"] == "application/zip"
    data, readme = _archive(response)
    assert data["profile"]["email"] == ana.email and "`games`" in readme
    assert data["statistics"]["opponents"] == [{"name": "Ben", "games": 1, "ahead": 1, "behind": 0, "rate": 100}]
    assert "bens-login" not in json.dumps(data) and ben.email not in json.dumps(data)
    exported = data["games"][1]
    assert exported["id"] == game.pk and exported["your_seat"] == "p1" and exported["history"]
    assert data["chat"][0]["text"] == "Hello from Ana"
    # Never a secret told to another seat: each event as the seat saw it.
    for stored, given in zip(Event.objects.filter(game=game).order_by("seq"), exported["events"], strict=True):
        secret = stored.payload.get("secret") or {}
        if "p1" not in stored.payload.get("seen_by", []):
            assert not any(
                given.get(key) == value for key, value in secret.items() if key not in stored.payload["data"]
            )
    rules = KINDS[game.kind].rules
    state = rules.replay(Event.objects.filter(game=game).order_by("seq").values_list("payload", flat=True))
    assert exported["your_view"] == json.loads(json.dumps(rules.view(state, "p1")))


def test_another_persons_link_and_a_stale_link_are_refused_clearly(client, ana, ben, monkeypatch):
    made = export.data_export_request(user=ana)
    token = export.export_token(made)
    signed_in(client, ben)
    other = client.get(reverse("data_export_download", args=[token]))
    assert other.status_code == 403 and "belongs to another account" in other.content.decode()
    signed_in(client, ana)
    assert client.get(reverse("data_export_download", args=[token])).status_code == 200
    monkeypatch.setattr(export, "EXPORT_KEPT", timedelta(seconds=1))
    time.sleep(2)
    stale = client.get(reverse("data_export_download", args=[token]))
    assert stale.status_code == 410 and "has expired" in stale.content.decode()
    garbled = client.get(reverse("data_export_download", args=[token[:-3] + "xyz"]))
    assert garbled.status_code == 404 and "not valid" in garbled.content.decode()


def test_the_data_is_built_by_a_worker_and_its_link_emailed(client, ana, ben, celery_worker, smtp):
    started_game(ana, ben)
    signed_in(client, ana)
    page = client.post(reverse("data_export"), follow=True).content.decode()
    assert "being prepared" in page
    email = smtp.wait_for(to=ana.email, subject_contains="ready", timeout=60)
    assert wait_for(lambda: DataExport.objects.filter(user=ana, ready_at__isnull=False).exists())
    assert any("/profile/data/" in link for link in email.links)


def test_an_answer_link_emailed_before_the_deletion_plays_nothing(client, ana, ben):
    game = started_game(ben, ana)  # stand-in bots: one plays her seat from now on
    seat = game.seats.get(user=ana)
    token = answer_token(seat, game.version, 0)
    account_delete(user=ana)
    version = Game.objects.get(pk=game.pk).version
    for method in (client.get, client.post):
        response = method(reverse("answer", args=[token]))
        assert response.status_code == 409
        assert "deleted their account" in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == version
