"""Snapshots of games in play are dropped, to be rebuilt from their logs.

An open inheritance now remembers which Lawyer claims were proved against a
challenge (they are settled); a snapshot taken before that lacks the list, so a
proved claim could be challenged again. With no snapshot, the next read replays
the log, which records every proof, and the next move stores a new snapshot.
"""

from django.db import migrations


def drop_snapshots_of_games_in_play(apps, schema_editor):
    apps.get_model("games", "Game").objects.filter(status="active").update(snapshot=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0006_event_log_blocks_truncate")]

    operations = [migrations.RunPython(drop_snapshots_of_games_in_play, migrations.RunPython.noop)]
