"""The event log cannot be truncated either: a statement trigger joins the row
triggers of migration 0002 (TRUNCATE fires no row trigger). SQLite has no TRUNCATE.

A superuser can still empty the table for maintenance with
``SET LOCAL session_replication_role = replica`` (which the test suite's flush does,
tests/conftest.py); the site's own role may not truncate at all (``grant_site_role``).
"""

from django.db import migrations

FORWARD = """
CREATE TRIGGER games_event_no_truncate BEFORE TRUNCATE ON games_event
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_append_only();
"""
BACKWARD = "DROP TRIGGER games_event_no_truncate ON games_event;"


def install(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FORWARD, params=None)


def uninstall(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(BACKWARD, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0005_game_attention")]
    operations = [migrations.RunPython(install, uninstall)]
