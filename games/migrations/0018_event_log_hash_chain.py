"""Each event row stores its link in its game's hash chain (``games.chain``), and each
game the hash of its last event; the rows already written get theirs here.

Filling the new column updates the log, which its triggers refuse (migrations 0002
and 0006): they are set aside for this migration alone, in its transaction, by the
role that owns the table (the one that runs migrations), and are back when it commits.

On SQLite, adding a column rebuilds the table, which drops its triggers (as the
rebuilds of earlier migrations did): both of migration 0002's are created again.
"""

from django.db import migrations, models

from games.chain import event_hash

POSTGRES_PAUSE = "ALTER TABLE games_event DISABLE TRIGGER games_event_append_only"
POSTGRES_RESUME = "ALTER TABLE games_event ENABLE TRIGGER games_event_append_only"
SQLITE_PAUSE = ["DROP TRIGGER IF EXISTS games_event_no_update"]
SQLITE_RESUME = [
    "CREATE TRIGGER IF NOT EXISTS games_event_no_update BEFORE UPDATE ON games_event "
    "BEGIN SELECT RAISE(ABORT, 'the game event log is append-only: UPDATE is not allowed'); END;",
    "CREATE TRIGGER IF NOT EXISTS games_event_no_delete BEFORE DELETE ON games_event "
    "BEGIN SELECT RAISE(ABORT, 'the game event log is append-only: DELETE is not allowed'); END;",
]


def chain_existing_logs(apps, schema_editor):
    Event = apps.get_model("games", "Event")
    Game = apps.get_model("games", "Game")
    _run(schema_editor, [POSTGRES_PAUSE], SQLITE_PAUSE)
    for game_id in Game.objects.filter(events__isnull=False).distinct().order_by("pk").values_list("pk", flat=True):
        head = ""
        rows = list(Event.objects.filter(game_id=game_id).order_by("seq").only("pk", "seq", "type", "payload"))
        for row in rows:
            head = row.hash = event_hash(head, game_id=game_id, seq=row.seq, type=row.type, payload=row.payload)
        Event.objects.bulk_update(rows, ["hash"], batch_size=500)
        Game.objects.filter(pk=game_id).update(log_hash=head)
    _run(schema_editor, [POSTGRES_RESUME], SQLITE_RESUME)


def _run(schema_editor, postgres: list, sqlite: list) -> None:
    for statement in postgres if schema_editor.connection.vendor == "postgresql" else sqlite:
        schema_editor.execute(statement, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0017_spectators_and_moderation")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="log_hash",
            field=models.CharField(blank=True, default="", editable=False, max_length=64),
        ),
        migrations.AddField(
            model_name="event",
            name="hash",
            field=models.CharField(default="", editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.RunPython(chain_existing_logs, migrations.RunPython.noop),
    ]
