"""Replies read from an IMAP mailbox (games/mail/imap.py, ``manage.py read_mail --imap``),
against a real Dovecot server each test starts (tests/dovecot.py), on PostgreSQL.

The single passes run in this process; the watching reader runs as the process an
operator starts, reading the committed test database, so those tests use
``transactional_db``."""

import io
import mailbox
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command

from accounts.bounces import failure_of
from games.mail import imap
from tests.dovecot import Dovecot, free_port, reply_to_newest
from tests.mail.test_bounces import DOMAIN as BOUNCES_DOMAIN
from tests.mail.test_bounces import sample as bounce_sample
from tests.mail.test_bounces import sent_to
from tests.mail.test_replies import reply, state_of
from tests.players import started_game
from tests.worker import ROOT, database_url

PROCESSED, SET_ASIDE = "Processed", "Set aside"
# Without IDLE among the capabilities, so the reader must poll.
NO_IDLE = "imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE LITERAL+ MOVE UIDPLUS"


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Replies are remembered by Message-ID in the cache."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def dovecot():
    with Dovecot() as server:
        yield server


def read_once(url: str) -> tuple[int, str]:
    """``read_mail --imap URL`` in this process: its exit status and output."""
    out = io.StringIO()
    try:
        call_command("read_mail", "--imap", url, stdout=out)
    except SystemExit as stop:
        return int(stop.code or 0), out.getvalue()
    return 0, out.getvalue()


def wait_until(condition, timeout: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        time.sleep(0.1)


class Watcher:
    """``manage.py read_mail --imap URL --watch`` as a process of its own, on the test database."""

    def __init__(self, url: str, folder: Path, **environ: str):
        self.out, self.err = folder / "reader.out", folder / "reader.err"
        env = {
            **os.environ,
            "DATABASE_URL": database_url(),
            # The emails it sends leave from the reader itself, into a Maildir of the test.
            "CELERY_TASK_ALWAYS_EAGER": "1",
            "EMAIL_FILE_PATH": str(folder / "sent"),
            **environ,
        }
        with self.out.open("wb") as out, self.err.open("wb") as err:
            self.process = subprocess.Popen(
                [sys.executable, "manage.py", "read_mail", "--imap", url, "--watch"],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=err,
            )

    @property
    def output(self) -> str:
        return self.out.read_text()

    @property
    def errors(self) -> str:
        return self.err.read_text()

    def wait_for(self, text: str, timeout: float = 30.0) -> None:
        wait_until(
            lambda: text in self.output or self.process.poll() is not None, timeout, f"{text!r} in the reader's output"
        )
        assert text in self.output, f"the reader stopped ({self.process.returncode}):\n{self.errors}"

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=20)


@pytest.fixture
def watcher(tmp_path):
    started = []

    def start(url: str, **environ: str) -> Watcher:
        started.append(Watcher(url, tmp_path, **environ))
        return started[-1]

    yield start
    for reader in started:
        if reader.process.poll() is None:
            reader.stop()


def played(game) -> bool:
    return state_of(game).by_name["p1"].coins == 3


# ---- the URL ----------------------------------------------------------------------------


def test_the_url_names_the_user_password_and_folder_percent_decoded():
    account = imap.parse_url("imaps://play%40example.org:p%40ss%3Aw%2Frd@imap.example.org/Coup%20replies")
    assert (account.tls, account.host, account.port) == (True, "imap.example.org", 993)
    assert (account.user, account.password, account.folder) == ("play@example.org", "p@ss:w/rd", "Coup replies")
    assert "p@ss" not in str(account)
    plain = imap.parse_url("imap://play:pw@127.0.0.1:1143")
    assert (plain.tls, plain.port, plain.folder) == (False, 1143, "INBOX")


@pytest.mark.parametrize(
    "url",
    [
        "https://user:pw@imap.example.org/INBOX",
        "imaps://imap.example.org/INBOX",
        "imaps://user:pw@/INBOX",
        "imaps://u:p@h:port/",
    ],
)
def test_a_url_that_names_no_mailbox_is_refused_with_a_reason(url):
    with pytest.raises(imap.BadURL) as refused:
        imap.parse_url(url)
    assert "IMAP_URL" in str(refused.value) and "pw" not in str(refused.value)


