"""``python manage.py outbox_relay [--looks-every SECONDS]``.

The outbox relay as a process of its own (``outbox.services.relay_forever``): it
hands each message to the broker as soon as the commit that wrote it wakes it, the
messages of a burst together, and looks anyway every ``--looks-every`` seconds (2).
Run one (or more: they never take the same message) beside a site whose
``OUTBOX_RELAY_PROCESS`` is set. It runs until stopped (SIGTERM or Ctrl-C).
"""

import signal

from django.core.management.base import BaseCommand

from outbox.services import RELAY_LOOKS_EVERY, relay_forever


class Command(BaseCommand):
    help = "Hand the outbox's messages to the broker as their commits wake it, until stopped."

    def add_arguments(self, parser):
        parser.add_argument(
            "--looks-every",
            type=float,
            default=RELAY_LOOKS_EVERY,
            help="seconds between two looks when no commit wakes it (default: %(default)s)",
        )

    def handle(self, *args, looks_every, **options):
        # SIGTERM stops it as Ctrl-C does (as a container's first process it would
        # otherwise be ignored until the container is killed). A run stopped halfway
        # is rolled back: its messages are handed over again by the next run, which
        # every task takes as it takes a redelivery.
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            relay_forever(looks_every=looks_every)
        except KeyboardInterrupt:
            pass
