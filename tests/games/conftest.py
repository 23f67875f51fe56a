"""The shared players and games (tests/players.py), for ``from .conftest import``."""

from tests.players import awaited, make_player, play_randomly, started_game  # noqa: F401
