"""An answer the deadline gives for a player is told as such, in the history, the
emails and the dashboard, in each language of the site."""

import re
from datetime import timedelta

import pytest
from django.test import TestCase
from django.utils import timezone, translation

from accounts.models import profile_of
from games import tasks  # noqa: F401 (registers the email tasks the expiry queues)
from games.models import Game
from games.selectors import table_for
from games.services import play
from tests.players import awaited, started_game

TOLD = {
    "en": ("Time ran out for Ana: Ana took Income.", "Ana: Income (time ran out)"),
    "es": ("Se acabó el tiempo de Ana: Ana tomó Ingresos.", "Ana: Ingresos (se acabó el tiempo)"),
    "pt-br": ("O tempo de Ana acabou: Ana pegou Renda.", "Ana: Renda (o tempo acabou)"),
}


def expire(game):
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert play.deadline_expire(game=game, version=game.version)
    game.refresh_from_db()


@pytest.mark.parametrize("language", ["en", "es", "pt-br"])
def test_a_turn_the_clock_played_is_told_as_such(ana, ben, cai, smtp, client, language):
    for user in (ana, ben, cai):
        profile = profile_of(user)
        profile.language = language
        profile.save()
    game = started_game(ana, ben, cai)
    smtp.clear()
    expire(game)
    line, last_action = TOLD[language]
    with translation.override(language):
        history = [entry.text for entry in table_for(game, ben).history.lines]
    assert line in history
    assert any(line in mail.text for mail in smtp.to("ben@example.com")), [m.text for m in smtp.messages]
    client.force_login(cai)
    home = re.sub(r"\s+", " ", client.get("/").content.decode())
    assert last_action in home


def test_a_players_own_answer_is_not_said_to_be_the_clocks(ana, ben, cai):
    game = started_game(ana, ben, cai)
    play.decision_submit(game=game, user=ana, command={"act": "income"}, version=awaited(game)["p1"][1])
    game.refresh_from_db()
    with translation.override("en"):
        history = [entry.text for entry in table_for(game, ben).history.lines]
    assert "Ana took Income." in history and not any("Time ran out" in entry for entry in history)
