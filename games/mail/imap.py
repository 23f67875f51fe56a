"""Replies read from a plain IMAP mailbox, for a site with no email provider's webhook:
``manage.py read_mail --imap`` reads what is there once, ``--watch`` keeps reading.

The mailbox is the reply address's own (``IMAP_URL``, e.g.
``imaps://play%40example.org:app-password@imap.example.org/INBOX``), so every message
in its folder is one for the site. Each is handed to ``inbound.receive`` (replies, and
whatever else it reads), then marked seen and moved to ``IMAP_PROCESSED_FOLDER``; a
malformed message, or one whose handling raised, is flagged and moved to
``IMAP_SET_ASIDE_FOLDER`` for a person to look at. Nothing is ever deleted, and a
message leaves the folder only once it has been handled, so one left by a crash or a
lost connection is read again by the next pass; ``receive`` remembers the
Message-IDs it has read, so a message handled but not yet moved is not played twice.
A message is read again only when the database or the cache could not be reached,
and at most ``ATTEMPTS`` times: it is set aside after that.

Watching, the reader waits with IDLE where the server's CAPABILITY offers it (renewed
every ``IDLE_SECONDS``, well inside the 29 minutes of RFC 2177), otherwise it looks
every ``IMAP_POLL_SECONDS``. A lost connection is reopened after a pause that doubles
up to ``BACKOFF_CAP`` seconds, with jitter; each (re)connection first handles what
the folder holds.

Logs name messages by their UID, never by what they say: a reply can name a
face-down card.
"""

from __future__ import annotations

import email
import imaplib
import ipaddress
import logging
import random
import ssl
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from email import policy
from typing import cast
from urllib.parse import unquote, urlsplit

import redis.exceptions
from django import db
from django.conf import settings
from imap_tools import BaseMailBox, MailBox, MailBoxUnencrypted, MailMessage, MailMessageFlags
from imap_tools.errors import ImapToolsError, MailboxFlagError, MailboxLoginError
from imap_tools.utils import check_command_status

from games.mail.inbound import Outcome, receive

log = logging.getLogger(__name__)

