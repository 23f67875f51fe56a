"""The bot pages: the host seats bots in the waiting room, a practice game starts in
one click, a player hands their seat to a bot and comes back; bad input is a clear
message and changes nothing."""

from datetime import timedelta

from django.urls import reverse
from django.utils import timezone

from games.kinds import KINDS
from games.models import Game, Seat
from games.selectors import game_state, table_for
from games.services import bots, play
from games.web import pages
from tests.players import awaited, gathering_game, make_player, started_game, until_turn_of


def test_the_host_seats_a_bot_and_a_bad_level_or_a_guest_changes_nothing(db, client):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = gathering_game(ana, seats=3)
    client.force_login(ana)
    page = client.get(reverse("game", args=[game.pk]))
    assert "Seat a bot" in page.content.decode()
    client.post(reverse("game_seat_bot", args=[game.pk]), {"level": "strong"})
    response = client.post(reverse("game_seat_bot", args=[game.pk]), {"level": "grandmaster"}, follow=True)
    assert "There is no bot of that level for this game." in response.content.decode()
    gathering_game(ben, seats=2)
    [bot] = [seat.user for seat in Seat.objects.filter(game=game).exclude(user=ana)]
    assert f"{bot.profile.display_name} (strong bot)" in client.get(reverse("game", args=[game.pk])).content.decode()
    assert Seat.objects.filter(game=game).count() == 2


def test_a_practice_game_starts_in_one_click_and_a_player_hands_their_seat_over_and_back(db, client):
    ana = make_player("Ana")
    client.force_login(ana)
    assert "Play against bots" in client.get(reverse("game_create")).content.decode()
    response = client.post(
        reverse("game_practice"),
        {"practice-kind": "coup", "practice-seat_count": 3, "practice-level": "easy"},
        follow=True,
    )
    game = Game.objects.get(host=ana)
    assert game.status == Game.Status.ACTIVE and response.redirect_chain[-1][0] == reverse("game", args=[game.pk])
    assert "Play for me until I'm back" in response.content.decode()
    page = client.post(reverse("game_stand_in", args=[game.pk]), follow=True).content.decode()
    assert "A bot plays for you until you are back." in page
    game.refresh_from_db()
    if game.status == Game.Status.ACTIVE:
        assert "Ana asked for a bot: Ana&#x27;s bot (easy) plays for them." in page
        page = client.post(reverse("game_back", args=[game.pk]), follow=True).content.decode()
        assert "Welcome back" in page and "Ana is back." in page


def test_a_practice_game_with_a_level_that_does_not_exist_is_a_clear_error(db, client):
    ana = make_player("Ana")
    client.force_login(ana)
    response = client.post(
        reverse("game_practice"),
        {"practice-kind": "coup", "practice-seat_count": 3, "practice-level": "grandmaster"},
        follow=True,
    )
    assert "Select a valid choice" in response.content.decode()
    assert not Game.objects.filter(host=ana).exists()


def test_the_create_form_keeps_the_takeover_choice(db, client):
    ana = make_player("Ana")
    client.force_login(ana)
    client.post(
        reverse("game_create"),
        {"kind": "coup", "seat_count": 3, "time_control": "day", "first": "random", "takeover": "0"},
    )
    assert Game.objects.get(host=ana).options["takeover"] == 0


def _income(game, user, player):
    kind, version = awaited(game)[player]
    [income] = [o for o in KINDS[game.kind].rules.options(game_state(game), player) if o["act"] == "income"]
    play.decision_submit(game=game, user=user, command=income, version=version)


def test_takeovers_and_returns_are_told_in_the_history_the_replay_and_the_dashboard(db, client):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben)
    bots.stand_in_ask(game=game, user=ben)  # not Ben's turn: no bot answers yet
    game.refresh_from_db()
    asked_at = game.version
    client.force_login(ben)
    home = client.get(reverse("home")).content.decode()
    assert "A bot plays for you until you are back." in home
    _income(game, ana, "p1")
    bots.stand_in_end(game=game, user=ben)
    game.refresh_from_db()
    back_at = game.version
    assert "A bot plays for you" not in client.get(reverse("home")).content.decode()
    _income(game, ben, "p2")

    game.refresh_from_db()
    table = table_for(game, ana)
    lines = pages.with_seat_changes(game, table.history.lines)
    texts = [line.text for line in lines]
    asked = texts.index("Ben asked for a bot: Ben's bot (easy) plays for them.")
    back = texts.index("Ben is back.")
    assert all(line.seq < asked_at for line in lines[:asked]) and lines[asked + 1].seq >= asked_at
    assert all(line.seq < back_at for line in lines[:back] if line.kind != "seat.changed")
    assert texts[back + 1] == "Ben took Income." and asked < back

    client.force_login(ana)
    history = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Ben asked for a bot: Ben&#x27;s bot (easy) plays for them." in history and "Ben is back." in history
    play.game_resign(game=game, user=ana)
    replay = client.get(reverse("game_replay", args=[game.pk]), {"step": back + 1}).content.decode()
    assert 'aria-current="step">Ben is back.</strong>' in replay


def _expire(game) -> None:
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()
    assert play.deadline_expire(game=game, version=game.version)


def test_each_history_line_names_who_acted_then_the_player_or_their_bot(db):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    game = started_game(ana, ben, cai, takeover=1)
    _income(game, ana, "p1")
    _expire(game)  # Ben's turn passes: a bot takes his seat over
    until_turn_of(game, "p2")  # Cai, Ana and then Ben's bot play
    until_turn_of(game, "p1")
    _income(game, ana, "p1")
    until_turn_of(game, "p2")
    game.refresh_from_db()
    _income(game, ben, "p2")  # and Ben is back by answering himself

    game.refresh_from_db()
    told = table_for(game, cai).history
    texts = [line.text for line in pages.with_seat_changes(game, told.lines, told.start)]
    assert texts[0] == "The game began with Ana, Ben, Cai. Ana plays first."
    timeout = texts.index("Time ran out for Ben: Ben took Income.")
    assert texts[timeout - 1] == "Turn 2 — Ben."
    assert texts[timeout + 1] == "Ben missed their deadlines: Ben's bot (easy) plays for them."
    back = texts.index("Ben is back.")
    by_the_bot = texts[timeout + 2 : back]
    assert "Turn 5 — Ben's bot (easy)." in by_the_bot
    assert not any(text.startswith("Ben ") for text in by_the_bot), by_the_bot
    assert any(text.startswith("Ben's bot (easy) ") for text in by_the_bot), by_the_bot
    assert texts[back + 1] == "Ben took Income."
    assert not any("played by" in text for text in texts), texts
