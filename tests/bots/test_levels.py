"""Every bot level plays whole games of both kinds to their end, each answer
played through the game's own checks (an illegal one would raise); the seat's
knowledge matches its view at every decision; a level that does not exist, or
cannot play the game asked for, gets a clear error."""

import json
import sys

import pytest
from django.core.management import CommandError, call_command

from games.bots import Budget, UnknownBotLevel, bot_for
from games.bots.arena import play_match
from games.kinds import KINDS

QUICK = Budget(seconds=60, worlds=2)  # the strong bot thinks a fixed, small amount


@pytest.mark.parametrize(
    "kind, seats, variants",
    [
        ("coup", ["default", "easy", "strong"], []),
        ("coup", ["strong", "easy", "default", "easy"], ["inquisitor", "lawyer"]),
        ("coup", ["easy", "strong"], ["two_player_draft"]),
        ("coup", ["strong", "easy", "easy"], ["declared_coup", "declared_assassination", "patron", "factions"]),
        ("kobayakawa", ["default", "easy", "strong"], []),
        ("kobayakawa", ["strong", "easy", "easy", "easy"], []),
    ],
)
def test_each_level_plays_whole_games_to_the_end(kind, seats, variants):
    result = play_match(kind, seats, games=len(seats), budget=QUICK, seed=3, variants=variants)
    assert sum(result["wins"].values()) == pytest.approx(len(seats))  # every game ended with its winners
    assert set(result["ms_per_decision"]) == set(seats)
    assert all(ms > 0 for ms in result["ms_per_decision"].values())


def test_the_treason_level_plays_classic_coup_to_the_end():
    result = play_match("coup", ["treason", "easy", "treason", "default"], games=4, budget=QUICK, seed=5)
    assert sum(result["wins"].values()) == pytest.approx(4)


def test_every_kind_offers_its_levels_through_the_registry():
    for kind in KINDS.values():
        assert kind.bots.levels[:3] == ("default", "easy", "strong")
        for level in kind.bots.levels:
            assert kind.bots.bot(level).level == level
    assert "treason" in KINDS["coup"].bots.levels and "treason" not in KINDS["kobayakawa"].bots.levels


def test_a_level_that_does_not_exist_is_refused_with_the_levels_there_are():
    with pytest.raises(
        UnknownBotLevel, match="no 'grandmaster' bot for coup; the levels are: default, easy, strong, treason"
    ):
        bot_for("coup", "grandmaster")
    with pytest.raises(ValueError, match="no 'treason' bot for kobayakawa"):
        KINDS["kobayakawa"].bots.bot("treason")


def arena(*args):
    call_command("bot_arena", *args)


def test_the_arena_refuses_bad_input_with_a_clean_error(capsys):
    with pytest.raises(CommandError, match="no 'grandmaster' bot for coup"):
        arena("--game", "coup", "--players", "2", "--games", "1", "--seats", "easy,grandmaster")
    with pytest.raises(CommandError, match="3 levels for 2 players"):
        arena("--game", "coup", "--players", "2", "--games", "1", "--seats", "easy,easy,easy")
    with pytest.raises(CommandError, match="Kobayakawa is played by 3 to 6 players"):
        arena("--game", "kobayakawa", "--players", "2", "--games", "1", "--seats", "easy,easy")
    with pytest.raises(CommandError, match="--games must be at least 1"):
        arena("--game", "coup", "--players", "2", "--games", "0", "--seats", "easy,easy")
    with pytest.raises(CommandError, match="Unknown variant: cheating"):
        arena("--game", "coup", "--players", "2", "--games", "1", "--seats", "easy,easy", "--variants", "cheating")
    with pytest.raises(CommandError, match="classic Coup only"):
        arena(
            "--game", "coup", "--players", "3", "--games", "1", "--seats", "treason,easy,easy", "--variants", "lawyer"
        )
    assert capsys.readouterr().out == ""  # nothing half-printed


def test_the_arena_prints_its_summary_as_the_last_line(capsys):
    arena("--game", "kobayakawa", "--players", "3", "--games", "3", "--seats", "easy,default,default", "--seed", "1")
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert list(summary) == [
        "game",
        "players",
        "games",
        "wins",
        "win_share",
        "interval_95",
        "ms_per_decision",
        "decision_ms",
        "unfinished",
    ]
    assert summary["game"] == "kobayakawa" and summary["players"] == 3 and summary["games"] == 3
    assert summary["unfinished"] == []
    assert set(summary["wins"]) == {"easy", "default"}
    assert summary["win_share"]["easy"] == pytest.approx(summary["wins"]["easy"] / 3, abs=0.001)


def test_the_treason_level_without_coupml_installed_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "coupml", None)  # as if the bench extra were not installed
    monkeypatch.delitem(sys.modules, "games.kinds.coup.treason", raising=False)
    with pytest.raises(ImportError, match=r"needs the coupml package: pip install -e '\.\[bench\]'"):
        bot_for("coup", "treason")
    with pytest.raises(CommandError, match="needs the coupml package"):
        arena("--game", "coup", "--players", "2", "--games", "1", "--seats", "treason,easy")
