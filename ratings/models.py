"""A player's rating per game kind, and each rated game's change to it.

``Rating`` holds where a player stands now (read by the leaderboard and the
player page); ``RatingChange`` is one player's move in one rated game, kept in
the order the games were rated (its ``id``, given under the ratings lock:
``ratings/services.py``), from which ``manage.py rerate`` recomputes every
``Rating`` and the history chart is drawn. The arithmetic is in ``ratings/skill.py``.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models import Game
from ratings.skill import ESTABLISHED, Skill


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    kind = models.CharField(max_length=20)
    mu = models.FloatField(help_text="the model's skill estimate")
    sigma = models.FloatField(help_text="its uncertainty")
    shown = models.IntegerField(help_text="the conservative rating players read (ratings/skill.py)")
    games = models.PositiveIntegerField(help_text="rated games played")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="rating_unique_user_kind")]
        # The leaderboard: the established players of a kind, best first, read
        # from the index alone in that order (and a reader's place counted on it).
        indexes = [
            models.Index(
                fields=["kind", "-shown", "user"],
                condition=Q(games__gte=ESTABLISHED),
                name="rating_leaderboard",
            )
        ]

    def __str__(self):
        return f"{self.user_id} {self.kind}: {self.shown}"

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < ESTABLISHED


class RatingChange(models.Model):
    """How one rated game moved one player's rating. ``id`` orders the games as
    they were rated; the numbers are recomputed in place by ``rerate``."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    kind = models.CharField(max_length=20)
    finished_at = models.DateTimeField()
    mu = models.FloatField(help_text="after the game")
    sigma = models.FloatField(help_text="after the game")
    shown_before = models.IntegerField()
    shown_after = models.IntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="ratingchange_unique_game_user")]
        indexes = [models.Index(fields=["user", "kind", "id"], name="ratingchange_user_kind")]

    def __str__(self):
        return f"{self.game_id} {self.user_id}: {self.shown_before} → {self.shown_after}"
