"""``python manage.py verify_games``.

Replays every game's event log and reports each game whose cached snapshot differs
(or whose log cannot be replayed), marking it for attention in the admin. Exits
with status 1 when any game differs, so cron or a monitor can alert on it. Beat
runs the same check daily (``games.tasks.verify_games``).
"""

from django.core.management.base import BaseCommand, CommandError

from games.services.verification import games_verify


class Command(BaseCommand):
    help = "Replay every game's log and report each game whose snapshot differs."

    def handle(self, *args, **options):
        checked, mismatches = games_verify()
        for mismatch in mismatches:
            self.stdout.write(
                f"game {mismatch.game_id} ({mismatch.kind}, version {mismatch.version}): {mismatch.problem}"
            )
        if mismatches:
            raise CommandError(f"{len(mismatches)} of {checked} games do not match their logs.")
        self.stdout.write(f"All {checked} games match their logs.")
