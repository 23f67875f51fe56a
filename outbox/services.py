"""The transactional outbox: every Celery task a change calls for is written in the
change's own transaction, then handed to the broker.

A task queued with ``transaction.on_commit(task.delay)`` is lost when the broker
cannot be reached at that moment, and the error reaches the player whose move was
already saved. Here the call is a row (``outbox.Message``) that commits or rolls
back with the move. Right after the commit one attempt is made to hand it over
(the usual, prompt path); whatever the broker refused is handed over by ``relay``,
which beat runs every few seconds (``outbox.tasks.relay``), until it is taken.

A message without a key is written leased to its writer (``handing_until``, a
minute ahead): the relay leaves it alone meanwhile, so the writer hands it over
after the commit without locking it first, and deletes it in one statement once
the broker took it. A refusal ends the lease at once; a writer that died between
its commit and the hand-over leaves it to the relay when the lease runs out.

Every other message is claimed in one short transaction that hands it over:
locked (``SKIP LOCKED``; on SQLite every transaction takes the write lock as it
begins), handed to the broker, and those it took deleted or marked, so two
publishers never both publish one; one the broker refuses stays as it was, with
its error.

A message may carry a ``key``: while a message with that key waits, or its task
has not started yet, sending another with the same key does nothing. The task
calls ``release(key)`` first thing, before reading what it acts on, so a change
made after that queues a new message and none is missed (repeated toggles of one
player's standing answers become one task).

One message can carry work for many objects: ``games.tasks.games_advanced`` takes
a list of ``(game, before, after)`` updates, so a change that advances a chunk of
games in one transaction (a bulk deadline sweep) writes one message for all of them.
A task that says so (``merges_calls``: its one argument a list, its calls joined
into one list) gets the waiting messages of a relay run as one call.

A message due more than ``HELD_BEYOND`` ahead (an email waiting for its reader's
morning) stays here until it is nearly due: nobody hands it over before, and a
Redis broker never holds it past its visibility timeout, which would run it twice.

A deployment may run the relay as a process of its own (``relay_forever``,
``manage.py outbox_relay``) and set ``OUTBOX_RELAY_PROCESS``: the writers then
hand over nothing, and each commit that writes a message wakes the relay
(PostgreSQL's NOTIFY, from a trigger on the table), which hands over what a burst
of commits wrote in one run, the calls of a merging task as one. A move then
spends neither a broker round trip nor a delete, and the players' emails of many
moves leave in one task. Without the process, beat's runs are the relay, every
few seconds.
"""

import logging
import time
from datetime import timedelta
from functools import partial

from celery import current_app
from django.conf import settings
from django.db import IntegrityError, InterfaceError, OperationalError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from coupsite.rows import rows_insert
from outbox.models import Message

log = logging.getLogger(__name__)

CHUNK = 200  # messages handed over per transaction by the relay
# After the broker refused a message, this process leaves hand-overs to the relay for
# a while, so clicks made during an outage do not each wait for a refused connection.
PAUSE_AFTER_REFUSAL = 10.0
# A keyed message whose task has not released its key this long after the broker took
# it was lost (e.g. a broker restarted without persistence): it is handed over again.
KEY_HELD_AT_MOST = timedelta(hours=1)
# How long the writer of a message without a key has to hand it over after its
# commit before the relay does: far more than a hand-over takes (one attempt, no
# retry; a web worker is stopped after 30 s), far less than a player would notice.
HANDING_LEASE = timedelta(minutes=1)
# The relay process: the PostgreSQL channel a commit that writes a message notifies
# (outbox/migrations/0003_relay_notified.py); how long it waits after a wake so
# that the commits of a burst are handed over together, in one run whose cost the
# burst's moves share (nobody notices a fifth of a second on an email); and how
# long it waits without one before it looks anyway (a wake missed while it was
# busy, or SQLite, which has no NOTIFY).
RELAY_CHANNEL = "outbox_message"
RELAY_GATHERS = 0.2
RELAY_LOOKS_EVERY = 2.0

# A message due further ahead than this (an email held for its reader's morning)
# waits here, not in the broker, until it is nearly due: a Redis broker hands a task
# held past its visibility timeout (an hour) to another worker, which would run it
# twice. Half that leaves room; every deadline and reminder task is queued at most
# this far ahead (``games.services.clock.PROMPT_EXPIRY_WITHIN``), and goes at once.
HELD_BEYOND = timedelta(minutes=30)

