"""A seat's result keeps apart what bots played: whether bots had seats of their
own (a practice game), set here for the games already finished, and the moves
a bot made for the player while they were away, 0 for those games until
``manage.py record_results --recompute`` reads their logs again."""

from django.db import migrations, models


def practice_games_marked(apps, schema_editor):
    SeatResult = apps.get_model("games", "SeatResult")
    Seat = apps.get_model("games", "Seat")
    with_bots = Seat.objects.filter(user__profile__bot_level__gt="").values("game_id")
    SeatResult.objects.filter(game_id__in=with_bots).update(with_bots=True)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0006_bots'),
        ('games', '0010_seat_result_counters'),
    ]

    operations = [
        migrations.AddField(
            model_name='seatresult',
            name='stand_in_moves',
            field=models.PositiveIntegerField(default=0, help_text='decisions a bot made for this player while they were away'),
        ),
        migrations.AddField(
            model_name='seatresult',
            name='with_bots',
            field=models.BooleanField(default=False, help_text='a bot had a seat of its own: a practice game'),
        ),
        migrations.RunPython(practice_games_marked, migrations.RunPython.noop),
    ]
