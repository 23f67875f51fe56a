"""The arena's figures: each share's 95% Wilson score interval (checked against
published values), the decision-time percentiles, and matches whose games and
winners are the same for a given seed whatever the number of processes."""

import json

import pytest
from django.core.management import CommandError, call_command

from games.bots import Budget, arena
from games.bots.arena import decision_percentiles, play_match, wilson_interval

# Newcombe, "Two-sided confidence intervals for the single proportion: comparison
# of seven methods", Statistics in Medicine 17 (1998), table I, method 3 (the score
# interval without continuity correction), to the four decimals it prints.
NEWCOMBE_WILSON = [
    (81, 263, 0.2553, 0.3662),
    (15, 148, 0.0624, 0.1605),
    (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
]


@pytest.mark.parametrize("successes, trials, low, high", NEWCOMBE_WILSON)
def test_the_interval_is_wilsons_score_interval(successes, trials, low, high):
    assert wilson_interval(successes, trials) == pytest.approx((low, high), abs=5e-5)


def test_the_interval_stays_within_0_and_1_and_narrows_with_more_games():
    assert wilson_interval(0, 10) == pytest.approx((0.0, 3.8415 / 13.8415), abs=1e-4)  # z² / (n + z²)
    assert wilson_interval(10, 10) == pytest.approx((10 / 13.8415, 1.0), abs=1e-4)
    low, high = wilson_interval(40, 100)
    mirrored = wilson_interval(60, 100)
    assert (low, high) == pytest.approx((1 - mirrored[1], 1 - mirrored[0]))
    wide, narrow = wilson_interval(45, 100), wilson_interval(180, 400)
    assert narrow[1] - narrow[0] < (wide[1] - wide[0]) * 0.55  # four times the games: about half as wide
    assert wilson_interval(12.5, 50) == pytest.approx(wilson_interval(25, 100), abs=0.05)  # shared wins count a share
    with pytest.raises(ValueError):
        wilson_interval(0, 0)


def test_the_percentiles_are_nearest_ranks_in_milliseconds():
    seconds = [n / 1000 for n in range(1000, 0, -1)]  # 1 ms to 1,000 ms, in any order
    assert decision_percentiles(seconds) == {"p50": 500.0, "p90": 900.0, "p99": 990.0, "max": 1000.0}
    assert decision_percentiles([0.002]) == {"p50": 2.0, "p90": 2.0, "p99": 2.0, "max": 2.0}
    assert decision_percentiles([]) == {}


QUICK = Budget(seconds=60, worlds=2)  # the strong bot thinks a fixed, small amount


def outcome(result: dict) -> dict:
    """What a match decides, without the CPU times (which differ from run to run)."""
    return {key: result[key] for key in ("games", "wins", "win_share", "interval_95")}


def test_a_match_has_the_same_games_and_winners_on_any_number_of_processes():
    seats = ["strong", "easy", "default"]
    alone = play_match("coup", seats, games=5, budget=QUICK, seed=11, variants=["inquisitor"])
    shared = play_match("coup", seats, games=5, budget=QUICK, seed=11, variants=["inquisitor"], jobs=2)
    assert outcome(shared) == outcome(alone)
    assert sum(alone["wins"].values()) == pytest.approx(5)
    other_seed = [
        play_match("coup", seats, games=5, budget=QUICK, seed=s, variants=["inquisitor"])["wins"] for s in (12, 13, 14)
    ]
    assert any(wins != alone["wins"] for wins in other_seed)  # the seed decides, not a fixed deal


def test_the_command_plays_on_several_processes_and_prints_intervals_and_percentiles(capsys):
    args = ["--game", "kobayakawa", "--players", "3", "--games", "4", "--seats", "easy,default,default", "--seed", "2"]
    call_command("bot_arena", *args, "--jobs", "1")
    alone = capsys.readouterr().out.strip().splitlines()
    call_command("bot_arena", *args, "--jobs", "3")
    shared = capsys.readouterr().out.strip().splitlines()
    alone_summary, shared_summary = json.loads(alone[-1]), json.loads(shared[-1])
    assert outcome(shared_summary) == outcome(alone_summary)
    low, high = alone_summary["interval_95"]["easy"]
    assert low <= alone_summary["win_share"]["easy"] <= high
    assert set(alone_summary["decision_ms"]["easy"]) == {"p50", "p90", "p99", "max"}
    assert alone[0].startswith("easy: won ") and "95% Wilson interval" in alone[0] and "p99" in alone[0]
    with pytest.raises(CommandError, match="--jobs must be at least 1"):
        call_command("bot_arena", *args, "--jobs", "0")


def test_a_game_that_does_not_end_is_counted_apart_with_its_seed_and_the_match_goes_on(monkeypatch, capsys):
    # Games cut short: two easy players need some forty answers, on average, to end one.
    monkeypatch.setattr(arena, "MAX_DECISIONS", 40)
    result = play_match("coup", ["easy", "easy"], games=10, budget=QUICK, seed=3)
    unfinished = result["unfinished"]
    assert unfinished and result["games"] and len(unfinished) + result["games"] == 10
    assert sum(result["wins"].values()) == pytest.approx(result["games"])  # the shares are of the games that ended
    for stuck in unfinished:
        assert stuck["seats"] == ["easy", "easy"] and stuck["answers"] == 40
        with pytest.raises(arena.UnfinishedGame):  # its seed plays the same game again
            arena.play_seeded_game("coup", stuck["seats"], stuck["seed"], QUICK)
    call_command(
        "bot_arena", "--game", "coup", "--players", "2", "--games", "10", "--seats", "easy,easy", "--seed", "3"
    )
    lines = capsys.readouterr().out.strip().splitlines()
    printed = json.loads(lines[-1])
    assert outcome(printed) == outcome(result) and printed["unfinished"] == unfinished
    assert [line for line in lines if line.startswith("unfinished:")] == [
        f"unfinished: the game of seed {stuck['seed']} with seats easy,easy did not end after 40 answers "
        "(games.bots.arena.play_seeded_game plays it again); it counts for no level"
        for stuck in unfinished
    ]


def test_a_match_none_of_whose_games_ended_has_no_shares(monkeypatch):
    monkeypatch.setattr(arena, "MAX_DECISIONS", 1)
    result = play_match("coup", ["easy", "easy"], games=2, budget=QUICK, seed=3)
    assert result["games"] == 0 and len(result["unfinished"]) == 2
    assert result["win_share"] == {} and result["interval_95"] == {}
