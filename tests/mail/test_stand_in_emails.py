"""The email telling a player that a bot plays for them says so in its subject, and
its body says why: the deadlines they missed, or their own request (real SMTP)."""

from datetime import timedelta

from django.utils import timezone

from games.models import Game
from games.services import bots, play
from tests.players import make_player, started_game


def expire(game) -> None:
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()
    assert play.deadline_expire(game=game, version=game.version)


def test_a_bot_taking_over_after_missed_deadlines_says_what_happened_and_why(
    db, smtp, django_capture_on_commit_callbacks
):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    game = started_game(ana, ben, cai, takeover=2)
    with django_capture_on_commit_callbacks(execute=True):
        for _turn in range(4):  # Ana, Ben, Cai, then Ana again let their turn pass
            expire(game)
    [told] = [mail for mail in smtp.to("ana@example.com") if "bot" in mail.subject]
    assert told.subject == f"News: a bot now plays for you — Coup #{game.pk}"
    assert "You missed 2 deadlines in a row, so" in told.text
    assert "plays your seat until you are back" in told.text and "I'm back" in told.html


def test_a_bot_playing_at_the_players_request_says_so_in_their_language(db, smtp, django_capture_on_commit_callbacks):
    ana, ben = make_player("Ana"), make_player("Benito", "es")
    game = started_game(ana, ben)
    with django_capture_on_commit_callbacks(execute=True):
        bots.stand_in_ask(game=game, user=ben)  # not awaited: the bot waits for his turn
    [told] = smtp.to("benito@example.com")
    assert told.subject == f"Novedades: ahora un bot juega por ti — Coup #{game.pk}"
    assert told.text.startswith("Como lo pediste,")
    assert "plazo" not in told.text
