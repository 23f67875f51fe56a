"""The time zone the browser gives is offered to a player still on UTC, never set
without their click, and a "no thanks" is remembered."""

import pytest

from accounts.models import Profile
from tests.e2e import axe
from tests.e2e.helpers import sign_up

pytestmark = pytest.mark.django_db(transaction=True)


def _offer(page):
    return page.locator("form[data-zone-offer]")


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_new_player_is_offered_their_browsers_zone_and_takes_it(new_page, live_server, smtp, phone):
    page = new_page(phone=phone, timezone_id="Europe/Madrid")
    user = sign_up(page, live_server, smtp, "ana@example.com", "correct horse battery", "Ana")
    offer = _offer(page)
    assert offer.is_visible()
    assert "Your clock says Europe/Madrid: use it?" in offer.inner_text()
    assert Profile.objects.get(user=user).time_zone == "UTC"  # offered, not changed
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    assert axe.violations(page) == []
    offer.get_by_role("button", name="Use this time zone").click()
    page.wait_for_load_state()
    assert "Times are now shown in Europe/Madrid." in page.inner_text("main")
    assert Profile.objects.get(user=user).time_zone == "Europe/Madrid"
    assert _offer(page).count() == 0


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_no_thanks_is_remembered_in_the_players_language(new_page, live_server, smtp, phone):
    page = new_page(
        phone=phone, timezone_id="America/Sao_Paulo", locale="es-ES", extra_http_headers={"Accept-Language": "es"}
    )
    user = sign_up(page, live_server, smtp, "bea@example.com", "correct horse battery", "Bea", language="es")
    offer = _offer(page)
    assert "Tu reloj dice America/Sao Paulo: ¿la usamos?" in offer.inner_text()
    offer.get_by_role("button", name="No, gracias").click()
    page.wait_for_load_state()
    page.reload()
    assert _offer(page).count() == 0
    profile = Profile.objects.get(user=user)
    assert (profile.time_zone, profile.time_zone_offer_declined) == ("UTC", True)


def test_a_browser_on_utc_is_asked_nothing(new_page, live_server, smtp):
    page = new_page(timezone_id="UTC")
    sign_up(page, live_server, smtp, "cai@example.com", "correct horse battery", "Cai")
    assert _offer(page).count() == 1 and not _offer(page).is_visible()
