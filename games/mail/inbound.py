"""Answers written in a reply: "allow", "block duke", "steal ana", "keep duke captain".

A notification's Reply-To is the seat's signed reply address
(``tokens.reply_address``). Mail to it arrives through django-anymail's inbound
webhook of the one ESP named by ``INBOUND_ESP`` or ``manage.py read_mail`` (a Maildir, an mbox or a pipe from
the MTA); both hand the message to ``receive``, which reads the first line the
player wrote and plays it through ``services.play.decision_submit``, the same call a
click makes.

Who may play: whoever can write to the signed address, and only that. The From
header is not checked: it is trivially forged, so checking it would add no
safety, and players often reply from an alias or a forwarding address that is not
their account's. The HMAC in the address is the secret (it is only ever sent to
the seat's player). Everything we write back goes to the seat's own account
address, never to the From, so a forger learns nothing and cannot use us to mail
anyone else.

Delivery reports (bounces) and complaints arrive through the same doors, to the
signed bounce address each message leaves with: ``receive`` hands them to
``games.mail.bounces``, which puts the address on the suppression list.

Bad input never raises: a forged or unknown address, an auto-reply or a
duplicate is ignored; an unclear, illegal or stale answer for a real seat gets
the ``reply-unclear`` email, saying what we understood and listing the answers
legal now. Each call returns an ``Outcome`` for the caller's log.
"""

import hashlib
import logging
import re
from collections.abc import Callable
from datetime import UTC
from email import message_from_bytes, policy
from email.message import EmailMessage, Message
from email.utils import getaddresses, parseaddr, parsedate_to_datetime
from html.parser import HTMLParser

import quotequail
from anymail import urls as anymail_urls
from anymail.signals import inbound as anymail_inbound
from django.conf import settings
from django.core import checks
from django.core.cache import cache as django_cache
from django.core.checks import register
from django.dispatch import receiver
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import profile_of
from games.mail import bounces
from games.mail.outcome import Outcome
from games.mail.tokens import read_reply_address
from games.models import Game, Seat
from games.selectors import event_time, seat_in_game, table_for
from games.services import notifications, play
from games.services.errors import DecisionPassed, ServiceError

log = logging.getLogger(__name__)

# Where the signed address may appear: a reply names it in To or Cc; a mail
# server that delivers to a catch-all or a Bcc records it in the last two.
ADDRESS_HEADERS = ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To")
# How long a Message-ID is remembered, so a webhook retried by the ESP plays once.
SEEN_FOR = 14 * 24 * 3600
# At most this many explanations per seat per hour: whatever the headers say, a
# pair of robots answering each other stops quickly.
EXPLANATIONS_PER_HOUR = 5


def receive(message: Message) -> Outcome:
    """Play the answer written on the first line of ``message``, a reply to a
    seat's signed address; explain to the player when it cannot be played. A
    delivery report or a complaint goes to ``games.mail.bounces`` instead."""
    if isinstance(message, EmailMessage):
        return _receive(message)
    # A compat32 message (mailbox, older parsers), read again with the modern API.
    return _receive(message_from_bytes(message.as_bytes(), policy=policy.default))


def _receive(message: EmailMessage) -> Outcome:
    addresses = _addresses(message)
    # A delivery report is automatic mail by nature: it is told apart first.
    if bounces.is_report(message, addresses):
        return _once(message, lambda: bounces.report_received(message, addresses))
    if _is_automatic(message):
        return Outcome("ignored", "auto-reply")
    if _is_ours(message):
        return Outcome("ignored", "our-own-email")
    found = _reply_seat(addresses)
    if isinstance(found, Outcome):
        return found
    seat = found
    return _once(message, lambda: _answer(seat, message), seat)


def _once(message: EmailMessage, handle: Callable[[], Outcome], seat: Seat | None = None) -> Outcome:
    """``handle()`` the message unless it was received before (``seat``: the seat it
    answers, named in the outcome)."""
    seen = _seen_key(message)
    if seen and not django_cache.add(seen, True, SEEN_FOR):
        where = (seat.game_id, seat.position) if seat is not None else (None, None)
        return Outcome("ignored", "duplicate", *where)
    try:
        return handle()
    except Exception:
        if seen:  # let a retry of the webhook, or the next read_mail, try again
            django_cache.delete(seen)
        raise


