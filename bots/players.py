"""The computer players every game kind has: ``default``, ``easy`` and ``strong``.

Each answers ``choose(knowledge, rng, budget)``: the seat's ``SeatKnowledge``
(what the seat saw, never the game's state), a random source, and a ``Budget``.
"""

from games.engine.dealer import PlayoutDealer
from games.engine.playout import play_out


class DefaultPlayer:
    """Answers what a deadline would: the baseline every other level should beat."""

    level = "default"

    def choose(self, knowledge, rng, budget) -> dict:
        # A deadline's answer reads only the player's own cards and what is public.
        return knowledge.rules.default_answer(knowledge.state, knowledge.seat, PlayoutDealer(rng.random()))


class EasyPlayer:
    """Plays by a few readable rules (the kind's ``easy_answer``)."""

    level = "easy"

    def __init__(self, easy_answer):
        self.easy_answer = easy_answer

    def choose(self, knowledge, rng, budget) -> dict:
        return self.easy_answer(knowledge.state, knowledge.seat, knowledge.options(), rng)


class StrongPlayer:
    """Information-set Monte Carlo: deals the cards the seat has not seen at
    random, consistently with what it knows (``SeatKnowledge.sample``), plays
    each candidate answer in such a world and the game on to its end with every
    player following the easy rules, and takes the answer that won most often.
    The candidates take turns, each with a fresh world, until the budget is spent."""

    level = "strong"

    def __init__(self, easy_answer):
        self.easy_answer = easy_answer

    def choose(self, knowledge, rng, budget) -> dict:
        options = knowledge.options()
        if len(options) == 1:
            return options[0]
        rules, seat = knowledge.rules, knowledge.seat
        easy = self.easy_answer

        def imagined(state, name, choices):
            return easy(state, name, choices, rng)

        more = budget.clock()
        won = [0.0] * len(options)
        played = [0] * len(options)
        turn = 0
        while turn < len(options) or more():
            index = turn % len(options)
            world = knowledge.sample(rng)
            dealer = PlayoutDealer(rng.random())
            rules.play_option(world, seat, options[index], dealer)
            play_out(rules, world, dealer, rng, pick=imagined)
            winners = rules.winners(world)
            if seat in winners:
                won[index] += 1 / len(winners)
            played[index] += 1
            turn += 1
        best = max(range(len(options)), key=lambda i: won[i] / played[i])
        return options[best]
