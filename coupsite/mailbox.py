"""The embedded default email backend: every message is stored in a local Maildir.

With no ``EMAIL_HOST`` the site "sends" email by adding it to a Maildir (python's
``mailbox.Maildir``; default ``var/mailbox/``). A Maildir suits a web process and a
Celery worker writing at once: each message is written under ``tmp/`` and renamed
into ``new/``, so no reader ever sees half a message and no writer waits for a lock.
Any mail client that reads Maildirs (mutt -f var/mailbox) opens it, and when
DEBUG is on the site lists it at /mailbox/ (``coupsite.mailbox_views``), so one
person can play the whole email loop on one machine.

    MAILERS = {"default": {"BACKEND": "coupsite.mailbox.EmailBackend",
                           "OPTIONS": {"file_path": "var/mailbox"}}}
"""

from __future__ import annotations

import email
import email.policy
import mailbox
import re
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path
from typing import Self

from django.conf import settings
from django.core.mail import InvalidMailer
from django.core.mail.backends.base import BaseEmailBackend
from django.urls import reverse

BACKEND = "coupsite.mailbox.EmailBackend"


def body_part(message: EmailMessage, subtype: str) -> str:
    """The ``text/<subtype>`` body of ``message`` ('' if it has none)."""
    part = message.get_body(preferencelist=(subtype,))
    return part.get_content() if part is not None else ""


def _open(path: Path) -> mailbox.Maildir:
    """The Maildir at ``path``, created if missing (also inside an existing folder,
    such as one the file backend wrote to)."""
    for folder in ("tmp", "new", "cur"):
        (path / folder).mkdir(parents=True, exist_ok=True)
    return mailbox.Maildir(path, factory=None, create=False)


class EmailBackend(BaseEmailBackend):
    """Adds each message to the Maildir at OPTIONS ``file_path`` (created if missing)."""

    def __init__(self, *, file_path=None, alias=None, **kwargs):
        super().__init__(alias=alias, **kwargs)
        if not file_path:
            raise InvalidMailer("OPTIONS must define 'file_path'.", alias=alias)
        self.file_path = Path(file_path).resolve()
        self._lock = threading.Lock()
        try:
            self._maildir = _open(self.file_path)
        except OSError as error:
            raise InvalidMailer(f"Could not create the Maildir {self.file_path}: {error}", alias=alias) from error

    def send_messages(self, email_messages) -> int:
        sent = 0
        with self._lock:
            for message in email_messages:
                if not message.recipients():
                    continue
                self._maildir.add(message.message().as_bytes())
                sent += 1
        return sent


# ---- reading it back (the /mailbox/ page) ----------------------------------------------


def maildir_path() -> Path | None:
    """Where the Maildir backend of ``MAILERS`` stores mail; None when no mailer uses it."""
    for config in getattr(settings, "MAILERS", {}).values():
        if config.get("BACKEND") == BACKEND and config.get("OPTIONS", {}).get("file_path"):
            return Path(config["OPTIONS"]["file_path"]).resolve()
    return None


def messages_forget(addresses: set[str]) -> int:
    """Remove from the site's own Maildir (the embedded default's, when the site uses
    it) every message to or from one of ``addresses`` (lower case), or naming one: a
    deleted account's mail goes with it. Returns how many were removed."""
    path = maildir_path()
    if path is None or not addresses:
        return 0
    box = _open(path)
    removed = 0
    for key in box.keys():
        try:
            raw = box.get_bytes(key)
        except (KeyError, FileNotFoundError):
            continue  # removed meanwhile
        message = email.message_from_bytes(raw, policy=email.policy.default)
        headers = [str(value) for name in ("To", "Cc", "From", "Reply-To") for value in message.get_all(name, [])]
        named = {address.lower() for _name, address in getaddresses(headers)}
        if named & addresses or any(address.encode() in raw.lower() for address in addresses):
            box.discard(key)
            removed += 1
    return removed