_paused_until = 0.0


def send(signature, *, eta=None, key: str | None = None) -> None:
    """Queue ``signature`` (``task.s(...)``; JSON arguments) with the current
    transaction: it reaches the broker only if the transaction commits, and then
    surely. ``eta``: run no earlier than this. ``key``: see the module docstring."""
    message = Message(task=signature.task, args=list(signature.args), kwargs=dict(signature.kwargs), eta=eta, key=key)
    # With a relay process, the commit wakes it (see the module docstring); a message
    # due later than ``HELD_BEYOND`` is the relay's once it is nearly due.
    prompt = not settings.OUTBOX_RELAY_PROCESS and (eta is None or eta <= timezone.now() + HELD_BEYOND)
    if key is None and prompt and time.monotonic() >= _paused_until and _task_known(message.task):
        message.handing_until = timezone.now() + HANDING_LEASE
    if _written(message) and prompt:
        transaction.on_commit(partial(_publish_after_commit, message))


def _written(message: Message) -> bool:
    """Save ``message``; False, saving nothing, when a message with its key waits."""
    if message.key is None:
        rows_insert([message], returning_pk=True)
        return True
    try:
        with transaction.atomic():  # a duplicate key undoes only this insert
            message.save()
    except IntegrityError:
        return False  # the same work is already queued and has not started
    return True


def release(key: str) -> None:
    """A keyed task has started: the next message with ``key`` is queued again."""
    Message.objects.filter(key=key).delete()


def relay() -> int:
    """Hand every waiting message to the broker, oldest first, until it refuses one
    (the rest wait for the next run), but those not due within ``HELD_BEYOND``.
    Returns how many were handed over."""
    now = timezone.now()
    waiting = (
        Message.objects.filter(Q(published_at=None) | Q(key__isnull=False, published_at__lt=now - KEY_HELD_AT_MOST))
        .exclude(handing_until__gt=now)
        .exclude(eta__gt=now + HELD_BEYOND)
    )
    handed = 0
    while True:
        done, refused = _publish(waiting)
        handed += done
        if refused or done < CHUNK:
            return handed


def relay_forever(*, looks_every: float = RELAY_LOOKS_EVERY) -> None:
    """The relay as a process of its own (``manage.py outbox_relay``; see the module
    docstring): listens, hands over what waits, waits for a commit that writes a
    message (or ``looks_every`` seconds), gathers the burst, and again. A lost
    database connection is opened again, and listened on."""
    listening_on = None
    while True:
        try:
            if connection.vendor == "postgresql":
                connection.ensure_connection()
                if listening_on is not connection.connection:
                    # Before the first run: a commit made after it wakes the next.
                    with connection.wrap_database_errors:
                        connection.connection.execute(f"LISTEN {RELAY_CHANNEL}")
                    listening_on = connection.connection
                    log.info(
                        "The outbox relay listens for commits (PostgreSQL channel %s, backend %s).",
                        RELAY_CHANNEL,
                        listening_on.info.backend_pid,
                    )
            relay()
            paused_for = _paused_until - time.monotonic()
            if paused_for > 0:  # the broker refused: no attempt per commit meanwhile
                time.sleep(paused_for)
            _wait_for_messages(listening_on, looks_every)
        except (OperationalError, InterfaceError):
            log.exception("The outbox relay lost the database; it connects again.")
            connection.close()
            time.sleep(RELAY_LOOKS_EVERY)


def _wait_for_messages(listening_on, looks_every: float) -> None:
    """Until a commit wrote a message (or ``looks_every`` passed), and then
    ``RELAY_GATHERS`` more, so that the commits of a burst are handed over in one
    run; their wakes are spent with it. Without NOTIFY (SQLite), only the wait."""
    if listening_on is None:
        time.sleep(looks_every)
        return
    with connection.wrap_database_errors:  # as Django's own, for relay_forever
        for _wake in listening_on.notifies(timeout=looks_every, stop_after=1):
            pass
        time.sleep(RELAY_GATHERS)
        for _wake in listening_on.notifies(timeout=0):
            pass


def _publish_after_commit(message: Message) -> None:
    """The prompt attempt right after the commit, with the ``message`` as written;
    never raises for a broker outage. A message without a key and without a lease
    (written while this process left hand-overs to the relay) is the relay's."""
    if message.handing_until is not None:
        _publish_leased(message)
    elif message.key is not None and time.monotonic() >= _paused_until:
        _publish(Message.objects.filter(pk=message.pk, published_at=None))


