"""Two players racing from separate PostgreSQL connections: exactly one wins."""

import pytest

from games.models import Game
from games.services import errors, play
from tests.players import awaited, make_player, race, started_game


@pytest.fixture
def players(transactional_db):
    return make_player("ana"), make_player("ben"), make_player("cai")


def test_two_challenges_racing_give_one_challenge(players):
    ana, ben, cai = players
    for _round in range(5):
        game = started_game(ana, ben, cai)
        play.decision_submit(game=game, user=ana, command={"act": "tax"}, version=awaited(game)["p1"][1])
        waiting = awaited(game)
        results = race(
            lambda: play.decision_submit(game=game, user=ben, command={"act": "challenge"}, version=waiting["p2"][1]),
            lambda: play.decision_submit(game=game, user=cai, command={"act": "challenge"}, version=waiting["p3"][1]),
        )
        winners = [r for r in results if isinstance(r, play.Played)]
        losers = [r for r in results if isinstance(r, errors.DecisionPassed)]
        assert len(winners) == 1 and len(losers) == 1, results
        game.refresh_from_db()
        assert list(game.events.values_list("seq", flat=True)) == list(range(game.version))
        assert sum(e.type == "coup.challenged" for e in game.events.all()) == 1
        assert awaited(game) == {"p1": ("challenged", awaited(game)["p1"][1])}


def test_a_challenge_racing_a_block_gives_one_outcome(players):
    ana, ben, cai = players
    for _round in range(5):
        game = started_game(ana, ben, cai)
        play.decision_submit(
            game=game, user=ana, command={"act": "steal", "target": "p2"}, version=awaited(game)["p1"][1]
        )
        waiting = awaited(game)
        results = race(
            lambda: play.decision_submit(
                game=game, user=ben, command={"act": "block", "as": "captain"}, version=waiting["p2"][1]
            ),
            lambda: play.decision_submit(game=game, user=cai, command={"act": "challenge"}, version=waiting["p3"][1]),
        )
        assert sorted(type(r).__name__ for r in results) == ["DecisionPassed", "Played"], results
        game.refresh_from_db()
        types = list(game.events.values_list("type", flat=True))
        assert ("coup.blocked" in types) != ("coup.challenged" in types)
        assert list(game.events.values_list("seq", flat=True)) == list(range(game.version))
        assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE
