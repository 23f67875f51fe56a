"""``python manage.py bot_arena --game coup|kobayakawa --players N --games G
--seats strong,easy,easy,easy [--budget-ms B] [--seed S] [--variants v1,v2]``.

Plays G games between bot levels, one level per seat, the levels rotated one
seat further each game so that each sits in each position equally often. Prints
as its last line JSON: the wins of each level (a level
in several seats adds them up), its share of the games, and the milliseconds of
CPU time it took per decision. Needs no database and no network.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from games.bots import Budget
from games.bots.arena import UnfinishedGame, play_match
from games.engine import IllegalMove
from games.kinds import KIND_NAMES


class Command(BaseCommand):
    help = "Play games between bot levels and print who won."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, choices=KIND_NAMES)
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--games", type=int, required=True)
        parser.add_argument("--seats", required=True, help="one bot level per seat, comma-separated")
        parser.add_argument("--budget-ms", type=int, default=1000, help="CPU time per strong decision (default 1000)")
        parser.add_argument("--seed", type=int, default=None)
        parser.add_argument("--variants", default="", help="comma-separated variant ids (default: none)")

    def handle(self, *args, game, players, games, seats, budget_ms, seed, variants, **options):
        levels = [level.strip() for level in seats.split(",") if level.strip()]
        if len(levels) != players:
            raise CommandError(f"--seats names {len(levels)} levels for {players} players: give one per seat.")
        if games < 1:
            raise CommandError("--games must be at least 1.")
        if budget_ms < 1:
            raise CommandError("--budget-ms must be at least 1.")
        chosen = [v for v in variants.split(",") if v]
        try:
            result = play_match(game, levels, games, Budget(budget_ms / 1000), seed=seed, variants=chosen)
        except (ValueError, IllegalMove, ImportError, UnfinishedGame) as error:
            # ValueError: an unknown level (UnknownBotLevel), or one that cannot play this game.
            raise CommandError(str(error)) from error
        self.stdout.write(json.dumps(result))
