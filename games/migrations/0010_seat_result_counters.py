"""A seat's result keeps what every game has in its columns, and its kind's own
counts in ``counters`` (JSON): Coup's five counters move there from their columns,
under the same names, and back again when the migration is reversed."""

from django.db import migrations, models
from django.db.models import F, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce, JSONObject

# Coup's counters, which had a column each.
COUNTERS = ("claims", "claims_challenged", "bluffs_caught", "challenges_made", "challenges_won")


def counters_to_json(apps, schema_editor):
    """Every Coup row gets all five, its zeros too (as results are recorded now);
    another kind's rows only ever held zeros there (no other kind counted them), so
    they keep none, unless some number says otherwise."""
    SeatResult = apps.get_model("games", "SeatResult")
    counted = Q(kind="coup")
    for name in COUNTERS:
        counted |= Q(**{f"{name}__gt": 0})
    SeatResult.objects.filter(counted).update(counters=JSONObject(**{name: F(name) for name in COUNTERS}))


def counters_to_columns(apps, schema_editor):
    SeatResult = apps.get_model("games", "SeatResult")
    SeatResult.objects.update(
        **{name: Coalesce(Cast(KT(f"counters__{name}"), models.PositiveIntegerField()), 0) for name in COUNTERS}
    )


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0009_fewer_indexes'),
    ]

    operations = [
        migrations.AddField(
            model_name='seatresult',
            name='counters',
            field=models.JSONField(blank=True, default=dict, help_text="the kind's own counts: {counter: number}"),
        ),
        migrations.RunPython(counters_to_json, counters_to_columns),
        migrations.RemoveField(
            model_name='seatresult',
            name='bluffs_caught',
        ),
        migrations.RemoveField(
            model_name='seatresult',
            name='challenges_made',
        ),
        migrations.RemoveField(
            model_name='seatresult',
            name='challenges_won',
        ),
        migrations.RemoveField(
            model_name='seatresult',
            name='claims',
        ),
        migrations.RemoveField(
            model_name='seatresult',
            name='claims_challenged',
        ),
        migrations.AlterField(
            model_name='game',
            name='options',
            field=models.JSONField(default=dict, help_text="variants, first (with first_user), takeover, rematch_of, and the kind's own choices (create_fields)"),
        ),
        migrations.AlterField(
            model_name='seatresult',
            name='place',
            field=models.PositiveSmallIntegerField(blank=True, help_text="1 = first; players tied share a place (the rules' standings)", null=True),
        ),
    ]
