"""Matches between bot levels: ``play_match`` plays games with the levels rotated
round the table, so that each level sits in each position equally often, and
counts wins and thinking time per level (``manage.py bot_arena`` prints them).
A game that does not end is counted apart, with its seed and seats, so that it
can be played again (``play_seeded_game``), and the match goes on.

Every answer a bot gives is played through the game's ``play``, with all the
checks a player's answer gets: an illegal answer stops the match with an error.
"""

import math
import multiprocessing
import random
import time
from collections import defaultdict

from games.bots import Budget, bot_for, decide, knowledge_for
from games.engine.dealer import SeededDealer
from games.kinds import rules_of

MAX_DECISIONS = 20_000  # a game still going after this many answers is a bug (or bots that never bet)


class UnfinishedGame(RuntimeError):
    """A game that did not end within ``MAX_DECISIONS`` answers."""


def play_game(kind: str, levels: list, bots: dict, rng: random.Random, budget: Budget, variants=()) -> dict:
    """One game, seat ``i`` played by ``levels[i]`` (the first seat starts).
    Returns ``{"winners": [levels], "times": {level: [CPU seconds of each decision]}}``."""
    rules = rules_of(kind)
    dealer = SeededDealer(rng.random())
    names = [f"p{i}" for i in range(len(levels))]
    level_of = dict(zip(names, levels, strict=True))
    events = rules.setup(dealer=dealer, players=names, variants=list(variants), first=names[0])
    state = rules.replay(events)
    knowledge = {name: knowledge_for(kind, name) for name in names}
    thinking = {name: random.Random(rng.random()) for name in names}
    for seat in knowledge.values():
        seat.observe_events(events)
    times: defaultdict[str, list[float]] = defaultdict(list)
    for _answer in range(MAX_DECISIONS):
        if rules.is_over(state):
            winners = [level_of[name] for name in rules.winners(state)]
            return {"winners": winners, "times": dict(times)}
        # Whoever is awaited may answer first; among several, one at random.
        name = rng.choice(rules.awaiting(state))[0]
        level = level_of[name]
        start = time.process_time()
        answer = decide(bots[level], knowledge[name], rules.view(state, name), thinking[name], budget)
        times[level].append(time.process_time() - start)
        played = rules.play(state, name, answer, dealer)
        for seat in knowledge.values():
            seat.observe_events(played)
    raise UnfinishedGame(f"A {kind} game between {', '.join(levels)} did not end after {MAX_DECISIONS} answers.")


def play_match(kind: str, seats: list, games: int, budget: Budget, seed=None, variants=(), jobs: int = 1) -> dict:
    """``games`` games between the levels ``seats`` (one per seat, repeats allowed),
    rotated one seat further each game, on ``jobs`` processes. Each game has its
    own seed, drawn from ``seed`` in game order, and its own bots, so the games
    and their winners are the same whatever ``jobs`` is (a strong bot limited by
    CPU time alone thinks as far as the machine lets it, so its answers may still
    vary). Returns the arena's summary."""
    bots = [bot_for(kind, level) for level in dict.fromkeys(seats)]  # an unknown level is refused first
    rules_of(kind).check_config([f"p{i}" for i in range(len(seats))], list(variants))
    for bot in bots:
        check_game = getattr(bot, "check_game", None)  # a level that plays only some games says so
        if check_game is not None:
            check_game(len(seats), variants)
    match_rng = random.Random(seed)
    deals = []
    for game in range(games):
        shift = game % len(seats)
        deals.append((kind, seats[shift:] + seats[:shift], match_rng.getrandbits(64), budget, list(variants)))
    if jobs > 1:
        # Spawned workers start clean (no state forked from the caller's threads).
        with multiprocessing.get_context("spawn").Pool(min(jobs, games)) as pool:
            results = pool.map(_play_dealt_game, deals, chunksize=1)
    else:
        results = [_play_dealt_game(deal) for deal in deals]
    return summary(kind, seats, results)


