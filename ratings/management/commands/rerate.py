"""``python manage.py rerate [--kind KIND]``.

Recomputes the ratings of one game kind (every kind without ``--kind``) from the
stored results of the games rated so far, in the order they were rated
(``ratings/services.py``): after results were recorded afresh (``record_results
--recompute``), or to check the live numbers. Each kind is one transaction, so an
interrupted run changes nothing and a second run gives the same numbers.
"""

from django.core.management.base import BaseCommand

from games.kinds import KINDS
from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = "Recompute the ratings from the stored results of the rated games."

    def add_arguments(self, parser):
        parser.add_argument("--kind", choices=sorted(KINDS), help="only this game (default: every game)")

    def handle(self, *args, kind, **options):
        for name in [kind] if kind else sorted(KINDS):
            count = ratings_recompute(kind=name)
            self.stdout.write(f"{name}: recomputed the ratings of {count} rated game(s).")
