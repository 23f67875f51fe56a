"""The latest turns of a history, continued event by event from a cached story
(``games.history``), are exactly the tail of the whole story told at once: for
whole random games of every Coup variant and of Kobayakawa, for every player and
for the public viewer, after every few events, with the story pickled between
two parts as the cache stores it."""

import pickle
import random

import pytest

from games import history
from games.engine.playout import random_game
from games.history import LATEST_TURNS, History
from games.kinds import KINDS

GAMES = [
    ("coup", 3, ()),
    ("coup", 6, ()),
    ("coup", 2, ("two_player_draft",)),
    ("coup", 4, ("inquisitor",)),
    ("coup", 5, ("factions",)),
    ("coup", 4, ("patron", "lawyer")),
    ("coup", 4, ("declared_coup", "declared_assassination")),
    ("coup", 10, ("inquisitor", "factions", "lawyer")),
    ("kobayakawa", 3, ()),
    ("kobayakawa", 6, ()),
]


def assert_latest_turns_of(told: History, whole: list, version: int, window: int):
    """``told`` holds the lines of the last turns of ``whole`` (the full story's
    lines) up to ``version``, and says where it starts."""
    so_far = [line for line in whole if line.seq < version]
    turns = sum(line.turn for line in so_far)
    assert told.version == version
    assert told.lines == so_far[len(so_far) - len(told.lines) :]
    if turns <= window:
        assert told.lines == so_far and not told.earlier
    else:
        assert told.lines[0].turn and sum(line.turn for line in told.lines) == window
        left_out = so_far[: len(so_far) - len(told.lines)]
        assert all(line.seq < told.start for line in left_out)
        assert all(line.seq >= told.start for line in told.lines)


# The page's window, and a short one that every random game outgrows.
@pytest.mark.parametrize("window", [3, LATEST_TURNS])
@pytest.mark.parametrize(("kind", "players", "variants"), GAMES)
def test_the_latest_turns_told_in_parts_are_the_tail_of_the_whole_story(kind, players, variants, window, monkeypatch):
    monkeypatch.setattr(history, "LATEST_TURNS", window)
    rng = random.Random(f"{kind}{players}{variants}")
    game_kind = KINDS[kind]
    _state, events, _decisions = random_game(kind, players, variants, seed=rng.random())
    stored = [{**event.to_json(), "seq": seq} for seq, event in enumerate(events)]
    names = {f"p{index}": f"Player {index}" for index in range(1, players + 1)}
    for viewer in [*names, None]:
        whole = game_kind.history.lines(stored, viewer, names)
        if window < LATEST_TURNS:
            assert sum(line.turn for line in whole) > window  # long enough to leave turns out
        told = History(game_kind.history.story(viewer, names))
        version = 0
        while version < len(stored):
            step = rng.randint(1, 7)
            told = told.continued(game_kind.history, stored[version : version + step], min(version + step, len(stored)))
            told = pickle.loads(pickle.dumps(told))  # as the cache keeps it between requests
            version = told.version
            assert_latest_turns_of(told, whole, version, window)
