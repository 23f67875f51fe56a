"""Emails per game: how many emails each person receives from a short practice game
(one person against bots) and from a short game of people playing on the site.

    DATABASE_URL=postgres://.../scratch python benchmarks/emails_per_game.py --migrate \\
        [--games 3] [--seats 3] [--think 1.5]

Each game is played end to end as on a running site: this process is the web
server, a real Celery worker (a process of its own, started here) runs the bots,
the deadlines and the emails, and the emails leave over SMTP to a catcher in this
process, which counts them. The people have the game's page open the whole game (a
page poll every few seconds, through the site's own view) and answer each decision
asked of them after thinking ``--think`` seconds, at random among its legal answers.

Leave REDIS_URL unset to measure the embedded default, where the web server and the
worker share no cache, and the broker is a folder; a Redis broker (CELERY_BROKER_URL)
makes a run faster and changes no email. The decision emails a present player's page holds back wait
``DECISION_EMAIL_DELAY`` seconds (set to a few here, so a run is short: keep it
longer than the thinking, as the site's three minutes are longer than a person's). Prints, per
game, the emails each person received by kind, then their means; the last line is
JSON. Point DATABASE_URL at a scratch database: the games stay there.
"""

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coupsite.settings")
os.environ.setdefault("DECISION_EMAIL_DELAY", "5")
os.environ["BOT_DELAY_SECONDS"] = "0"

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import setup_test_environment  # noqa: E402

from coupsite.celery import app  # noqa: E402
from games.kinds import KINDS  # noqa: E402
from games.models import Game  # noqa: E402
from games.selectors import game_state  # noqa: E402
from games.services import bots, gathering, play  # noqa: E402
from games.services.errors import ServiceError  # noqa: E402
from tests.mailcatcher import SMTPServer  # noqa: E402
from tests.players import make_player  # noqa: E402
from tests.worker import Workers  # noqa: E402

PAGE_POLL_SECONDS = 2.0  # how often a person's open page asks for news (the site's poll is 4 s)
GAME_TIMEOUT = 600.0

# The kind of an email, from the start of its subject (the subjects of every version
# of the service measured: a kind's subject may change, its start may not be known).
KINDS_BY_SUBJECT = [
    ("Reminder", "reminder"),
    ("Your move", "decision"),
    ("Started", "started"),
    ("Game over", "finished"),
    ("News: you are out", "eliminated"),
    ("News: a bot", "stand-in"),
    ("News:", "news"),
]


def email_kind(subject: str) -> str:
    for start, kind in KINDS_BY_SUBJECT:
        if subject.startswith(start):
            return kind
    return "other: " + subject


class Person:
    """A person at the table, with the game's page open in their browser."""

    def __init__(self, name: str, tag: str):
        self.user = make_player(f"{name}{tag}")
        self.address = self.user.email
        self.page = Client()
        self.page.force_login(self.user)
        self.polled_at = 0.0

    def poll(self, game: Game) -> None:
        """The open page asks for news, as its poll does every few seconds."""
        if time.monotonic() - self.polled_at >= PAGE_POLL_SECONDS:
            self.page.get(f"/games/{game.pk}/table", {"since": 0, "clock": ""})
            self.polled_at = time.monotonic()


def play_on_the_site(game: Game, people: list[Person], rng: random.Random, think: float) -> int:
    """Play ``game`` to its end: each person answers every decision asked of them,
    at random, ``think`` seconds after it was asked (those asked together think at
    once), with the page open; the bots answer in the worker. Returns how many
    decisions the people made."""
    rules = KINDS[game.kind].rules
    by_player = {game.seats.get(user=person.user).player: person for person in people}
    asked_at: dict[tuple[str, int], float] = {}
    made = 0
    started = time.monotonic()
    while True:
        if time.monotonic() - started > GAME_TIMEOUT:
            raise RuntimeError(f"game {game.pk} did not end in {GAME_TIMEOUT} s")
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return made
        for person in people:
            person.poll(game)
        state = game_state(game)
        now = time.monotonic()
        asked = [(player, version) for player, _decision, version in rules.awaiting(state) if player in by_player]
        ready = [key for key in asked if now - asked_at.setdefault(key, now) >= think]
        if not ready:
            time.sleep(0.05)  # thinking, or a bot is
            continue
        player, version = rng.choice(ready)
        command = rng.choice(rules.options(state, player))
        try:
            play.decision_submit(game=game, user=by_player[player].user, command=command, version=version)
            made += 1
        except ServiceError:
            pass  # a bot or another person moved first: look again