def test_reconnection_waits_double_each_time_up_to_a_cap_with_jitter():
    waits = [imap.backoff(attempt) for attempt in range(20)]
    assert 0.5 <= waits[0] <= 1 and 4 <= waits[3] <= 8
    assert max(waits) <= imap.BACKOFF_CAP and waits[-1] >= imap.BACKOFF_CAP / 2
    assert len({imap.backoff(5) for _ in range(10)}) > 1


# ---- one pass ---------------------------------------------------------------------------


def test_a_reply_in_the_inbox_is_played_and_moved_to_the_processed_folder(
    game, ana, dovecot, django_capture_on_commit_callbacks
):
    dovecot.append(reply(game, ana, "income"))
    with django_capture_on_commit_callbacks(execute=True):
        status, output = read_once(dovecot.url)
    assert status == 0, output
    assert output == f"1: played the answer in game #{game.pk}, seat 1.\n"
    assert played(game)
    boxes = dovecot.folders()
    assert boxes["INBOX"] == [] and boxes[SET_ASIDE] == []
    [(flags, raw)] = boxes[PROCESSED]
    assert "\\Seen" in flags and b"income" in raw  # kept, never deleted
    assert read_once(dovecot.url) == (0, "")  # read once only


def test_a_broken_message_is_set_aside_and_the_others_still_read(
    game, ana, dovecot, django_capture_on_commit_callbacks, caplog
):
    broken = b"\x00\xff\xfe keep duke captain \x01 no header at all\r\n"
    dovecot.append(broken, reply(game, ana, "income"))
    with django_capture_on_commit_callbacks(execute=True):
        status, output = read_once(dovecot.url)
    assert status == 1  # an operator's cron job hears of it
    assert output.splitlines() == [
        "1: set aside in 'Set aside': malformed: no header could be read.",
        f"2: played the answer in game #{game.pk}, seat 1.",
    ]
    assert played(game)
    boxes = dovecot.folders()
    [(flags, raw)] = boxes[SET_ASIDE]
    assert "\\Flagged" in flags and "\\Seen" not in flags and b"keep duke captain" in raw
    assert len(boxes[PROCESSED]) == 1 and boxes["INBOX"] == []
    assert "duke" not in caplog.text and "Set message 1 aside" in caplog.text
    assert read_once(dovecot.url) == (0, "")  # never read again


def test_a_message_whose_handling_raises_is_set_aside_once(game, ana, dovecot, caplog, monkeypatch):
    # No message known makes ``receive`` raise: a fault put in its place stands for
    # whatever one still may.
    def fault(message):
        raise ZeroDivisionError

    monkeypatch.setattr(imap, "receive", fault)
    dovecot.append(reply(game, ana, "show contessa"))
    status, output = read_once(dovecot.url)
    assert (status, output) == (1, "1: set aside in 'Set aside': handling it raised ZeroDivisionError.\n")
    [(flags, _raw)] = dovecot.folders()[SET_ASIDE]
    assert "\\Flagged" in flags
    assert "Message 1 raised ZeroDivisionError while handled, at:" in caplog.text and "test_imap.py" in caplog.text
    assert "contessa" not in caplog.text  # where it failed, never what it said
    assert read_once(dovecot.url) == (0, "")


def test_a_malformed_address_header_hides_neither_the_reply_nor_the_other_headers(
    game, ana, dovecot, django_capture_on_commit_callbacks
):
    # An unclosed domain literal makes Python's parsed header raise: it is read as text,
    # and the signed address in Cc still answers.
    message = reply(game, ana, "income")
    message["Cc"] = message["To"]
    raw = re.sub(rb"(?m)^To: .*$", b'To: "Coup" <play+1.0.x@[>', message.as_bytes())
    dovecot.append(raw)
    with django_capture_on_commit_callbacks(execute=True):
        status, output = read_once(dovecot.url)
    assert (status, output) == (0, f"1: played the answer in game #{game.pk}, seat 1.\n")
    assert played(game)