DEFAULT_PORTS = {"imaps": 993, "imap": 143}
# Seconds a connection attempt or a command may take before the connection counts as lost.
COMMAND_TIMEOUT = 60
IDLE_SECONDS = 5 * 60
BACKOFF_FIRST, BACKOFF_CAP = 1.0, 300.0
# Reads of one message that failed because the database or the cache was unreachable.
ATTEMPTS = 5
# What a message could not be handled for when the database or the cache, not the
# message, is at fault: it stays in the folder for the next pass.
UNAVAILABLE = (db.OperationalError, db.InterfaceError, redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
# What a lost or refused connection raises.
CONNECTION_ERRORS = (imaplib.IMAP4.error, ImapToolsError, OSError, EOFError)


class BadURL(ValueError):
    """IMAP_URL cannot name a mailbox; the message says why, in one line."""


class Interrupted(Exception):
    """The connection was lost or refused; the message says why, in one line."""


class LoginRefused(Interrupted):
    """The server refused the user name or password."""


@dataclass(frozen=True)
class Account:
    """A mailbox named by an ``imaps://`` or ``imap://`` URL."""

    tls: bool  # imaps: TLS from the start; imap: STARTTLS, or plain to this machine only
    host: str
    port: int
    user: str
    password: str
    folder: str

    def __str__(self):  # for logs: never the password
        return f"{'imaps' if self.tls else 'imap'}://{self.user}@{self.host}:{self.port}/{self.folder}"


def parse_url(url: str) -> Account:
    """``imaps://user:password@host[:port][/folder]``; the user and password
    percent-encoded (``play%40example.org``), the folder INBOX unless named."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as error:
        raise BadURL(f"IMAP_URL is not a URL: {error}") from None
    if parts.scheme not in DEFAULT_PORTS:
        raise BadURL("IMAP_URL must start with imaps:// (or imap:// for STARTTLS)")
    if not parts.hostname:
        raise BadURL("IMAP_URL names no server: imaps://user:password@imap.example.org/INBOX")
    if not parts.username or parts.password is None:
        raise BadURL("IMAP_URL needs a user and a password: imaps://user:password@host/INBOX")
    return Account(
        tls=parts.scheme == "imaps",
        host=parts.hostname,
        port=port or DEFAULT_PORTS[parts.scheme],
        user=unquote(parts.username),
        password=unquote(parts.password),
        folder=unquote(parts.path.strip("/")) or "INBOX",
    )


def _is_this_machine(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class FetchedMessage(MailMessage):
    """A fetched message that keeps its bytes, for the modern parser ``receive`` reads."""

    def __init__(self, fetch_data: list) -> None:
        super().__init__(fetch_data)
        self.raw = self._get_message_data_parts(fetch_data)[0]


def connect(account: Account) -> BaseMailBox:
    """A logged-in connection with the folder selected and the two folders messages
    are moved to created when missing. Raises ``Interrupted`` (``LoginRefused``)."""
    try:
        return _connect(account)
    except MailboxLoginError:
        raise LoginRefused(f"{account}: the server refused the user name or password") from None
    except ssl.SSLError as error:
        raise Interrupted(f"{account}: TLS failed: {error.reason or error}") from None
    except CONNECTION_ERRORS as error:
        raise Interrupted(f"{account}: {_reason(error)}") from None


def _connect(account: Account) -> BaseMailBox:
    mailbox: BaseMailBox
    if account.tls:
        mailbox = MailBox(account.host, account.port, timeout=COMMAND_TIMEOUT, ssl_context=ssl.create_default_context())
    else:
        mailbox = MailBoxUnencrypted(account.host, account.port, timeout=COMMAND_TIMEOUT)
        if "STARTTLS" in mailbox.client.capabilities:
            mailbox.client.starttls(ssl.create_default_context())
        elif not _is_this_machine(account.host):
            mailbox.client.shutdown()
            raise Interrupted(
                f"{account}: the server offers no STARTTLS, and the password is never sent in clear "
                "beyond this machine: use imaps://"
            )
    mailbox.email_message_class = FetchedMessage
    if account.user.isascii() and account.password.isascii():
        mailbox.login(account.user, account.password, initial_folder=None)
    else:
        mailbox.login_utf8(account.user, account.password, initial_folder=None)
    # The capabilities after login (MOVE, IDLE) are often more than the greeting's.
    _status, data = mailbox.client.capability()
    mailbox.client.capabilities = tuple(data[0].decode().upper().split())
    for folder in (settings.IMAP_PROCESSED_FOLDER, settings.IMAP_SET_ASIDE_FOLDER):
        if not mailbox.folder.exists(folder):
            mailbox.folder.create(folder)
    mailbox.folder.set(account.folder)
    return mailbox


def _reason(error: BaseException) -> str:
    """One line saying why a connection failed, without the server's whole answer."""
    if isinstance(error, TimeoutError):
        return "the server did not answer in time"
    if isinstance(error, ConnectionRefusedError):
        return "the server refused the connection"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    text = str(error).splitlines()[0] if str(error) else ""
    return f"{type(error).__name__}: {text}"[:200] if text else type(error).__name__


def backoff(attempt: int) -> float:
    """Seconds to wait before reconnection ``attempt`` (0 first): doubling up to the
    cap, each drawn between half and all of it so that readers do not reconnect in step."""
    ceiling = min(BACKOFF_CAP, BACKOFF_FIRST * 2**attempt)
    return random.uniform(ceiling / 2, ceiling)


class Reader:
    """Reads the folder of ``account``: ``read`` once, or ``watch`` until stopped.

    ``on_outcome(uid, outcome)`` is told what became of each message handled and
    ``on_set_aside(uid, why)`` of each set aside."""

    def __init__(
        self,
        account: Account,
        *,
        on_outcome: Callable[[str, Outcome], None],
        on_set_aside: Callable[[str, str], None],
    ):
        self.account = account
        self.on_outcome = on_outcome
        self.on_set_aside = on_set_aside
        self.failures: Counter[str] = Counter()  # reads of a message that found the database unreachable
        self.set_aside = 0

    def read(self, mailbox: BaseMailBox) -> None:
        """Handle every message in the folder, oldest first. Raises ``Interrupted``
        when the connection is lost, or the database is unreachable."""
        try:
            mailbox.client.noop()  # news of the folder, for servers that tell it only then
            # One another client deleted is its to expunge, not ours to read.
            for message in mailbox.fetch("UNDELETED", mark_seen=False, bulk=False):
                self._handle(mailbox, cast(FetchedMessage, message))  # connect() set the class
        except CONNECTION_ERRORS as error:
            raise Interrupted(f"{self.account}: {_reason(error)}") from None

    def _handle(self, mailbox: BaseMailBox, message: FetchedMessage) -> None:
        uid = message.uid or "?"
        parsed = email.message_from_bytes(message.raw, policy=policy.default)
        if not len(parsed):
            return self._put_aside(mailbox, uid, "malformed: no header could be read")
        try:
            outcome = receive(parsed)
        except UNAVAILABLE as error:
            self.failures[uid] += 1
            if self.failures[uid] < ATTEMPTS:
                raise Interrupted(f"cannot handle message {uid} now: {type(error).__name__}") from None
            return self._put_aside(mailbox, uid, f"the database or cache failed {ATTEMPTS} times")
        except Exception as error:  # noqa: BLE001 - one message must never stop the others
            # The frames say where it failed; the exception's text is left out, as it
            # may quote the message.
            frames = "".join(traceback.format_tb(error.__traceback__))
            log.error("Message %s raised %s while handled, at:\n%s", uid, type(error).__name__, frames)
            return self._put_aside(mailbox, uid, f"handling it raised {type(error).__name__}")
        self.failures.pop(uid, None)
        _mark(mailbox, uid, MailMessageFlags.SEEN)
        mailbox.move(uid, settings.IMAP_PROCESSED_FOLDER)
        self.on_outcome(uid, outcome)

    def _put_aside(self, mailbox: BaseMailBox, uid: str, why: str) -> None:
        _mark(mailbox, uid, MailMessageFlags.FLAGGED)
        mailbox.move(uid, settings.IMAP_SET_ASIDE_FOLDER)
        self.failures.pop(uid, None)
        self.set_aside += 1
        log.warning("Set message %s aside in %r: %s", uid, settings.IMAP_SET_ASIDE_FOLDER, why)
        self.on_set_aside(uid, why)

    def watch(self, mailbox: BaseMailBox) -> None:
        """Handle the folder's messages as they arrive, reconnecting when the
        connection is lost, until the process is stopped."""
        attempt = 0
        current: BaseMailBox | None = mailbox
        while True:
            try:
                if current is None:
                    current = connect(self.account)
                    log.info("Reconnected to %s", self.account)
                db.close_old_connections()  # one gone stale while the reader waited is replaced
                self.read(current)
                attempt = 0
                self._wait(current)
            except Interrupted as error:
                close(current)
                current = None
                pause = backoff(attempt)
                attempt += 1
                log.warning("%s; reconnecting in %.1f s", error, pause)
                time.sleep(pause)

    def _wait(self, mailbox: BaseMailBox) -> None:
        """Until the server tells of news (IDLE), or for the poll's interval."""
        try:
            if "IDLE" not in mailbox.client.capabilities:
                time.sleep(settings.IMAP_POLL_SECONDS)
                return
            mailbox.idle.start()
            news = mailbox.idle.poll(timeout=IDLE_SECONDS)
            if any(line.startswith(b"* BYE") for line in news):
                raise Interrupted(f"{self.account}: the server closed the connection")
            mailbox.idle.stop()
        except CONNECTION_ERRORS as error:
            raise Interrupted(f"{self.account}: {_reason(error)}") from None


def how_it_waits(mailbox: BaseMailBox) -> str:
    """How a watching reader waits for mail on this server, for its operator."""
    if "IDLE" in mailbox.client.capabilities:
        return "waits for news with IDLE"
    return f"looks every {settings.IMAP_POLL_SECONDS} s (the server offers no IDLE)"


def _mark(mailbox: BaseMailBox, uid: str, flag: str) -> None:
    """Add ``flag`` to message ``uid``. Not imap-tools' ``flag()``, which expunges the
    folder after it: messages another client marked deleted stay for it to expunge."""
    result = mailbox.client.uid("STORE", uid, "+FLAGS.SILENT", f"({flag})")
    check_command_status(result, MailboxFlagError)


def close(mailbox: BaseMailBox | None) -> None:
    if mailbox is None:
        return
    try:
        mailbox.client.shutdown()
    except CONNECTION_ERRORS:
        pass
