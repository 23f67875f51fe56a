"""``python manage.py read_mail [PATH] [--maildir | --mbox]`` or ``read_mail --imap [URL] [--watch]``:
play the replies in a mailbox, and record the delivery reports (bounces) and complaints
among them.

For self-hosting without an ESP: point the reply address's mailbox at it, and that of
the bounce addresses (``bounce@`` the domain of DEFAULT_FROM_EMAIL, with its
``+`` extensions).

- ``read_mail`` or ``read_mail -`` reads one message from standard input, so an
  MTA can pipe each delivery to it (Postfix ``mailbox_command``, an alias
  ``play: "|/path/to/manage.py read_mail"``, procmail, fetchmail's ``--mda``).
- ``read_mail PATH`` reads a Maildir (a folder with cur/, new/, tmp/) or an mbox
  file; ``--maildir`` / ``--mbox`` say which when guessing is not wanted. In a
  Maildir, messages already marked seen are skipped and each one read is marked
  seen, so a cron job may run it every minute. An mbox is read whole every time
  (a message received before is recognised by its Message-ID and ignored while
  the cache remembers it): prefer a Maildir or a pipe.

- ``read_mail --imap [URL]`` reads the folder of an IMAP mailbox (URL, or the
  ``IMAP_URL`` setting: ``imaps://user:password@host/INBOX``) once and exits, moving
  each message to the processed folder, or the set-aside one (games/mail/imap.py);
  with ``--watch`` it keeps reading as mail arrives (IDLE, or a poll every
  ``IMAP_POLL_SECONDS``) and reconnects when the connection is lost, until stopped
  (SIGTERM or Ctrl-C).

Prints one plain sentence per message with its outcome (``games.mail.inbound.Outcome``),
never what the message said.
Exit status 0; 2 with a one-line error when PATH cannot be read, or the IMAP
mailbox cannot be reached (a wrong URL, server or password); 1 when a message failed unexpectedly (it stays unread in a
Maildir, for the next run; it is set aside in an IMAP mailbox).
"""

import email
import email.policy
import logging
import mailbox
import signal
import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from games.mail import imap
from games.mail.inbound import Outcome, receive

# Why a message was ignored, as the end of a sentence.
IGNORED_BECAUSE = {
    "auto-reply": "it is an automatic reply",
    "our-own-email": "it is one of the site's own emails",
    "duplicate": "it was read before",
    "too-many-explanations": "its player has already been sent enough explanations",
    "no-such-seat": "the seat it answers is no longer in the game",
    "forged-address": "its reply address was not signed by this site",
    "no-reply-address": "it is not addressed to a game's reply address",
    "report-not-ours": "it reports on mail this site did not send (not to a bounce address of this site)",
    "forged-bounce-address": "its bounce address was not signed by this site",
    "unknown-sent-email": "the email it reports on was sent too long ago to be remembered",
    "no-report-part": "it is a report with no delivery status or feedback part",
    "not-a-failure": "it reports no failed delivery",
    "unreadable-report": "its report cannot be read",
}
# What a delivery report or a complaint did to the address it is about.
RECORDED_BECAUSE = {
    "hard-bounce": "a hard bounce: no more email goes to its address",
    "soft-bounce": "a soft bounce: email to its address waits a day (the third in a week stops it)",
    "complaint": "a complaint: no more email goes to its address",
}


def sentence(outcome: Outcome) -> str:
    """What became of a message, in a plain sentence."""
    where = f" in game #{outcome.game_id}, seat {outcome.position + 1}" if outcome.position is not None else ""
    if outcome.status == "played":
        return f"played the answer{where}."
    if outcome.status == "recorded":
        return f"recorded {RECORDED_BECAUSE.get(outcome.reason, outcome.reason)}."
    if outcome.status == "explained":
        return f"not played{where} ({outcome.reason}): the player was emailed why."
    return f"ignored{where}: {IGNORED_BECAUSE.get(outcome.reason, outcome.reason)}."


