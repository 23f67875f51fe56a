"""``python manage.py bot_arena --game coup|kobayakawa --players N --games G
--seats strong,easy,easy,easy [--budget-ms B] [--seed S] [--variants v1,v2] [--jobs N]``.

Plays G games between bot levels, one level per seat, the levels rotated one
seat further each game so that each sits in each position equally often, on N
processes (the same games and winners for a given seed whatever N is). Prints a
line per level, then as its last line JSON: the wins of each level (a level in
several seats adds them up), its share of the games with that share's 95%
Wilson score interval, and the milliseconds of CPU time it took per decision, on
average and at the 50th, 90th and 99th percentiles and the most. A game that does
not end is left out of those figures and printed apart with its seed and seats.
Needs no database and no network.
"""

import json

from django.core.management.base import BaseCommand, CommandError

from games.bots import Budget
from games.bots.arena import play_match
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
        parser.add_argument("--jobs", type=int, default=1, help="processes playing games at once (default 1)")

    def handle(self, *args, game, players, games, seats, budget_ms, seed, variants, jobs, **options):
        levels = [level.strip() for level in seats.split(",") if level.strip()]
        if len(levels) != players:
            raise CommandError(f"--seats names {len(levels)} levels for {players} players: give one per seat.")
        if games < 1:
            raise CommandError("--games must be at least 1.")
        if budget_ms < 1:
            raise CommandError("--budget-ms must be at least 1.")
        if jobs < 1:
            raise CommandError("--jobs must be at least 1.")
        chosen = [v for v in variants.split(",") if v]
        try:
            result = play_match(game, levels, games, Budget(budget_ms / 1000), seed=seed, variants=chosen, jobs=jobs)
        except (ValueError, IllegalMove, ImportError) as error:
            # ValueError: an unknown level (UnknownBotLevel), or one that cannot play this game.
            raise CommandError(str(error)) from error
        for level, share in result["win_share"].items():
            low, high = result["interval_95"][level]
            times = result["decision_ms"][level]
            self.stdout.write(
                f"{level}: won {share:.3f} of {result['games']} games (95% Wilson interval {low:.3f}-{high:.3f}); "
                + ", ".join(f"{name} {ms:.1f}" for name, ms in times.items())
                + " ms a decision"
            )
        for stuck in result["unfinished"]:
            self.stdout.write(
                f"unfinished: the game of seed {stuck['seed']} with seats {','.join(stuck['seats'])} did not end after "
                f"{stuck['answers']} answers (games.bots.arena.play_seeded_game plays it again); it counts for no level"
            )
        self.stdout.write(json.dumps(result))
