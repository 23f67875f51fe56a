"""Signed links and addresses that act for a seat without a login.

An answer link is bound to the game, the seat, the decision version and the
answer, and expires; a stale or used one is recognised because the version it
names is no longer awaited. The answer is named by its place among the legal
answers of that decision, never spelled out: signed data is readable, and a URL
ends up in access logs, where "keep duke captain" would give a hand away. A reply address names a seat with an HMAC, so a
forged From header alone cannot play for anyone. A bounce address (VERP) names the
``SentEmail`` a delivery report is about with an HMAC too, so a forged report cannot
stop anyone's mail.
"""

from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.utils.crypto import constant_time_compare, salted_hmac

from coupsite.dkim_signing import from_domain

ANSWER_SALT = "games.answer"
ANSWER_MAX_AGE = timedelta(days=14)
REPLY_SALT = "games.reply"
UNSUBSCRIBE_SALT = "accounts.unsubscribe"
STOP_SALT = "accounts.stop-address"
BOUNCE_SALT = "games.bounce"
# The local part of every bounce address, before the "+": bounce@<domain> is the
# mailbox the mail server delivers them all to.
BOUNCE_LOCAL_PART = "bounce"


class BadToken(Exception):
    def __init__(self, expired: bool):
        super().__init__("expired" if expired else "invalid")
        self.expired = expired


def answer_token(seat, version: int, option: int) -> str:
    """A link for ``seat`` to give the ``option``-th legal answer of the decision
    asked at ``version``."""
    return signing.dumps({"g": seat.game_id, "s": seat.pk, "v": version, "o": option}, salt=ANSWER_SALT)


def read_answer_token(token: str) -> dict:
    """``{"g": game id, "s": seat id, "v": version, "o": option}``, or BadToken."""
    try:
        return signing.loads(token, salt=ANSWER_SALT, max_age=ANSWER_MAX_AGE)
    except signing.SignatureExpired:
        raise BadToken(expired=True) from None
    except signing.BadSignature:
        raise BadToken(expired=False) from None


def _reply_signature(game_id: int, position: int) -> str:
    return salted_hmac(REPLY_SALT, f"{game_id}.{position}", algorithm="sha256").hexdigest()[:20]


def reply_address(seat) -> str:
    """``play+<game>.<seat>.<signature>@domain``: replies to it play for this seat."""
    local, domain = settings.REPLY_ADDRESS.split("@", 1)
    return f"{local}+{seat.game_id}.{seat.position}.{_reply_signature(seat.game_id, seat.position)}@{domain}"


def read_reply_address(address: str) -> tuple[int, int] | None:
    """``(game id, seat position)`` named by a reply address, or None if forged."""
    local = address.strip().strip("<>").split("@", 1)[0]
    _, _, tag = local.partition("+")
    try:
        game_number, position_number, signature = tag.split(".")
        game_id, position = int(game_number), int(position_number)
    except ValueError:
        return None
    if not constant_time_compare(signature, _reply_signature(game_id, position)):
        return None
    return game_id, position


def _bounce_signature(sent_email_id: int) -> str:
    return salted_hmac(BOUNCE_SALT, str(sent_email_id), algorithm="sha256").hexdigest()[:16]


def bounce_address(sent_email_id: int) -> str:
    """``bounce+<id>.<signature>@domain``: the envelope sender of the ``SentEmail``
    ``sent_email_id``, where delivery reports about it come back. The domain is that
    of ``DEFAULT_FROM_EMAIL``, so the Return-Path aligns with the From (DMARC)."""
    return f"{BOUNCE_LOCAL_PART}+{sent_email_id}.{_bounce_signature(sent_email_id)}@{from_domain()}"


def is_bounce_address(address: str) -> bool:
    """Whether ``address`` has the shape of this site's bounce addresses (signed or not)."""
    local, _, domain = address.strip().strip("<>").lower().rpartition("@")
    return local.startswith(BOUNCE_LOCAL_PART + "+") and domain == from_domain()


def read_bounce_address(address: str) -> int | None:
    """The ``SentEmail`` id a bounce address of this site names, or None if forged."""
    if not is_bounce_address(address):
        return None
    local = address.strip().strip("<>").rpartition("@")[0]
    number, _, signature = local.partition("+")[2].partition(".")
    if not (number.isascii() and number.isdigit() and len(number) <= 18):
        return None
    if not constant_time_compare(signature.lower(), _bounce_signature(int(number))):
        return None
    return int(number)


def unsubscribe_token(user) -> str:
    return signing.dumps(user.pk, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> int | None:
    try:
        return signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None


def stop_token(address: str) -> str:
    """A link that stops (or allows again) all email to ``address``: for the
    invitations, which reach people who may have no account. It never expires."""
    return signing.dumps(address.strip().lower(), salt=STOP_SALT, compress=True)


def read_stop_token(token: str) -> str | None:
    try:
        address = signing.loads(token, salt=STOP_SALT)
    except signing.BadSignature:
        return None
    return address if isinstance(address, str) else None
