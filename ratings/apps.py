"""Ratings: each player's skill per game, moved by rated games; the leaderboards,
the public player pages and reliability (finish rate, deadlines missed)."""

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    verbose_name = "Ratings"
