"""``python manage.py backup PATH``: a backup of the site's database, restored by
``manage.py restore`` (``coupsite/backups.py``; README, "Backups")."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS

from coupsite.backups import BackupError, database_backup


class Command(BaseCommand):
    help = "Write a backup of the site's database to PATH (pg_dump's custom format, or a copy of the SQLite file)."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="the backup file to write")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="the database alias (default: default)")

    def handle(self, *args, path: Path, database: str, **options):
        try:
            database_backup(database, path)
        except (BackupError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Backed up to {path} ({path.stat().st_size} bytes).")
