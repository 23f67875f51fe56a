"""Fewer emails: a practice game is played on its page, so it emails its player only
its end, unless they asked for its emails; a player with the page open reads the
start of the game and the reminder there, not in an email (real SMTP; tasks run in
this process)."""

import random
from datetime import timedelta

from django.utils import timezone

from accounts.models import profile_of
from games import tasks
from games.kinds import KINDS
from games.models import Game
from games.selectors import game_state
from games.services import bots, gathering, play, presence
from tests.players import gathering_game, make_player, started_game


def practice_to_the_end(player, capture) -> Game:
    """A practice game of ``player`` against two bots, played to its end: the player
    answers at random, the bots in the tasks each answer queues."""
    rng, rules = random.Random(5), KINDS["coup"].rules
    with capture(execute=True):
        game = bots.practice_start(host=player, seat_count=3, level="easy")
    while True:
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        state = game_state(game)
        [(_player, _decision, version)] = [entry for entry in rules.awaiting(state) if entry[0] == "p1"]
        with capture(execute=True):
            play.decision_submit(
                game=game, user=player, command=rng.choice(rules.options(state, "p1")), version=version
            )


def test_a_practice_game_emails_its_player_only_its_end(db, smtp, django_capture_on_commit_callbacks):
    pia = make_player("Pia")
    game = practice_to_the_end(pia, django_capture_on_commit_callbacks)
    [over] = smtp.to("pia@example.com")
    assert over.subject.startswith("Game over:") and over.subject.endswith(f"Coup #{game.pk}")


def test_a_player_who_asks_for_practice_emails_is_asked_by_email(db, smtp, django_capture_on_commit_callbacks):
    pia = make_player("Pia")
    profile = profile_of(pia)
    profile.practice_emails = True
    profile.save()
    game = practice_to_the_end(pia, django_capture_on_commit_callbacks)
    subjects = [mail.subject for mail in smtp.to("pia@example.com")]
    assert any(subject.startswith("Your move:") for subject in subjects)
    assert subjects[-1].startswith("Game over:") and subjects[-1].endswith(f"Coup #{game.pk}")


def test_a_player_in_the_waiting_room_when_the_game_starts_is_not_emailed_the_start(
    db, smtp, django_capture_on_commit_callbacks
):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    game = gathering_game(ana, ben, cai)
    presence.seat_seen(seat=game.seats.get(user=ben))
    with django_capture_on_commit_callbacks(execute=True):
        gathering.game_start(game=game, by=ana)
    assert smtp.to("ben@example.com") == []
    assert [mail.subject.split(":")[0] for mail in smtp.to("cai@example.com")] == ["Started"]


def test_a_player_with_the_page_open_is_not_sent_a_reminder(db, smtp, django_capture_on_commit_callbacks):
    ana, ben = make_player("Ana"), make_player("Ben")
    with_page_open, away = (started_game(ana, ben) for _game in range(2))
    for game in (with_page_open, away):
        Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() + timedelta(minutes=10))
    presence.seat_seen(seat=with_page_open.seats.get(user=ana))
    with django_capture_on_commit_callbacks(execute=True):
        tasks.send_reminders()
    reminded = [mail.subject for mail in smtp.to("ana@example.com")]
    assert reminded == [f"Reminder, your move: Choose an action — Coup #{away.pk}"]
