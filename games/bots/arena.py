"""Matches between bot levels: ``play_match`` plays games with the levels rotated
round the table, so that each level sits in each position equally often, and
counts wins and thinking time per level (``manage.py bot_arena`` prints them).

Every answer a bot gives is played through the game's ``play``, with all the
checks a player's answer gets: an illegal answer stops the match with an error.
"""

import random
import time
from collections import Counter, defaultdict

from games.bots import Budget, bot_for, decide, knowledge_for
from games.engine.dealer import SeededDealer
from games.kinds import rules_of

MAX_DECISIONS = 20_000  # a game still going after this many answers is a bug (or bots that never bet)


class UnfinishedGame(RuntimeError):
    """A game that did not end within ``MAX_DECISIONS`` answers."""


def play_game(kind: str, levels: list, bots: dict, rng: random.Random, budget: Budget, variants=()) -> dict:
    """One game, seat ``i`` played by ``levels[i]`` (the first seat starts).
    Returns ``{"winners": [levels], "seconds": {level: seconds}, "decisions": Counter}``."""
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
    seconds: defaultdict[str, float] = defaultdict(float)
    decisions: Counter[str] = Counter()
    for _answer in range(MAX_DECISIONS):
        if rules.is_over(state):
            winners = [level_of[name] for name in rules.winners(state)]
            return {"winners": winners, "seconds": seconds, "decisions": decisions}
        # Whoever is awaited may answer first; among several, one at random.
        name = rng.choice(rules.awaiting(state))[0]
        level = level_of[name]
        start = time.process_time()
        answer = decide(bots[level], knowledge[name], rules.view(state, name), thinking[name], budget)
        seconds[level] += time.process_time() - start
        decisions[level] += 1
        played = rules.play(state, name, answer, dealer)
        for seat in knowledge.values():
            seat.observe_events(played)
    raise UnfinishedGame(f"A {kind} game between {', '.join(levels)} did not end after {MAX_DECISIONS} answers.")


def play_match(kind: str, seats: list, games: int, budget: Budget, seed=None, variants=()) -> dict:
    """``games`` games between the levels ``seats`` (one per seat, repeats allowed),
    rotated one seat further each game. Returns the arena's summary."""
    bots = {level: bot_for(kind, level) for level in seats}
    rules_of(kind).check_config([f"p{i}" for i in range(len(seats))], list(variants))
    for bot in bots.values():
        check_game = getattr(bot, "check_game", None)  # a level that plays only some games says so
        if check_game is not None:
            check_game(len(seats), variants)
    rng = random.Random(seed)
    wins: defaultdict[str, float] = defaultdict(int)  # a shared win counts a share of one
    seconds: defaultdict[str, float] = defaultdict(float)
    decisions: Counter[str] = Counter()
    for game in range(games):
        shift = game % len(seats)
        result = play_game(kind, seats[shift:] + seats[:shift], bots, rng, budget, variants)
        for level in result["winners"]:
            wins[level] += 1 / len(result["winners"])
        for level, spent in result["seconds"].items():
            seconds[level] += spent
        decisions.update(result["decisions"])
    levels = list(dict.fromkeys(seats))
    return {
        "game": kind,
        "players": len(seats),
        "games": games,
        "wins": {level: round(wins[level], 3) for level in levels},
        "win_share": {level: round(wins[level] / games, 3) for level in levels},
        "ms_per_decision": {
            level: round(1000 * seconds[level] / decisions[level], 3) if decisions[level] else 0.0 for level in levels
        },
    }
