import random

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.engine import GAMES
from games.models import Game
from games.selectors import game_state


def make_user(name: str):
    return get_user_model().objects.create_user(username=name, email=f"{name}@example.com")


@pytest.fixture
def ana(db):
    return make_user("ana")


@pytest.fixture
def ben(db):
    return make_user("ben")


@pytest.fixture
def cai(db):
    return make_user("cai")


def started_game(host, *others, variants=(), first=Game.First.HOST):
    game = services.game_create(
        host=host, variants=list(variants), seat_count=1 + len(others), turn_seconds=86400, response_seconds=28800,
        first=first,
    )
    for user in others:
        services.seat_join(game=game, user=user, join_token=game.join_token)
    return services.game_start(game=game, by=host)


@pytest.fixture
def game(ana, ben, cai):
    """Ana (host, first), Ben and Cai in a classic game that has just started."""
    return started_game(ana, ben, cai)


def awaited(game) -> dict:
    """Engine player name → (decision, version) for the decisions ``game`` waits for."""
    game.refresh_from_db()
    return {name: (kind, version) for name, kind, version in GAMES[game.kind].awaiting(game_state(game))}


def play_randomly(game, rng: random.Random, decisions: int = 10_000):
    """Answer ``game``'s awaited decisions at random through the services until it ends."""
    users = {seat.player: seat.user for seat in game.seats.all()}
    engine = GAMES[game.kind]
    for _ in range(decisions):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        state = game_state(game)
        player, _kind, version = rng.choice(engine.awaiting(state))
        command = rng.choice(engine.options(state, player))
        services.decision_submit(game=game, user=users[player], command=command, version=version)
        game.refresh_from_db()
        yield game
