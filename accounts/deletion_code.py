"""The code emailed to confirm deleting an account that has no usable password
(one that signs in by a code sent by email, as allauth's login by code does).

The code lives only in the session of the browser that asked for it, as an HMAC
with the moment it was sent: the email is the one other place it is written.
It is good for ``DELETION_CODE_MINUTES`` and ``DELETION_CODE_TRIES`` wrong guesses;
then a new one must be asked for."""

import secrets
import time

from django.utils.crypto import constant_time_compare, salted_hmac

from games.services.notifications import deletion_code_requested

DELETION_CODE_MINUTES = 15
DELETION_CODE_TRIES = 5
SESSION_KEY = "accounts.deletion_code"
SALT = "accounts.deletion-code"


def _digest(user_id: int, code: str) -> str:
    return salted_hmac(SALT, f"{user_id}:{code}", algorithm="sha256").hexdigest()


def deletion_code_send(*, session, user) -> None:
    """Email ``user`` a new code (call it in a transaction), and remember it in ``session``."""
    code = f"{secrets.randbelow(10**6):06d}"
    session[SESSION_KEY] = {"digest": _digest(user.pk, code), "sent": time.time(), "tries": 0}
    deletion_code_requested(user=user, code=code)


def deletion_code_sent(session) -> bool:
    """Whether a code is waiting to be typed in ``session``."""
    return SESSION_KEY in session


def deletion_code_check(*, session, user, code: str) -> str:
    """ "" when ``code`` is the one sent to ``user``; else why not: "none" (none
    asked for, or used up), "expired", "wrong"."""
    sent = session.get(SESSION_KEY)
    if sent is None:
        return "none"
    if time.time() - sent["sent"] > DELETION_CODE_MINUTES * 60 or sent["tries"] >= DELETION_CODE_TRIES:
        del session[SESSION_KEY]
        return "expired"
    if constant_time_compare(sent["digest"], _digest(user.pk, code.strip())):
        del session[SESSION_KEY]
        return ""
    session[SESSION_KEY] = {**sent, "tries": sent["tries"] + 1}
    return "wrong"