def _answer(seat: Seat, message: EmailMessage) -> Outcome:
    line = first_line(reply_text(message))
    with translation.override(profile_of(seat.user).language):
        outcome, problem, reading = _play(seat, line, _written_at(message))
        if problem is None:
            return outcome
        if not _may_explain(seat):
            return Outcome("ignored", "too-many-explanations", seat.game_id, seat.position, line)
        notifications.reply_unclear(seat, line=line, problem=str(problem), reading=str(reading))
    return outcome


# ---- whose reply is it -------------------------------------------------------------------


def _is_automatic(message: EmailMessage) -> bool:
    """Vacation notices, bounces and list traffic (RFC 3834): answering them could
    start a loop between two robots."""
    auto = str(message.get("Auto-Submitted", "no")).strip().lower()
    if auto and not auto.startswith("no"):
        return True
    if str(message.get("Precedence", "")).strip().lower() in {"bulk", "junk", "list", "auto_reply"}:
        return True
    if any(name in message for name in ("X-Autoreply", "X-Autorespond", "X-Auto-Response")):
        return True
    return str(message.get("Return-Path", "")).strip() == "<>"  # a bounce: null envelope sender


def _is_ours(message: EmailMessage) -> bool:
    """One of our own emails come back (a player's mailbox forwarding everything
    to the reply address): answering it would explain our explanation forever."""
    ours = {parseaddr(settings.DEFAULT_FROM_EMAIL)[1].lower(), parseaddr(settings.SERVER_EMAIL)[1].lower()}
    return any(address.lower() in ours for address in header_addresses(message, ("From",)))


def _addresses(message: EmailMessage) -> list[str]:
    addresses = header_addresses(message, ADDRESS_HEADERS)
    envelope = getattr(message, "envelope_recipient", None)  # set by some anymail ESPs
    if envelope:
        addresses += [address for _name, address in getaddresses([str(envelope)]) if address]
    return addresses


def header_addresses(message: EmailMessage, names) -> list[str]:
    """The addresses in the headers ``names``, each header read from its raw text
    alone: the parsed header objects raise on some malformed addresses (an unclosed
    domain literal, ``<a@[>``), and one malformed header must not hide the others."""
    wanted = {name.lower() for name in names}
    # A raw header's bytes that are not ASCII come back as surrogates: read as UTF-8.
    values = [
        value.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        for name, value in message.raw_items()
        if name.lower() in wanted
    ]
    return [address for value in values for _name, address in getaddresses([value]) if address]


def _reply_seat(addresses: list[str]) -> Seat | Outcome:
    local = settings.REPLY_ADDRESS.split("@", 1)[0].lower() + "+"
    tagged = [a for a in addresses if a.lower().startswith(local)]
    for address in tagged:
        named = read_reply_address(address)
        if named is None:
            continue
        game_id, position = named
        seat = seat_in_game(game_id, position=position)
        if seat is None:
            return Outcome("ignored", "no-such-seat", game_id, position)
        return seat
    if tagged:
        log.info("Ignored a reply to a forged reply address: %s", ", ".join(tagged))
        return Outcome("ignored", "forged-address")
    return Outcome("ignored", "no-reply-address")


def _seen_key(message: EmailMessage) -> str | None:
    """The cache key that marks ``message`` as received, so an ESP retrying its
    webhook, or a mailbox read twice, plays it once."""
    message_id = str(message.get("Message-ID", "")).strip()
    if not message_id:
        return None
    return "games.mail.inbound.seen:" + hashlib.sha256(message_id.encode()).hexdigest()


def _may_explain(seat: Seat) -> bool:
    key = f"games.mail.inbound.explained:{seat.game.join_token}:{seat.position}"
    django_cache.add(key, 0, 3600)
    try:
        return django_cache.incr(key) <= EXPLANATIONS_PER_HOUR
    except ValueError:  # expired between add and incr
        return True


def _written_at(message: EmailMessage):
    try:
        written = parsedate_to_datetime(str(message.get("Date", "")))
    except (TypeError, ValueError):
        return None
    if written is None:
        return None
    return written if written.tzinfo else written.replace(tzinfo=UTC)


