"""A throwaway Dovecot IMAP server: Debian's ``dovecot-imapd`` (``make test`` installs it)
run as a process of its own, never the system's service, with a configuration written
into a temporary folder.

It listens on 127.0.0.1 on a free port, without TLS unless asked (then with a
certificate of its own), and knows one user (a ``passwd-file`` with a plain
password) whose mail is a Maildir in the same folder; Dovecot logs into
``dovecot.log`` there. Each test that needs one starts its own
(tests/mail/test_imap.py), and ``benchmarks/imap.py`` too. To try the site's
IMAP reader by hand (README, "A site on a plain mailbox")::

    .venv/bin/python -m tests.dovecot        # port 1143; prints IMAP_URL; Ctrl-C stops it
    IMAP_URL=... make run                    # the site, its workers and the mail reader
    .venv/bin/python -m tests.dovecot reply ben@example.com allow
"""

from __future__ import annotations

import argparse
import email
import mailbox
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage, Message
from email.utils import format_datetime, make_msgid, parsedate_to_datetime
from pathlib import Path
from urllib.parse import quote

from imap_tools import MailBoxUnencrypted

DOVECOT = Path("/usr/sbin/dovecot")
# The one user (its password has a space, so that URLs must percent-encode it).
USER, PASSWORD = "play", "s3cret pass"
# Dovecot refuses to open a mailbox as root: the test user's mail belongs to this
# system user (the Debian package creates it) when the tests run as root.
MAIL_OWNER = "dovecot"

CONFIG = """\
base_dir = {folder}/run
state_dir = {folder}/state
log_path = {folder}/dovecot.log
info_log_path = {folder}/dovecot.log
protocols = imap
listen = 127.0.0.1
{tls}
# Plain passwords over a connection without TLS: this server is reached from 127.0.0.1 only.
disable_plaintext_auth = no
auth_mechanisms = plain login
default_login_user = {login_user}
default_internal_user = {internal_user}
first_valid_uid = {uid}
last_valid_uid = {uid}
mail_location = maildir:{folder}/mail/%u
mail_uid = {uid}
mail_gid = {gid}
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {folder}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={gid} home={folder}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
  }}
}}
service anvil {{
  chroot =
}}
service imap-login {{
  chroot =
}}
{extra}
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class ImapUser:
    """The user of a Dovecot of ours on 127.0.0.1, as a mail client reaches it."""

    def __init__(self, *, port: int, user: str = USER, password: str = PASSWORD):
        self.port, self.user, self.password = port, user, password

    @property
    def url(self) -> str:
        """The IMAP_URL of the user's INBOX (no TLS: ``imap://`` to 127.0.0.1)."""
        return f"imap://{quote(self.user, safe='')}:{quote(self.password, safe='')}@127.0.0.1:{self.port}/INBOX"

    def connect(self) -> MailBoxUnencrypted:
        """A client logged in as the user, no folder selected (``with`` logs out)."""
        return MailBoxUnencrypted("127.0.0.1", self.port).login(self.user, self.password, initial_folder=None)

    def append(self, *messages: bytes | Message, folder: str = "INBOX") -> None:
        """Deliver ``messages`` into ``folder`` over IMAP, as a mail client or server does."""
        with self.connect() as box:
            for message in messages:
                box.append(message if isinstance(message, bytes) else message.as_bytes(), folder)

    def folders(self) -> dict[str, list[tuple[set[str], bytes]]]:
        """Each folder's messages, as (flags, bytes), oldest first."""
        with self.connect() as box:
            found = {}
            for folder in box.folder.list():
                box.folder.set(folder.name)
                found[folder.name] = [
                    (set(message.flags), message.obj.as_bytes()) for message in box.fetch("ALL", mark_seen=False)
                ]
            return found


# With ``tls``: a certificate of its own for localhost, which clients trust through
# SSL_CERT_FILE=<folder>/cert.pem; STARTTLS on the IMAP port, and an IMAPS port.
TLS = """\
ssl = yes
ssl_cert = <{folder}/cert.pem
ssl_key = <{folder}/key.pem
"""


