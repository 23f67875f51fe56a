"""Every subject of every email, in each language, says what the email is once and
reads back as it was written: no label doubled ("Your move: Your turn: ..."), no
double space, no space at either end, whichever way a mail client reads the header."""

import re
from email.header import decode_header, make_header

import pytest

from accounts.models import profile_of
from games.mail import emails
from tests.mail.every_email import AWKWARD_NAMES, every_email
from tests.players import make_player, started_game

LANGUAGES = ["en", "es", "pt-br"]


def header_as_written(raw: bytes, name: str) -> str:
    """The header ``name`` of a raw message unfolded as RFC 5322 says (each line break
    removed, nothing else) and its encoded words decoded as RFC 2047 says: how a mail
    client that keeps to the standards reads it, apart from Python's own parser."""
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii")
    unfolded = re.sub(r"\r\n(?=[ \t])", "", head)
    [value] = [line.split(":", 1)[1] for line in unfolded.split("\r\n") if line.lower().startswith(name.lower() + ":")]
    return str(make_header(decode_header(value.removeprefix(" "))))


def labels_in(subject: str) -> int:
    """How many labels ("Your move: ", "News: ") the subject carries: its colons
    followed by a space, the players' names aside."""
    for name in AWKWARD_NAMES:
        subject = subject.replace(name, "")
    return subject.count(": ")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_subject_says_what_it_is_once_and_reads_back_as_written(db, smtp, language):
    sent = every_email(smtp, language)
    assert len(sent) == 17
    for kind, mail in sent.items():
        for subject in (mail.subject, header_as_written(mail.raw, "Subject")):
            assert subject == subject.strip(), (kind, subject)
            assert "  " not in subject, (kind, subject)
            assert labels_in(subject) <= 1, (kind, subject)
        assert mail.subject == header_as_written(mail.raw, "Subject")


def test_the_reader_of_raw_headers_unfolds_and_decodes_as_the_standards_say():
    raw = b"Subject: =?utf-8?q?Caf=C3=A9_?=\r\n =?utf-8?q?Coup?=\r\nTo: a@b.c\r\n\r\nbody"
    assert header_as_written(raw, "Subject") == "Café Coup"
    folded = b"Subject: Your move:\r\n  two spaces\r\n\r\nbody"
    assert header_as_written(folded, "Subject") == "Your move:  two spaces"


def test_a_subject_folded_at_any_place_reads_back_as_written(db, smtp):
    """Names of every length move the place where the subject's header line is
    folded across every word, the dash and the accented letters."""
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    game = started_game(ana, ben, cai)
    ben_seat = game.seats.get(user=ben)
    profile = profile_of(ben)
    for length in range(1, 41):
        profile.display_name = ("Bénédicte " + "x" * length)[:40]
        profile.save()
        smtp.clear()
        emails.announce_extension(game.pk, ben_seat.pk)
        for mail in smtp.messages:
            assert mail.subject == f"News: {profile.display_name} took extra time — Coup #{game.pk}"
            assert header_as_written(mail.raw, "Subject") == mail.subject
