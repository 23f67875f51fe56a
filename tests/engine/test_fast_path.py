"""The playouts' fast path (``play_out``, ``Rules.play_option``) reaches exactly the
states ``play`` reaches: random games of every kind and every variant mix are
played through both side by side, the same answer at each step, and the two
states (and every player's view of them) are compared at every step."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.dealer import PlayoutDealer
from games.engine.playout import play_out
from games.kinds import rules_of

COMBINABLE = ["declared_coup", "declared_assassination", "inquisitor", "factions", "patron", "lawyer"]


@st.composite
def games(draw):
    kind = draw(st.sampled_from(["coup", "kobayakawa"]))
    if kind == "coup":
        players = draw(st.integers(min_value=2, max_value=10))
        variants = draw(st.lists(st.sampled_from(COMBINABLE), unique=True))
        if players == 2 and draw(st.booleans()):
            variants.append("two_player_draft")
    else:
        players, variants = draw(st.integers(min_value=3, max_value=6)), []
    standing = kind == "coup" and draw(st.booleans())  # a player with standing answers
    return kind, players, sorted(variants), standing, draw(st.integers(min_value=0, max_value=2**32))


def same(rules, fast, slow, names):
    assert rules.dump(fast) == rules.dump(slow)
    for name in names:
        assert rules.view(fast, name) == rules.view(slow, name)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_the_fast_path_reaches_the_states_play_reaches(game):
    kind, players, variants, standing, seed = game
    rules = rules_of(kind)
    names = [f"p{i}" for i in range(players)]
    events = rules.setup(
        dealer=PlayoutDealer(random.Random(seed)), players=names, variants=variants, first=names[seed % players]
    )
    fast, slow, recorded = rules.replay(events), rules.replay(events), rules.replay(events)
    # One dealer per path, seeded alike: both paths ask them for the same shuffles in the same order.
    fast_dealer, slow_dealer, recorded_dealer = (PlayoutDealer(random.Random(seed)) for _path in range(3))
    if standing:
        preferences = {"always_prove": True, "lose_first": ["contessa", "ambassador"]}
        for state, dealer in ((fast, fast_dealer), (slow, slow_dealer), (recorded, recorded_dealer)):
            rules.set_preferences(state, names[0], preferences, dealer)
    choices = random.Random(seed)
    steps = 0

    def pick(state, name, options):
        """Before the fast path plays its answer, ``play`` plays the same one."""
        nonlocal steps
        same(rules, state, slow, names)
        assert options == rules.options(slow, name)
        choice = options[choices.randrange(len(options))]
        played = rules.play(slow, name, choice, slow_dealer)
        # The recording fast path builds the very events ``play`` built.
        kept = rules.play_option(recorded, name, choice, recorded_dealer, record=True)
        assert [e.to_json() for e in kept] == [e.to_json() for e in played]
        steps += 1
        return choice

    play_out(rules, fast, fast_dealer, random.Random(seed + 1), pick=pick)
    same(rules, fast, slow, names)
    same(rules, fast, recorded, names)
    assert rules.is_over(fast) and steps > 0
