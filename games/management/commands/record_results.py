"""``python manage.py record_results [--recompute]``.

Stores the per-seat results (``games/services/results.py``) of finished games that have
none: games that ended before results were recorded. Safe to run again; with
``--recompute`` every finished game's results are worked out afresh from its log.
"""

from django.core.management.base import BaseCommand

from games.services.results import results_backfill


class Command(BaseCommand):
    help = "Record the per-seat results of finished games that have none."

    def add_arguments(self, parser):
        parser.add_argument("--recompute", action="store_true", help="recompute every finished game's results")

    def handle(self, *args, recompute, **options):
        count = results_backfill(recompute=recompute)
        self.stdout.write(f"Recorded the results of {count} finished game(s).")
