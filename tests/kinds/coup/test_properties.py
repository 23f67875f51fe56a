"""Properties of random playouts of every variant combination, 2–10 players: the
invariants of legal play, and refused steps that change nothing."""

import json
import random
from collections import Counter

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games.engine import IllegalMove
from games.engine.dealer import SeededDealer
from games.kinds.coup.engine import RULES as COUP
from games.kinds.coup.engine.cards import deck_for, rulebook_for
from games.kinds.coup.engine.characters import CHARACTERS
from games.kinds.coup.engine.decisions import DECISIONS
from games.kinds.coup.engine.scenario import STEP_FIELDS
from tests.engine.snapshots import snapshot

COMBINABLE = ["declared_coup", "declared_assassination", "inquisitor", "factions", "patron", "lawyer"]


@st.composite
def games(draw):
    players = draw(st.integers(min_value=2, max_value=10))
    variants = draw(st.lists(st.sampled_from(COMBINABLE), unique=True))
    if players == 2 and draw(st.booleans()):
        variants.append("two_player_draft")
    return players, sorted(variants), draw(st.integers(min_value=0, max_value=2**32))


def characters_in_play(variants) -> tuple:
    return rulebook_for(frozenset(variants)).characters


def full_deck(variants, players):
    if "two_player_draft" in variants:  # a set for each of the two players, one for the court
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


def started(game):
    """A game drawn by ``games()``, just set up: ``(rng, dealer, names, events, state)``."""
    players, variants, seed = game
    rng = random.Random(seed)
    dealer = SeededDealer(seed)
    names = [f"p{i}" for i in range(players)]
    events = COUP.setup(dealer=dealer, players=names, variants=variants, first=rng.choice(names))
    return rng, dealer, names, events, COUP.replay(events)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
# An examined player resigns after showing their card; the Inquisitor then forces an exchange.
@example((6, ["declared_assassination", "declared_coup", "inquisitor", "patron"], 3213))
def test_random_playouts_keep_every_invariant(game):
    players, variants, _seed = game
    rng, dealer, names, events, state = started(game)
    for name in names:
        if rng.random() < 0.3:
            cards = list(characters_in_play(variants))
            preferences = {"always_prove": rng.random() < 0.5, "lose_first": rng.sample(cards, rng.randint(0, 2))}
            events += COUP.set_preferences(state, name, preferences, dealer)
    deck = full_deck(variants, players)
    decisions = 0
    while not COUP.is_over(state):
        assert decisions < 5000, "the game did not end"
        awaiting = COUP.awaiting(state)
        assert awaiting, "a game in progress must wait for someone"
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
    assert snapshot(COUP.replay(events)) == snapshot(state), "replaying the log rebuilt a different state"
    stored = [event.to_json() for event in events]
    assert snapshot(COUP.replay(stored)) == snapshot(state), "replaying the stored log rebuilt a different state"
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
        state = COUP.replay(COUP.setup(dealer=dealer, players=names, variants=variants, first=names[0]))
        while not COUP.is_over(state):
            name = rng.choice(COUP.awaiting(state))[0]
            for event in COUP.play(state, name, rng.choice(COUP.options(state, name)), dealer):
                seen[event.type] += 1
                if event.type == "coup.action.declared":
                    seen["action:" + event.data["action"]] += 1
    for kind in (
        "income",
        "foreign_aid",
        "tax",
        "exchange",
        "coup",
        "assassinate",
        "steal",
        "examine",
        "convert",
        "embezzle",
        "patronage",
    ):
        assert seen["action:" + kind], kind
    for event_type in (
        "coup.blocked",
        "coup.claim.proved",
        "coup.claim.conceded",
        "coup.inheritance.settled",
        "coup.hand.revealed",
        "coup.card.shown",
        "coup.examine.forced",
        "coup.faction.converted",
    ):
        assert seen[event_type], event_type


# ---- refused steps ---------------------------------------------------------------------------

STRANGER = "nobody"  # a name no seat has


def fields_taken(state, act) -> set:
    """The fields ``act`` takes (docs/scenarios.md's step table), a declared attack's name included."""
    required, optional = STEP_FIELDS[act]
    fields = {"act", *required, *optional}
    if act in state.rulebook.declared:
        fields.add("name")
    return fields


def well_formed(state, command) -> bool:
    """Only fields its act takes, and perhaps the decision's version: a step whose
    legality the rules settle (any other is malformed in a scenario file)."""
    act = command.get("act")
    return act in STEP_FIELDS and set(command) <= fields_taken(state, act) | {"version"}


def command_of(state, name, option) -> dict:
    """An option as a step writes it: without the consequence it carries."""
    consequences = DECISIONS[state.awaiting[name].kind].consequences
    return {key: value for key, value in option.items() if key not in consequences}


def legal_answers(state, name) -> list[dict]:
    """What ``name`` may send now: the options, and the other ways docs/scenarios.md lets
    a challenge of the one open claim be written (naming its claimant, or no one)."""
    answers = [command_of(state, name, option) for option in COUP.options(state, name)]
    challenges = [answer for answer in answers if answer["act"] == "challenge"]
    if challenges == [{"act": "challenge"}]:
        pending = COUP.omniscient_view(state)["pending"]
        answers.append({"act": "challenge", "target": pending.get("blocker", pending["player"])})
    elif len(challenges) == 1:
        answers.append({"act": "challenge"})
    return answers