def mail_destination() -> str:
    """Where the site's emails go, in one sentence for the developer starting it
    (``manage.py where_mail``, printed by ``make run``)."""
    maildir = maildir_path()
    if maildir is not None:
        where = f"Emails are not sent: they are stored in the Maildir {maildir}/"
        if settings.DEBUG:  # the page is routed only then
            where += f" and listed at {settings.SITE_URL.rstrip('/')}{reverse('mailbox')}"
        return where + "."
    mailer = settings.MAILERS["default"]
    options = mailer.get("OPTIONS", {})
    if "host" in options:
        port = f":{options['port']}" if options.get("port") else ""
        return f"Emails are sent through the SMTP server {options['host']}{port}."
    if options.get("file_path"):
        return f"Emails are written as files in {Path(options['file_path']).resolve()}/."
    return f"Emails go to the backend {mailer['BACKEND']}."


@dataclass
class ParsedEmail:
    """An email read back from the bytes that were sent: its subject, and its text
    and HTML bodies."""

    message: EmailMessage = field(repr=False)

    @classmethod
    def parse(cls, raw: bytes, /, **fields) -> Self:
        """``raw`` parsed (with the modern policy: headers as objects, bodies decoded),
        with the other ``fields`` of ``cls``."""
        return cls(message=email.message_from_bytes(raw, policy=email.policy.default), **fields)

    @property
    def subject(self) -> str:
        return str(self.message.get("Subject", ""))

    @property
    def text(self) -> str:
        """The plain-text body ('' if the message has none)."""
        return body_part(self.message, "plain")

    @property
    def html(self) -> str:
        """The HTML body ('' if the message has none)."""
        return body_part(self.message, "html")


@dataclass
class StoredMessage(ParsedEmail):
    key: str
    received: datetime

    @property
    def sender(self) -> str:
        return str(self.message.get("From", ""))

    @property
    def to(self) -> str:
        return str(self.message.get("To", ""))

    @property
    def date(self) -> datetime:
        """The Date header; the delivery time if it has none."""
        return getattr(self.message["Date"], "datetime", None) or self.received

    @property
    def headers(self) -> list[tuple[str, str]]:
        return [(name, str(value)) for name, value in self.message.items()]


# mailbox.Maildir names a new message "<seconds>.M<microseconds>P<pid>Q<count>.<host>".
_KEY_TIME = re.compile(r"^(\d+)\.M(\d+)P")


def _delivered(box: mailbox.Maildir, key: str) -> float:
    """When ``key`` was delivered, from its name (to the microsecond, unlike the Date
    header) or, for a message some other program put there, from the file."""
    match = _KEY_TIME.match(key)
    if match:
        return int(match[1]) + int(match[2]) / 1e6
    return box.get_message(key).get_date()


def _stored(box: mailbox.Maildir, key: str) -> StoredMessage:
    received = datetime.fromtimestamp(_delivered(box, key), tz=UTC)
    return StoredMessage.parse(box.get_bytes(key), key=key, received=received)


def stored_messages(path: Path, *, limit: int = 200) -> list[StoredMessage]:
    """The newest ``limit`` messages of the Maildir at ``path``, newest first."""
    box = _open(path)
    found = []
    for key in box.keys():
        try:
            found.append((_delivered(box, key), key))
        except (KeyError, FileNotFoundError):
            continue  # removed while listing
    found.sort(reverse=True)
    messages = []
    for _when, key in found[:limit]:
        stored = stored_message(path, key, box=box)
        if stored is not None:
            messages.append(stored)
    return messages


def stored_message(path: Path, key: str, *, box: mailbox.Maildir | None = None) -> StoredMessage | None:
    """The message stored as ``key``; None if there is none (keys come from the folder
    listing, so a crafted key can name no file outside it)."""
    box = box or _open(path)
    try:
        return _stored(box, key)
    except (KeyError, FileNotFoundError):
        return None
