"""The names players have inside the engine: ``p1``, ``p2``... by seat, counted
from 1, as stored in every event. Built and read here only."""


def seat_player(position: int) -> str:
    """The engine name of the player in seat ``position`` (0 for the first seat)."""
    return f"p{position + 1}"


def seat_position(player: str) -> int:
    """The seat (0 for the first) of the engine player ``player``."""
    return int(player.removeprefix("p")) - 1


def seat_players(count: int) -> list[str]:
    """The engine names of a table of ``count`` seats, in seat order."""
    return [seat_player(position) for position in range(count)]