def received(mailbox, people: list[Person]) -> dict[str, Counter]:
    """The emails each person received so far, counted by kind."""
    return {
        person.address: Counter(email_kind(mail.subject) for mail in mailbox.to(person.address)) for person in people
    }


def settle(mailbox, wait: float) -> None:
    """Wait ``wait`` seconds, then until no email arrived for two seconds: the emails
    held back for a present player have had their moment."""
    time.sleep(wait)
    count = -1
    while count != len(mailbox):
        count = len(mailbox)
        time.sleep(2.0)


def practice_game(tag: str, seats: int, rng: random.Random, think: float) -> tuple[list[Person], int]:
    person = Person("Pia", tag)
    game = bots.practice_start(host=person.user, seat_count=seats, level="easy")
    return [person], play_on_the_site(game, [person], rng, think)


def game_of_people(tag: str, seats: int, rng: random.Random, think: float) -> tuple[list[Person], int]:
    people = [Person(name, tag) for name in ("Ana", "Ben", "Cai", "Dan", "Eva", "Fay")[:seats]]
    host = people[0].user
    game = gathering.game_create(
        host=host, variants=[], seat_count=seats, turn_seconds=24 * 3600, response_seconds=8 * 3600
    )
    for person in people[1:]:
        gathering.seat_join(game=game, user=person.user, join_token=game.join_token)
    for person in people:  # the waiting room is open when the host starts the game
        person.page.get(f"/games/{game.pk}/")
    game = gathering.game_start(game=game, by=host)
    return people, play_on_the_site(game, people, rng, think)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3, help="games of each sort")
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--think", type=float, default=1.5, help="seconds a person takes to answer")
    parser.add_argument("--migrate", action="store_true", help="migrate the database first")
    options = parser.parse_args()
    if options.migrate:
        call_command("migrate", verbosity=0)
    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    smtp = SMTPServer()
    mailbox = smtp.start()
    workers = Workers(smtp, Path(tempfile.mkdtemp(prefix="emails-per-game-")), app.conf.broker_url)
    workers.env["DECISION_EMAIL_DELAY"] = os.environ["DECISION_EMAIL_DELAY"]
    app.control.purge()
    workers.start(all=[settings.CELERY_TASK_DEFAULT_QUEUE, settings.DEADLINE_QUEUE])
    cache = settings.CACHES["default"]["BACKEND"].rsplit(".", 1)[-1]
    print(f"cache: {cache}; broker: {app.conf.broker_url.split('://')[0]}; seats: {options.seats}")
    rng = random.Random(options.seed)
    run = f"{os.getpid()}x{int(time.time())}"
    results = {}
    try:
        for sort, play_one in (("practice", practice_game), ("people", game_of_people)):
            per_person = []
            for number in range(options.games):
                people, decisions = play_one(f"{run}{sort[:2]}{number}", options.seats, rng, options.think)
                settle(mailbox, wait=settings.DECISION_EMAIL_DELAY + 1)
                for address, kinds in received(mailbox, people).items():
                    per_person.append(kinds)
                    print(
                        f"{sort} game {number + 1}: {address.split('@')[0]} made {decisions} decisions, "
                        f"received {sum(kinds.values())} emails: {dict(sorted(kinds.items()))}"
                    )
            total = Counter()
            for kinds in per_person:
                total.update(kinds)
            mean = {kind: round(count / len(per_person), 1) for kind, count in sorted(total.items())}
            results[sort] = {"emails_per_person": round(sum(total.values()) / len(per_person), 1), "by_kind": mean}
            print(f"{sort}: {results[sort]['emails_per_person']} emails per person per game; by kind {mean}")
    finally:
        workers.stop_all()
        smtp.stop()
    print(json.dumps({"cache": cache, "seats": options.seats, "games": options.games, **results}))


if __name__ == "__main__":
    main()
