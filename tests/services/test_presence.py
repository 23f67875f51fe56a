"""A player with the game's page open is asked there first: the decision email
waits, and goes out only if the decision is still waiting (real workers, SMTP; the
page opened through the site). The workers share Redis with the site, or, as in the
embedded default, no cache at all: the page's mark must reach them either way."""

import time

import pytest
from django.conf import settings

from games.mail import emails
from games.services import play
from tests.players import awaited, make_player, started_game
from tests.worker import wait_for

DELAY = 4


@pytest.fixture
def players(transactional_db):
    return make_player("Ana"), make_player("Ben"), make_player("Cai")


@pytest.fixture(params=["shared Redis cache", "no shared cache"])
def workers(request, celery_workers):
    celery_workers.env["DECISION_EMAIL_DELAY"] = str(DELAY)
    if request.param == "no shared cache":
        celery_workers.env["REDIS_URL"] = ""  # the workers' cache is their own memory; the broker stays
    celery_workers.start(deadlines=[settings.DEADLINE_QUEUE], default=[settings.CELERY_TASK_DEFAULT_QUEUE])
    return celery_workers


def asked_to_respond(smtp, address):
    return [mail for mail in smtp.to(address) if mail.subject.startswith("Your move: Respond to Ana's Steal")]


def steal_from_ben_with_his_page_open(players, client, smtp):
    ana, ben, cai = players
    game = started_game(ana, ben, cai)
    client.force_login(ben)
    assert client.get(f"/games/{game.pk}/table", {"since": 0, "clock": ""}).status_code == 200
    play.decision_submit(game=game, user=ana, command={"act": "steal", "target": "p2"}, version=awaited(game)["p1"][1])
    return game, time.monotonic()


def test_a_present_player_who_answers_in_time_gets_no_email(players, workers, client, smtp):
    game, _asked_at = steal_from_ben_with_his_page_open(players, client, smtp)
    smtp.wait_for(to="cai@example.com", subject_contains="Respond to Ana's Steal")  # Cai was away: at once
    version = awaited(game)["p2"][1]
    email_to_ben = emails.send_decision.s(game.seats.get(user=players[1]).pk, version)
    wait_for(lambda: workers.scheduled(email_to_ben))  # Ben has the page open: his email waits for its time
    play.decision_submit(game=game, user=players[1], command={"act": "allow"}, version=version)
    workers.drain(email_to_ben)  # its time came, and it found his decision answered
    assert asked_to_respond(smtp, "ben@example.com") == []


def test_a_present_player_who_has_not_answered_gets_the_email_later(players, workers, client, smtp):
    _game, asked_at = steal_from_ben_with_his_page_open(players, client, smtp)
    smtp.wait_for(to="cai@example.com", subject_contains="Respond to Ana's Steal")
    assert asked_to_respond(smtp, "ben@example.com") == []
    wait_for(lambda: asked_to_respond(smtp, "ben@example.com"), timeout=30)
    assert time.monotonic() - asked_at >= DELAY - 0.5
