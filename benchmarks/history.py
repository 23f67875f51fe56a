"""What a game's history costs a page and an email: CPU time, side by side.

    DATABASE_URL=postgres://... python benchmarks/history.py [--rounds 20] [--migrate]

Inside one transaction that is rolled back at the end (nothing stays in the
database, no email leaves: they stay in memory), it builds two three-player Coup
games, one of about 20 events and one of about 1,000 (turns of a Foreign Aid
blocked by a Duke, ``tests.players.blocked_foreign_aid``), and renders each game's
page and live partial ``--rounds`` times as a seated player. Then, in a ten-player
game where the first player claims the Duke, it sends the nine decision emails that
claim calls for (``emails_for_update`` and ``send_decision``), each player's story
already told as during a game, and, for comparison, nine plain templated emails
(the "more time" email). It prints the median CPU time
(``time.process_time``) and the queries of each, and their ratios. The last line is JSON.
"""

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coupsite.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, reset_queries, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402
from django.urls import reverse  # noqa: E402

from games.mail import emails  # noqa: E402
from games.selectors import table_for  # noqa: E402
from games.services import play  # noqa: E402
from tests.players import awaited, blocked_foreign_aid, make_player, started_game  # noqa: E402


EMAIL_GAME_EVENTS = 200


class Rollback(Exception):
    pass


def measured(call, rounds: int) -> dict:
    """The median CPU milliseconds of ``call()`` and the queries it makes."""
    call()  # warm templates, translations and the history's cache
    times, counts = [], set()
    for _round in range(rounds):
        reset_queries()  # the log keeps 9,000 queries: past them a capture counts none
        with CaptureQueriesContext(connection) as queries:
            start = time.process_time()
            call()
            times.append((time.process_time() - start) * 1000)
        counts.add(len(queries))
    return {"cpu_ms": round(statistics.median(times), 2), "queries": sorted(counts)}


def page_costs(tag: str, rounds: int) -> dict:
    result = {}
    for label, events in (("short", 8), ("long", 990)):
        ana, ben, cai = (make_player(f"{name}{tag}{label}") for name in ("Ana", "Ben", "Cai"))
        game = blocked_foreign_aid(started_game(ana, ben, cai), events)
        client = Client()
        client.force_login(ana)
        page, live = reverse("game", args=[game.pk]), reverse("game_live", args=[game.pk])
        result[f"page_{label}"] = measured(lambda: client.get(page), rounds) | {"events": game.version}
        result[f"live_{label}"] = measured(lambda: client.get(live, {"since": "none"}), rounds)
    return result


def email_costs(tag: str, rounds: int) -> dict:
    """Each round, a new ten-player game of about 200 events whose players' stories
    are told and who were told of the last turn (as their pages and emails do during
    a game), then a Duke claim and the nine emails it calls for, beside nine plain ones."""
    times = {"decision_emails_9": [], "plain_emails_9": []}
    counts = {name: set() for name in times}
    for round_ in range(rounds + 1):
        users = [make_player(f"P{index}{tag}r{round_}") for index in range(10)]
        game = blocked_foreign_aid(started_game(*users), EMAIL_GAME_EVENTS)
        for user in users:
            table_for(game, user)
        before = game.version
        game.seats.update(notified_version=before)  # as if each had been told of the last turn
        [(player, (_kind, version))] = awaited(game).items()
        claimant = next(seat.user for seat in game.seats.all() if seat.player == player)
        play.decision_submit(game=game, user=claimant, command={"act": "tax"}, version=version)
        game.refresh_from_db()

        def decisions():
            found = emails.emails_for_update(game.pk, before, game.version)
            assert len(found.decisions) == 9, found
            for seat_id, decision_version in found.decisions:
                emails.send_decision(seat_id, decision_version)

        def plain():
            context = {**emails._game_context(game), "asker": "Ana", "deadline": game.deadline_at}
            for user in users[1:]:
                emails._send("extension", user.email, context, language="en", game=game, user=user)

        for name, call in (("decision_emails_9", decisions), ("plain_emails_9", plain)):
            reset_queries()
            with CaptureQueriesContext(connection) as queries:
                start = time.process_time()
                call()
                spent = (time.process_time() - start) * 1000
            if round_:  # the first round warms templates and translations
                times[name].append(spent)
                counts[name].add(len(queries))
    return {name: {"cpu_ms": round(statistics.median(times[name]), 2), "queries": sorted(counts[name])} for name in times}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--migrate", action="store_true", help="migrate the database first")
    args = parser.parse_args(argv)
    if args.migrate:
        call_command("migrate", verbosity=0)
    setup_test_environment()  # the test client's host is allowed; email stays in memory
    tag = str(int(time.time()))
    result = {}
    try:
        with transaction.atomic():
            result |= page_costs(tag, args.rounds)
            result |= email_costs(tag, args.rounds)
            raise Rollback
    except Rollback:
        pass
    for name, figures in result.items():
        print(f"{name:18} {figures['cpu_ms']:8.2f} ms CPU  queries {figures['queries']}")
    result["page_ratio"] = round(result["page_long"]["cpu_ms"] / result["page_short"]["cpu_ms"], 2)
    result["live_ratio"] = round(result["live_long"]["cpu_ms"] / result["live_short"]["cpu_ms"], 2)
    result["email_ratio"] = round(result["decision_emails_9"]["cpu_ms"] / result["plain_emails_9"]["cpu_ms"], 2)
    print(f"page 1,000 / 20 events: {result['page_ratio']}x; live partial: {result['live_ratio']}x; "
          f"9 decision emails / 9 plain: {result['email_ratio']}x")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
