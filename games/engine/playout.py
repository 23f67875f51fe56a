"""Random legal playouts: every awaited player answers with a random legal option.

``random_game`` goes through the same ``play`` a real game uses, so it checks
every command as the service would (the property tests use it). ``play_out`` is
the playouts' fast path, the one the bots' simulations and the benchmark take:
each answer is an option just listed, played through ``play_option`` without
the command checks and without building events (tests/engine/test_fast_path.py
proves it reaches the same states as ``play``).
"""

import random

from games.engine.dealer import SeededDealer
from games.engine.seats import seat_players
from games.kinds import rules_of


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


def play_out(rules, state, dealer, rng, pick=None, stop=None, max_decisions: int = 10_000) -> int:
    """Play ``state`` on to the end (or until ``stop(state)`` is true) through the
    fast path; returns the decisions taken. Whoever answers next is drawn at
    random among the awaited players (the first challenge received is the one
    resolved); ``pick(state, name, options)`` chooses their answer among their
    legal options, a random one by default. The state is changed in place. Each
    answer is played by the same decision handler as ``play``'s, without the
    decision's check, which a listed option needs not pass again."""
    rand = rng.random
    # Each decision kind's options and handler, looked up once rather than at every decision.
    answering = {kind: (spec.options, spec.play) for kind, spec in rules.Flow.DECISIONS.items()}
    flow = rules.unrecorded_flow(state, dealer)
    answered = flow.answered
    by_name = state.by_name
    # ``BaseFlow.answer`` and a random pick inlined: this loop is the bots' hottest path.
    for decisions in range(max_decisions):
        if state.over or (stop is not None and stop(state)):
            return decisions
        awaiting = state.awaiting
        if len(awaiting) == 1:
            ((name, decision),) = awaiting.items()
        else:
            names = list(awaiting)
            name = names[int(rand() * len(names))]
            decision = awaiting[name]
        options_of, play = answering[decision.kind]
        player = by_name[name]
        options = options_of(state, player)
        play(flow, player, options[int(rand() * len(options))] if pick is None else pick(state, name, options))
        answered()
    raise RuntimeError(f"a {rules.kind} playout did not end after {max_decisions} decisions")
