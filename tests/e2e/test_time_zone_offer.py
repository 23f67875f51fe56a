"""A new player signs up in the time zone their browser gives; a player still on
UTC (one who signed up before, or whose browser gave nothing) is offered it, never
has it set without their click, and a "no thanks" is remembered."""

import pytest

from accounts.models import Profile
from tests.e2e import axe
from tests.e2e.helpers import log_in, sign_up
from tests.players import PASSWORD, make_player, started_game

pytestmark = pytest.mark.django_db(transaction=True)


def _offer(page):
    return page.locator("form[data-zone-offer]")


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_a_player_still_on_utc_is_offered_their_browsers_zone_and_takes_it(new_page, live_server, phone):
    page = new_page(phone=phone, timezone_id="Europe/Madrid")
    user = make_player("Ana")
    log_in(page, live_server, user.email, PASSWORD)
    page.goto(live_server.url + "/")
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
def test_no_thanks_is_remembered_in_the_players_language(new_page, live_server, phone):
    page = new_page(
        phone=phone, timezone_id="America/Sao_Paulo", locale="es-ES", extra_http_headers={"Accept-Language": "es"}
    )
    user = make_player("Bea", "es")
    log_in(page, live_server, user.email, PASSWORD)
    page.goto(live_server.url + "/")
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


@pytest.mark.parametrize(
    ("zone", "language", "named"),
    [
        ("America/Sao_Paulo", "pt-br", "horário de São Paulo"),
        ("Europe/Madrid", "es", "hora de Madrid"),
        ("Europe/Lisbon", "en", "Lisbon time"),
    ],
)
def test_a_new_player_signs_up_in_their_browsers_zone_with_quiet_nights(
    new_page, live_server, smtp, zone, language, named
):
    page = new_page(timezone_id=zone)
    page.goto(live_server.url + "/accounts/signup/")
    assert page.locator('input[name="quiet_nights"]').is_checked()  # on unless unticked
    assert page.locator('input[name="time_zone"]').input_value() == zone
    user = sign_up(page, live_server, smtp, "dan@example.com", PASSWORD, "Dan", language=language, quiet_nights=True)
    profile = Profile.objects.get(user=user)
    assert (profile.time_zone, profile.quiet_nights) == (zone, True)
    assert _offer(page).count() == 0  # nothing to ask
    page.goto(live_server.url + "/accounts/profile/")
    assert page.locator('input[name="quiet_nights"]').is_checked()
    assert page.locator('select[name="quiet_from"]').input_value() == "22"
    assert page.locator('select[name="quiet_until"]').input_value() == "7"
    game = started_game(user, make_player("Eve"))  # Dan moves first
    page.goto(live_server.url + f"/games/{game.pk}/")
    assert named in page.locator(".deadline").inner_text()