class Command(BaseCommand):
    help = "Play the answers written in replies, read from a Maildir, an mbox or standard input."

    def add_arguments(self, parser):
        parser.add_argument(
            "path", nargs="?", default="-", help="a Maildir or mbox; '-' or nothing: one message on stdin"
        )
        kind = parser.add_mutually_exclusive_group()
        kind.add_argument("--maildir", action="store_true", help="PATH is a Maildir")
        kind.add_argument("--mbox", action="store_true", help="PATH is an mbox file")
        kind.add_argument(
            "--imap",
            dest="imap_url",
            nargs="?",
            const="",
            metavar="URL",
            help="read an IMAP folder: imaps://user:password@host/INBOX (default: the IMAP_URL setting)",
        )
        parser.add_argument(
            "--watch", action="store_true", help="with --imap: keep reading as mail arrives, until stopped"
        )

    def handle(self, *args, path, maildir, mbox, imap_url, watch, **options):
        # Each message's outcome is this command's own line: the log's copy of it
        # would say everything twice.
        logging.getLogger("games.mail.inbound").setLevel(logging.WARNING)
        if imap_url is not None:
            if path != "-":
                self._fail("--imap reads the mailbox of a URL, not PATH")
            self._read_imap(imap_url or settings.IMAP_URL, watch=watch)
            return
        if watch:
            self._fail("--watch goes with --imap")
        if path == "-":
            message = email.message_from_binary_file(sys.stdin.buffer, policy=email.policy.default)
            failed = not self._receive("-", message)
        else:
            box = self._open(Path(path), maildir=maildir, mbox=mbox)
            failed = False
            try:
                for key in list(box.keys()):
                    failed |= not self._read(box, key)
            finally:
                box.close()
        if failed:
            sys.exit(1)

    def _open(self, path: Path, *, maildir: bool, mbox: bool):
        is_maildir = path.is_dir() and all((path / sub).is_dir() for sub in ("cur", "new", "tmp"))
        if maildir or (not mbox and path.is_dir()):
            if not is_maildir:
                self._fail(f"{path} is not a Maildir (a folder with cur/, new/ and tmp/)")
            return mailbox.Maildir(path, factory=None, create=False)
        if not path.is_file():
            self._fail(f"cannot read {path}: no such mbox file")
        try:
            with path.open("rb"):
                pass
        except OSError as error:
            self._fail(f"cannot read {path}: {error.strerror}")
        return mailbox.mbox(path, factory=None, create=False)

    def _read(self, box, key) -> bool:
        if isinstance(box, mailbox.Maildir):
            stored = box.get_message(key)
            if "S" in stored.get_flags():
                return True
        message = email.message_from_bytes(box.get_bytes(key), policy=email.policy.default)
        if not self._receive(key, message):
            return False
        if isinstance(box, mailbox.Maildir):
            stored.set_subdir("cur")
            stored.add_flag("S")
            box[key] = stored
        return True

    def _receive(self, key, message) -> bool:
        try:
            outcome = receive(message)
        except Exception as error:  # noqa: BLE001 - one broken message must not stop the others
            self.stdout.write(f"{key}: error: {type(error).__name__}: {error}")
            return False
        self.stdout.write(f"{key}: {sentence(outcome)}")
        return True

    def _read_imap(self, url: str, *, watch: bool):
        if not url:
            self._fail("no mailbox: give --imap a URL or set IMAP_URL (imaps://user:password@host/INBOX)")
        try:
            account = imap.parse_url(url)
        except imap.BadURL as error:
            self._fail(str(error))
        reader = imap.Reader(
            account,
            on_outcome=lambda uid, outcome: self._say(f"{uid}: {sentence(outcome)}"),
            on_set_aside=lambda uid, why: self._say(f"{uid}: set aside in {settings.IMAP_SET_ASIDE_FOLDER!r}: {why}."),
        )
        try:
            mailbox = imap.connect(account)
        except imap.Interrupted as error:
            self._fail(str(error))
        if not watch:
            try:
                reader.read(mailbox)
            except imap.Interrupted as error:
                self.stderr.write(f"error: {error}")
                sys.exit(1)
            finally:
                imap.close(mailbox)
            if reader.set_aside:
                sys.exit(1)
            return
        self._say(f"Reading {account}: it {imap.how_it_waits(mailbox)}.")
        # SIGTERM stops it as Ctrl-C does (as a container's first process it would
        # otherwise be ignored). A message being handled then is rolled back and
        # stays in the folder, for the next start.
        signal.signal(signal.SIGTERM, signal.default_int_handler)
        try:
            reader.watch(mailbox)
        except KeyboardInterrupt:
            pass

    def _say(self, line: str):
        self.stdout.write(line)
        self.stdout.flush()

    def _fail(self, message):
        self.stderr.write(f"error: {message}")
        sys.exit(2)
