"""The holidays section of the profile page: planning, refusals that keep what was
typed, input that is no date, ending another player's holiday; and the dashboard
of the other players, which says who is away."""

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Holiday
from games.services import holidays
from tests.players import make_player, started_game


@pytest.fixture
def ana(db):
    return make_player("Ana")


def plan(client, first, last):
    return client.post("/accounts/profile/holidays/", {"first_day": first, "last_day": last})


def test_a_holiday_planned_ahead_is_listed_with_the_days_left(client, ana):
    client.force_login(ana)
    first = timezone.now().date() + timedelta(days=3)
    response = plan(client, first.isoformat(), (first + timedelta(days=4)).isoformat())
    assert response.status_code == 302 and response["Location"] == "/accounts/profile/#holidays"
    page = client.get("/accounts/profile/").content.decode()
    assert "Your holiday is planned." in page and "Cancel this holiday" in page
    assert Holiday.objects.get(user=ana).status == Holiday.Status.PLANNED


@pytest.mark.parametrize(
    "first, last, said",
    [
        ("not a date", "2030-01-01", "Enter the first day as a date."),
        ("2030-01-01", "", "This field is required."),
        ("99999-01-01", "2030-01-01", "Enter the first day as a date."),
        ("2030-01-05", "2030-01-01", "cannot come before its first day"),
        ("2000-01-01", "2000-01-03", "cannot start in the past"),
    ],
)
def test_input_that_is_no_holiday_is_refused_with_a_reason_and_kept(client, ana, first, last, said):
    client.force_login(ana)
    response = plan(client, first, last)
    assert response.status_code == 400
    page = response.content.decode()
    assert said in page
    assert f'value="{first}"' in page  # what was typed is there to correct
    assert not Holiday.objects.exists()


def test_another_players_holiday_cannot_be_ended_and_a_get_changes_nothing(client, ana):
    ben = make_player("Ben")
    holiday = holidays.holiday_plan(user=ben, first_day=timezone.now().date(), last_day=timezone.now().date())
    client.force_login(ana)
    response = client.post(f"/accounts/profile/holidays/{holiday.pk}/end/", follow=True)
    assert "That holiday is over or was cancelled already." in response.content.decode()
    assert client.get(f"/accounts/profile/holidays/{holiday.pk}/end/").status_code == 405
    assert Holiday.objects.get(pk=holiday.pk).status == Holiday.Status.AWAY


def test_the_dashboard_of_the_others_says_who_is_away_and_that_the_clock_waits(client, ana):
    ben = make_player("Ben")
    started_game(ana, ben, takeover=0)  # Ana's turn
    today = timezone.now().date()
    holidays.holiday_plan(user=ana, first_day=today, last_day=today + timedelta(days=1))
    client.force_login(ben)
    page = client.get("/").content.decode()
    last = today + timedelta(days=1)
    assert f"Ana is away until {last.day} {last.strftime('%B')}." in page
    assert "The clock waits while a player it waits for is away." in page
