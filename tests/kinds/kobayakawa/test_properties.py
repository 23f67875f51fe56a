"""Properties of random legal Kobayakawa playouts, 3–6 players."""

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove
from games.engine.dealer import SeededDealer
from games.kinds.kobayakawa.engine import RULES as KOBAYAKAWA
from games.kinds.kobayakawa.engine.rules import CARDS
from games.kinds.kobayakawa.engine.scenario import STEP_FIELDS
from games.kinds.kobayakawa.engine.setup import setup_events
from tests.engine.snapshots import snapshot


@st.composite
def games(draw):
    players = draw(st.integers(min_value=3, max_value=6))
    names = [f"p{i}" for i in range(players)]
    medals, centre = {}, None
    if draw(st.booleans()):  # overridden starting medals and centre, as a scenario may
        medals = {name: draw(st.integers(min_value=0, max_value=6)) for name in names}
        if sum(1 for n in medals.values() if n) < 2:
            medals[names[0]] = medals[names[1]] = 1
        centre = draw(st.integers(min_value=2, max_value=10))
    return names, medals, centre, draw(st.integers(min_value=0, max_value=2**32))


def total_medals(state):
    return sum(p.medals + p.bet for p in state.players) + state.centre + state.box


def all_cards(state):
    cards = list(state.deck) + list(state.pile)
    for p in state.players:
        cards += p.discards + [c for c in (p.card, p.drawn) if c is not None]
    return sorted(cards)


def check_view_hides_secrets(state, viewer):
    shown = KOBAYAKAWA.view(state, viewer)
    assert isinstance(shown["deck"], int), "the deck order leaked"
    for entry in shown["players"]:
        player = state.by_name[entry["name"]]
        if entry["name"] == viewer:
            assert entry["card"] == player.card
            continue
        if not player.shown:
            assert entry["card"] is None, f"{entry['name']}'s card leaked to {viewer}"
        assert entry.get("drawn") is None, f"{entry['name']}'s drawn card leaked to {viewer}"
    previous = shown["previous"] or {}
    if len(previous.get("bettors", ())) == 1:
        assert "cards" not in previous, "a lone bettor's card was shown"


def check_events_hide_secrets(events, viewer):
    for event in events:
        visible = event.visible_to(viewer)
        if event.secret and viewer not in event.seen_by:
            assert not set(event.secret) & set(visible), f"{event.type} leaked its secret to {viewer}"
        if event.type == "kobayakawa.deck.shuffled":
            assert event.seen_by == (), "a shuffled deck must be seen by nobody"


