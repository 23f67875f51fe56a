from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from coupsite import dkim_signing  # noqa: F401 (registers the check of the DKIM key)
        from games.mail import bounces, inbound  # noqa: F401 (connect the receivers of inbound email and of tracking events)
        from games.services import lobby  # noqa: F401 (connects the receivers that keep the lobby's cache fresh)
