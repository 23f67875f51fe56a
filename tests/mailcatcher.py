"""A real SMTP server for tests: aiosmtpd on a free localhost port, keeping what it receives.

Used through the ``smtp`` fixture (tests/conftest.py), which also points Django's
``MAILERS`` at it for the duration of a test, so the site sends over real SMTP.
"""

from __future__ import annotations

import asyncio
import logging
import re
import socket
import threading
import time
from dataclasses import dataclass, field

from aiosmtpd.controller import Controller

from coupsite.env import SMTP_BACKEND
from coupsite.mailbox import ParsedEmail

URL_RE = re.compile(r"https?://[^\s<>\"')]+")


@dataclass
class CapturedEmail(ParsedEmail):
    """One message as the SMTP server received it (``subject``, ``text`` and ``html``
    read as the local mailbox page reads a stored one)."""

    mail_from: str
    rcpt_tos: list[str]
    raw: bytes = field(repr=False)  # as it crossed the wire, before any parsing
    arrived: float = field(default=0.0, repr=False)  # time.monotonic() when the server took it

    @property
    def to(self) -> list[str]:
        """The envelope recipients, lower-cased (what the server was asked to deliver to)."""
        return [address.lower() for address in self.rcpt_tos]

    @property
    def links(self) -> list[str]:
        """Every http(s) URL in the plain-text body, then any others in the HTML body, in order."""
        found = URL_RE.findall(self.text) + URL_RE.findall(self.html)
        return list(dict.fromkeys(link.rstrip(".,;") for link in found))


class _Handler:
    def __init__(self, mailbox: Mailbox):
        self.mailbox = mailbox

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802
        if address.lower() in self.mailbox.refused:
            return "550 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 (aiosmtpd's hook name)
        self.mailbox.receiving += 1
        await asyncio.sleep(self.mailbox.slowness)
        raw = envelope.original_content or envelope.content
        self.mailbox._add(
            CapturedEmail.parse(
                raw, mail_from=envelope.mail_from, rcpt_tos=list(envelope.rcpt_tos), raw=raw, arrived=time.monotonic()
            )
        )
        return "250 Message accepted for delivery"


class Mailbox:
    """What the SMTP server received, in order; thread-safe (the server runs in its own thread)."""

    def __init__(self, host: str, port: int):
        self.host = host
        self.port = port
        self._messages: list[CapturedEmail] = []
        self._changed = threading.Condition()
        self.refused: set[str] = set()  # addresses the server refuses, as a mail server fails
        self.slowness = 0.0  # seconds the server takes to accept each message, as a slow one does
        self.receiving = 0  # messages whose content the server began to receive

    def _add(self, message: CapturedEmail) -> None:
        with self._changed:
            self._messages.append(message)
            self._changed.notify_all()

    @property
    def messages(self) -> list[CapturedEmail]:
        with self._changed:
            return list(self._messages)

    def clear(self) -> None:
        with self._changed:
            self._messages.clear()
            self.refused.clear()
            self.slowness = 0.0

    def __len__(self) -> int:
        return len(self.messages)

    def to(self, address: str) -> list[CapturedEmail]:
        """The messages delivered to ``address`` so far (case-insensitive)."""
        return [m for m in self.messages if address.lower() in m.to]

    def wait_for(
        self,
        to: str | None = None,
        subject_contains: str | None = None,
        *,
        count: int = 1,
        timeout: float = 10.0,
    ) -> CapturedEmail:
        """Block until ``count`` matching messages have arrived; return the ``count``-th of them.

        Emails may be sent from another thread (the live server) or a task, so tests
        should wait rather than look once.
        """

        def matching() -> list[CapturedEmail]:
            return [
                m
                for m in self._messages
                if (to is None or to.lower() in m.to)
                and (subject_contains is None or subject_contains.lower() in m.subject.lower())
            ]

        deadline = time.monotonic() + timeout
        with self._changed:
            while len(found := matching()) < count:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    seen = [(m.to, m.subject) for m in self._messages]
                    raise AssertionError(
                        f"no {count} email(s) to={to!r} subject~{subject_contains!r} within {timeout}s; "
                        f"received: {seen}"
                    )
                self._changed.wait(remaining)
            return found[count - 1]

    def mailer_config(self) -> dict:
        """A ``MAILERS`` entry that sends to this server."""
        return {
            "BACKEND": SMTP_BACKEND,
            "OPTIONS": {"host": self.host, "port": self.port, "use_tls": False, "timeout": 10},
        }


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


class SMTPServer:
    """An aiosmtpd Controller bound to 127.0.0.1 on a free port; ``start()``/``stop()``."""

    def __init__(self, host: str = "127.0.0.1"):
        self.host = host
        self.controller: Controller | None = None
        self.mailbox: Mailbox | None = None

    def start(self) -> Mailbox:
        # aiosmtpd logs every SMTP command at INFO: noise in a failing test's report.
        logging.getLogger("mail.log").setLevel(logging.WARNING)
        last_error: Exception | None = None
        for _ in range(5):  # another process may grab the port between probing and binding
            port = free_port(self.host)
            mailbox = Mailbox(self.host, port)
            controller = Controller(
                _Handler(mailbox), hostname=self.host, port=port, ready_timeout=10, enable_SMTPUTF8=True
            )
            try:
                controller.start()
            except Exception as error:  # pragma: no cover - a rare race
                last_error = error
                continue
            self.controller, self.mailbox = controller, mailbox
            return mailbox
        raise RuntimeError(f"could not start the test SMTP server: {last_error}")

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None
