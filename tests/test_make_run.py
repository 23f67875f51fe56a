"""`make run PORT=...` serves on that port, and the links in emails (SITE_URL)
follow it unless SITE_URL is set; as it starts it says where the emails go (the
Maildir and the /mailbox/ page). Runs the real command (SQLite, no Redis, the
Celery workers beside the web server) and stops it."""

import os
import re
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from tests.dovecot import Dovecot

ROOT = Path(__file__).resolve().parent.parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _environ_of(pattern: str) -> dict:
    """The environment of the running process whose command line contains ``pattern``."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            if pattern in command and "export" not in command:  # not the shell that starts it
                pairs = (entry / "environ").read_bytes().split(b"\0")
                return dict(pair.decode().split("=", 1) for pair in pairs if b"=" in pair)
        except OSError:
            continue
    raise AssertionError(f"no process runs {pattern!r}")


def _untracked() -> set[str]:
    """The files git does not track, ignored ones too (folders listed whole)."""
    listing = subprocess.run(
        ["git", "status", "--porcelain", "--ignored", "--untracked-files=normal"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {line[3:] for line in listing.splitlines() if line[:2] in ("??", "!!")}


def test_the_readme_names_port_for_a_second_server():
    readme = (ROOT / "README.md").read_text()
    assert re.search(r"make run PORT=\d+", readme), "the README tells how to start a second server"
    assert "/mailbox/" in readme


def test_make_run_serves_on_the_port_given_and_site_url_follows_it(tmp_path):
    """...it prints where the mailbox is, reads the IMAP mailbox of IMAP_URL when
    set, and what the server and its workers write stays in var/ and the SQLite file."""
    before = _untracked()
    port = _free_port()
    imap = Dovecot()
    imap.start()
    imap.append(b"From: news@example.com\r\nTo: play@localhost\r\nSubject: Hi\r\n\r\nHello\r\n")
    # As a developer types it: the site's own settings, not the test run's.
    environ = {
        key: value for key, value in os.environ.items() if key not in ("SITE_URL", "PORT", "DJANGO_SETTINGS_MODULE")
    }
    environ.update(DATABASE_URL="", REDIS_URL="", IMAP_URL=imap.url)
    environ = {key: value for key, value in environ.items() if not key.startswith("EMAIL_")}
    output = tmp_path / "make-run.out"
    with output.open("wb") as printed:
        server = subprocess.Popen(
            ["make", "run", f"PORT={port}"],
            cwd=ROOT,
            env=environ,
            start_new_session=True,
            stdout=printed,
            stderr=subprocess.DEVNULL,
        )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    assert response.status == 200
                    break
            except OSError:
                assert server.poll() is None, "make run stopped"
                assert time.monotonic() < deadline, f"nothing answers on port {port}"
                time.sleep(0.5)
        # localhost, not 127.0.0.1: passkeys (WebAuthn) refuse an IP address.
        assert _environ_of(f"runserver 127.0.0.1:{port}")["SITE_URL"] == f"http://localhost:{port}"
        assert f"The site: http://localhost:{port}/" in output.read_text(), output.read_text()[:2000]
        mailbox = f"stored in the Maildir {ROOT / 'var' / 'mailbox'}/ and listed at http://localhost:{port}/mailbox/."
        assert mailbox in output.read_text(), output.read_text()[:2000]
        while not imap.folders().get("Processed"):  # the message waiting in INBOX is read
            assert time.monotonic() < deadline, f"the INBOX was not read:\n{output.read_text()[-2000:]}"
            time.sleep(0.5)
        assert "waits for news with IDLE" in output.read_text()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        imap.remove()
    written = {path for path in _untracked() - before if "__pycache__" not in path}
    assert all(path.startswith("var/") or path.startswith("db.sqlite3") for path in written), written