def _publish_leased(message: Message) -> None:
    """Hand over a message its writer holds the lease of (see the module
    docstring): deleted once the broker took it; refused, its lease ends and the
    relay takes it from there."""
    try:
        _hand_over(message)
    except BrokerError as error:
        _refused([message], error, handing_until=None)
        return
    # One statement: QuerySet.delete() wraps even a single row's delete in a
    # transaction of its own, two more round trips to the database on every move.
    with connection.cursor() as cursor:
        cursor.execute(f"DELETE FROM {connection.ops.quote_name(Message._meta.db_table)} WHERE id = %s", [message.pk])


def _publish(waiting) -> tuple[int, bool]:
    """Hand over up to ``CHUNK`` of the ``waiting`` messages that no other
    publisher holds, oldest first, until the broker refuses one. Returns (handed
    over, whether the broker refused one)."""
    handed, refused = [], False
    with transaction.atomic():
        for call in _calls(waiting.select_for_update(skip_locked=True).order_by("pk")[:CHUNK]):
            if not _task_known(call[0].task):  # renamed or removed since it was written
                _record_failure(call, "no such task")
                log.error("Outbox message %s names no known task (%s); it waits.", call[0].pk, call[0].task)
                continue
            try:
                _hand_over(_joined(call))
            except BrokerError as error:
                _refused(call, error)
                refused = True
                break
            handed += call
        _claim(handed)
    return len(handed), refused


def _calls(messages) -> list[list[Message]]:
    """The ``messages`` as the calls they make, in order: each its own, but those
    of a task that merges its calls (see the module docstring) one call, made
    where the first of them was."""
    calls: list[list[Message]] = []
    merged: dict[str, list[Message]] = {}
    for message in messages:
        if not _merges(message):
            calls.append([message])
        elif message.task in merged:
            merged[message.task].append(message)
        else:
            merged[message.task] = [message]
            calls.append(merged[message.task])
    return calls


def _merges(message: Message) -> bool:
    return (
        message.key is None
        and message.eta is None
        and not message.kwargs
        and len(message.args) == 1
        and _task_known(message.task)
        and getattr(current_app.tasks[message.task], "merges_calls", False)
    )


def _joined(call: list[Message]) -> Message:
    """The one message a ``call`` of merged messages is handed over as (not saved)."""
    if len(call) == 1:
        return call[0]
    return Message(task=call[0].task, args=[[item for message in call for item in message.args[0]]])


def _task_known(name: str) -> bool:
    """Whether ``name`` is a registered task. Celery imports the apps' task modules
    only when a worker starts; a web process imports them the first time it meets
    a name it does not know yet."""
    if name not in current_app.tasks:
        current_app.loader.import_default_modules()
    return name in current_app.tasks


def _refused(messages: list[Message], error: Exception, **changes) -> None:
    """The broker refused the call of ``messages``: its error is recorded on each
    (with ``changes`` to their rows), and this process leaves hand-overs to the
    relay for a while (a relay process waits as long before it tries again)."""
    global _paused_until
    _paused_until = time.monotonic() + PAUSE_AFTER_REFUSAL
    _record_failure(messages, str(error), **changes)
    log.warning(
        "The broker refused %s outbox message(s) of %s, the first %s; the relay will retry.",
        len(messages),
        messages[0].task,
        messages[0].pk,
    )


def _record_failure(messages: list[Message], error: str, **changes) -> None:
    Message.objects.filter(pk__in=[message.pk for message in messages]).update(
        attempts=F("attempts") + 1, last_error=error[:500], **changes
    )


def _claim(handed: list[Message]) -> None:
    """The broker took the ``handed`` messages (still locked): a message without
    a key is done; a keyed one stays, marked, until its task releases the key."""
    done = [message.pk for message in handed if message.key is None]
    if done:
        Message.objects.filter(pk__in=done).delete()
    keyed = [message.pk for message in handed if message.key is not None]
    if keyed:
        Message.objects.filter(pk__in=keyed).update(published_at=timezone.now())


def _hand_over(message: Message) -> None:
    # One attempt: the relay is the retry, and a click must not wait for a dead broker.
    current_app.tasks[message.task].apply_async(message.args, message.kwargs, eta=message.eta, retry=False)