def random_command(rng, state):
    """A command of any shape, mostly illegal, to check that refusing changes nothing."""
    names = [p.name for p in state.players] + ["nobody"]
    command = {"act": rng.choice(sorted(STEP_FIELDS) + ["income", "allow"])}
    if rng.random() < 0.6:
        command["card"] = rng.choice([*CARDS, 0, 16, "3", None, True])
    if rng.random() < 0.2:
        command["version"] = rng.randint(0, state.seq + 2)
    return rng.choice(names), command


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_random_playouts_keep_every_invariant(game):
    names, medals, centre, seed = game
    rng = random.Random(seed)
    dealer = SeededDealer(seed)
    first = rng.choice([n for n in names if medals.get(n, 4)])
    events = setup_events(names, first, dealer, medals=medals, centre=centre)
    state = KOBAYAKAWA.replay(events)
    total = total_medals(state)
    assert total == sum(medals.get(n, 4) for n in names) + (8 if centre is None else centre)
    decisions = 0
    while not KOBAYAKAWA.is_over(state):
        assert decisions < 5000, "the game did not end"
        awaiting = KOBAYAKAWA.awaiting(state)
        assert len(awaiting) == 1, "Kobayakawa asks one player at a time"
        assert state.centre >= 2 and len(state.in_game()) >= 2
        if rng.random() < 0.15:
            before = snapshot(state)
            name, command = random_command(rng, state)
            try:
                played = KOBAYAKAWA.play(state, name, command, dealer)
            except IllegalMove:
                assert snapshot(state) == before, "a refused command changed the state"
            else:  # a random command may happen to be legal: then it counts as a move
                events += played
        if KOBAYAKAWA.is_over(state):
            pass
        elif rng.random() < 0.05:
            events += KOBAYAKAWA.timeout(state, dealer)
        elif rng.random() < 0.01:
            events += KOBAYAKAWA.resign(state, rng.choice([p.name for p in state.in_game()]), dealer)
        else:
            name = KOBAYAKAWA.awaiting(state)[0][0]
            events += KOBAYAKAWA.play(state, name, rng.choice(KOBAYAKAWA.options(state, name)), dealer)
        decisions += 1
        assert total_medals(state) == total, "medals were created or lost"
        assert all(p.medals >= 0 and p.bet >= 0 for p in state.players) and state.centre >= 0
        assert all_cards(state) == list(CARDS), "cards were created or lost"
        if decisions % 5 == 0:
            assert snapshot(KOBAYAKAWA.load(json.loads(json.dumps(KOBAYAKAWA.dump(state))))) == snapshot(state)
            for viewer in names:
                check_view_hides_secrets(state, viewer)
    # The game ended after its last round (the centre is empty) or with fewer than two players left in.
    assert state.centre == 0 or len(state.in_game()) < 2
    assert not state.awaiting and KOBAYAKAWA.options(state, names[0]) == []
    assert all(p.bet == 0 for p in state.players), "a bet was left on the table"
    winners = KOBAYAKAWA.winners(state)
    running = [p for p in state.players if not p.resigned]
    assert winners and set(winners) == {p.name for p in running if p.medals == max(q.medals for q in running)}
    assert snapshot(KOBAYAKAWA.replay(events)) == snapshot(state), "replaying the log rebuilt a different state"
    stored = json.loads(json.dumps([event.to_json() for event in events]))
    assert snapshot(KOBAYAKAWA.replay(stored)) == snapshot(state), "replaying the stored log rebuilt a different state"
    for viewer in names:
        check_view_hides_secrets(state, viewer)
        check_events_hide_secrets(events, viewer)


def test_random_play_reaches_every_rule():
    """The playouts exercise the whole rule set: showdowns, lone bettors, replays,
    last rounds, players knocked out, shared wins."""
    seen = Counter()
    rng = random.Random(3)
    for seed in range(400):
        names = [f"p{i}" for i in range(rng.randint(3, 6))]
        dealer = SeededDealer(seed)
        medals = {name: rng.randint(1, 2) for name in names} if seed % 2 else {}  # poorer players: some knocked out
        state = KOBAYAKAWA.replay(setup_events(names, names[0], dealer, medals=medals))
        while not KOBAYAKAWA.is_over(state):
            name = KOBAYAKAWA.awaiting(state)[0][0]
            for event in KOBAYAKAWA.play(state, name, rng.choice(KOBAYAKAWA.options(state, name)), dealer):
                seen[event.type] += 1
                if event.type == "kobayakawa.round.won":
                    seen["lone" if len(event.data["bettors"]) == 1 else "showdown"] += 1
                    seen["last" if event.data["centre"] == 2 else "ordinary"] += 1
        seen["shared win" if len(KOBAYAKAWA.winners(state)) > 1 else "single win"] += 1
        seen["ended early" if state.centre else "ended after the last round"] += 1
    for kind in (
        "kobayakawa.card.drawn",
        "kobayakawa.card.flipped",
        "kobayakawa.round.replayed",
        "kobayakawa.player.out",
        "kobayakawa.cards.revealed",
        "lone",
        "showdown",
        "last",
        "ordinary",
        "shared win",
        "single win",
        "ended early",
        "ended after the last round",
    ):
        assert seen[kind], kind