class Dovecot(ImapUser):
    """One Dovecot server with one user; ``extra`` is appended to its configuration
    (e.g. ``imap_capability = ...`` to offer no IDLE). Without ``tls`` it offers no
    TLS at all."""

    def __init__(
        self,
        *,
        port: int | None = None,
        extra: str = "",
        user: str = USER,
        password: str = PASSWORD,
        tls: bool = False,
    ):
        if not DOVECOT.exists():
            raise RuntimeError(f"{DOVECOT} is missing: `make test` installs it (apt-get install dovecot-imapd)")
        super().__init__(port=port or free_port(), user=user, password=password)
        # Not under pytest's temporary folder, which only root may enter: the mail
        # processes run as MAIL_OWNER and must reach the Maildir.
        self.folder = Path(tempfile.mkdtemp(prefix="dovecot-"))
        self.folder.chmod(0o755)
        self.process: subprocess.Popen | None = None
        self.tls_port = free_port() if tls else 0
        if tls:
            self._make_certificate()
        self._configure(extra)

    @property
    def certificate(self) -> Path:
        return self.folder / "cert.pem"

    @property
    def tls_url(self) -> str:
        """The IMAP_URL of the user's INBOX over TLS from the start (``imaps://``)."""
        return f"imaps://{quote(self.user, safe='')}:{quote(self.password, safe='')}@localhost:{self.tls_port}/INBOX"

    def _make_certificate(self) -> None:
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost"]
            + ["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"]
            + ["-keyout", str(self.folder / "key.pem"), "-out", str(self.certificate)],
            check=True,
            capture_output=True,
        )

    def _configure(self, extra: str) -> None:
        if os.geteuid() == 0:
            owner = pwd.getpwnam(MAIL_OWNER)
            uid, gid, login_user, internal_user = owner.pw_uid, owner.pw_gid, "dovenull", MAIL_OWNER
        else:  # an unprivileged Dovecot runs everything as the one user it has
            uid, gid = os.getuid(), os.getgid()
            login_user = internal_user = pwd.getpwuid(uid).pw_name
        (self.folder / "mail").mkdir()
        os.chown(self.folder / "mail", uid, gid)
        (self.folder / "passwd").write_text(f"{self.user}:{{PLAIN}}{self.password}\n")
        (self.folder / "dovecot.conf").write_text(
            CONFIG.format(
                folder=self.folder,
                port=self.port,
                uid=uid,
                gid=gid,
                login_user=login_user,
                internal_user=internal_user,
                extra=extra,
                tls=TLS.format(folder=self.folder) if self.tls_port else "ssl = no",
                tls_port=self.tls_port,
            )
        )

    @property
    def maildir(self) -> Path:
        """The user's Maildir: what is written into its ``new/`` is delivered, as by an MTA."""
        return self.folder / "mail" / self.user

    @property
    def log(self) -> str:
        path = self.folder / "dovecot.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self, timeout: float = 20.0) -> None:
        """Start the server in the foreground of a process of ours and wait until it accepts connections."""
        self.process = subprocess.Popen(
            [str(DOVECOT), "-F", "-c", str(self.folder / "dovecot.conf")],
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "dovecot.stderr", "ab"),  # noqa: SIM115 - the child keeps it
            start_new_session=True,  # its own process group: stop() ends its children with it
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"dovecot exited at start:\n{self._errors()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as connection:
                    if connection.recv(64).startswith(b"* OK"):
                        return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"dovecot did not answer on port {self.port}:\n{self._errors()}")

    def _errors(self) -> str:
        stderr = self.folder / "dovecot.stderr"
        return (stderr.read_text(errors="replace") if stderr.exists() else "") + self.log[-2000:]

    def stop(self) -> None:
        """Stop the server and every process of it, so that its clients' connections
        are closed, as in a restart of a real one (the master alone would leave the
        processes serving them running)."""
        if self.process is None:
            return
        group = self.process.pid
        os.killpg(group, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(group, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait()
        self.process = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> Dovecot:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.remove()


def reply_to_newest(maildir: Path, address: str, words: str) -> EmailMessage:
    """The reply ``address`` writes, ``words`` above the quoted original, to the newest
    email the site stored for it in ``maildir`` that has a reply address."""
    stored = mailbox.Maildir(maildir, factory=None, create=False)
    emails = [email.message_from_bytes(stored.get_bytes(key), policy=policy.default) for key in stored.keys()]
    theirs = [message for message in emails if message["Reply-To"] and address.lower() in str(message["To"]).lower()]
    if not theirs:
        raise SystemExit(f"error: no email to {address} with a reply address in {maildir}")
    original = max(theirs, key=lambda message: parsedate_to_datetime(str(message["Date"])))
    answer = EmailMessage()
    answer["From"] = address
    answer["To"] = str(original["Reply-To"])
    answer["Subject"] = f"Re: {original['Subject']}"
    answer["In-Reply-To"] = str(original["Message-ID"])
    answer["Date"] = format_datetime(datetime.now(UTC))
    answer["Message-ID"] = make_msgid(domain="example.com")
    quoted = original.get_body(preferencelist=("plain",))
    text = quoted.get_content() if quoted is not None else ""
    quote_lines = "\n".join("> " + line for line in text.splitlines())
    answer.set_content(f"{words}\n\nOn {original['Date']}, {original['From']} wrote:\n{quote_lines}\n")
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description="A throwaway Dovecot IMAP server, and replies delivered to it.")
    parser.add_argument("--port", type=int, default=1143, help="port on 127.0.0.1 (default: %(default)s)")
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("serve", help="run the server until Ctrl-C (the default)")
    replying = commands.add_parser(
        "reply", help="deliver to the server's INBOX the reply of ADDRESS to the newest email the site stored for it"
    )
    replying.add_argument("address", help="the player's email address, e.g. ben@example.com")
    replying.add_argument("words", help='the answer, e.g. "allow" or "steal ana"')
    replying.add_argument("--maildir", type=Path, default=Path("var/mailbox"), help="(default: %(default)s)")
    arguments = parser.parse_args()
    if arguments.command == "reply":
        ImapUser(port=arguments.port).append(reply_to_newest(arguments.maildir, arguments.address, arguments.words))
        print(f"Delivered the reply of {arguments.address} to the INBOX of 127.0.0.1:{arguments.port}.")
        return
    with Dovecot(port=arguments.port) as server:
        print(f"Dovecot listens on 127.0.0.1:{server.port}; its mail and log are in {server.folder}")
        print(f"IMAP_URL='{server.url}'")
        print("Ctrl-C stops it and removes the folder.")
        try:
            signal.pause()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
