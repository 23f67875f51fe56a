"""Backups of the site's database, and their restore (``manage.py backup`` and
``manage.py restore``), for the database a Django alias names.

PostgreSQL: a backup is ``pg_dump --format=custom`` (compressed, consistent while the
site runs), restored by ``pg_restore`` in a single transaction, so a dump that fails
halfway changes nothing. It restores the tables without their owner or grants: the
role that runs the restore owns them, as after ``migrate``, and the site's role gets
its rights from ``grant_site_role``, as after every deploy. The embedded SQLite: a
backup is a copy of the file taken with SQLite's online backup API (consistent while
the site writes), restored by the same API.

A restore goes only into an empty database (a new one, ``createdb``), unless told to
replace what is there: restoring over a live site by mistake would lose everything
written since the backup. The file is checked before anything is touched.

What a restore cannot bring back is outside the database: the tasks the broker
(Redis) held when the backup was taken. The database has what they were for: the
outbox's waiting messages are handed over by the relay, every deadline passed is
applied by the minute's sweep, and reminders follow the clock (README, "Backups").
"""

import os
import sqlite3
import subprocess
from contextlib import closing
from pathlib import Path

from django.db import connections
from django.db.backends.postgresql.client import DatabaseClient


class BackupError(Exception):
    """A backup or restore refused or failed, with what to do about it, for the operator."""


def database_backup(alias: str, path: Path) -> None:
    """Write a backup of the database of ``alias`` to ``path`` (replaced only once
    the backup is complete: a failed one leaves no file behind, and an older
    backup of that name as it was)."""
    partial = path.with_name(path.name + ".partial")
    settings_dict = connections[alias].settings_dict
    try:
        if connections[alias].vendor == "postgresql":
            _run(["pg_dump", "--format=custom", f"--file={partial}", *_pg_target(settings_dict)], settings_dict)
        else:
            with closing(sqlite3.connect(settings_dict["NAME"])) as source, closing(sqlite3.connect(partial)) as copy:
                source.backup(copy)
        partial.replace(path)
    finally:
        partial.unlink(missing_ok=True)


def database_restore(alias: str, path: Path, *, replace: bool = False) -> None:
    """Restore the backup at ``path`` into the database of ``alias``, which must be
    empty unless ``replace``: then the tables the backup holds are replaced."""
    if not path.is_file():
        raise BackupError(f"There is no backup file at {path}.")
    connection = connections[alias]
    settings_dict = connection.settings_dict
    postgres = connection.vendor == "postgresql"
    _check_readable(path, postgres, settings_dict)
    tables = connection.introspection.table_names()
    if tables and not replace:
        raise BackupError(
            f"The database {settings_dict['NAME']} is not empty (it has {len(tables)} tables): nothing was "
            "restored. Restore into a new, empty database, or pass --replace to replace its tables with the backup's."
        )
    connection.close()  # the restored tables are read on a new connection
    if postgres:
        replacing = ["--clean", "--if-exists"] if replace else []
        target = _pg_target(settings_dict)
        _run(
            [
                "pg_restore",
                "--single-transaction",
                "--exit-on-error",
                "--no-owner",
                "--no-privileges",
                *replacing,
                *target[:-1],
                f"--dbname={target[-1]}",
                str(path),
            ],
            settings_dict,
        )
    else:
        with closing(sqlite3.connect(path)) as backup, closing(sqlite3.connect(settings_dict["NAME"])) as database:
            backup.backup(database)


def _check_readable(path: Path, postgres: bool, settings_dict) -> None:
    """Refuse, before anything is touched, a file that is not a backup of this kind of database."""
    if postgres:
        listed = subprocess.run(
            ["pg_restore", "--list", str(path)], capture_output=True, text=True, env=_pg_env(settings_dict)
        )
        if listed.returncode != 0:
            raise BackupError(f"{path} is not a PostgreSQL backup made by manage.py backup: {_first_line(listed)}")
        return
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as backup:
            (check,) = backup.execute("PRAGMA quick_check").fetchone()
            has_migrations = backup.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'django_migrations'"
            ).fetchone()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{path} is not a SQLite backup made by manage.py backup: {error}.") from None
    if check != "ok" or not has_migrations:
        raise BackupError(f"{path} is not a SQLite backup made by manage.py backup: {check}.")


def _pg_target(settings_dict) -> list[str]:
    """pg_dump's connection options for ``settings_dict``, the database's name last."""
    options = []
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings_dict.get(key):
            options.append(f"{flag}={settings_dict[key]}")
    return [*options, settings_dict["NAME"]]


def _pg_env(settings_dict) -> dict:
    """The environment of a PostgreSQL client for ``settings_dict``: the password and
    TLS options as Django's own ``dbshell`` passes them, never on the command line."""
    _args, env = DatabaseClient.settings_to_cmd_args_env(settings_dict, [])
    return {**os.environ, **(env or {})}


def _run(command: list[str], settings_dict) -> None:
    finished = subprocess.run(command, capture_output=True, text=True, env=_pg_env(settings_dict))
    if finished.returncode != 0:
        raise BackupError(f"{command[0]} failed, nothing was changed: {_first_line(finished)}")


def _first_line(finished: subprocess.CompletedProcess) -> str:
    lines = [line for line in (finished.stderr or finished.stdout).splitlines() if line.strip()]
    return lines[0] if lines else f"exit status {finished.returncode}"
