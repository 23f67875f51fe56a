"""``python manage.py scenario FILE.json [--view PLAYER] [--events]``.

Plays a scenario file through the rules engine and prints the result as JSON
(docs/scenarios.md). Exit status 2 with a one-line error when the file is malformed.
Needs no database and no network.
"""

import json
import sys

from django.core.management.base import BaseCommand

from games.engine.scenario import MalformedScenario, run


class Command(BaseCommand):
    help = "Play a rules scenario file and print the resulting state as JSON."
    requires_system_checks = []
    requires_migrations_checks = False

    def add_arguments(self, parser):
        parser.add_argument("file", help="the scenario file (JSON)")
        parser.add_argument("--view", metavar="PLAYER", help="show only what PLAYER may see")
        parser.add_argument("--events", action="store_true", help="also print the event log")

    def handle(self, *args, file, view, events, **options):
        try:
            with open(file, encoding="utf-8") as handle:
                data = json.load(handle)
            result = run(data, view=view, with_events=events)
        except (OSError, UnicodeDecodeError) as error:
            self._fail(f"cannot read {file}: {error.strerror if isinstance(error, OSError) else error}")
        except json.JSONDecodeError as error:
            self._fail(f"{file} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}")
        except RecursionError:  # JSON nested deeper than the parser goes: no scenario is
            self._fail(f"{file} is nested too deeply to be a scenario")
        except MalformedScenario as error:
            self._fail(f"{file}: {error}")
        self.stdout.write(json.dumps(result, indent=2, ensure_ascii=False))

    def _fail(self, message):
        self.stderr.write(f"error: {message}")
        sys.exit(2)