# ---- what the player wrote ---------------------------------------------------------------


def reply_text(message: EmailMessage) -> str:
    """The plain text of the reply, or its HTML as a mail client shows it as text."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return ""
    try:
        content = part.get_content()
    except (LookupError, ValueError, AssertionError):  # an unknown charset or a broken part
        payload = part.get_payload(decode=True)  # bytes, or None for a multipart
        content = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else ""
    if not isinstance(content, str):
        return ""
    if part.get_content_subtype() == "html":
        return html_to_text(content)
    return content


class _TextOfHTML(HTMLParser):
    """Text of an HTML reply, one line per block, with the lines of quoted replies
    (``<blockquote>``, which Gmail, Apple Mail and Thunderbird use) starting with "> "
    as in a plain-text reply, so that one reading of quotes serves both kinds of reply."""

    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "pre", "table", "blockquote"}
    SKIPPED = {"style", "script", "head", "title"}
    VOID = {"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base", "source"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = [""]
        self.stack: list[str] = []  # the open tags
        # How many of them hide their content, and how many quote it: counted as they
        # open and close, so that deeply nested HTML costs no more than flat HTML.
        self.hiding = self.quoting = 0

    def _count(self, tag: str, change: int):
        self.hiding += change * (tag in self.SKIPPED)
        self.quoting += change * (tag == "blockquote")

    def _new_line(self):
        if self.lines[-1].strip(" >"):
            self.lines.append("")

    def handle_starttag(self, tag, attrs):
        if tag in self.BLOCKS:
            self._new_line()
        if tag in self.VOID:
            return
        self.stack.append(tag)
        self._count(tag, 1)

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index] == tag:
                for closed in self.stack[index:]:
                    self._count(closed, -1)
                del self.stack[index:]
                break
        if tag in self.BLOCKS:
            self._new_line()

    def handle_data(self, data):
        if self.hiding:
            return
        for number, text in enumerate(data.split("\n")):
            if number:
                self._new_line()
            if text.strip() and not self.lines[-1].strip():  # a line's first words
                self.lines[-1] = "> " if self.quoting else ""
            self.lines[-1] += text


def html_to_text(html: str) -> str:
    parser = _TextOfHTML()
    parser.feed(html)
    parser.close()
    return "\n".join(parser.lines)


# Where the player's own text ends: their signature.
SIGNATURE = re.compile(r"^--\s*$")
# How many lines of a reply are read: a player's words are at its top, or below one
# quoted email of ours, far shorter. A huge message read whole would only cost time.
READ_LINES = 1000


def first_line(text: str) -> str:
    """The first line the player wrote: above the original their mail client quoted
    (or, in a reply written below it, under it), and above their signature.

    The quoted original is found by quotequail, which knows the attribution lines
    ("On … wrote:", "El … escribió:", "Em … escreveu:"), Outlook's header blocks
    ("From: … Sent: …", "De: … Enviado: …") and separators ("-----Original
    Message-----") of the mail clients in the languages players use."""
    text = "\n".join(text.splitlines()[:READ_LINES])
    unwrapped = quotequail.unwrap(text)
    parts = [unwrapped.get("text_top", ""), unwrapped.get("text_bottom", "")] if unwrapped else [text]
    return next(filter(None, map(_first_own_line, parts)), "")


def _first_own_line(text: str) -> str:
    """The first line of ``text`` that is neither blank nor quoted, above a signature."""
    for line in text.splitlines():
        line = line.strip()
        if SIGNATURE.match(line):
            return ""
        if line and not line.startswith(">"):
            return line
    return ""


# ---- playing it --------------------------------------------------------------------------


def _play(seat: Seat, line: str, written_at) -> tuple[Outcome, str | None, str]:
    """Play ``line`` for ``seat``: the outcome, and when it was not played, the
    problem to explain (in the active language) and what we read."""
    game, user = seat.game, seat.user

    def unclear(reason: str, problem: str, reading: str = "") -> tuple[Outcome, str, str]:
        return Outcome("explained", reason, game.pk, seat.position, line), problem, reading

    if not line:
        return unclear(
            "no-answer", _("We found no answer in your reply. Write it on the first line, above any quoted text.")
        )
    table = table_for(game, user)
    version = table.version
    if version is None:
        return unclear("not-awaited", _("The game is not waiting for an answer from you now."))
    if _written_before(game, version, written_at):
        return unclear(
            "stale", _("You wrote before the game asked the question it is waiting for now, so we did not play it.")
        )
    reply = table.game_kind.replies.read(line, table)
    if reply.option is None:
        return unclear(reply.reason, reply.problem, reply.understood)
    answer = table.reply_word(reply.option)
    command = {key: value for key, value in reply.option.items() if key != "version"}
    try:
        play.decision_submit(game=game, user=user, command=command, version=version)
    except ServiceError as error:
        reason = "stale" if isinstance(error, DecisionPassed) else "refused"
        return unclear(reason, error.message, answer)
    log.info("Played a reply (%s) for game %s seat %s", command["act"], game.pk, seat.position)
    return Outcome("played", "played", game.pk, seat.position, line, answer), None, answer


def _written_before(game: Game, version: int, written_at) -> bool:
    """Whether a reply dated ``written_at`` was written before the decision awaited
    at ``version`` was asked: it answers an earlier question (a late reply, or a
    redelivered one), and must not be played on this one. The Date header is the
    player's own clock; it is a guard against mistakes, not a security check."""
    if written_at is None or version == 0:
        return False
    asked = event_time(game, version - 1)
    # A Date header counts whole seconds: a reply in the same second is not late.
    return asked is not None and written_at < asked.replace(microsecond=0)


# ---- django-anymail's inbound webhook ----------------------------------------------------


def webhook_urls(esp: str) -> list:
    """The URL patterns of ``esp``'s inbound webhook (``/anymail/<esp>/inbound/``,
    e.g. ``postmark``) and of its tracking webhook (``/anymail/<esp>/tracking/``,
    whose bounces and complaints ``games.mail.bounces`` hears), and of nothing
    else: the other providers' endpoints of django-anymail are never mounted, so
    they answer 404. Both take the same basic-auth secret."""
    names = {f"{esp}_inbound_webhook", f"{esp}_tracking_webhook"}
    return [pattern for pattern in anymail_urls.urlpatterns if pattern.name in names]


def inbound_providers() -> list[str]:
    """The providers whose inbound webhook django-anymail offers."""
    suffix = "_inbound_webhook"
    return sorted(p.name.removesuffix(suffix) for p in anymail_urls.urlpatterns if (p.name or "").endswith(suffix))


@register()
def check_inbound_webhook(app_configs, **kwargs):
    """The inbound webhook plays the replies it is given, so it must only take
    them from the provider: outside DEBUG the site refuses to start with it
    mounted (``INBOUND_ESP``) and no ``ANYMAIL_WEBHOOK_SECRET``."""
    esp = settings.INBOUND_ESP
    if not esp:
        return []
    if not webhook_urls(esp):
        return [
            checks.Error(
                f"INBOUND_ESP={esp!r} is not an email provider with an inbound webhook.",
                hint="Use one of: " + ", ".join(inbound_providers()) + "; or leave INBOUND_ESP empty.",
                id="games.E001",
            )
        ]
    if settings.ANYMAIL.get("WEBHOOK_SECRET"):
        return []
    problem = f"The email webhooks /anymail/{esp}/inbound/ and /tracking/ are mounted without ANYMAIL_WEBHOOK_SECRET: anyone could post replies and bounces to them."
    hint = "Set ANYMAIL_WEBHOOK_SECRET to the user:password your provider sends, or leave INBOUND_ESP empty."
    if settings.DEBUG:
        return [checks.Warning(problem, hint=hint, id="games.W001")]
    return [checks.Error(problem, hint=hint, id="games.E002")]


@receiver(anymail_inbound, dispatch_uid="games.mail.inbound.receive")
def _on_inbound(sender, event, esp_name, **kwargs):
    """An ESP posted a message to /anymail/<esp>/inbound/ (authenticated by
    ANYMAIL["WEBHOOK_SECRET"]): play it like any other reply."""
    outcome = receive(event.message)
    log.info("Inbound email from %s: %s", esp_name, outcome)
