"""``python manage.py restore PATH [--replace]``: a backup made by ``manage.py
backup`` restored into the site's database, which must be empty unless
``--replace`` is given (``coupsite/backups.py``; README, "Backups")."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS

from coupsite.backups import BackupError, database_restore


class Command(BaseCommand):
    help = "Restore a backup made by manage.py backup into the site's database, which must be empty."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path, help="the backup file to restore")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="the database alias (default: default)")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="restore into a database that is not empty, replacing the tables the backup holds",
        )

    def handle(self, *args, path: Path, database: str, replace: bool, **options):
        try:
            database_restore(database, path, replace=replace)
        except (BackupError, OSError) as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"Restored {path}. Run verify_games to check every game's log; on PostgreSQL, run grant_site_role "
            "for the site's role, as after a deploy."
        )
