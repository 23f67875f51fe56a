"""The email of a challenged player carries one button (and one reply word) per
outcome: "Concede and lose your Captain", never a second email for the card."""

import re
from urllib.parse import urlparse

import pytest

from accounts.models import profile_of
from games.models import Game
from games.selectors import game_state
from games.services import play
from tests.players import awaited, coup_deals, started_game

WITHOUT_THE_DUKE = {"p1": ["captain", "contessa"], "p2": ["assassin", "captain"], "p3": ["ambassador", "assassin"]}
TWO_CAPTAINS = {"p1": ["captain", "captain"], "p2": ["assassin", "contessa"], "p3": ["ambassador", "assassin"]}


def answered(game, user, command, capture):
    player = game.seats.get(user=user).player
    with capture(execute=True):
        play.decision_submit(game=game, user=user, command=command, version=awaited(game)[player][1])


def challenged(ana, ben, cai, capture):
    with capture(execute=True):
        game = started_game(ana, ben, cai)
    answered(game, ana, {"act": "tax"}, capture)
    answered(game, ben, {"act": "challenge"}, capture)
    return game


def buttons(mail) -> dict[str, str]:
    """Label → one-click link path, as the text part lists them ("- label: url")."""
    return {
        label: urlparse(url).path for label, url in re.findall(r"^- (.+): (https?://\S+/a/\S+)\r?$", mail.text, re.M)
    }


@pytest.mark.parametrize(
    ("language", "labels", "words"),
    [
        (
            "en",
            [
                "Concede and lose your Captain — your Tax fails",
                "Concede and lose your Contessa — your Tax fails",
            ],
            "concede captain / concede contessa",
        ),
        (
            "es",
            [
                "Ceder y perder tu carta Capitán — tu acción Impuestos falla",
                "Ceder y perder tu carta Condesa — tu acción Impuestos falla",
            ],
            "ceder capitán / ceder condesa",
        ),
    ],
)
def test_the_challenge_email_offers_one_button_per_card_and_no_email_follows_for_the_card(
    monkeypatch, ana, ben, cai, smtp, client, django_capture_on_commit_callbacks, language, labels, words
):
    profile = profile_of(ana)
    profile.language = language
    profile.save()
    coup_deals(monkeypatch, WITHOUT_THE_DUKE)
    game = challenged(ana, ben, cai, django_capture_on_commit_callbacks)
    asked = smtp.to("ana@example.com")[-1]
    offered = buttons(asked)
    assert list(offered) == labels
    assert words in asked.text and words in asked.html
    for label in labels:
        assert label in asked.html
    sent = len(smtp.to("ana@example.com"))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(offered[labels[1]])
    assert response.status_code == 200
    game.refresh_from_db()
    assert game_state(game).by_name["p1"].revealed == ["contessa"]
    assert "p1" not in awaited(game)
    assert len(smtp.to("ana@example.com")) == sent  # no question about the card: it was answered
    # The other link of the same email has passed.
    assert client.post(offered[labels[0]]).status_code == 409
    assert game_state(Game.objects.get(pk=game.pk)).by_name["p1"].hand == ["captain"]


def test_two_identical_cards_give_one_button(monkeypatch, ana, ben, cai, smtp, django_capture_on_commit_callbacks):
    coup_deals(monkeypatch, TWO_CAPTAINS)
    challenged(ana, ben, cai, django_capture_on_commit_callbacks)
    assert list(buttons(smtp.to("ana@example.com")[-1])) == ["Concede and lose your Captain — your Tax fails"]


def test_a_reply_names_the_card_with_the_concession(
    monkeypatch, ana, ben, cai, smtp, django_capture_on_commit_callbacks
):
    from tests.mail.test_replies import receive, reply

    coup_deals(monkeypatch, WITHOUT_THE_DUKE)
    game = challenged(ana, ben, cai, django_capture_on_commit_callbacks)
    assert receive(reply(game, ana, "concede")).status == "explained"
    [explained] = [mail for mail in smtp.to("ana@example.com") if "Reply not played" in mail.subject]
    assert "concede captain / concede contessa" in explained.text
    assert receive(reply(game, ana, "Pierdo la condesa")).status == "played"
    assert game_state(Game.objects.get(pk=game.pk)).by_name["p1"].revealed == ["contessa"]


def test_a_link_to_the_separate_card_question_works_while_asked_and_then_passes(
    monkeypatch, ana, ben, cai, smtp, client, django_capture_on_commit_callbacks
):
    """A concession the deadline made leaves the card as its own question, with its own email."""
    coup_deals(monkeypatch, WITHOUT_THE_DUKE)
    game = challenged(ana, ben, cai, django_capture_on_commit_callbacks)
    Game.objects.filter(pk=game.pk).update(deadline_at=game.started_at)
    with django_capture_on_commit_callbacks(execute=True):
        assert play.deadline_expire(game=Game.objects.get(pk=game.pk), version=Game.objects.get(pk=game.pk).version)
    offered = buttons(smtp.to("ana@example.com")[-1])
    assert list(offered) == ["Lose your Captain — turn it face up", "Lose your Contessa — turn it face up"]
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(offered["Lose your Captain — turn it face up"]).status_code == 200
    assert client.get(offered["Lose your Contessa — turn it face up"]).status_code == 409
    assert game_state(Game.objects.get(pk=game.pk)).by_name["p1"].revealed == ["captain"]
