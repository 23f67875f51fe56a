"""The Celery app: settings from Django (``CELERY_`` names), tasks autodiscovered.

celery -A coupsite worker --beat      # one process for small sites
celery -A coupsite worker / beat      # separately in production

The worker's consumer (``Consumer``, the setting ``CELERY_WORKER_CONSUMER``) is
Celery's own made to survive a broker outage of any length and to be back at work
within seconds of the broker's return (see README, "When Redis stops"):

- Celery 5.7 closes a lost connection after ``collect()`` has detached its
  transport from it. On Redis, a channel of that connection holding
  unacknowledged messages (a task running, reserved, or held for its ETA:
  ``task_acks_late``) then raises ``AttributeError`` from kombu's ``_connparams``
  wherever it next speaks to Redis: restoring them as the connection closes, or
  acknowledging a task that was running and ends after the reconnection. Celery
  does not expect it: "Unrecoverable error", the worker and its embedded beat
  stop, and nothing is sent again until someone restarts them. The consumer here
  lets that close fail (the broker is gone: a Redis that kept the messages hands
  them out again after ``visibility_timeout``) and attaches the transport to its
  connection again, so that a task running meanwhile is acknowledged when it ends.
- kombu backs off up to 30 s between two attempts to reconnect: after a long
  outage the worker came back up to 30 s after the broker. Here it tries every
  ``RECONNECT_EVERY`` seconds, for ever (``broker_connection_max_retries`` None).
- Each time it reconnects, it asks for an outbox relay at once (``RelayOnConnect``)
  rather than at beat's next run, up to 10 s later: the moves made during the
  outage wait in the outbox (``outbox/services.py``).

Beat (``Scheduler``, the setting ``CELERY_BEAT_SCHEDULER``) keeps running when it
fails to write its schedule file: Python 3.13's ``shelve`` is SQLite, which under
load answered "locking protocol", and Celery's beat process died of it, leaving the
worker without its relay, sweeps and reminders.
"""

import dbm
import logging
import os
from functools import partial

from celery import Celery, bootsteps
from celery.beat import PersistentScheduler
from celery.worker.consumer import Consumer as CeleryConsumer
from kombu.exceptions import OperationalError as BrokerError

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "coupsite.settings")

log = logging.getLogger(__name__)

# Seconds between two attempts of the worker to reach a broker it lost.
RECONNECT_EVERY = 1.0

app = Celery("coupsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class Consumer(CeleryConsumer):
    """Celery's consumer, reconnecting promptly and surviving a lost connection
    that held unacknowledged messages (see the module docstring)."""

    def on_connection_error_after_connected(self, exc):
        lost = self.connection
        transport = lost.transport
        try:
            super().on_connection_error_after_connected(exc)
        except AttributeError:
            # The close of the detached connection failed (the module docstring):
            # Celery already let go of it, and reconnects once this returns.
            log.warning("Closing the lost broker connection failed; the worker reconnects.", exc_info=True)
        # The channels of the lost connection speak to Redis through it (its address).
        transport.client = lost

    def ensure_connected(self, conn):
        conn.ensure_connection = partial(
            conn.ensure_connection, interval_start=RECONNECT_EVERY, interval_step=0, interval_max=RECONNECT_EVERY
        )
        return super().ensure_connected(conn)


class RelayOnConnect(bootsteps.StartStopStep):
    """Each time the worker has connected to the broker again after losing it, an
    outbox relay is queued (when this worker takes the relay's queue), which hands
    over what waited in the outbox while the broker was away."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, parent):
        relay = parent.app.tasks["outbox.tasks.relay"]
        consumed = {queue.name for queue in parent.task_consumer.queues}
        if parent.restart_count < 1 or parent.app.conf.task_default_queue not in consumed:
            return  # the first connection (beat's relay follows the start), or another worker's queue
        try:
            relay.apply_async(expires=10.0, retry=False)
        except BrokerError:
            log.warning("The broker refused the relay asked for on reconnecting; beat's next relay does it.")


app.steps["consumer"].add(RelayOnConnect)


class Scheduler(PersistentScheduler):
    """Celery's persistent scheduler, which survives a failed write of its file (see
    the module docstring): the schedule stays in memory, written at the next sync."""

    def sync(self):
        try:
            super().sync()
        except dbm.error:
            log.warning("Beat could not write its schedule file; it tries again at the next sync.", exc_info=True)
