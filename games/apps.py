from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from coupsite import dkim_signing  # noqa: F401 (registers the check of the DKIM key)
        from games.mail import inbound  # noqa: F401 (connects the receiver of inbound email)
