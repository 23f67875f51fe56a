"""A player plans a holiday on their profile page, sees a refusal keep what they
typed, and comes back early; the other players read "Ana is away until …" on the
game page. In English and Brazilian Portuguese, on a phone's width."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Holiday
from games.services import holidays
from tests.e2e import axe
from tests.e2e.helpers import log_in
from tests.players import PASSWORD, make_player, started_game

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {
        "headers": {},
        "planned": "You are away from now on. Have a good holiday!",
        "refused": "The last day of a holiday cannot come before its first day.",
        "back_button": "I'm back now",
        "back": "Welcome back: your games wait for you again.",
        "away": "Ana is away until {day} {month}.",
        "held": "The clock waits while a player it waits for is away.",
        "months": "January February March April May June July August September October November December".split(),
    },
    "pt-br": {
        "headers": {"locale": "pt-BR", "extra_http_headers": {"Accept-Language": "pt-BR"}},
        "planned": "Você está fora a partir de agora. Boas férias!",
        "refused": "O último dia das férias não pode vir antes do primeiro.",
        "back_button": "Voltei",
        "back": "Bem-vindo de volta: suas partidas esperam por você de novo.",
        "away": "Ana está fora até {day} de {month}.",
        "held": "O relógio espera enquanto um jogador que ele aguarda está fora.",
        # as Django writes Brazilian dates
        "months": "Janeiro Fevereiro Março Abril Maio Junho Julho Agosto Setembro Outubro Novembro Dezembro".split(),
    },
}


def _fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")


@pytest.mark.parametrize("language", ["en", "pt-br"])
def test_a_player_plans_a_holiday_on_a_phone_and_comes_back_early(new_page, live_server, language):
    words = WORDS[language]
    ana = make_player("Ana", language)
    page = new_page(phone=True, **words["headers"])
    log_in(page, live_server, "ana@example.com", PASSWORD)
    page.goto(live_server.url + "/accounts/profile/")
    section = page.locator("#holidays")
    today = timezone.now().date()  # Ana's zone is UTC

    form = section.locator("form").filter(has=page.locator('[name="first_day"]'))
    form.locator('[name="first_day"]').fill((today + timedelta(days=5)).isoformat())
    form.locator('[name="last_day"]').fill((today + timedelta(days=2)).isoformat())
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    assert words["refused"] in page.locator("#holidays").inner_text()
    assert page.locator('[name="first_day"]').input_value() == (today + timedelta(days=5)).isoformat()  # kept
    assert not Holiday.objects.exists()

    page.locator('[name="first_day"]').fill(today.isoformat())
    page.locator('[name="last_day"]').fill((today + timedelta(days=3)).isoformat())
    with page.expect_navigation():
        page.locator("#holidays form").filter(has=page.locator('[name="first_day"]')).locator("button").click()
    assert words["planned"] in page.inner_text("main")
    assert Holiday.objects.get(user=ana).status == Holiday.Status.AWAY
    assert _fits(page)
    assert axe.violations(page) == []

    with page.expect_navigation():
        page.locator("#holidays").get_by_role("button", name=words["back_button"]).click()
    assert words["back"] in page.inner_text("main")
    assert Holiday.objects.get(user=ana).status == Holiday.Status.OVER


@pytest.mark.parametrize("language", ["en", "pt-br"])
def test_the_game_page_says_who_is_away_until_when_on_a_phone(new_page, live_server, language):
    words = WORDS[language]
    ana, ben = make_player("Ana", language), make_player("Ben", language)
    game = started_game(ana, ben, takeover=0)  # Ana's turn: the clock waits for her
    today = timezone.now().date()
    last = today + timedelta(days=4)
    holidays.holiday_plan(user=ana, first_day=today, last_day=last)
    page = new_page(phone=True, **words["headers"])
    log_in(page, live_server, "ben@example.com", PASSWORD)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    live = page.locator("#live").inner_text()
    assert words["away"].format(day=last.day, month=words["months"][last.month - 1]) in live
    assert words["held"] in live
    assert _fits(page)
    assert axe.violations(page) == []
