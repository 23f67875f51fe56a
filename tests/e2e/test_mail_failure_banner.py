"""A player whose mail bounces is told so on every page of theirs, in their language and
on a phone, and sends a test email from the banner; the other players see nothing."""

import pytest

from accounts.bounces import failure_of, mail_failed
from accounts.models import MailFailure
from tests.e2e import axe
from tests.e2e.helpers import log_in, page_messages
from tests.players import PASSWORD, make_player, started_game

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {
        "banner": "We can't deliver email to ana@example.com: the last one bounced on",
        "button": "Send a test email",
        "sent": "A test email is on its way to ana@example.com.",
    },
    "es": {
        "banner": "No podemos entregar email a ana@example.com: el último rebotó el",
        "button": "Enviar un email de prueba",
        "sent": "Un email de prueba va camino de ana@example.com.",
    },
}


@pytest.mark.parametrize(("language", "phone"), [("en", False), ("es", True), ("en", True)])
def test_the_banner_tells_the_player_and_its_button_sends_a_test(new_page, live_server, smtp, language, phone):
    ana, ben = make_player("Ana", language), make_player("Ben", language)
    game = started_game(ana, ben)
    mail_failed(address=ana.email, kind=MailFailure.Kind.HARD, detail="5.1.1 user unknown")
    words = WORDS[language]
    page = new_page(phone=phone)
    log_in(page, live_server, ana.email, PASSWORD)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    banner = page.locator(".mail-failure")
    assert banner.is_visible()
    assert words["banner"] in " ".join(banner.inner_text().split())
    assert "5.1.1" not in page.content()  # what the server said is for the admin only
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert axe.violations(page) == []
    banner.get_by_role("button", name=words["button"]).click()
    page.wait_for_load_state()
    assert page.url.endswith(f"/games/{game.pk}/")  # back on the page it was sent from
    assert words["sent"] in page_messages(page)
    assert page.locator(".mail-failure").count() == 0
    assert failure_of(ana.email) is None
    test = smtp.wait_for(to=ana.email, subject_contains="prueba" if language == "es" else "test email")
    assert test.mail_from.startswith("bounce+")

    other = new_page(phone=phone)
    mail_failed(address=ana.email, kind=MailFailure.Kind.HARD)
    log_in(other, live_server, ben.email, PASSWORD)
    other.goto(f"{live_server.url}/games/{game.pk}/")
    assert other.locator(".mail-failure").count() == 0
    assert "ana@example.com" not in other.content()
