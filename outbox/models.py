"""A Celery task waiting to be handed to the broker."""

from django.db import models


class Message(models.Model):
    """One task call, written in the transaction of the change that calls for it.

    A message without a ``key`` is deleted once the broker has taken it; a keyed one
    stays (``published_at`` set) until its task starts and releases the key, so that
    the same work asked for again meanwhile is not queued twice. A message without a
    key is written with a short lease (``handing_until``): the process that wrote it
    hands it over right after its commit, and the relay takes it only if that
    process failed to (refused, or gone)."""

    task = models.CharField(max_length=200, help_text="the registered Celery task name")
    args = models.JSONField(default=list, blank=True)
    kwargs = models.JSONField(default=dict, blank=True)
    eta = models.DateTimeField(null=True, blank=True, help_text="run no earlier than this")
    # NULL rather than "" for no key: the unique index then allows any number of them.
    key = models.CharField(  # noqa: DJ001
        max_length=200,
        null=True,
        blank=True,
        help_text="while this message waits or its task has not started, the same key queues nothing more",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True, help_text="when the broker took it (keyed messages)")
    handing_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text="until then the process that wrote it hands it over itself, and the relay leaves it alone",
    )
    attempts = models.PositiveIntegerField(default=0, help_text="hand-overs the broker refused")
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["pk"]
        indexes = [models.Index(fields=["published_at", "id"], name="outbox_waiting")]
        # A partial constraint rather than unique=True: a message without a key (every
        # move's) then writes no entry in its index, nor in the pattern-matching copy
        # Django adds for a text column (a key is only ever compared whole).
        constraints = [
            models.UniqueConstraint(
                fields=["key"], condition=models.Q(key__isnull=False), name="outbox_message_key_unique"
            )
        ]

    def __str__(self):
        return f"{self.task}{tuple(self.args)}"
