"""Replies read through IMAP: how many a second, and how long from arrival to move.

    DATABASE_URL=postgres://.../scratch python benchmarks/imap.py --migrate [--replies 200] [--idle 50]

Against a throwaway Dovecot (tests/dovecot.py, Debian's dovecot-imapd; ``make bench``
installs it as ``make test`` does), on 127.0.0.1:

- **throughput**: ``--replies`` replies, each answering the first decision of a game of
  its own, are appended to the INBOX; then one pass of the reader
  (``read_mail --imap``'s) plays them all and moves each to the processed folder,
  timed from its first command to its last move;
- **latency under IDLE**: ``manage.py read_mail --imap --watch`` runs as a process of
  its own, idling; ``--idle`` replies are appended one at a time, each once the one
  before has been handled, and each is timed from the end of its APPEND (it is in the
  mailbox) to the reader's line saying it was played (printed after the move);
  beside it, the same time for a bare client idling on the INBOX to hear of a
  message appended (the server's own share: Dovecot tells of new mail about half a
  second after it arrives).

The site runs as with the outbox relay process (``OUTBOX_RELAY_PROCESS=1``): a reply's
move writes its emails and deadlines into the outbox, which nothing hands over here,
so the figures are the reader's own work. The games stay in the scratch database.
Prints each figure, then JSON as the last line.
"""

import argparse
import json
import logging
import os
import secrets
import statistics
import subprocess
import sys
import time
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coupsite.settings")
os.environ["OUTBOX_RELAY_PROCESS"] = "1"

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

from games.mail import imap  # noqa: E402
from games.mail.tokens import reply_address  # noqa: E402
from tests.dovecot import Dovecot  # noqa: E402
from tests.players import make_player, started_game  # noqa: E402


def replies(count: int) -> list[bytes]:
    """``count`` replies "income", each from the first player of a new three-player game."""
    tag = secrets.token_hex(4)
    host, *others = (make_player(f"{name}{tag}") for name in ("Ana", "Ben", "Cai"))
    made = []
    for _ in range(count):
        game = started_game(host, *others)
        message = EmailMessage()
        message["From"] = host.email
        message["To"] = reply_address(game.seats.get(user=host))
        message["Subject"] = f"Re: Coup #{game.pk}"
        message["Date"] = format_datetime(timezone.now())
        message["Message-ID"] = make_msgid(domain="example.com")
        message.set_content("income\n\nOn Friday, Coup by email wrote:\n> Your move\n")
        made.append(message.as_bytes())
    return made


def throughput(server: Dovecot, count: int) -> dict:
    server.append(*replies(count))
    played = []
    reader = imap.Reader(
        imap.parse_url(server.url),
        on_outcome=lambda uid, outcome: played.append(outcome.status == "played"),
        on_set_aside=lambda uid, why: played.append(False),
    )
    mailbox = imap.connect(reader.account)
    start = time.perf_counter()
    reader.read(mailbox)
    seconds = time.perf_counter() - start
    imap.close(mailbox)
    assert played.count(True) == count, f"{played.count(True)} of {count} replies played"
    return {"replies": count, "seconds": round(seconds, 2), "replies_per_second": round(count / seconds, 1)}


def idle_latency(server: Dovecot, count: int) -> dict:
    messages = replies(count)
    reader = subprocess.Popen(
        [sys.executable, "manage.py", "read_mail", "--imap", server.url, "--watch"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert reader.stdout is not None
    try:
        line = reader.stdout.readline()
        assert "IDLE" in line, f"the reader does not idle: {line!r}"
        time.sleep(0.5)  # into IDLE
        latencies = []
        with server.connect() as box:
            for raw in messages:
                box.append(raw, "INBOX")
                arrived = time.perf_counter()
                line = reader.stdout.readline()
                latencies.append((time.perf_counter() - arrived) * 1000)
                assert "played the answer" in line, line
                time.sleep(0.05)  # the reader is idling again, as between real replies
    finally:
        reader.terminate()
        reader.wait()
    return {"replies": count, **percentiles(latencies)}


def idle_notice(server: Dovecot, count: int) -> dict:
    """The time from the end of an APPEND to a bare client idling on the INBOX hearing of it."""
    latencies = []
    with server.connect() as box:
        box.folder.set("INBOX")
        for _ in range(count):
            box.idle.start()
            server.append(b"From: news@example.com\r\nTo: play@localhost\r\nSubject: Hi\r\n\r\nHello\r\n")
            arrived = time.perf_counter()
            box.idle.poll(timeout=10)
            latencies.append((time.perf_counter() - arrived) * 1000)
            box.idle.stop()
    return percentiles(latencies)


def percentiles(latencies: list[float]) -> dict:
    latencies = sorted(latencies)
    return {
        "median_ms": round(statistics.median(latencies), 1),
        "p95_ms": round(latencies[max(0, round(0.95 * len(latencies)) - 1)], 1),
        "max_ms": round(latencies[-1], 1),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=200, help="replies read in one pass (default: %(default)s)")
    parser.add_argument("--idle", type=int, default=50, help="replies timed under IDLE (default: %(default)s)")
    parser.add_argument("--migrate", action="store_true", help="migrate the database first")
    args = parser.parse_args(argv)
    if args.migrate:
        call_command("migrate", verbosity=0)
    logging.getLogger("games.mail.inbound").setLevel(logging.WARNING)  # a line per reply played
    result = {}
    with Dovecot() as server:
        result["pass"] = throughput(server, args.replies)
        print(
            f"one pass: {args.replies} replies played and moved in {result['pass']['seconds']} s, "
            f"{result['pass']['replies_per_second']} replies a second"
        )
    with Dovecot() as server:
        result["idle"] = idle_latency(server, args.idle)
        print(
            f"under IDLE: arrival to move of {args.idle} replies, median {result['idle']['median_ms']} ms, "
            f"p95 {result['idle']['p95_ms']} ms, max {result['idle']['max_ms']} ms"
        )
        result["server_notice"] = idle_notice(server, args.idle)
        print(
            f"of which the server's: a bare idling client hears of a message after a median "
            f"{result['server_notice']['median_ms']} ms, p95 {result['server_notice']['p95_ms']} ms"
        )
    print(json.dumps({"imap": result}))


if __name__ == "__main__":
    main()
