from django.apps import AppConfig


class KobayakawaConfig(AppConfig):
    """Kobayakawa is an app only so Django finds its templates."""

    name = "games.kinds.kobayakawa"
    label = "kobayakawa"
    verbose_name = "Kobayakawa"
