"""Players with profiles and verified addresses (tests/players.py), and helpers to
answer through the services."""

import pytest
from django.core.cache import cache

from games.services import play
from tests.players import PASSWORD, awaited, gathering_game, make_player, started_game  # noqa: F401


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """allauth counts attempts in the (shared, Redis) cache: start every test clean."""
    cache.clear()
    yield
    cache.clear()


def seat_user(game, player):
    return next(seat.user for seat in game.seats.all() if seat.player == player)


def player_of(game, user) -> str:
    return next(seat.player for seat in game.seats.all() if seat.user_id == user.pk)


def answer(game, user, command):
    """``user`` answers their awaited decision with ``command`` through the service."""
    kind, version = awaited(game)[player_of(game, user)]
    play.decision_submit(game=game, user=user, command=command, version=version)
    game.refresh_from_db()
