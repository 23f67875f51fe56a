from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from games.mail import inbound  # noqa: F401 (connects the receiver of inbound email)
