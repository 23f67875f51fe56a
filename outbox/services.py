"""The transactional outbox: every Celery task a change calls for is written in the
change's own transaction, then handed to the broker.

A task queued with ``transaction.on_commit(task.delay)`` is lost when the broker
cannot be reached at that moment, and the error reaches the player whose move was
already saved. Here the call is a row (``outbox.Message``) that commits or rolls
back with the move. Right after the commit one attempt is made to hand it over
(the usual, prompt path); whatever the broker refused is handed over by ``relay``,
which beat runs every few seconds (``outbox.tasks.relay``), until it is taken.

Messages are claimed in one short transaction that hands them over: locked
(``SKIP LOCKED``; on SQLite every transaction takes the write lock as it begins),
handed to the broker, and those it took deleted or marked, so the attempt after
the commit and the relay never both publish one; one the broker refuses stays as
it was, with its error.

A message may carry a ``key``: while a message with that key waits, or its task
has not started yet, sending another with the same key does nothing. The task
calls ``release(key)`` first thing, before reading what it acts on, so a change
made after that queues a new message and none is missed (repeated toggles of one
player's standing answers become one task).

One message can carry work for many objects: ``games.tasks.games_advanced`` takes
a list of ``(game, before, after)`` updates, so a change that advances a chunk of
games in one transaction (a bulk deadline sweep) writes one message for all of them.
"""

import logging
import time
from datetime import timedelta
from functools import partial

from celery import current_app
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone
from kombu.exceptions import OperationalError

from outbox.models import Message

log = logging.getLogger(__name__)

CHUNK = 200  # messages handed over per transaction by the relay
# After the broker refused a message, this process leaves hand-overs to the relay for
# a while, so clicks made during an outage do not each wait for a refused connection.
PAUSE_AFTER_REFUSAL = 10.0
# A keyed message whose task has not released its key this long after the broker took
# it was lost (e.g. a broker restarted without persistence): it is handed over again.
KEY_HELD_AT_MOST = timedelta(hours=1)

_paused_until = 0.0


def send(signature, *, eta=None, key: str | None = None) -> None:
    """Queue ``signature`` (``task.s(...)``; JSON arguments) with the current
    transaction: it reaches the broker only if the transaction commits, and then
    surely. ``eta``: run no earlier than this. ``key``: see the module docstring."""
    message = Message(task=signature.task, args=list(signature.args), kwargs=dict(signature.kwargs), eta=eta, key=key)
    if key is None:
        message.save()
    else:
        try:
            with transaction.atomic():  # a duplicate key undoes only this insert
                message.save()
        except IntegrityError:
            return  # the same work is already queued and has not started
    transaction.on_commit(partial(_publish_after_commit, message))


def release(key: str) -> None:
    """A keyed task has started: the next message with ``key`` is queued again."""
    Message.objects.filter(key=key).delete()


def relay() -> int:
    """Hand every waiting message to the broker, oldest first, until it refuses one
    (the rest wait for the next run). Returns how many were handed over."""
    stale = timezone.now() - KEY_HELD_AT_MOST
    waiting = Message.objects.filter(Q(published_at=None) | Q(key__isnull=False, published_at__lt=stale))
    handed = 0
    while True:
        done, refused = _publish(waiting)
        handed += done
        if refused or done < CHUNK:
            return handed


def _publish_after_commit(message: Message) -> None:
    """The prompt attempt right after the commit, with the ``message`` as written;
    never raises for a broker outage."""
    if time.monotonic() < _paused_until:
        return
    if message.key is not None or not _task_known(message.task):
        _publish(Message.objects.filter(pk=message.pk, published_at=None))
        return
    _publish_unkeyed(message)


class _Refused(Exception):
    """The broker refused a message: its claim is rolled back."""


def _publish_unkeyed(message: Message) -> None:
    """``_publish`` for one message without a key, known as it was written: its
    row is deleted first, which locks it (a relay holding it already has it, and
    the delete then finds nothing), then it is handed over, and the deletion
    commits only if the broker took it."""
    global _paused_until
    try:
        with transaction.atomic():
            if not Message.objects.filter(pk=message.pk, published_at=None).delete()[0]:
                return  # the relay handed it over first
            try:
                _hand_over(message)
            except OperationalError as error:
                raise _Refused(str(error)) from error
    except _Refused as refusal:
        _paused_until = time.monotonic() + PAUSE_AFTER_REFUSAL
        _record_failure(message, str(refusal))
        log.warning("The broker refused outbox message %s (%s); the relay will retry.", message.pk, message.task)


def _publish(waiting) -> tuple[int, bool]:
    """Hand over up to ``CHUNK`` of the ``waiting`` messages that no other
    publisher holds, oldest first, until the broker refuses one. Returns (handed
    over, whether the broker refused one)."""
    global _paused_until
    handed, refused = [], False
    with transaction.atomic():
        for message in waiting.select_for_update(skip_locked=True).order_by("pk")[:CHUNK]:
            if not _task_known(message.task):  # renamed or removed since it was written
                _record_failure(message, "no such task")
                log.error("Outbox message %s names no known task (%s); it waits.", message.pk, message.task)
                continue
            try:
                _hand_over(message)
            except OperationalError as error:
                _paused_until = time.monotonic() + PAUSE_AFTER_REFUSAL
                _record_failure(message, str(error))
                log.warning("The broker refused outbox message %s (%s); the relay will retry.", message.pk, message.task)
                refused = True
                break
            handed.append(message)
        _claim(handed)
    return len(handed), refused


def _task_known(name: str) -> bool:
    """Whether ``name`` is a registered task. Celery imports the apps' task modules
    only when a worker starts; a web process imports them the first time it meets
    a name it does not know yet."""
    if name not in current_app.tasks:
        current_app.loader.import_default_modules()
    return name in current_app.tasks


def _record_failure(message: Message, error: str) -> None:
    Message.objects.filter(pk=message.pk).update(attempts=F("attempts") + 1, last_error=error[:500])


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
