"""Properties of random legal playouts of every variant combination, 2–10 players."""

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import COUP, IllegalMove, replay
from games.engine.coup.cards import characters_in_play, deck_for
from games.engine.dealer import SeededDealer
from games.engine.scenario import STEP_FIELDS

from .snapshots import snapshot

COMBINABLE = ["declared_coup", "declared_assassination", "inquisitor", "factions", "patron", "lawyer"]


@st.composite
def games(draw):
    players = draw(st.integers(min_value=2, max_value=10))
    variants = draw(st.lists(st.sampled_from(COMBINABLE), unique=True))
    if players == 2 and draw(st.booleans()):
        variants.append("two_player_draft")
    return players, sorted(variants), draw(st.integers(min_value=0, max_value=2**32))


def full_deck(variants, players):
    if "two_player_draft" in variants:
        return sorted(list(characters_in_play(variants)) * 3)
    return deck_for(variants, players)


def all_cards(state):
    cards = list(state.court) + list(state.aside)
    for p in state.players:
        cards += p.hand + p.revealed + p.drawn
    return sorted(cards)


def check_view_hides_secrets(state, viewer):
    shown = COUP.view(state, viewer)
    assert isinstance(shown["court"], int), "the court order leaked"
    for entry in shown["players"]:
        if entry["name"] != viewer:
            assert isinstance(entry["hand"], int), f"{entry['name']}'s hand leaked to {viewer}"
            assert isinstance(entry.get("drawn", 0), int), f"{entry['name']}'s exchange draw leaked to {viewer}"
    if "aside" in shown:
        assert isinstance(shown["aside"], int)
    pending = shown.get("pending", {})
    if "shown" in pending:
        assert viewer in (pending["player"], pending["target"]), "an examined card leaked"


def check_events_hide_secrets(events, viewer):
    for event in events:
        visible = event.visible_to(viewer)
        if event.secret and viewer not in event.seen_by:
            assert not set(event.secret) & set(visible), f"{event.type} leaked its secret to {viewer}"


def random_command(rng, state):
    """A command of any shape, mostly illegal, to check that rejection changes nothing."""
    names = [p.name for p in state.players]
    cards = list(characters_in_play(state.variants))
    command = {"act": rng.choice(sorted(STEP_FIELDS))}
    if rng.random() < 0.7:
        command["target"] = rng.choice(names)
    for field in ("card", "as", "name"):
        if rng.random() < 0.3:
            command[field] = rng.choice(cards)
    if rng.random() < 0.2:
        command["cards"] = rng.sample(cards, 2)
    return rng.choice(names), command


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_random_playouts_keep_every_invariant(game):
    players, variants, seed = game
    rng = random.Random(seed)
    dealer = SeededDealer(seed)
    names = [f"p{i}" for i in range(players)]
    events = COUP.setup(dealer=dealer, players=names, variants=variants, first=rng.choice(names))
    state = replay("coup", events)
    for name in names:
        if rng.random() < 0.3:
            cards = list(characters_in_play(variants))
            events += COUP.set_standing_answers(
                state, name, prove=rng.random() < 0.5, lose_first=rng.sample(cards, rng.randint(0, 2)), dealer=dealer
            )
    deck = full_deck(variants, players)
    decisions = 0
    while not COUP.is_over(state):
        assert decisions < 5000, "the game did not end"
        awaiting = COUP.awaiting(state)
        assert awaiting, "a game in progress must wait for someone"
        if rng.random() < 0.1:
            before = snapshot(state)
            try:
                name, command = random_command(rng, state)
                copy = replay("coup", events)
                COUP.play(copy, name, command, dealer)
            except IllegalMove:
                assert snapshot(copy) == before, "a rejected command changed the state"
        if rng.random() < 0.05:
            events += COUP.timeout(state, dealer)
        elif rng.random() < 0.01:
            events += COUP.resign(state, rng.choice([p.name for p in state.players if p.alive]), dealer)
        else:
            name = rng.choice(awaiting)[0]
            events += COUP.play(state, name, rng.choice(COUP.options(state, name)), dealer)
        decisions += 1
        assert all(p.coins >= 0 for p in state.players) and state.reserve >= 0, "coins went negative"
        assert all_cards(state) == deck, "cards were created or lost"
        if decisions % 7 == 0:
            assert snapshot(COUP.load(json.loads(json.dumps(COUP.dump(state))))) == snapshot(state)
            for viewer in names:
                check_view_hides_secrets(state, viewer)
    alive = [p.name for p in state.players if p.alive]
    assert alive == [state.winner], "the game must end with exactly one winner"
    assert not state.awaiting
    assert all(p.coins == 0 for p in state.players if not p.alive), "an eliminated player still holds coins"
    assert snapshot(replay("coup", events)) == snapshot(state), "replaying the log rebuilt a different state"
    stored = [event.to_json() for event in events]
    assert snapshot(replay("coup", stored)) == snapshot(state), "replaying the stored log rebuilt a different state"
    for viewer in names:
        check_view_hides_secrets(state, viewer)
        check_events_hide_secrets(events, viewer)


def test_every_action_kind_is_reached_by_random_play():
    """The playouts above exercise the whole rule set, not a corner of it."""
    seen = Counter()
    rng = random.Random(7)
    for seed in range(300):
        variants = rng.sample(COMBINABLE, rng.randint(0, len(COMBINABLE)))
        names = [f"p{i}" for i in range(rng.randint(2, 10))]
        dealer = SeededDealer(seed)
        state = replay("coup", COUP.setup(dealer=dealer, players=names, variants=variants, first=names[0]))
        while not COUP.is_over(state):
            name = rng.choice(COUP.awaiting(state))[0]
            for event in COUP.play(state, name, rng.choice(COUP.options(state, name)), dealer):
                seen[event.type] += 1
                if event.type == "coup.action.declared":
                    seen["action:" + event.data["action"]] += 1
    for kind in ("income", "foreign_aid", "tax", "exchange", "coup", "assassinate", "steal", "examine", "convert",
                 "embezzle", "patronage"):
        assert seen["action:" + kind], kind
    for event_type in ("coup.blocked", "coup.claim.proved", "coup.claim.conceded", "coup.inheritance.settled",
                       "coup.hand.revealed", "coup.card.shown", "coup.examine.forced", "coup.faction.converted"):
        assert seen[event_type], event_type
