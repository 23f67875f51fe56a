"""The computer players every game kind has: ``default``, ``easy`` and ``strong``.

Each answers ``choose(knowledge, rng, budget)``: the seat's ``SeatKnowledge``
(what the seat saw, never the game's state), a random source, and a ``Budget``.
"""

import random

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

    def __init__(self, playouts):
        self.easy_answer = playouts.easy_answer

    def choose(self, knowledge, rng, budget) -> dict:
        return self.easy_answer(knowledge.state, knowledge.seat, knowledge.options(), rng)


class Playouts:
    """How the strong player imagines the rest of a game of one kind: everyone
    plays ``imagined_answer`` (the easy rules, ``easy_answer``, unless the kind
    imagines players otherwise); a playout stops at ``horizon(state)`` (a
    function of the state that says when to stop); ``score(state, seat)`` says
    how well ``seat`` stands then, from 0 (out) to 1 (won)."""

    def __init__(self, easy_answer, horizon, score, imagined_answer=None):
        self.easy_answer = easy_answer
        self.imagined_answer = imagined_answer or easy_answer
        self.horizon = horizon
        self.score = score

    def picker(self, rng):
        imagined = self.imagined_answer

        def pick(state, name, options):
            return imagined(state, name, options, rng)

        return pick


class StrongPlayer:
    """Information-set Monte Carlo. Each round deals the cards the seat has not
    seen at random, consistently with what it knows (``SeatKnowledge.sample``),
    then plays every candidate answer in a copy of that same world (the same
    deal and the same dice for each, so the candidates are compared on equal
    terms) with every player answering as the kind imagines them
    (``Playouts.imagined_answer``: its easy rules, or near them), up to the kind's horizon,
    and scores where the seat stands then (``Playouts.score``: 1 for a win, 0 out
    of the game, in between the seat's share of the table). Rounds go on until
    the budget is spent (a world the deadline overtakes is left out, see
    ``Allowance``); the answer with the best total wins."""

    level = "strong"

    def __init__(self, playouts):
        self.playouts = playouts

    def choose(self, knowledge, rng, budget) -> dict:
        allowance = budget.allowance()  # the time spent listing the options counts too
        options = knowledge.options()
        if len(options) == 1:
            return options[0]
        totals, _worlds = self.totals(knowledge, options, rng, allowance)
        return options[max(range(len(options)), key=totals.__getitem__)]

    def weigh(self, knowledge, rng, budget) -> list[tuple[dict, float]]:
        """Each of the seat's options with its mean score over the worlds
        imagined (0 to 1, as ``Playouts.score``): the reasons behind ``choose``,
        for a player asking what the bot would have done."""
        allowance = budget.allowance()
        options = knowledge.options()
        totals, worlds = self.totals(knowledge, options, rng, allowance)
        return [(option, total / worlds) for option, total in zip(options, totals, strict=True)]

    def totals(self, knowledge, options, rng, allowance) -> tuple[list[float], int]:
        """The summed scores of ``options`` over the worlds ``allowance`` lets
        the bot imagine, and how many those were."""
        rules, seat, playouts = knowledge.rules, knowledge.seat, self.playouts
        dump, load = rules.dump, rules.load
        totals = [0.0] * len(options)
        while allowance.begin_world():
            world = dump(knowledge.sample(rng))
            dice = rng.random()
            scores: list[float] = []
            for option in options:
                if scores and allowance.late():
                    break  # this world would overrun the budget: it is left out
                imagined = load(world)
                imagined_rng = random.Random(dice)
                dealer = PlayoutDealer(dice)
                rules.play_option(imagined, seat, option, dealer)
                play_out(
                    rules,
                    imagined,
                    dealer,
                    imagined_rng,
                    pick=playouts.picker(imagined_rng),
                    stop=playouts.horizon(imagined),
                )
                scores.append(playouts.score(imagined, seat))
            if len(scores) < len(options):
                break
            allowance.world_done()
            totals = [total + score for total, score in zip(totals, scores, strict=True)]
        return totals, allowance.worlds
