"""Players with profiles and verified addresses, and games at their start."""

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.cache import cache

from accounts.models import profile_of
from games import services
from games.engine import GAMES
from games.selectors import game_state

PASSWORD = "correct-horse-battery-9"


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """allauth counts attempts in the (shared, Redis) cache: start every test clean."""
    cache.clear()
    yield
    cache.clear()


def make_player(name: str, language: str = "en"):
    email = f"{name.lower()}@example.com"
    user = get_user_model().objects.create_user(username=name.lower(), email=email, password=PASSWORD)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    profile = profile_of(user)
    profile.display_name = name
    profile.language = language
    profile.save()
    return user


@pytest.fixture
def ana(db):
    return make_player("Ana")


@pytest.fixture
def ben(db):
    return make_player("Ben")


@pytest.fixture
def cai(db):
    return make_player("Cai")


@pytest.fixture
def dora(db):
    return make_player("Dora")


def gathering_game(host, *others, seats=None, variants=(), first="host"):
    game = services.game_create(
        host=host,
        variants=list(variants),
        seat_count=seats or 1 + len(others),
        turn_seconds=86400,
        response_seconds=28800,
        first=first,
    )
    for user in others:
        services.seat_join(game=game, user=user, join_token=game.join_token)
    return game


def started_game(host, *others, variants=(), first="host"):
    game = gathering_game(host, *others, variants=variants, first=first)
    return services.game_start(game=game, by=host)


@pytest.fixture
def game(ana, ben, cai):
    """Ana (host, plays first), Ben and Cai in a classic game that has just started."""
    return started_game(ana, ben, cai)


def awaited(game) -> dict:
    """Engine player name → (decision, version)."""
    game.refresh_from_db()
    return {name: (kind, version) for name, kind, version in GAMES[game.kind].awaiting(game_state(game))}


def seat_user(game, player):
    return next(seat.user for seat in game.seats.all() if seat.player == player)


def player_of(game, user) -> str:
    return next(seat.player for seat in game.seats.all() if seat.user_id == user.pk)


def answer(game, user, command):
    """``user`` answers their awaited decision with ``command`` through the service."""
    kind, version = awaited(game)[player_of(game, user)]
    services.decision_submit(game=game, user=user, command=command, version=version)
    game.refresh_from_db()
