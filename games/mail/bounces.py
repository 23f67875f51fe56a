"""Delivery reports and complaints: bounces heard, so the site stays a good sender.

Mail the site sends through its own SMTP server leaves with a signed envelope sender
of its own (VERP, ``coupsite.smtp``), ``bounce+<id>.<signature>@<domain>``, naming
the ``SentEmail`` of its recipient. Reports come back to it, and ``read_mail`` (or the
IMAP reader, or an email provider's inbound webhook) hands them to
``games.mail.inbound.receive``, the entry point of every message, which passes here
whatever is addressed to a bounce address or is a report (``is_report``).

What a report says (``_verdict``):

- an ARF complaint (``multipart/report; report-type=feedback-report``, RFC 5965):
  the reader reported the email as spam;
- a delivery status notification (``report-type=delivery-status``, RFC 3464): each
  recipient's block of its ``message/delivery-status`` part gives an Action and a
  Status: ``failed`` with a 5.x.x status is a hard bounce, ``failed`` with 4.x.x (a
  server that gave up retrying) or ``delayed`` a soft one; ``delivered``,
  ``relayed`` and ``expanded`` are no failure. Read with the standard library:
  flufl.bounce's DSN detector classifies by the Action alone, so it would count a
  mailbox full for five days (``failed``, 4.2.2) as a hard bounce;
- any other bounce (Exim's plain-text one with X-Failed-Recipients, qmail's, old
  Exchange and Yahoo formats): flufl.bounce's detectors, maintained by GNU Mailman,
  tell permanent (hard) from temporary (soft) failures.

Which address it is about: always the one the signed bounce address names, never
what the report says (a forwarding mailbox reports another address, and anyone can
write a report). A provider's feedback loop sends complaints to the address
registered with it rather than to the bounce address: there the bounce address is
read from the Return-Path of the original the complaint encloses, and checked the
same way. The policy (stop, pause) is ``accounts.bounces``.

Bad input never raises and changes nothing: a forged bounce address, one naming an
email sent too long ago, a report for another site, a report with no status, or a
message that says nothing readable are each ignored with their ``Outcome``.

django-anymail's tracking webhook of the provider named by ``INBOUND_ESP`` (the same
basic-auth secret) feeds the same policy (``_on_tracking``): ``bounced`` and
``rejected`` are hard, unless the server's answer is a 4.x.x one, ``deferred`` is
soft, ``complained`` a complaint.
"""

import logging
import re
from email.message import EmailMessage, Message
from email.parser import HeaderParser
from email.utils import getaddresses

from anymail.signals import tracking as anymail_tracking
from django.dispatch import receiver
from flufl.bounce import all_failures

from accounts.bounces import mail_failed
from accounts.models import MailFailure, SentEmail
from games.mail.outcome import Outcome
from games.mail.tokens import is_bounce_address, read_bounce_address

log = logging.getLogger(__name__)

# ARF feedback types that are no complaint about the email: a report that it is
# *not* spam, and a report of a failed authentication check (DMARC's forensic reports).
NOT_COMPLAINTS = {"not-spam", "auth-failure"}
# The class of an SMTP answer: an enhanced status code (RFC 3463, "5.1.1") or a reply code ("550").
SMTP_CLASS = re.compile(r"(?<![\d.])([245])(?:\.\d{1,3}\.\d{1,3}(?![\d.])|\d\d(?!\d))")
# Outcome reasons of a recorded report, by the kind of failure.
RECORDED: dict[str, str] = {
    MailFailure.Kind.HARD: "hard-bounce",
    MailFailure.Kind.SOFT: "soft-bounce",
    MailFailure.Kind.COMPLAINT: "complaint",
}


def _report_type(message: Message) -> str:
    if message.get_content_type() != "multipart/report":
        return ""
    return str(message.get_param("report-type", "", header="content-type") or "").lower()


def is_report(message: Message, addresses: list[str]) -> bool:
    """Whether ``message`` is for this module: sent to a bounce address of this
    site, or a report of any kind (whichever site it is about)."""
    return any(is_bounce_address(address) for address in addresses) or bool(_report_type(message))


def report_received(message: EmailMessage, addresses: list[str]) -> Outcome:
    """Put the address a report is about on the suppression list, as the report
    says; ``addresses``: where ``message`` was delivered (``inbound._addresses``)."""
    named = [address for address in addresses if is_bounce_address(address)] or _enclosed_bounce_addresses(message)
    if not named:
        return Outcome("ignored", "report-not-ours")
    sent_ids = [sent_id for sent_id in map(read_bounce_address, named) if sent_id is not None]
    if not sent_ids:
        log.info("Ignored a report to a forged bounce address: %s", ", ".join(named))
        return Outcome("ignored", "forged-bounce-address")
    sent = SentEmail.objects.filter(pk__in=sent_ids).first()
    if sent is None:
        return Outcome("ignored", "unknown-sent-email")
    verdict = _verdict(message)
    if isinstance(verdict, Outcome):
        return verdict
    kind, detail = verdict
    mail_failed(address=sent.address, kind=kind, detail=detail)
    log.info("Recorded a %s for sent email #%s", RECORDED[kind], sent.pk)
    return Outcome("recorded", RECORDED[kind])


