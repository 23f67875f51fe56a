"""The suppression list: what a failed delivery does to the address it failed for,
the policy large senders follow to stay welcome at the mail providers.

- A hard bounce (the receiving server refused for good: a 5.x.x status, no such
  mailbox) or a complaint (the reader reported the email as spam) stops all mail to
  the address at once.
- A soft bounce (4.x.x: a full mailbox, a server down, a deferral) pauses it for
  ``SOFT_PAUSE``; the ``SOFT_STOP_COUNT``-th within ``SOFT_WINDOW`` stops it.

While an address is stopped or paused no email of any kind goes to it
(``accounts.mail.mail_refused``, which every path that sends checks). The player
sees why on every page and may send a test email, which lifts the mark
(``mail_failure_lifted``); so does confirming an address through allauth, which
proves it receives mail. Failures are reported by ``games.mail.bounces`` (the
delivery reports that come back to a message's VERP address, ``SentEmail``) and by
an email provider's tracking webhook.
"""

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import MailFailure, SentEmail

SOFT_PAUSE = timedelta(days=1)
SOFT_WINDOW = timedelta(days=7)
SOFT_STOP_COUNT = 3
# Mail servers retry a deferred message for up to five days before they report it
# failed: a report may come back that late, and must still find its message.
SENT_EMAILS_KEPT = timedelta(days=30)


def normalized(address: str) -> str:
    return address.strip().lower()


def active_failures() -> QuerySet[MailFailure]:
    """The failures that keep mail from their addresses now (stopped or paused)."""
    return MailFailure.objects.filter(Q(stopped=True) | Q(paused_until__gt=timezone.now()))


def failure_of(address: str) -> MailFailure | None:
    """The failure that keeps mail from ``address`` now, or None."""
    return active_failures().filter(address=normalized(address)).first()


def _failing(addresses) -> QuerySet[MailFailure]:
    return active_failures().filter(address__in={normalized(address) for address in addresses})


def failing_among(addresses) -> set[str]:
    """Those of ``addresses`` (normalized) that mail may not go to now: one query."""
    return set(_failing(addresses).values_list("address", flat=True))


def bouncing_among(addresses) -> set[str]:
    """Those of ``addresses`` (normalized) that mail may not go to now because it
    bounced: what a host may be told of an address they typed (a complaint is its
    owner's own word, and stays theirs)."""
    bouncing = _failing(addresses).exclude(kind=MailFailure.Kind.COMPLAINT)
    return set(bouncing.values_list("address", flat=True))


def mail_failed(*, address: str, kind: str, at: datetime | None = None, detail: str = "") -> MailFailure:
    """Mail to ``address`` failed (``MailFailure.Kind``) at ``at`` (now by default):
    stop or pause it as the policy says. Safe to call for the same failure twice
    (a webhook retried): a hard failure or a complaint is a stop either way; a soft
    one counted twice pauses as one does."""
    at = at or timezone.now()
    with transaction.atomic():
        failure, _created = MailFailure.objects.select_for_update().get_or_create(
            address=normalized(address), defaults={"kind": kind, "failed_at": at}
        )
        # A stop keeps the reason it was given: a soft bounce after a hard one is no news.
        if not (kind == MailFailure.Kind.SOFT and failure.stopped and failure.kind != MailFailure.Kind.SOFT):
            failure.kind = kind
        if kind == MailFailure.Kind.SOFT:
            week = [time for time in failure.soft_failures if datetime.fromisoformat(time) > at - SOFT_WINDOW]
            if at.isoformat() not in week:
                week.append(at.isoformat())
            failure.soft_failures = sorted(week)
            if len(week) >= SOFT_STOP_COUNT:
                failure.stopped = True
            else:
                failure.paused_until = max(failure.paused_until or at, at + SOFT_PAUSE)
        else:
            failure.stopped = True
        failure.failed_at = max(failure.failed_at, at)
        failure.detail = detail[:200] or failure.detail
        failure.save()
    return failure


def mail_failure_lifted(*, address: str) -> None:
    """Mail may go to ``address`` again: its owner asked for a test email, or proved
    it receives mail. The soft bounces of the week are kept, so a mailbox that keeps
    failing is stopped as soon as the policy says."""
    MailFailure.objects.filter(address=normalized(address)).update(stopped=False, paused_until=None)


def sent_email_recorded(address: str) -> int:
    """The id of a new ``SentEmail`` to ``address``: its VERP address names it."""
    return SentEmail.objects.create(address=normalized(address)).pk


def sent_emails_forget() -> int:
    """Forget the emails sent longer ago than any report comes back; their count."""
    deleted, _by_model = SentEmail.objects.filter(sent_at__lt=timezone.now() - SENT_EMAILS_KEPT).delete()
    return deleted
