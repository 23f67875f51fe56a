"""A seat's result keeps apart what bots played: whether bots had seats of their
own (a practice game), set here for the games already finished, and the moves
a bot made for the player while they were away, 0 for those games until
``manage.py record_results --recompute`` reads their logs again.

And the bots seated before bots had names get one each, as a bot seated now
does (``gathering.bot_take_seat``), so that their games' pages and replays tell
them apart too."""

from django.db import migrations, models

# ``accounts.models.BOT_NAMES`` as this migration was written.
BOT_NAMES = (
    "Peter",
    "Mary",
    "John",
    "Lucy",
    "Michael",
    "Helen",
    "George",
    "Clara",
    "Paul",
    "Teresa",
    "Martin",
    "Sophie",
)


def bots_named(apps, schema_editor):
    """Each unnamed bot account (each is seated at one game) takes the first name
    nobody at its table has."""
    Seat = apps.get_model("games", "Seat")
    Profile = apps.get_model("accounts", "Profile")
    unnamed = Seat.objects.filter(user__profile__bot_level__gt="", user__profile__display_name="")
    for game_id in unnamed.values_list("game_id", flat=True).distinct():
        seats = Seat.objects.filter(game_id=game_id).order_by("position")
        taken = {name.casefold() for name in seats.values_list("user__profile__display_name", flat=True) if name}
        for user_id in unnamed.filter(game_id=game_id).order_by("position").values_list("user_id", flat=True):
            name = next((name for name in BOT_NAMES if name.casefold() not in taken), BOT_NAMES[0])
            taken.add(name.casefold())
            Profile.objects.filter(user_id=user_id).update(display_name=name)


def practice_games_marked(apps, schema_editor):
    SeatResult = apps.get_model("games", "SeatResult")
    Seat = apps.get_model("games", "Seat")
    with_bots = Seat.objects.filter(user__profile__bot_level__gt="").values("game_id")
    SeatResult.objects.filter(game_id__in=with_bots).update(with_bots=True)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_bots"),
        ("games", "0011_seat_seen_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="seatresult",
            name="stand_in_moves",
            field=models.PositiveIntegerField(
                default=0, help_text="decisions a bot made for this player while they were away"
            ),
        ),
        migrations.AddField(
            model_name="seatresult",
            name="with_bots",
            field=models.BooleanField(default=False, help_text="a bot had a seat of its own: a practice game"),
        ),
        migrations.RunPython(practice_games_marked, migrations.RunPython.noop),
        migrations.RunPython(bots_named, migrations.RunPython.noop),
    ]
