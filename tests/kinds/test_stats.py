"""What each kind counts of a finished game, and what the statistics page shows of
it, declared by the kind (``KIND.stats``): its panels name only counters it keeps,
and it counts only those."""

import pytest

from games.engine.playout import random_game
from games.kinds import KIND_NAMES, KINDS
from games.kinds.stats import Stats


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_a_kinds_panels_show_only_the_counters_it_keeps(kind):
    stats = KINDS[kind].stats
    assert isinstance(stats, Stats)
    assert len(set(stats.counters)) == len(stats.counters) and not any("__" in name for name in stats.counters)
    shown = {name for panel in stats.panels for split in panel.splits for name in (split.part, split.whole)}
    assert shown <= set(stats.counters)


@pytest.mark.parametrize("kind", KIND_NAMES)
def test_a_kind_counts_only_the_counters_it_keeps(kind):
    stats = KINDS[kind].stats
    for seed in range(3):
        _state, events, _decisions = random_game(kind, 4, seed=seed)
        counted = stats.count(events)
        assert all(set(counts) <= set(stats.counters) for counts in counted.values())
        assert all(value > 0 for counts in counted.values() for value in counts.values())


def test_a_game_that_counts_nothing_shows_nothing():
    assert (Stats.counters, Stats.panels, Stats().count([object()])) == ((), (), {})


def test_coup_counts_claims_challenges_and_bluffs_caught():
    state, events, _decisions = random_game("coup", 4, seed=3)
    counted = KINDS["coup"].stats.count(events)
    challenges = [event for event in events if event.type == "coup.challenged"]
    assert challenges  # this game has some to count
    assert sum(counts["challenges_made"] for counts in counted.values()) == len(challenges)
    assert sum(counts["claims_challenged"] for counts in counted.values()) == len(challenges)
    won = sum(counts["challenges_won"] for counts in counted.values())
    caught = sum(counts["bluffs_caught"] for counts in counted.values())
    assert caught <= won <= len(challenges)  # a claimant who resigns is not caught, but loses the challenge
    assert all(counts["claims"] >= counts["claims_challenged"] for counts in counted.values())
