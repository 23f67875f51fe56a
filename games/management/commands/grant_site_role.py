"""``python manage.py grant_site_role ROLE [--login]`` (PostgreSQL).

Run by the role that owns the tables, right after every ``migrate`` (docker
compose's ``migrate`` service does both). ROLE is the role the web server and the
Celery workers connect as: it may read and write every table of the site, except
the game event log (``games_event``), which it may only read and append to. As it
owns nothing, it can neither alter the log nor drop the triggers that guard it.
Safe to run again; tables added by later migrations are covered by the next run.

``--login`` first makes ROLE a login role whose password is the environment
variable ``SITE_DB_PASSWORD``, creating it when missing (this needs CREATEROLE).
"""

import os

from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction
from psycopg import sql

from games.models import Event

DML = "SELECT, INSERT, UPDATE, DELETE"
APPEND_ONLY = "SELECT, INSERT"


class Command(BaseCommand):
    help = "Let the site's database role use every table, and only read and append to the event log."

    def add_arguments(self, parser):
        parser.add_argument("role", help="the PostgreSQL role the web server and workers connect as")
        parser.add_argument(
            "--login",
            action="store_true",
            help="make ROLE a login role with the password in SITE_DB_PASSWORD, creating it when missing",
        )

    def handle(self, *args, role, login, **options):
        if connection.vendor != "postgresql":
            raise CommandError("Database roles need PostgreSQL.")
        quote = connection.ops.quote_name
        log = Event._meta.db_table
        tables = [table for table in connection.introspection.table_names() if table != log]
        with transaction.atomic(), connection.cursor() as cursor:
            if login:
                self._login(cursor, role)
            cursor.execute("SELECT current_schema()")
            (schema,) = cursor.fetchone()
            cursor.execute(f"GRANT USAGE ON SCHEMA {quote(schema)} TO {quote(role)}")
            cursor.execute(f"GRANT {DML} ON {', '.join(map(quote, tables))} TO {quote(role)}")
            cursor.execute(f"REVOKE ALL ON {quote(log)} FROM {quote(role)}")
            cursor.execute(f"GRANT {APPEND_ONLY} ON {quote(log)} TO {quote(role)}")
            cursor.execute(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {quote(schema)} TO {quote(role)}")
        self.stdout.write(f"{role} may use {len(tables)} tables, and only read and append to {log}.")

    def _login(self, cursor, role: str) -> None:
        password = os.environ.get("SITE_DB_PASSWORD", "")
        if not password:
            raise CommandError("--login needs the role's password in SITE_DB_PASSWORD.")
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
        verb = "ALTER" if cursor.fetchone() else "CREATE"
        # Neither statement takes parameters: the password is quoted as a literal.
        statement = sql.SQL("{} ROLE {} LOGIN PASSWORD {}").format(
            sql.SQL(verb), sql.Identifier(role), sql.Literal(password)
        )
        cursor.execute(statement.as_string(cursor.connection))