def test_a_delivery_report_in_the_inbox_is_recorded_and_moved_like_a_reply(db, dovecot, settings):
    settings.DEFAULT_FROM_EMAIL = f"Coup by email <coup@{BOUNCES_DOMAIN}>"
    dovecot.append(bounce_sample("postfix-user-unknown.eml", sent_to("ana@example.com")))
    status, output = read_once(dovecot.url)
    assert (status, output) == (0, "1: recorded a hard bounce: no more email goes to its address.\n")
    assert failure_of("ana@example.com").stopped
    boxes = dovecot.folders()
    assert boxes["INBOX"] == [] and boxes[SET_ASIDE] == [] and len(boxes[PROCESSED]) == 1


def test_messages_that_are_not_replies_are_moved_as_read_and_deleted_ones_left_alone(dovecot):
    newsletter = b"From: news@example.com\r\nTo: play@localhost\r\nSubject: Hi\r\n\r\nHello\r\n"
    with dovecot.connect() as box:  # another client deleted it, and has yet to expunge it
        box.append(newsletter.replace(b"Hi", b"Old"), "INBOX", flag_set=["\\Deleted"])
    dovecot.append(newsletter)
    assert read_once(dovecot.url) == (0, "2: ignored: it is not addressed to a game's reply address.\n")
    boxes = dovecot.folders()
    assert len(boxes[PROCESSED]) == 1
    [(flags, raw)] = boxes["INBOX"]
    assert "\\Deleted" in flags and b"Subject: Old" in raw


def test_a_newcomer_answers_the_email_the_site_stored_by_a_reply_delivered_to_dovecot(
    ana, ben, cai, dovecot, settings, tmp_path, django_capture_on_commit_callbacks
):
    """``python -m tests.dovecot reply ADDRESS WORDS``, which the README's walk-through uses."""
    stored = tmp_path / "mailbox"  # where `make run` stores the site's emails, var/mailbox/
    settings.MAILERS = {"default": {"BACKEND": "coupsite.mailbox.EmailBackend", "OPTIONS": {"file_path": str(stored)}}}
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(ana, ben, cai)
    answer = reply_to_newest(stored, ana.email, "income")
    assert answer["To"].addresses[0].username.startswith("play+")
    dovecot.append(answer)
    with django_capture_on_commit_callbacks(execute=True):
        assert read_once(dovecot.url) == (0, f"1: played the answer in game #{game.pk}, seat 1.\n")
    assert played(game)


# ---- bad settings -----------------------------------------------------------------------


def run_read_mail(*args: str, **environ: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "read_mail", *args],
        cwd=ROOT,
        env={**os.environ, **environ},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_a_bad_url_or_password_is_one_line_and_status_2(dovecot):
    closed = free_port()  # nothing listens there
    cases = [
        ("imaps://nobody@imap.example.org/INBOX", "needs a user and a password"),
        (dovecot.url.replace("s3cret", "wrong"), "refused the user name or password"),
        (f"imap://play:pw@127.0.0.1:{closed}/INBOX", "refused the connection"),
        ("pop3://play:pw@127.0.0.1/INBOX", "must start with imaps://"),
    ]
    for number, (url, reason) in enumerate(cases):
        watching = ["--watch"] if number % 2 else []  # a long-running reader stops at once too
        done = run_read_mail("--imap", url, *watching)
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and reason in lines[0], done.stderr
        assert "Traceback" not in done.stderr and "wrong" not in done.stderr
    done = run_read_mail("--imap", IMAP_URL="")
    assert done.returncode == 2 and "set IMAP_URL" in done.stderr


