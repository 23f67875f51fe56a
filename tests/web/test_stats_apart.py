"""The statistics keep apart what a player did from what a bot did for them: the
moves a bot made while standing in for them, the games it played in part, and
practice games against bots, apart from games with people."""

import re

import pytest
from django.urls import reverse

from games.kinds import KINDS
from games.models import SeatResult
from games.selectors import game_state
from games.services import bots, play
from tests.players import awaited, make_player, started_game, until_turn_of

pytestmark = pytest.mark.django_db


def _income(game, user, player) -> None:
    version = awaited(game)[player][1]
    [income] = [o for o in KINDS[game.kind].rules.options(game_state(game), player) if o["act"] == "income"]
    play.decision_submit(game=game, user=user, command=income, version=version)


def _words(client, user) -> str:
    client.force_login(user)
    html = client.get(reverse("stats")).content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_moves_and_games_a_bot_played_for_a_player_and_practice_games_are_counted_apart(client):
    ana, ben = make_player("Ana"), make_player("Ben")

    own = started_game(ana, ben)  # Ana plays every move herself, and wins
    _income(own, ana, "p1")
    play.game_resign(game=own, user=ben)

    helped = started_game(ana, ben)  # a bot plays Ana's turn for her, then she resigns
    bots.stand_in_ask(game=helped, user=ana)
    bots.bot_answer(game=helped, seat_id=helped.seats.get(user=ana).pk, version=awaited(helped)["p1"][1])
    play.game_resign(game=helped, user=ana)

    practice = bots.practice_start(host=ana, seat_count=2, level="easy")
    until_turn_of(practice, practice.seats.get(user=ana).player)
    play.game_resign(game=practice, user=ana)

    results = {result.game_id: result for result in SeatResult.objects.filter(user=ana)}
    assert (results[own.pk].moves, results[own.pk].stand_in_moves, results[own.pk].with_bots) == (1, 0, False)
    assert (results[helped.pk].moves, results[helped.pk].stand_in_moves) == (0, 1)
    assert not results[helped.pk].with_bots and results[practice.pk].with_bots
    assert results[practice.pk].stand_in_moves == 0

    words = _words(client, ana)
    assert "With people, every move your own 1 1 100%" in words
    assert "With people, a bot playing for you at times 1 0 0%" in words
    assert "Practice against bots 1 0 0%" in words
    own_moves = sum(result.moves for result in results.values())
    made = f"{own_moves} move" if own_moves == 1 else f"{own_moves} moves"
    assert f"You made {made} yourself; a bot playing for you while you were away made 1." in words
    bot = practice.seats.exclude(user=ana).get().user
    assert bot.profile.display_name not in words  # a bot is no opponent in the head-to-head
    assert "Ben 2" in words
    # Ben never had a bot play for him nor played a practice game: one row, his own.
    words = _words(client, ben)
    assert "With people, every move your own 2 1 50%" in words
    assert "a bot playing for you at times" not in words and "Practice against bots" not in words
