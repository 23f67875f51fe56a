"""The plain-text part of every email reads as typed: no HTML entity in it."""

import re

from tests.mail.every_email import AWKWARD_NAMES, every_email

ENTITY = re.compile(r"&(#\d+|#x[0-9a-fA-F]+|[a-zA-Z]+);")


def test_no_text_part_of_any_email_carries_an_html_entity(db, smtp):
    sent = every_email(smtp)
    assert set(sent) == {
        "invitation",
        "turn",
        "decision",
        "reminder",
        "challenged",
        "started",
        "reply-unclear",
        "extension",
        "stand-in asked",
        "stand-in played",
        "stand-in missed",
        "digest",
        "eliminated",
        "finished",
        "mail-test",
        "data-export",
        "deletion-code",
    }
    for kind, mail in sent.items():
        assert not ENTITY.search(mail.text), (kind, ENTITY.findall(mail.text))
        assert not ENTITY.search(mail.subject), (kind, mail.subject)
    assert f"Challenge {AWKWARD_NAMES[0]}'s Captain" in sent["decision"].text
    assert any(name in sent["finished"].text for name in AWKWARD_NAMES)
    assert "&#x27;" in sent["decision"].html or "&#39;" in sent["decision"].html  # the HTML part still escapes
