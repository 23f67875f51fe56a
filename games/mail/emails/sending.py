"""How an email is built and sent: one ``Email`` rendered from its three templates in
its reader's language and time zone, with the headers every email carries, sent alone
or in a ``Batch``; and ``email_task``, which makes an email's function the Celery task
the services queue by name.

Every email carries a Message-ID, ``Auto-Submitted`` (RFC 3834: vacation responders do
not answer it), the thread headers of its game (a mail client that threads by
References files a game's emails together), and List-Unsubscribe headers (RFC 8058
one-click): an account's unsubscribe, or for an address that may have no account (an
invitation), a link that stops all email to the address. No email goes to an address
that asked for none or that mail fails to (``accounts.mail.mail_refused``: it
bounced or complained), nor to a bot's account.
"""

import json
import logging
from dataclasses import dataclass
from email.header import Header
from email.headerregistry import BaseHeader, HeaderRegistry, UnstructuredHeader
from email.policy import default as default_policy
from email.utils import make_msgid
from smtplib import SMTPException

from celery import Task, shared_task
from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.core.mail import EmailMultiAlternatives, mailers
from django.template import Context, Engine
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts.mail import mail_refused, normalized, refusing_all
from accounts.models import profile_of
from games.mail.tokens import stop_token, unsubscribe_token
from games.models import Game

log = logging.getLogger(__name__)

# The namespace of the tasks the services queue by name (``services/notifications.py``):
# ``games/tasks.py``'s own, and the emails', registered under it too, so that the
# messages waiting in the outbox and in the broker's queues keep their task.
TASK_NAMESPACE = "games.tasks."


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _domain() -> str:
    return settings.REPLY_ADDRESS.rsplit("@", 1)[-1]


def thread_id(game: Game) -> str:
    """The Message-ID every email about ``game`` refers to, so they thread together."""
    return f"<game-{game.pk}@{_domain()}>"


def render_text(template: str, context: dict) -> str:
    """A subject or a plain-text part: rendered without HTML escaping (its includes
    too), so a name reads "Ana's" there, not "Ana&#x27;s"."""
    return Engine.get_default().get_template(template).render(Context(context, autoescape=False))


# ---- the task of an email ------------------------------------------------------------------


class Unsent(Exception):
    """A batch of emails failed midway (the mail server's error is the cause):
    ``retry_args`` are its task's arguments naming only the emails not sent, which
    its retry sends."""

    def __init__(self, *retry_args):
        super().__init__("emails not sent")
        self.retry_args = list(retry_args)


class _EmailTask(Task):
    """The task of an email (``email_task``). When the mail server fails, it is tried
    again later, eight times at most, after a random pause of at most 30 seconds, a
    bound that doubles at each try up to ten minutes; a batch that failed midway
    (``Unsent``) is tried again for the emails it did not send."""

    autoretry_for = (SMTPException, OSError, Unsent)
    retry_backoff = 30
    retry_backoff_max = 600
    max_retries = 8
    ignore_result = True

    def retry(self, args=None, kwargs=None, exc=None, **options):
        """Celery's autoretry calls this with the error it caught: a batch's ``Unsent``
        is retried with the arguments it names, and reported as the mail server's error."""
        if isinstance(exc, Unsent):
            args, exc = exc.retry_args, exc.__cause__
        return super().retry(args, kwargs, exc, **options)


def email_task(function):
    """Make ``function`` (an email: it takes ids, and sends) the Celery task
    ``games.tasks.<its name>``, the name the services queue it by, retried as every
    email is (``_EmailTask``). Calling the task runs the function here."""
    return shared_task(base=_EmailTask, name=TASK_NAMESPACE + function.__name__)(function)


# ---- one email -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Email:
    """One email: the templates ``emails/<template>-subject.txt``, ``-body.txt`` and
    ``-body.html`` rendered from ``context`` in ``language``, to ``to``, a player's
    account (dates in its time zone, its unsubscribe link) or an address that may have
    no account (an invitation: dates in UTC, a link that stops all email to it).
    ``thread``: the game whose thread it joins; ``reply_to``: where a reply goes."""

    template: str
    to: AbstractUser | str
    context: dict
    language: str
    thread: Game | None = None
    reply_to: str | None = None
    auto_submitted: str = "auto-generated"  # "auto-replied" when it answers the reader's email

    @property
    def account(self) -> AbstractUser | None:
        return None if isinstance(self.to, str) else self.to

    @property
    def address(self) -> str:
        return self.to if isinstance(self.to, str) else self.to.email

    def send(self) -> None:
        """Send it on a connection of its own, if it is to be sent (``wanted``)."""
        if self.wanted(refused=mail_refused(self.address, invitation=self.account is None)):
            self.message().send()

    def wanted(self, *, refused: bool) -> bool:
        """Whether to send it: not when its address asked for no such email or mail to
        it fails (``refused``), nor to a bot's account, which has no address and reads nothing."""
        if refused:
            log.info("Did not send %s: the address asked for no such email, or mail to it fails", self.template)
            return False
        return self.account is None or not profile_of(self.account).bot_level

    def message(self) -> EmailMultiAlternatives:
        """Its three parts rendered in the reader's language and time zone, with every
        header it carries."""
        account = self.account
        zone = profile_of(account).time_zone if account is not None else None
        with translation.override(self.language), timezone.override(zone):
            if account is not None:
                links = {
                    "unsubscribe_url": absolute(reverse("unsubscribe", args=[unsubscribe_token(account)])),
                    "preferences_url": absolute(reverse("profile")),
                }
            else:
                links = {"unsubscribe_url": absolute(reverse("stop_mail", args=[stop_token(self.address)]))}
            context = {**self.context, "site_url": settings.SITE_URL, **links}
            subject = " ".join(render_text(f"emails/{self.template}-subject.txt", context).split())
            text = render_text(f"emails/{self.template}-body.txt", context)
            html = render_to_string(f"emails/{self.template}-body.html", context)
        headers = {"Message-ID": make_msgid(domain=_domain()), "Auto-Submitted": self.auto_submitted}
        if self.thread is not None:
            headers["In-Reply-To"] = headers["References"] = thread_id(self.thread)
        headers["List-Unsubscribe"] = f"<{links['unsubscribe_url']}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        reply_to = [self.reply_to] if self.reply_to else None
        message = _Message(subject, text, to=[self.address], headers=headers, reply_to=reply_to)
        message.attach_alternative(html, "text/html")
        return message