def _verdict(message: EmailMessage) -> tuple[str, str] | Outcome:
    """What ``message`` reports: ``(MailFailure.Kind, detail)``, or the Outcome of a
    message that reports no failure or cannot be read."""
    try:
        report_type = _report_type(message)
        if report_type == "feedback-report":
            return _complaint(message)
        if report_type == "delivery-status":
            return _delivery_status(message)
        return _other_bounce(message)
    except (LookupError, ValueError, TypeError, AttributeError, UnicodeError):
        # A part the email package cannot read as what it claims to be.
        return Outcome("ignored", "unreadable-report")


def _complaint(message: EmailMessage) -> tuple[str, str] | Outcome:
    for part in message.walk():
        if part.get_content_type() != "message/feedback-report":
            continue
        fields = _blocks(part)
        feedback_type = str(fields[0].get("Feedback-Type", "abuse") if fields else "abuse").strip().lower()
        if feedback_type in NOT_COMPLAINTS:
            return Outcome("ignored", "not-a-failure")
        return MailFailure.Kind.COMPLAINT, f"feedback-type {feedback_type}"
    return Outcome("ignored", "no-report-part")


def _delivery_status(message: EmailMessage) -> tuple[str, str] | Outcome:
    parts = [part for part in message.walk() if part.get_content_type() == "message/delivery-status"]
    if not parts:
        return Outcome("ignored", "no-report-part")
    failures = []
    for part in parts:
        for block in _blocks(part)[1:]:  # the first block is about the message, the others each a recipient
            action = str(block.get("Action", "")).strip().lower()
            status = str(block.get("Status", "")).strip()
            detail = " ".join(f"{status} {block.get('Diagnostic-Code', '')}".split())
            if action.startswith("failed"):
                soft = status.startswith("4")
                failures.append((MailFailure.Kind.SOFT if soft else MailFailure.Kind.HARD, detail))
            elif action.startswith("delayed"):
                failures.append((MailFailure.Kind.SOFT, detail))
    if not failures:
        return Outcome("ignored", "not-a-failure")
    hard = [failure for failure in failures if failure[0] == MailFailure.Kind.HARD]
    return (hard or failures)[0]


def _blocks(part: Message) -> list[Message]:
    """The header blocks of a ``message/delivery-status`` or ``message/feedback-report``
    part: the email package parses the first into blocks; the second (and a
    delivery-status part it could not parse) is text, read here as one block."""
    payload = part.get_payload()
    if isinstance(payload, list):
        return [block for block in payload if isinstance(block, Message)]
    return [HeaderParser().parsestr(_decoded(part))]


def _decoded(part: Message) -> str:
    """The text of a leaf part, however it is encoded."""
    payload = part.get_payload(decode=True)
    return payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""


def _other_bounce(message: EmailMessage) -> tuple[str, str] | Outcome:
    try:
        temporary, permanent = all_failures(message)
    except Exception:  # noqa: BLE001 - a heuristic detector tripping on odd input is no failure of ours
        log.info("flufl.bounce could not read a message to a bounce address", exc_info=True)
        return Outcome("ignored", "unreadable-report")
    if permanent:
        return MailFailure.Kind.HARD, "permanent failure"
    if temporary:
        return MailFailure.Kind.SOFT, "temporary failure"
    return Outcome("ignored", "not-a-failure")


def _enclosed_bounce_addresses(message: EmailMessage) -> list[str]:
    """The bounce addresses in the Return-Path of the original a complaint encloses
    (``message/rfc822`` or ``text/rfc822-headers``)."""
    if _report_type(message) != "feedback-report":
        return []
    found = []
    for part in message.walk():
        content_type = part.get_content_type()
        if content_type == "message/rfc822":
            payload = part.get_payload()
            headers = payload[0] if isinstance(payload, list) and payload else None
        elif content_type == "text/rfc822-headers":
            headers = HeaderParser().parsestr(_decoded(part))
        else:
            continue
        if isinstance(headers, Message):
            values = [str(value) for value in headers.get_all("Return-Path", [])]
            found += [address for _name, address in getaddresses(values) if is_bounce_address(address)]
    return found


# ---- an email provider's tracking webhook ------------------------------------------------

# What each tracking event of django-anymail means for the address, when the
# server's answer does not say the failure is temporary.
TRACKED = {
    "bounced": MailFailure.Kind.HARD,
    "rejected": MailFailure.Kind.HARD,
    "deferred": MailFailure.Kind.SOFT,
    "complained": MailFailure.Kind.COMPLAINT,
}


def tracked_kind(event_type: str, mta_response: str) -> str | None:
    """The ``MailFailure.Kind`` of a tracking event, or None for one that is no
    failure (sent, delivered, opened...). Some providers report a soft bounce as
    ``bounced`` (Postmark's SoftBounce): the server's 4.x.x answer tells it."""
    kind = TRACKED.get(event_type)
    if kind == MailFailure.Kind.HARD:
        found = SMTP_CLASS.search(mta_response)
        if found and found.group(1) == "4":
            return MailFailure.Kind.SOFT
    return kind


@receiver(anymail_tracking, dispatch_uid="games.mail.bounces.tracking")
def _on_tracking(sender, event, esp_name, **kwargs):
    """The provider posted a delivery event to /anymail/<esp>/tracking/
    (authenticated by ANYMAIL["WEBHOOK_SECRET"])."""
    kind = tracked_kind(str(event.event_type or ""), str(event.mta_response or event.description or ""))
    if kind is None or not event.recipient:
        return
    detail = " ".join(str(event.mta_response or event.description or event.reject_reason or "").split())
    mail_failed(address=event.recipient, kind=kind, at=event.timestamp, detail=detail)
    log.info("Recorded a %s from %s's tracking webhook", RECORDED[kind], esp_name)
