"""Random legal playouts: every awaited player answers with a random legal option.

Used by the benchmark and by the property tests; it goes through the same
``play`` a real game uses, so it checks every command as the service would.
"""

import random

from games.kinds import rules_of

from .dealer import SeededDealer
from .seats import seat_players


def uniform(rng, options):
    return rng.choice(options)


def random_game(kind: str, players: int, variants=(), seed=None, max_decisions: int = 10_000, choose=uniform):
    """Play one random game to its end; returns ``(state, events, decisions)``.
    ``choose(rng, options)`` picks each answer (uniformly at random by default)."""
    game = rules_of(kind)
    rng = random.Random(seed)
    dealer = SeededDealer(rng.random())
    names = seat_players(players)
    events = game.setup(dealer=dealer, players=names, variants=list(variants), first=rng.choice(names))
    state = game.replay(events)
    decisions = 0
    # The game's methods, looked up once rather than at every decision.
    is_over, awaiting, options, play = game.is_over, game.awaiting, game.options, game.play
    while not is_over(state):
        if decisions >= max_decisions:
            raise RuntimeError(f"a random {kind} game did not end after {max_decisions} decisions")
        name = rng.choice(awaiting(state))[0]
        events += play(state, name, choose(rng, options(state, name)), dealer)
        decisions += 1
    return state, events, decisions
