"""The computer players every game kind has: ``default``, ``easy`` and ``strong``.

Each answers ``choose(knowledge, rng, budget)``: the seat's ``SeatKnowledge``
(what the seat saw, never the game's state), a random source, and a ``Budget``.
"""

import math
import random

from games.engine.dealer import PlayoutDealer
from games.engine.playout import play_out


class DefaultPlayer:
    """Answers what a deadline would: the baseline every other level should beat."""

    level = "default"

    def choose(self, knowledge, rng, budget) -> dict:
        # A deadline's answer reads only the player's own cards and what is public.
        return knowledge.rules.default_answer(knowledge.state, knowledge.seat, PlayoutDealer(rng))


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
    the budget is spent (a world that would overrun the deadline is left out, see
    ``Allowance``). The answer with the best total wins if it beats the easy
    player's answer by more than the worlds' noise (``CONFIDENCE`` standard
    errors of the difference, world by world); otherwise the bot answers as the
    easy player would, since a best total picked among many close ones is mostly luck."""

    level = "strong"
    CONFIDENCE = 1.0

    def __init__(self, playouts):
        self.playouts = playouts

    def choose(self, knowledge, rng, budget) -> dict:
        allowance = budget.allowance()  # the time spent listing the options counts too
        options = knowledge.options()
        if len(options) == 1:
            return options[0]
        _means, choice = self.deliberate(knowledge, options, rng, allowance)
        return options[choice]

    def deliberate(self, knowledge, options, rng, allowance) -> tuple[list[float], int]:
        """The options' mean scores over the worlds imagined, and the index of
        the one chosen: the best if it is clearly better than the easy answer,
        else the easy answer."""
        usual = options.index(self.playouts.easy_answer(knowledge.state, knowledge.seat, options, rng))
        tally = self.imagine(knowledge, options, usual, rng, allowance)
        means = tally.means()
        best = max(range(len(options)), key=means.__getitem__)
        return means, best if tally.clearly_better(best, self.CONFIDENCE) else usual

    def weigh(self, knowledge, rng, budget) -> tuple[list[tuple[dict, float]], int]:
        """Each of the seat's options with its mean score over the worlds
        imagined (0 to 1, as ``Playouts.score``), and the index of the option
        ``choose`` would answer: the reasons behind it, for a player asking what
        the bot would have done."""
        allowance = budget.allowance()
        options = knowledge.options()
        means, choice = self.deliberate(knowledge, options, rng, allowance)
        return list(zip(options, means, strict=True)), choice

    def imagine(self, knowledge, options, usual, rng, allowance) -> "Tally":
        """The tally of the scores of ``options`` (the easy answer's is
        ``options[usual]``) in each world ``allowance`` lets the bot imagine (at
        least one)."""
        rules, seat, playouts = knowledge.rules, knowledge.seat, self.playouts
        dump, load = rules.dump, rules.load
        # One random source for every playout's dealer and answers, reseeded with
        # each world's dice before each option: far cheaper than a new one each time.
        dice_rng = random.Random()
        dealer, pick = PlayoutDealer(dice_rng), playouts.picker(dice_rng)
        tally = Tally(len(options), usual)
        while allowance.begin_world():
            world = dump(knowledge.sample(rng))
            dice = rng.getrandbits(64)
            scores: list[float] = []
            for option in options:
                if scores and allowance.late():
                    break  # this world would overrun the budget: it is left out
                imagined = load(world)
                dice_rng.seed(dice)
                rules.play_option(imagined, seat, option, dealer)
                play_out(rules, imagined, dealer, dice_rng, pick=pick, stop=playouts.horizon(imagined))
                scores.append(playouts.score(imagined, seat))
            if len(scores) < len(options):
                break
            allowance.world_done()
            tally.add(scores)
        return tally


class Tally:
    """What the strong player keeps of the worlds it imagined, world by world:
    each option's total score, and its lead over the easy answer's (option
    ``usual``) with the squares of that lead. The means and the test of a clear
    lead then cost as little after thousands of worlds as after a few, so the
    decision ends when its last world does, within the budget."""

    def __init__(self, options: int, usual: int):
        self.usual = usual
        self.worlds = 0
        self.totals = [0.0] * options
        self.leads = [0.0] * options
        self.lead_squares = [0.0] * options

    def add(self, scores: list[float]) -> None:
        """One world's score of each option."""
        usual_score = scores[self.usual]
        totals, leads, lead_squares = self.totals, self.leads, self.lead_squares
        for index, score in enumerate(scores):
            lead = score - usual_score
            totals[index] += score
            leads[index] += lead
            lead_squares[index] += lead * lead
        self.worlds += 1

    def means(self) -> list[float]:
        return [total / self.worlds for total in self.totals]

    def clearly_better(self, best: int, confidence: float) -> bool:
        """Whether option ``best`` scored above the easy answer by more than
        ``confidence`` standard errors of their difference, world by world."""
        if best == self.usual:
            return True
        count = self.worlds
        if count < 2:
            return False
        mean = self.leads[best] / count
        # Never below zero: the sums may round a lead that never varied to a hair under.
        variance = max(0.0, (self.lead_squares[best] - count * mean * mean) / (count - 1))
        return mean > confidence * math.sqrt(variance / count)
