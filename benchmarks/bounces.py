"""Reading delivery reports: how many a second the site records, and ignores.

    DATABASE_URL=postgres://... python benchmarks/bounces.py [--reports 2000] [--migrate]

Inside one transaction that is rolled back at the end (nothing stays in the
database), records ``--reports`` sent emails with their VERP addresses (what the
SMTP mailer adds to each email), then reads a Postfix delivery report for each
through ``games.mail.inbound.receive``, the door every message comes in by (half
of them hard bounces, half delays), then as many reports to forged bounce addresses
(a flood). Prints each figure, and JSON as its last line. Point DATABASE_URL at a
migrated scratch database (``--migrate`` migrates it first).
"""

import argparse
import email
import email.policy
import json
import logging
import os
import sys
import time
from email.utils import make_msgid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coupsite.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from accounts.bounces import sent_email_recorded  # noqa: E402
from games.mail.inbound import receive  # noqa: E402
from games.mail.tokens import bounce_address  # noqa: E402

SAMPLES = Path(__file__).resolve().parent.parent / "tests" / "mail" / "bounces"


class Rollback(Exception):
    pass


def report(name: str, to: str):
    raw = (SAMPLES / name).read_bytes().replace(b"BOUNCE_ADDRESS", to.encode())
    message = email.message_from_bytes(raw, policy=email.policy.default)
    del message["Message-ID"]
    message["Message-ID"] = make_msgid()
    return message


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reports", type=int, default=2000)
    parser.add_argument("--migrate", action="store_true")
    options = parser.parse_args()
    logging.getLogger("games.mail").setLevel(logging.WARNING)  # a line per report would be timed too
    if options.migrate:
        call_command("migrate", verbosity=0)
    figures = {}
    try:
        with transaction.atomic():
            started = time.perf_counter()
            addresses = [bounce_address(sent_email_recorded(f"p{n}@example.com")) for n in range(options.reports)]
            figures["verp_addresses_per_second"] = round(options.reports / (time.perf_counter() - started))
            names = ("postfix-user-unknown.eml", "postfix-delayed.eml")
            messages = [report(names[n % 2], address) for n, address in enumerate(addresses)]
            started = time.perf_counter()
            outcomes = [receive(message) for message in messages]
            figures["reports_recorded_per_second"] = round(options.reports / (time.perf_counter() - started))
            assert all(outcome.status == "recorded" for outcome in outcomes), set(map(str, outcomes))
            forged = [report(names[0], address.replace(".", ".f", 1)) for address in addresses]
            started = time.perf_counter()
            outcomes = [receive(message) for message in forged]
            figures["forged_reports_ignored_per_second"] = round(options.reports / (time.perf_counter() - started))
            assert all(outcome.reason == "forged-bounce-address" for outcome in outcomes)
            raise Rollback
    except Rollback:
        pass
    for name, value in figures.items():
        print(f"{name}: {value}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
