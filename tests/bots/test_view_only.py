"""A bot's answer depends only on what its seat may see.

Random games of both kinds (with the variants that bring every decision) are
played to their end; at each decision, a twin of the state is made by dealing
again the cards the awaited seat has not seen (among the other hands, the
draws, the court or deck and the cards set aside, keeping in place every card
the seat knows), and each level is asked to answer in both, with the same dice.
The answers must be the same, and every kind of decision of both games must
have been asked.
"""

import random
from collections import Counter

import pytest

from games.bots import Budget, bot_for, decide, knowledge_for, levels_of
from games.bots.knowledge import HIDDEN
from games.engine.dealer import SeededDealer
from games.kinds import rules_of

# Enough games for every kind of decision to come up: the draft needs two players,
# show and examine the Inquisitor, inheritance the Lawyer.
COUP_GAMES = [
    (2, ["two_player_draft"]),
    (4, []),
    (4, ["inquisitor", "lawyer"]),
    (5, ["inquisitor", "lawyer", "declared_coup"]),
    (3, ["patron", "factions"]),
    (6, []),
    (5, ["lawyer"]),
]
KOBAYAKAWA_GAMES = [(3, []), (4, []), (6, [])]
BUDGET = Budget(seconds=60, worlds=2)  # a fixed number of worlds: the same answer on any machine
STRONG_EVERY = 4  # the strong bot is asked at every fourth decision (and at each kind's first), to keep the test quick
TREASON_DECISIONS = {"turn", "respond", "block", "challenged", "lose", "keep"}  # all of classic Coup's


def redeal_coup(state, knowledge, rng):
    """Another deal of the cards ``knowledge``'s seat has not seen."""
    seat = knowledge.seat
    known = knowledge.state
    places = []
    for p in state.players:
        if p.name == seat:
            continue
        action = state.action
        if action is not None and action.shown is not None and action.target == p.name:
            continue  # a card is being shown from this hand: it stays where it is
        places += [(p, known.by_name[p.name], "hand"), (p, known.by_name[p.name], "drawn")]
    places += [(state, known, "court"), (state, known, "aside")]
    return redeal(places, rng, sort={"hand", "aside"})


def redeal_kobayakawa(state, knowledge, rng):
    seat = knowledge.seat
    known = knowledge.state
    places = []
    for p in state.players:
        if p.name != seat and not p.shown:
            places += [(p, known.by_name[p.name], "card"), (p, known.by_name[p.name], "drawn")]
    places.append((state, known, "deck"))
    return redeal(places, rng, sort=set())


def redeal(places, rng, sort):
    """Shuffle the unknown cards of ``places`` (real owner, the seat's knowledge of
    it, field) among them, each keeping its size and the cards the seat knows.
    Returns how many cards changed place."""
    pool, shapes = [], []
    for real, known, field in places:
        value, knew = getattr(real, field), getattr(known, field)
        cards = value if isinstance(value, list) else [value] if value is not None else []
        seen = knew if isinstance(knew, list) else [knew] if knew is not None else []
        unknown = Counter(cards) - Counter(card for card in seen if card != HIDDEN)
        assert sum(unknown.values()) == len(cards) - sum(1 for card in seen if card != HIDDEN), (
            f"the seat's knowledge of {field} is not what is there"
        )
        pool += list(unknown.elements())
        shapes.append(sum(unknown.values()))
    before = list(pool)
    rng.shuffle(pool)
    start = 0
    for (real, known, field), count in zip(places, shapes, strict=True):
        value, knew = getattr(real, field), getattr(known, field)
        dealt = pool[start : start + count]
        start += count
        if isinstance(value, list):
            kept = list((Counter(value) - Counter(before[start - count : start])).elements())
            cards = kept + dealt
            if field in sort:
                cards.sort()
            setattr(real, field, cards)
        elif value is not None and count:
            setattr(real, field, dealt[0])
    return sum(1 for a, b in zip(before, pool, strict=True) if a != b)


REDEAL = {"coup": redeal_coup, "kobayakawa": redeal_kobayakawa}


def levels(kind, variants):
    """The levels that can play this game (treason: classic Coup only)."""
    return [level for level in levels_of(kind) if level != "treason" or not variants]


@pytest.mark.parametrize("kind, games", [("coup", COUP_GAMES), ("kobayakawa", KOBAYAKAWA_GAMES)])
def test_a_bot_answers_the_same_whatever_the_cards_it_cannot_see(kind, games):
    rules = rules_of(kind)
    asked = Counter()
    moved = 0
    for number, (players, variants) in enumerate(games):
        game_rng = random.Random(number)
        dealer = SeededDealer(number)
        names = [f"p{i}" for i in range(players)]
        events = rules.setup(dealer=dealer, players=names, variants=variants, first=names[0])
        state = rules.replay(events)
        knowledge = {name: knowledge_for(kind, name) for name in names}
        for seat in knowledge.values():
            seat.observe_events(events)
        bots = {level: bot_for(kind, level) for level in levels(kind, variants)}
        decisions = 0
        while not rules.is_over(state):
            name, decision, _version = game_rng.choice(rules.awaiting(state))
            seat = knowledge[name]
            view = rules.view(state, name)
            twin = rules.load(rules.dump(state))
            moved += REDEAL[kind](twin, seat, random.Random(decisions))
            assert rules.view(twin, name) == view
            for level, bot in bots.items():
                if level == "strong" and decisions % STRONG_EVERY and asked[level, decision]:
                    continue
                if level == "treason" and decision not in TREASON_DECISIONS:
                    continue
                here = decide(bot, seat, view, random.Random(decisions), BUDGET)
                there = decide(bot, seat, rules.view(twin, name), random.Random(decisions), BUDGET)
                assert here == there, f"{level} answered {decision} differently when unseen cards moved"
                asked[level, decision] += 1
            # The game moves on by a random legal answer, so that every kind of decision comes up.
            played = rules.play(state, name, game_rng.choice(rules.options(state, name)), dealer)
            for watcher in knowledge.values():
                watcher.observe_events(played)
            decisions += 1
    for level in levels_of(kind):
        expected = TREASON_DECISIONS if level == "treason" else set(rules.Flow.DECISIONS)
        never = {decision for decision in expected if not asked[level, decision]}
        assert not never, f"the {level} bot was never asked: {never}"
    assert moved > 0, "no twin ever differed from its state"
