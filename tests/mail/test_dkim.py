"""DKIM signatures on the mail sent over SMTP, checked by dkimpy's verifier on the
bytes the real SMTP server received, against the public key of a key pair made here
(served by the test's own ``dnsfunc``: no network)."""

import base64
import re
import subprocess
from io import StringIO

import dkim
import pytest
from django.core.mail import send_mail
from django.core.management import call_command
from django.core.management.base import CommandError, SystemCheckError

from coupsite.dkim_signing import SIGNED_HEADERS, check_dkim_key
from tests.players import started_game

DOMAIN = "coup.example.org"
SELECTOR = "s2026"


@pytest.fixture(scope="module")
def key_pair(tmp_path_factory):
    """An RSA key file as ``openssl genrsa`` writes it, and its public key's DKIM
    record as openssl itself derives it (so the site's own derivation is checked too)."""
    folder = tmp_path_factory.mktemp("dkim")
    private = folder / "dkim.pem"
    subprocess.run(["openssl", "genrsa", "-out", str(private), "2048"], check=True, capture_output=True)
    public = subprocess.run(
        ["openssl", "rsa", "-in", str(private), "-pubout", "-outform", "DER"], check=True, capture_output=True
    ).stdout
    return private, f"v=DKIM1; k=rsa; p={base64.b64encode(public).decode()}"


@pytest.fixture
def signing(settings, key_pair):
    private, _ = key_pair
    settings.DKIM_PRIVATE_KEY_FILE = str(private)
    settings.DKIM_SELECTOR = SELECTOR
    settings.DEFAULT_FROM_EMAIL = f"Coup by email <coup@{DOMAIN}>"
    return key_pair


def dns_of(record: str):
    """A resolver that knows the one DKIM record, and nothing else."""

    def dnsfunc(name, timeout=5):
        return record.encode() if name == f"{SELECTOR}._domainkey.{DOMAIN}.".encode() else None

    return dnsfunc


def signature_tags(raw: bytes) -> dict[str, str]:
    header = re.search(rb"^DKIM-Signature:(.*?)\r?\n(?=\S)", raw, re.S | re.M).group(1)
    unfolded = re.sub(rb"\s+", b"", header).decode()
    return dict(tag.split("=", 1) for tag in unfolded.split(";") if tag)


def test_every_game_email_is_signed_and_verifies_with_the_published_key(
    signing, ana, ben, smtp, django_capture_on_commit_callbacks
):
    _, record = signing
    with django_capture_on_commit_callbacks(execute=True):
        started_game(ana, ben)
    received = smtp.messages
    assert len(received) == 2
    for mail in received:
        assert dkim.verify(mail.raw, dnsfunc=dns_of(record))
        tags = signature_tags(mail.raw)
        assert tags["d"] == DOMAIN and tags["s"] == SELECTOR
        signed = tags["h"].lower().split(":")
        assert {name.lower() for name in SIGNED_HEADERS} <= set(signed)
        assert "list-unsubscribe" in signed and "list-unsubscribe-post" in signed
        assert mail.message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_a_message_changed_on_the_way_fails_verification(signing, ana, ben, smtp, django_capture_on_commit_callbacks):
    _, record = signing
    with django_capture_on_commit_callbacks(execute=True):
        started_game(ana, ben)
    raw = smtp.to("ben@example.com")[0].raw
    assert dkim.verify(raw, dnsfunc=dns_of(record))
    tampered = re.sub(rb"^Subject: [^\r\n]*", b"Subject: Claim your prize", raw, count=1, flags=re.M)
    assert tampered != raw
    assert not dkim.verify(tampered, dnsfunc=dns_of(record))
    unsubscribe_moved = re.sub(
        rb"^List-Unsubscribe: <[^>\r\n]*>", b"List-Unsubscribe: <https://evil.example/>", raw, count=1, flags=re.M
    )
    assert unsubscribe_moved != raw
    assert not dkim.verify(unsubscribe_moved, dnsfunc=dns_of(record))


def test_mail_sent_outside_the_games_emails_is_signed_too(db, signing, smtp):
    """Account emails (sign-in codes, confirmations) go through Django's send_mail."""
    _, record = signing
    send_mail("Your sign-in code", "123456", None, ["ana@example.com"])
    [mail] = smtp.messages
    assert dkim.verify(mail.raw, dnsfunc=dns_of(record))


def test_without_a_key_nothing_is_signed(db, settings, smtp):
    settings.DKIM_PRIVATE_KEY_FILE = ""
    send_mail("Your sign-in code", "123456", None, ["ana@example.com"])
    [mail] = smtp.messages
    assert b"DKIM-Signature" not in mail.raw
    assert check_dkim_key(None) == []


@pytest.mark.parametrize("problem", ["missing", "not a key"])
def test_a_key_that_cannot_sign_is_a_system_check_error(settings, tmp_path, problem):
    path = tmp_path / "dkim.pem"
    if problem == "not a key":
        path.write_text("-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n")
    settings.DKIM_PRIVATE_KEY_FILE = str(path)
    settings.DEFAULT_FROM_EMAIL = f"coup@{DOMAIN}"
    [error] = check_dkim_key(None)
    assert error.id == "coupsite.E001" and str(path) in error.msg
    with pytest.raises(SystemCheckError, match="coupsite.E001"):
        call_command("check")


def mail_check(**options) -> tuple[str, bool]:
    """``manage.py mail_check``'s output, and whether it exited with success."""
    out = StringIO()
    try:
        call_command("mail_check", stdout=out, **options)
    except CommandError as error:
        return out.getvalue() + str(error), False
    return out.getvalue(), True


def test_mail_check_prints_the_records_to_publish_and_succeeds_when_nothing_is_missing(signing, settings):
    _, record = signing
    settings.REPLY_ADDRESS = f"play@{DOMAIN}"
    settings.MAILERS = {"default": {"BACKEND": "coupsite.smtp.EmailBackend", "OPTIONS": {"host": "smtp.example.org"}}}
    output, succeeded = mail_check()
    assert succeeded, output
    lines = output.splitlines()
    assert f'DKIM   {SELECTOR}._domainkey.{DOMAIN} TXT "{record}"' in lines
    assert any(line.startswith(f'SPF    {DOMAIN} TXT "v=spf1 a:smtp.example.org') for line in lines)
    assert any(line.startswith(f'DMARC  _dmarc.{DOMAIN} TXT "v=DMARC1; p=quarantine') for line in lines)
    assert f"From         coup@{DOMAIN} (domain {DOMAIN})" in lines
    assert f"Return-Path  bounce+<id>.<signature>@{DOMAIN} (VERP, domain {DOMAIN}, aligned with From)" in lines
    assert "Missing: nothing" in lines


def test_mail_check_names_what_is_missing_and_fails(settings):
    settings.DKIM_PRIVATE_KEY_FILE = ""
    settings.DEFAULT_FROM_EMAIL = "Coup by email <coup@localhost>"
    output, succeeded = mail_check()
    assert not succeeded
    missing = [line for line in output.splitlines() if line.startswith("MISSING ")]
    assert any("DKIM_PRIVATE_KEY_FILE" in line for line in missing)
    assert any("DEFAULT_FROM_EMAIL" in line and "localhost" in line for line in missing)
    assert any("EMAIL_HOST" in line for line in missing)  # the tests' Maildir sends nothing
