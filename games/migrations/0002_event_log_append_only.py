"""The event log is append-only, enforced by the database itself."""

from django.db import migrations

POSTGRES_FORWARD = """
CREATE FUNCTION games_event_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'the game event log is append-only: % is not allowed', TG_OP;
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_event_append_only BEFORE UPDATE OR DELETE ON games_event
    FOR EACH ROW EXECUTE FUNCTION games_event_append_only();
"""
POSTGRES_BACKWARD = """
DROP TRIGGER games_event_append_only ON games_event;
DROP FUNCTION games_event_append_only();
"""
SQLITE_FORWARD = [
    "CREATE TRIGGER games_event_no_update BEFORE UPDATE ON games_event "
    "BEGIN SELECT RAISE(ABORT, 'the game event log is append-only: UPDATE is not allowed'); END;",
    "CREATE TRIGGER games_event_no_delete BEFORE DELETE ON games_event "
    "BEGIN SELECT RAISE(ABORT, 'the game event log is append-only: DELETE is not allowed'); END;",
]
SQLITE_BACKWARD = ["DROP TRIGGER games_event_no_update;", "DROP TRIGGER games_event_no_delete;"]


def install(apps, schema_editor):
    _run(schema_editor, POSTGRES_FORWARD, SQLITE_FORWARD)


def uninstall(apps, schema_editor):
    _run(schema_editor, POSTGRES_BACKWARD, SQLITE_BACKWARD)


def _run(schema_editor, postgres, sqlite):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(postgres, params=None)
    elif vendor == "sqlite":
        for statement in sqlite:
            schema_editor.execute(statement, params=None)
    else:
        raise NotImplementedError(f"no append-only trigger for {vendor}")


class Migration(migrations.Migration):
    dependencies = [("games", "0001_initial")]
    operations = [migrations.RunPython(install, uninstall)]