def play_seeded_game(kind: str, levels: list, seed: int, budget: Budget, variants=()) -> dict:
    """The game of ``play_match`` dealt with ``seed`` to the seats ``levels``, with
    fresh bots: the way to play again a game the arena reports unfinished."""
    bots = {level: bot_for(kind, level) for level in levels}
    return play_game(kind, levels, bots, random.Random(seed), budget, variants)


def _play_dealt_game(deal) -> dict:
    """One game of ``play_match``; one that does not end is ``{"unfinished": {"seed", "seats", "answers"}}``."""
    kind, levels, seed, budget, variants = deal
    try:
        return play_seeded_game(kind, levels, seed, budget, variants)
    except UnfinishedGame:
        return {"unfinished": {"seed": seed, "seats": levels, "answers": MAX_DECISIONS}}


def summary(kind: str, seats: list, results: list[dict]) -> dict:
    """The arena's summary of the games ``results`` (``play_game``'s, in game
    order): each level's wins (a shared win counts a share of one), its share of
    the games that ended with the 95% Wilson score interval of that share, and its
    CPU time per decision in those games, on average and at the 50th, 90th and
    99th percentiles and the most (in milliseconds); then the games that did not
    end, each with its seed and seats."""
    unfinished = [result["unfinished"] for result in results if "unfinished" in result]
    results = [result for result in results if "unfinished" not in result]
    games = len(results)
    levels = list(dict.fromkeys(seats))
    wins: defaultdict[str, float] = defaultdict(float)
    times: defaultdict[str, list[float]] = defaultdict(list)
    for result in results:
        for level in result["winners"]:
            wins[level] += 1 / len(result["winners"])
        for level, spent in result["times"].items():
            times[level].extend(spent)
    return {
        "game": kind,
        "players": len(seats),
        "games": games,
        "wins": {level: round(wins[level], 3) for level in levels},
        # No share is a share of no game: a match none of whose games ended has none.
        "win_share": {level: round(wins[level] / games, 3) for level in levels} if games else {},
        "interval_95": (
            {level: [round(bound, 3) for bound in wilson_interval(wins[level], games)] for level in levels}
            if games
            else {}
        ),
        "ms_per_decision": {
            level: round(1000 * sum(times[level]) / len(times[level]), 3) if times[level] else 0.0 for level in levels
        },
        "decision_ms": {level: decision_percentiles(times[level]) for level in levels},
        "unfinished": unfinished,
    }


Z_95 = 1.959963984540054  # the standard normal quantile of 0.975: a two-sided 95% interval


def wilson_interval(successes: float, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a proportion of ``successes`` in ``trials``.
    Chosen over the textbook normal (Wald) interval, which covers the true share
    far less often than it claims at the few hundred games of a match and can
    reach below 0 or above 1; Wilson's stays within [0, 1], covers close to its
    nominal 95% at these sizes, shares near 0 or 1 included, and needs no statistics library
    (the exact Clopper-Pearson interval would, and is wider than it need be)."""
    if trials < 1:
        raise ValueError("an interval needs at least one trial")
    share = successes / trials
    spread = z * z / trials
    centre = (share + spread / 2) / (1 + spread)
    margin = z * math.sqrt(share * (1 - share) / trials + spread / (4 * trials)) / (1 + spread)
    return max(0.0, centre - margin), min(1.0, centre + margin)


def decision_percentiles(seconds: list[float]) -> dict:
    """The 50th, 90th and 99th percentiles and the most of ``seconds``, in
    milliseconds; a percentile is the nearest rank (always a decision's own time:
    the 99th of 1,000 decisions is the 990th fastest)."""
    if not seconds:
        return {}
    ranked = sorted(seconds)

    def nearest_rank(percent: int) -> float:
        return round(1000 * ranked[max(0, math.ceil(percent / 100 * len(ranked)) - 1)], 3)

    return {
        "p50": nearest_rank(50),
        "p90": nearest_rank(90),
        "p99": nearest_rank(99),
        "max": round(1000 * ranked[-1], 3),
    }
