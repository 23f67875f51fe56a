"""Every commit that writes outbox messages wakes the relay process (PostgreSQL's
NOTIFY, sent at the commit, once per transaction whatever it wrote): a trigger,
so that the writers spend no statement on it. SQLite has no NOTIFY; nothing there."""

from django.db import migrations

from outbox.services import RELAY_CHANNEL

CREATE = [
    f"""CREATE FUNCTION outbox_message_written() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        PERFORM pg_notify('{RELAY_CHANNEL}', '');
        RETURN NULL;
    END $$""",
    """CREATE TRIGGER outbox_message_written AFTER INSERT ON outbox_message
    FOR EACH STATEMENT EXECUTE FUNCTION outbox_message_written()""",
]
DROP = [
    "DROP TRIGGER outbox_message_written ON outbox_message",
    "DROP FUNCTION outbox_message_written()",
]


def run_on_postgresql(statements):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            for statement in statements:
                schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):

    dependencies = [
        ("outbox", "0002_handing_lease"),
    ]

    operations = [
        migrations.RunPython(run_on_postgresql(CREATE), run_on_postgresql(DROP)),
    ]
