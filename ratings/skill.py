"""The rating arithmetic, apart from the database: OpenSkill's Plackett-Luce model
(``openskill``), and the number players read.

Each player has a skill estimate per game kind, a mean ``mu`` and an uncertainty
``sigma`` (25 and 25/3 for a newcomer, the model's defaults). A rated game moves
the people who played it by their finishing order, ties shared (``places``: 1 =
first); bots and the seats of a practice game never enter it.

What a player reads is the conservative estimate, OpenSkill's ``ordinal``
(``mu - 3 * sigma``: 99.7% sure the skill is at least this), scaled to a familiar
range: ``shown = round(1000 + 24 * ordinal)``. A newcomer shows 1000 and rises as
the model grows surer of them; an average player with many games (mu 25, sigma
near 1) shows about 1500, a strong one (mu 35) about 1750. A player is
provisional, and off the leaderboard, until ``ESTABLISHED`` rated games.
"""

from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
SHOWN_BASE = 1000
SHOWN_SCALE = 24
ESTABLISHED = 5  # rated games before a player leaves the provisional list


@dataclass(frozen=True)
class Skill:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def shown(self) -> int:
        """The rating as players read it (the module's docstring gives the formula)."""
        return round(SHOWN_BASE + SHOWN_SCALE * (self.mu - 3 * self.sigma))


def game_rated(skills: dict[int, Skill], places: dict[int, int]) -> dict[int, Skill]:
    """Each player's skill after a game they finished at ``places`` (user id →
    place, 1 = first, equal places tied), from ``skills`` before it. The players
    are put in one order (by place, then id) so the same numbers in give the same
    numbers out: live updates and a recomputation agree to the last bit."""
    players = sorted(places, key=lambda player: (places[player], player))
    teams = [[MODEL.create_rating([skills[player].mu, skills[player].sigma])] for player in players]
    rated = MODEL.rate(teams, ranks=[places[player] for player in players])
    return {player: Skill(team[0].mu, team[0].sigma) for player, team in zip(players, rated, strict=True)}