def is_legal(state, name, command) -> bool:
    decision = state.awaiting.get(name)
    if decision is None or command.get("version", decision.id) != decision.id:
        return False
    written = {key: value for key, value in command.items() if key != "version"}
    if "cards" in written:
        written["cards"] = sorted(written["cards"])  # the cards kept, in any order
    if written["act"] == "convert" and written.get("target") == name:
        del written["target"]  # converting oneself, written with a target
    return written in legal_answers(state, name)


def random_value(rng, state, name, field):
    if field == "target":
        return rng.choice([p.name for p in state.players] + [STRANGER])
    if field == "cards":
        player = state.by_name[name]
        pool = player.hand + player.drawn + [rng.choice(tuple(CHARACTERS))]
        return rng.sample(pool, rng.randint(0, len(pool)))
    return rng.choice(tuple(CHARACTERS))


def unlikely_step(rng, state) -> tuple[str, dict]:
    """A step that is most often illegal: a legal answer sent by someone else, with
    a field changed, added or left out, as another act, or with a stale version;
    or anything at all."""
    names = [p.name for p in state.players]
    name, _kind, version = rng.choice(COUP.awaiting(state))
    command = command_of(state, name, rng.choice(COUP.options(state, name)))
    how = rng.randrange(5)
    if how == 0:
        return rng.choice(names + [STRANGER]), command
    if how == 1:
        fields = sorted(fields_taken(state, command["act"]) - {"act"})
        present = [field for field in fields if field in command]
        if present and rng.random() < 0.25:
            del command[rng.choice(present)]
        else:
            field = rng.choice(fields or ["target"])
            command[field] = random_value(rng, state, name, field)
        return name, command
    if how == 2:
        command["act"] = rng.choice(sorted(STEP_FIELDS))
        return name, command
    if how == 3:
        command["version"] = version + rng.choice((-2, -1, 1, 2))
        return name, command
    command = {"act": rng.choice(sorted(STEP_FIELDS))}
    for field in ("target", "card", "as", "name", "cards"):
        if rng.random() < 0.3:
            command[field] = random_value(rng, state, name, field)
    return rng.choice(names), command


def send(state, name, command, dealer) -> list:
    """Play ``command``: accepted exactly when the rules allow it (for a well-formed
    step), and when refused, the state is exactly what it was."""
    before = snapshot(state)
    legal = is_legal(state, name, command) if well_formed(state, command) else None
    try:
        events = COUP.play(state, name, command, dealer)
    except IllegalMove:
        assert legal is not True, f"a legal step was refused: {name} {command}"
        assert snapshot(state) == before, f"a refused step changed the state: {name} {command}"
        return []
    assert legal is not False, f"a step the rules forbid was accepted: {name} {command}"
    return events


def refused(state, attempt):
    """``attempt`` must raise ``IllegalMove`` and leave the state as it was."""
    before = snapshot(state)
    try:
        attempt()
    except IllegalMove:
        assert snapshot(state) == before, "a refused step changed the state"
    else:
        raise AssertionError("a step the rules forbid was accepted")


def check_each_claim_challenged_once(events):
    """docs/rules.md §1 and §4.3: of the challenges of one Lawyer claim, only the first is resolved."""
    challenged = set()
    for event in events:
        if event.type == "coup.inheritance.opened":
            challenged = set()
        elif event.type == "coup.challenged" and event.data["on"] == "inheritance":
            assert event.data["claimant"] not in challenged, "a Lawyer claim was challenged twice"
            challenged.add(event.data["claimant"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_refused_steps_change_nothing_and_the_game_ends_with_one_winner(game):
    rng, dealer, names, events, state = started(game)
    steps = 0
    while not COUP.is_over(state):
        assert steps < 10_000, "the game did not end"
        if rng.random() < 0.05:  # someone out of the game, or no one at all, resigns
            out = [p.name for p in state.players if not p.alive]
            refused(state, lambda: COUP.resign(state, rng.choice(out + [STRANGER]), dealer))
        kind = rng.random()
        if kind < 0.4:
            events += send(state, *unlikely_step(rng, state), dealer)
        elif kind < 0.45:
            events += COUP.timeout(state, dealer)
        else:
            name = rng.choice(COUP.awaiting(state))[0]
            events += COUP.play(state, name, rng.choice(COUP.options(state, name)), dealer)
        steps += 1
    alive = [p.name for p in state.players if p.alive]
    assert alive == [state.winner], "the game must end with exactly one winner"
    assert not state.awaiting
    check_each_claim_challenged_once(events)
    assert snapshot(COUP.replay(events)) == snapshot(state), "the log does not rebuild the state"
    for name in names:
        refused(state, lambda: COUP.play(state, name, {"act": "income"}, dealer))
    refused(state, lambda: COUP.timeout(state, dealer))
    refused(state, lambda: COUP.resign(state, state.winner, dealer))
