from django.apps import AppConfig


class CoupConfig(AppConfig):
    """Coup is an app only so Django finds its templates and its template tags."""

    name = "games.kinds.coup"
    label = "coup"
    verbose_name = "Coup"
