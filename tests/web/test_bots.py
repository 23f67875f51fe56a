"""The bot pages: the host seats bots in the waiting room, a practice game starts in
one click, a player hands their seat to a bot and comes back; bad input is a clear
message and changes nothing."""

from django.urls import reverse

from games.models import Game, Seat
from tests.players import gathering_game, make_player, started_game


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
    assert "Bot (strong)" in client.get(reverse("game", args=[game.pk])).content.decode()
    assert Seat.objects.filter(game=game).count() == 2


def test_a_practice_game_starts_in_one_click_and_a_player_hands_their_seat_over_and_back(db, client):
    ana = make_player("Ana")
    client.force_login(ana)
    assert "Play against bots" in client.get(reverse("game_create")).content.decode()
    response = client.post(reverse("game_practice"), {"practice-kind": "coup", "practice-seat_count": 3, "practice-level": "easy"}, follow=True)
    game = Game.objects.get(host=ana)
    assert game.status == Game.Status.ACTIVE and response.redirect_chain[-1][0] == reverse("game", args=[game.pk])
    assert "Play for me until I'm back" in response.content.decode()
    page = client.post(reverse("game_stand_in", args=[game.pk]), follow=True).content.decode()
    assert "A bot plays for you until you are back." in page
    game.refresh_from_db()
    if game.status == Game.Status.ACTIVE:
        assert "Ana asked Bot (easy) to play for them." in page
        page = client.post(reverse("game_back", args=[game.pk]), follow=True).content.decode()
        assert "Welcome back" in page and "Ana is back." in page


def test_a_practice_game_with_a_level_that_does_not_exist_is_a_clear_error(db, client):
    ana = make_player("Ana")
    client.force_login(ana)
    response = client.post(reverse("game_practice"), {"practice-kind": "coup", "practice-seat_count": 3, "practice-level": "grandmaster"}, follow=True)
    assert "Select a valid choice" in response.content.decode()
    assert not Game.objects.filter(host=ana).exists()


def test_the_create_form_keeps_the_takeover_choice(db, client):
    ana = make_player("Ana")
    client.force_login(ana)
    client.post(reverse("game_create"), {"kind": "coup", "seat_count": 3, "time_control": "day", "first": "random", "takeover": "0"})
    assert Game.objects.get(host=ana).options["takeover"] == 0
