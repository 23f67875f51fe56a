"""The strong bot keeps within its budget of time, and within its count of worlds.

The time is a clock the test holds: each playout the bot imagines advances it by
a set number of seconds, so what is asserted is how the bot spends its budget
(which worlds it begins, which it leaves out), never how fast this machine is.
"""

import math
import random

from games.bots import Budget, knowledge_for
from games.bots.players import Playouts, StrongPlayer
from games.engine.dealer import SeededDealer
from games.kinds import rules_of
from games.kinds.coup import bots as coup_bots


class PlayoutClock:
    """Seconds that pass only when a playout is scored: ``costs`` gives each
    playout's seconds in turn (the last one repeats)."""

    def __init__(self, costs):
        self.now = 0.0
        self.costs = list(costs)
        self.playouts = 0

    def __call__(self) -> float:
        return self.now

    def score(self, state, seat) -> float:
        self.now += self.costs[min(self.playouts, len(self.costs) - 1)]
        self.playouts += 1
        return 1.0  # every playout scores one: an option's total is the number of worlds that counted it


def first_turn():
    """The knowledge of the seat awaited first in a 4-player classic game, and its options."""
    rules = rules_of("coup")
    names = ["p0", "p1", "p2", "p3"]
    events = rules.setup(dealer=SeededDealer(0.5), players=names, variants=[], first="p0")
    knowledge = knowledge_for("coup", "p0")
    knowledge.observe_events(events)
    options = knowledge.options()
    assert len(options) > 2  # income, foreign aid, tax, steals, exchange: a choice to weigh
    return knowledge, options


def spend(budget_seconds, clock, worlds=None):
    knowledge, options = first_turn()
    strong = StrongPlayer(Playouts(coup_bots.easy_answer, coup_bots.horizon, clock.score))
    allowance = Budget(budget_seconds, worlds, clock).allowance()
    tally = strong.imagine(knowledge, options, 0, random.Random(1), allowance)
    return tally.totals, tally.worlds, len(options)


def test_a_world_is_begun_only_when_the_longest_so_far_still_fits():
    _, options = first_turn()
    clock = PlayoutClock([1.0])  # a world costs a second per option
    totals, worlds, _ = spend(3.5 * len(options), clock)
    # Three worlds fit; a fourth would end past the deadline, so it is not begun.
    assert worlds == 3
    assert clock.now == 3 * len(options)
    assert totals == [3.0] * len(options)


def test_a_world_the_deadline_overtakes_is_left_out():
    # The first world is quick and the next one slow: the second seems to fit,
    # but the deadline passes in its first playout, and the rest of it is not played.
    _, options = first_turn()
    first_world = 0.125 * len(options)
    slow = first_world + 1.0
    clock = PlayoutClock([0.125] * len(options) + [slow])
    totals, worlds, _ = spend(2 * first_world, clock)
    assert worlds == 1
    assert totals == [1.0] * len(options)  # the world left out counts for no option
    assert clock.playouts == len(options) + 1  # it stopped at the first playout that ended past the deadline
    assert clock.now == first_world + slow


def test_a_playout_that_would_end_past_the_deadline_is_not_begun():
    # The second world seems to fit, but its first playout takes three quarters
    # of a world: another as long would end past the deadline, so the world is
    # left out there, within the budget, rather than after the deadline has passed.
    _, options = first_turn()
    world = 0.125 * len(options)
    clock = PlayoutClock([0.125] * len(options) + [0.75 * world])
    totals, worlds, _ = spend(2 * world, clock)
    assert worlds == 1
    assert totals == [1.0] * len(options)
    assert clock.playouts == len(options) + 1
    assert clock.now <= 2 * world


def test_at_least_one_world_is_imagined_however_small_the_budget():
    clock = PlayoutClock([1.0])
    totals, worlds, options = spend(0.0, clock)
    assert worlds == 1 and totals == [1.0] * options


def test_a_count_of_worlds_is_imagined_exactly_when_time_is_no_limit():
    clock = PlayoutClock([1000.0])
    totals, worlds, options = spend(math.inf, clock, worlds=5)
    assert worlds == 5 and clock.playouts == 5 * options and totals == [5.0] * options
