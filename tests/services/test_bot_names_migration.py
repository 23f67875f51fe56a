"""Migration 0012 names the bots seated before bots had names, apart at each
table, and marks the results of games bots had seats at as practice games."""

from datetime import UTC, datetime

from django.conf import settings

BEFORE = [("games", "0010_seat_result_counters"), ("accounts", "0006_bots")]
AFTER = [("games", "0012_seat_result_stand_ins_and_bots")]


def test_old_bots_get_names_apart_at_their_table_and_their_games_count_as_practice(migrate):
    apps = migrate(BEFORE)
    User, Profile = apps.get_model(settings.AUTH_USER_MODEL), apps.get_model("accounts", "Profile")
    Game, Seat, SeatResult = (apps.get_model("games", name) for name in ("Game", "Seat", "SeatResult"))
    peter = User.objects.create(username="peter", email="peter@example.com")
    Profile.objects.create(user=peter, display_name="Peter")
    bots = [User.objects.create(username=f"bot-{index}") for index in range(3)]
    for bot in bots:
        Profile.objects.create(user=bot, bot_level="easy")
    game = Game.objects.create(host=peter, seat_count=4, status="finished", turn_seconds=60, response_seconds=60)
    for position, user in enumerate([peter, *bots]):
        seat = Seat.objects.create(game=game, user=user, position=position)
        SeatResult.objects.create(
            seat=seat, game=game, user=user, kind="coup", players=4, finished_at=datetime(2026, 5, 1, tzinfo=UTC)
        )

    apps = migrate(AFTER)
    Profile, SeatResult = apps.get_model("accounts", "Profile"), apps.get_model("games", "SeatResult")
    names = [Profile.objects.get(user_id=bot.pk).display_name for bot in bots]
    assert names == ["Mary", "John", "Lucy"]  # the first names free at the table: Peter's is his
    assert SeatResult.objects.filter(game_id=game.pk, with_bots=True).count() == 4
