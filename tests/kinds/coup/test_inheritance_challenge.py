"""Challenging the one Lawyer claim open on an inheritance: the button on the game
page, a bare "challenge" posted from the decision form, and a reply "challenge"
all challenge that claim (docs/scenarios.md: a target is needed only when several
claims are open); a challenge naming someone without an open claim is refused
with a reason and changes nothing."""

import json

import pytest
from django.urls import reverse

from games.engine.dealer import LiveDealer
from games.kinds import KINDS
from games.kinds.coup.engine import cards as coup_cards
from games.kinds.coup.engine.setup import setup_events
from games.mail.inbound import receive
from games.services import play
from tests.mail.test_replies import decision_of, reply
from tests.players import awaited, started_game

# Ana assassinates Dora, who challenges, loses a card to Ana's proof and then the
# assassination's: Dora is out with 5 coins. Only Cai holds a Lawyer.
HANDS = {
    "p1": ["assassin", "duke"],
    "p2": ["captain", "duke"],
    "p3": ["captain", "lawyer"],
    "p4": ["ambassador", "assassin"],
}
COINS = {"p1": 3, "p4": 5}


@pytest.fixture
def dealt(monkeypatch):
    """Lawyer games of four start with ``HANDS`` and ``COINS``, the rest of the deck as the court."""
    rules = KINDS["coup"].rules
    court = coup_cards.deck_for(["lawyer"], 4)
    for hand in HANDS.values():
        for card in hand:
            court.remove(card)
    monkeypatch.setattr(
        rules,
        "setup",
        lambda *, players, first, variants=(), options=None, dealer=None: setup_events(
            players, variants, first, LiveDealer(), deal=HANDS, court=court, coins=COINS
        ),
    )


def answer(game, user, command):
    player = game.seats.get(user=user).player
    play.decision_submit(game=game, user=user, command=command, version=awaited(game)[player][1])
    game.refresh_from_db()


@pytest.fixture
def cai_claims_alone(dealt, ana, ben, cai, dora):
    """Dora's 5 coins are claimed by Cai alone; Ana and Ben may challenge the claim."""
    game = started_game(ana, ben, cai, dora, variants=["lawyer"])
    answer(game, ana, {"act": "assassinate", "target": "p4"})
    answer(game, dora, {"act": "challenge"})
    answer(game, ana, {"act": "prove"})
    answer(game, dora, {"act": "lose", "card": "ambassador"})
    answer(game, dora, {"act": "allow"})
    answer(game, ana, {"act": "decline"})
    answer(game, ben, {"act": "decline"})
    answer(game, cai, {"act": "claim_inheritance"})
    assert {name: kind for name, (kind, _version) in awaited(game).items()} == {"p1": "respond", "p2": "respond"}
    return game


def game_page(client, user, game) -> str:
    client.force_login(user)
    return client.get(reverse("game", args=[game.pk])).content.decode()


def post_decision(client, user, game, command) -> str:
    client.force_login(user)
    player = game.seats.get(user=user).player
    form = {"version": awaited(game)[player][1], "command": json.dumps(command)}
    response = client.post(reverse("game_decide", args=[game.pk]), form, follow=True)
    assert response.status_code == 200
    game.refresh_from_db()
    return response.content.decode()


def test_the_page_offers_a_challenge_of_the_only_claim(client, cai_claims_alone, ben):
    html = game_page(client, ben, cai_claims_alone)
    assert "Challenge Cai&#x27;s Lawyer claim" in html
    assert html.count("Lawyer claim —") == 1  # one claim, one challenge button


def test_a_bare_challenge_from_the_decision_form_challenges_the_only_claim(client, cai_claims_alone, ben, cai):
    post_decision(client, ben, cai_claims_alone, {"act": "challenge"})
    assert decision_of(cai_claims_alone, cai) == "challenged"


def test_a_reply_challenge_challenges_the_only_claim(cai_claims_alone, ben, cai):
    outcome = receive(reply(cai_claims_alone, ben, "Challenge"))
    assert outcome.status == "played", outcome
    assert decision_of(cai_claims_alone, cai) == "challenged"


def test_a_challenge_naming_a_player_without_a_claim_is_refused(client, cai_claims_alone, ana, ben):
    before = cai_claims_alone.version
    html = post_decision(client, ben, cai_claims_alone, {"act": "challenge", "target": "p1"})
    assert "Ana has no Lawyer claim you can challenge." in html
    assert cai_claims_alone.version == before
    assert decision_of(cai_claims_alone, ben) == "respond"


def test_a_proved_claim_is_settled_and_inherited(cai_claims_alone, ana, ben, cai):
    """Ana's challenge fails: Ben, whose only claim to challenge was Cai's, is not
    asked again, and Cai inherits the 5 coins."""
    answer(cai_claims_alone, ana, {"act": "challenge"})
    answer(cai_claims_alone, cai, {"act": "prove"})
    answer(cai_claims_alone, ana, {"act": "lose", "card": "duke"})
    assert decision_of(cai_claims_alone, ben) == "turn"
    state = KINDS["coup"].rules.load(cai_claims_alone.snapshot)
    assert state.by_name["p3"].coins == 2 + 5
