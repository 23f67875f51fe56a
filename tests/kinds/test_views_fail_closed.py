"""Views fail closed: someone not seated at a game (no name, the empty name the
pages use, a name no player has) sees exactly what is public, through every path
state leaves the engine by: the engine's view, the history's sentences and each
event's visible fields."""

import inspect

import pytest
from django.utils import translation

from games.engine.common import PUBLIC
from games.engine.events import Event
from games.engine.playout import random_game
from games.kinds import KIND_NAMES, KINDS, rules_of

UNSEATED = (None, PUBLIC, "nobody")
NAMES = {f"p{i}": f"Player{i}" for i in range(10)}


def coup_public(everything: dict) -> dict:
    """The omniscient Coup view with every private part as the table shows it to all."""
    shown = {**everything, "court": len(everything["court"])}
    shown["players"] = [
        {**p, "hand": len(p["hand"]), **({"drawn": len(p["drawn"])} if "drawn" in p else {})}
        for p in everything["players"]
    ]
    if "aside" in everything:
        shown["aside"] = len(everything["aside"])
    if "pending" in everything:
        shown["pending"] = {key: value for key, value in everything["pending"].items() if key != "shown"}
    return shown


def kobayakawa_public(everything: dict) -> dict:
    """The omniscient Kobayakawa view with every card not shown at a showdown hidden."""
    shown = {**everything, "deck": len(everything["deck"])}
    shown["players"] = [
        {**p, "card": p["card"] if p["shown"] else None, **({"drawn": None} if "drawn" in p else {})}
        for p in everything["players"]
    ]
    return shown


PUBLIC_PART = {"coup": coup_public, "kobayakawa": kobayakawa_public}
GAMES = {
    "coup": [(2, ("two_player_draft",)), (4, ("inquisitor", "factions")), (5, ("lawyer", "declared_coup"))],
    "kobayakawa": [(3, ()), (5, ())],
}


def test_every_kind_is_checked_here():
    assert set(PUBLIC_PART) == set(GAMES) == set(KIND_NAMES)


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_a_view_has_no_default_viewer(kind):
    rules = rules_of(kind)
    assert inspect.signature(rules.view).parameters["viewer"].default is inspect.Parameter.empty
    with pytest.raises(TypeError):
        rules.view(rules.new_state())


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_someone_not_seated_sees_exactly_the_public_part_of_every_state(kind):
    rules = rules_of(kind)
    for players, variants in GAMES[kind]:
        for seed in range(3):
            _state, events, _decisions = random_game(kind, players, variants, seed=seed)
            state = rules.new_state()
            for event in events:
                rules.apply(state, event)
                public = PUBLIC_PART[kind](rules.omniscient_view(state))
                for viewer in UNSEATED:
                    assert rules.view(state, viewer) == public, (kind, event.type, viewer)


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_someone_not_seated_reads_the_public_history_and_events_only(kind):
    game_kind = KINDS[kind]
    for players, variants in GAMES[kind]:
        _state, events, _decisions = random_game(kind, players, variants, seed=7)
        stored = [event.to_json() for event in events]
        # The same log with every secret part gone: all that the public may know.
        public_log = [Event(event.type, event.data) for event in events]
        with translation.override("en"):
            told_publicly = [line.text for line in game_kind.history.lines(public_log, None, NAMES)]
            for viewer in UNSEATED:
                assert [e.visible_to(viewer) for e in events] == [e.data for e in events]
                for log in (events, stored):
                    assert [line.text for line in game_kind.history.lines(log, viewer, NAMES)] == told_publicly
