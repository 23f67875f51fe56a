"""Every HTML email reads on a 390 px phone and in dark mode: rendered in chromium,
nothing runs past the screen's width, and the dark colours apply. Screenshots of
each, phone and desktop, light and dark, go to var/screenshots/emails/."""

from pathlib import Path

import pytest

from tests.e2e.helpers import PHONE
from tests.mail.every_email import every_email

SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots" / "emails"
WHITE = "rgb(255, 255, 255)"


@pytest.fixture
def sent(db, smtp):
    return every_email(smtp)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_html_email_fits_a_phone_and_follows_the_colour_scheme(browser, sent, scheme):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for device, options in (("phone", PHONE), ("desktop", {"viewport": {"width": 1280, "height": 800}})):
        context = browser.new_context(**options, color_scheme=scheme)
        page = context.new_page()
        try:
            for kind, mail in sent.items():
                page.set_content(mail.html)
                width = page.evaluate("document.documentElement.scrollWidth")
                background = page.evaluate("getComputedStyle(document.body).backgroundColor")
                page.screenshot(path=SCREENSHOTS / f"{kind}-{device}-{scheme}.png", full_page=True)
                if device == "phone":
                    assert width <= PHONE["viewport"]["width"], (kind, width)
                assert (background == WHITE) == (scheme == "light"), (kind, scheme, background)
        finally:
            context.close()
