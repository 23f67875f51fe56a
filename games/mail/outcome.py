"""What became of one message read by ``games.mail.inbound.receive``."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Outcome:
    """What became of one message: ``played``, ``explained`` (the reply-unclear
    email went to the player), ``recorded`` (a delivery report or a complaint put
    its address on the suppression list, ``games.mail.bounces``) or ``ignored``, and
    a short reason."""

    status: str
    reason: str
    game_id: int | None = None
    position: int | None = None
    line: str = ""
    answer: str = ""

    def __str__(self):
        # For logs and read_mail's output: never what was written or played, which
        # can name a face-down card ("keep duke captain", "show contessa").
        where = f" game {self.game_id} seat {self.position}" if self.game_id is not None else ""
        return f"{self.status} ({self.reason}){where}"