def test_imaps_and_starttls_read_a_server_whose_certificate_is_trusted_and_refuse_others():
    with Dovecot(tls=True) as server:
        server.append(b"From: news@example.com\r\nTo: play@localhost\r\nSubject: Hi\r\n\r\nHello\r\n")
        starttls = server.url.replace("@127.0.0.1:", "@localhost:")
        trusted = {"SSL_CERT_FILE": str(server.certificate)}
        for url in (server.tls_url, starttls):
            done = run_read_mail("--imap", url, **trusted)
            assert done.returncode == 0, done.stderr
        logins = [line for line in server.log.splitlines() if "Login: user=<play>" in line]
        assert len(logins) == 3 and ", TLS" not in logins[0]  # the test's own, then the reader's two
        assert all(", TLS" in line for line in logins[1:]), logins
        assert len(server.folders()[PROCESSED]) == 1
        for url in (server.tls_url, starttls):
            done = run_read_mail("--imap", url)
            assert done.returncode == 2, done.stderr
            assert done.stderr.startswith("error: ") and "CERTIFICATE_VERIFY_FAILED" in done.stderr, done.stderr
            assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


def test_a_reply_that_finds_the_database_down_stays_in_the_inbox_for_the_next_pass(game, ana, dovecot):
    dovecot.append(reply(game, ana, "income"))
    nowhere = free_port()  # no database listens there
    done = run_read_mail("--imap", dovecot.url, DATABASE_URL=f"postgres://postgres@127.0.0.1:{nowhere}/coup")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.strip() == "error: cannot handle message 1 now: OperationalError", done.stderr
    boxes = dovecot.folders()
    assert len(boxes["INBOX"]) == 1 and boxes[PROCESSED] == boxes[SET_ASIDE] == []


# ---- watching ---------------------------------------------------------------------------


def test_idle_reads_a_reply_as_it_arrives(transactional_db, ana, ben, cai, dovecot, watcher):
    first, second = started_game(ana, ben, cai), started_game(ana, ben, cai)
    dovecot.append(reply(first, ana, "income"))  # waiting before the reader starts
    reader = watcher(dovecot.url)
    reader.wait_for("waits for news with IDLE")
    reader.wait_for(f"played the answer in game #{first.pk}")
    time.sleep(0.5)  # the reader is idling
    dovecot.append(reply(second, ana, "income"))
    # IDLE renews every five minutes: only the server's news can wake it this soon.
    reader.wait_for(f"played the answer in game #{second.pk}", timeout=10)
    assert played(first) and played(second)
    assert len(dovecot.folders()[PROCESSED]) == 2


def test_a_server_restart_while_idling_loses_nothing(transactional_db, ana, ben, cai, dovecot, watcher):
    during, after = started_game(ana, ben, cai), started_game(ana, ben, cai)
    reader = watcher(dovecot.url)
    reader.wait_for("waits for news with IDLE")
    time.sleep(0.5)
    dovecot.stop()
    # Delivered while the server is down, as the mail server's delivery agent writes it.
    mailbox.Maildir(dovecot.maildir, create=False).add(reply(during, ana, "income").as_bytes())
    dovecot.start()
    dovecot.append(reply(after, ana, "income"))
    reader.wait_for(f"played the answer in game #{during.pk}")
    reader.wait_for(f"played the answer in game #{after.pk}")
    assert "reconnecting in" in reader.errors and "Reconnected to imap://play@127.0.0.1" in reader.errors
    assert "Traceback" not in reader.errors
    assert played(during) and played(after)
    boxes = dovecot.folders()
    assert len(boxes[PROCESSED]) == 2 and boxes["INBOX"] == []


def test_without_idle_the_reader_looks_every_poll_interval(transactional_db, ana, ben, cai, watcher):
    with Dovecot(extra=NO_IDLE) as server:
        reader = watcher(server.url, IMAP_POLL_SECONDS="1")
        reader.wait_for("looks every 1 s (the server offers no IDLE)")
        game = started_game(ana, ben, cai)
        server.append(reply(game, ana, "income"))
        reader.wait_for(f"played the answer in game #{game.pk}", timeout=10)
        assert played(game)
        assert len(server.folders()[PROCESSED]) == 1