class _OneLineHeader(UnstructuredHeader, BaseHeader):
    """A header written out as it is, on one line (RFC 5322 allows 998 characters).
    A ``BaseHeader`` as the registry makes every header class (its parser first), so
    that its ``name`` is known here."""

    def fold(self, *, policy) -> str:
        return f"{self.name}: {self}{policy.linesep}"


class _SubjectHeader(UnstructuredHeader, BaseHeader):
    """The subject, written out so that every reader reads it back as it was written.

    Python's folding of a long subject with non-ASCII text in it (a name, "—") leaves
    a space at the end of a line before the one that starts the next, so a reader
    that unfolds it (RFC 5322: by removing the line break alone) reads two spaces, or
    a subject that starts with one. A subject that fits on its line in ASCII is
    written as it is; any other is written as RFC 2047 encoded words only, whose
    folding whitespace a reader drops (RFC 2047, 6.2), so no space is ever added."""

    def fold(self, *, policy) -> str:
        text = str(self)
        if text.isascii() and len(self.name) + 2 + len(text) <= policy.max_line_length:
            return f"{self.name}: {text}{policy.linesep}"
        encoded = Header(text, "utf-8", policy.max_line_length, header_name=self.name)
        return f"{self.name}: {encoded.encode(linesep=policy.linesep)}{policy.linesep}"


class _HeaderClasses(HeaderRegistry):
    """The header classes of our emails: Python's own, but List-Unsubscribe written on
    one line (its long ``<url>`` would otherwise be folded into RFC 2047 encoded words,
    which no mail client reads as a link), the subject folded without adding a space
    (``_SubjectHeader``), and each class made once, where the standard registry makes
    a new one at every look-up of every message."""

    def __init__(self):
        super().__init__()
        self.map_to_type("list-unsubscribe", _OneLineHeader)
        self.map_to_type("subject", _SubjectHeader)
        self._made = {}

    def __getitem__(self, name):
        key = name.lower()
        if key not in self._made:
            self._made[key] = super().__getitem__(key)
        return self._made[key]


_HEADER_CLASSES = _HeaderClasses()


class _Message(EmailMultiAlternatives):
    """An email message written with our header classes (``_HeaderClasses``)."""

    def message(self, *, policy=default_policy):
        return super().message(policy=policy.clone(header_factory=_HEADER_CLASSES))


# ---- many emails ---------------------------------------------------------------------------


class Batch:
    """Emails to players' accounts sent together (``with Batch(addresses) as batch``):
    the addresses among them that refuse all email are read in one query, and the
    emails leave over one connection to the mail server."""

    def __init__(self, addresses):
        self.refusing = refusing_all(addresses)
        self.mailer = mailers.default

    def __enter__(self) -> "Batch":
        self.mailer.__enter__()
        return self

    def __exit__(self, *exception) -> None:
        self.mailer.__exit__(*exception)

    def send(self, email: Email) -> None:
        if email.wanted(refused=normalized(email.address) in self.refusing):
            self.mailer.send_messages([email.message()])


class _RenderedBlock:
    """A template block rendered already: ``{% include %}`` takes it in place of a
    template, and inserts its text as it is."""

    def __init__(self, text: str):
        self.text = text

    def render(self, _context) -> str:
        return self.text


class SharedTableBlocks:
    """A kind's email table block, text and HTML, rendered once for each distinct
    public table and language among emails about one game that all show it. It is
    rendered from the context values the block reads (``Templates.email_table_reads``,
    the same for every reader of one game version) alone, so a reader is never shown
    a block built from anything private to another."""

    def __init__(self, templates):
        self.templates = templates
        self.blocks = {}

    def rendered(self, context: dict) -> dict:
        """The context's ``table_txt`` and ``table_html``, rendered (in the active language)."""
        read = {key: context[key] for key in self.templates.email_table_reads}
        key = (translation.get_language(), json.dumps(read, sort_keys=True, default=str))
        if key not in self.blocks:
            text_template, html_template = self.templates.email_table
            self.blocks[key] = {
                "table_txt": _RenderedBlock(render_text(text_template, read)),
                "table_html": _RenderedBlock(render_to_string(html_template, read)),
            }
        return self.blocks[key]
