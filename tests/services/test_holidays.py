"""Holidays: the plan's rules (30 days a year, no overlap, no start in the past, the
end after the start), and what being away does to a game: its clock held, composed
with the host's pause in both orders, or a stand-in bot that gives the seat back."""

import zoneinfo
from datetime import date, datetime, timedelta

import pytest
from django.utils import timezone

from accounts.models import Holiday, Profile
from accounts.selectors import holiday_days_left
from games.models import Game, SeatChange
from games.selectors import game_state
from games.services import clock, holidays, play
from games.services.errors import ServiceError
from games.web.pages import with_seat_changes
from tests.players import awaited, make_player, started_game


def today() -> date:
    return timezone.now().date()  # the players' zone is UTC


def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def away_until(user):
    return Profile.objects.get(user=user).away_until


def away(user, days: int = 3, *, start: date | None = None, now: datetime | None = None) -> Holiday:
    first = start or today()
    return holidays.holiday_plan(user=user, first_day=first, last_day=first + timedelta(days=days - 1), now=now)


# A day whose year has room for every holiday the counting tests plan in it.
JUNE = datetime(2030, 6, 1, 12, tzinfo=zoneinfo.ZoneInfo("UTC"))


@pytest.fixture
def ana_ben(db):
    return make_player("Ana"), make_player("Ben")


def test_a_holiday_starting_today_holds_the_clock_waiting_for_its_player_until_they_end_it(ana_ben):
    ana, ben = ana_ben
    game = started_game(ana, ben, takeover=0)  # Ana (the host) has the first turn
    assert fresh(game).deadline_at is not None
    holiday = away(ana)
    assert holiday.status == Holiday.Status.AWAY and away_until(ana) == holiday.ends_at
    held = fresh(game)
    assert held.clock_held and held.deadline_at is None
    assert play.deadlines_sweep() == 0  # nothing can expire
    holidays.holiday_end(user=ana, holiday_id=holiday.pk)
    running = fresh(game)
    assert not running.clock_held and away_until(ana) is None
    # Back: a full turn's time, counted from her return.
    assert abs(running.deadline_at - (timezone.now() + timedelta(seconds=running.turn_seconds))) < timedelta(seconds=5)


def test_the_clock_runs_while_the_away_player_is_not_awaited_and_holds_when_their_turn_comes(ana_ben):
    ana, ben = ana_ben
    game = started_game(ana, ben, takeover=0)
    away(ben)
    assert fresh(game).deadline_at is not None  # Ana's turn: the game does not wait for Ben
    income = {"act": "income"}
    play.decision_submit(game=game, user=ana, command=income, version=awaited(game)["p1"][1])
    game = fresh(game)
    assert awaited(game)["p2"][0] == "turn"
    assert game.clock_held and game.deadline_at is None


def test_a_hold_on_a_paused_game_resumes_only_when_both_are_over_pause_first(ana_ben):
    ana, ben = ana_ben
    game = started_game(ana, ben, takeover=0)
    clock.game_pause(game=game, by=ana)
    holiday = away(ana)
    assert fresh(game).clock_held
    clock.game_resume(game=game, by=ana)  # the host's pause is over, the holiday is not
    game = fresh(game)
    assert game.paused_remaining is None and game.deadline_at is None and game.clock_held
    holidays.holiday_end(user=ana, holiday_id=holiday.pk)
    game = fresh(game)
    assert not game.clock_held and game.deadline_at > timezone.now() + timedelta(seconds=game.turn_seconds - 5)


def test_a_hold_on_a_paused_game_resumes_only_when_both_are_over_hold_first(ana_ben):
    ana, ben = ana_ben
    game = started_game(ana, ben, takeover=0)
    holiday = away(ana)
    clock.game_pause(game=game, by=ana)  # the host may pause a held game
    holidays.holiday_end(user=ana, holiday_id=holiday.pk)
    game = fresh(game)
    assert not game.clock_held and game.deadline_at is None  # still paused by the host
    assert game.paused_remaining == timedelta(seconds=game.turn_seconds)  # the full time the hold's end gives
    clock.game_resume(game=game, by=ana)
    assert fresh(game).deadline_at is not None


def test_the_hosts_pause_alone_works_as_before(ana_ben):
    ana, ben = ana_ben
    game = started_game(ana, ben, takeover=0)
    left = fresh(game).deadline_at - timezone.now()
    clock.game_pause(game=game, by=ana)
    paused = fresh(game)
    assert paused.deadline_at is None and not paused.clock_held
    assert abs(paused.paused_remaining - left) < timedelta(seconds=5)
    clock.game_resume(game=game, by=ana)
    assert fresh(game).deadline_at is not None and fresh(game).paused_remaining is None


def test_a_stand_in_plays_for_the_player_away_and_gives_the_seat_back_on_their_return(ana_ben):
    ana, ben = ana_ben
    game = started_game(ana, ben)  # the default: stand-ins after two missed deadlines
    holiday = away(ben)
    seat = game.seats.get(user=ben)
    assert seat.stand_in == "easy" and seat.stand_in_told  # no email tells him what the bot plays while away
    assert fresh(game).deadline_at is not None and not fresh(game).clock_held  # the bot answers: no hold
    holidays.holiday_end(user=ben, holiday_id=holiday.pk)
    seat.refresh_from_db()
    assert seat.stand_in == ""
    assert list(SeatChange.objects.filter(seat=seat).values_list("change", flat=True)) == ["away", "back"]
    lines = [line.text for line in with_seat_changes(game, [], 0)]
    assert lines == ["Ben is away on holiday: Ben's bot (easy) plays for them.", "Ben is back."]


def test_a_holiday_does_not_send_away_a_bot_that_stood_in_before_it(ana_ben):
    ana, ben = ana_ben
    game = started_game(ana, ben)
    from games.services import bots

    bots.stand_in_ask(game=game, user=ben)
    holiday = away(ben)
    holidays.holiday_end(user=ben, holiday_id=holiday.pk)
    seat = game.seats.get(user=ben)
    assert seat.stand_in == "easy"  # he asked for it: it plays until he says he is back
    assert list(SeatChange.objects.filter(seat=seat).values_list("change", flat=True)) == ["asked"]


def test_a_game_that_starts_while_a_player_is_away_holds_or_seats_a_bot(ana_ben):
    ana, ben = ana_ben
    away(ana)
    held = started_game(ana, ben, takeover=0)
    assert held.clock_held and held.deadline_at is None
    cai = make_player("Cai")
    with_bots = started_game(ana, cai)
    assert with_bots.seats.get(user=ana).stand_in == "easy"
    assert not with_bots.clock_held and with_bots.deadline_at is not None


def test_the_sweep_begins_a_planned_holiday_at_its_first_day_and_ends_it_after_its_last(ana_ben):
    ana, ben = ana_ben
    game = started_game(ana, ben, takeover=0)
    holiday = away(ana, 2, start=today() + timedelta(days=1))
    assert holiday.status == Holiday.Status.PLANNED and not fresh(game).clock_held
    midnight = datetime.combine(today() + timedelta(days=1), datetime.min.time(), tzinfo=zoneinfo.ZoneInfo("UTC"))
    assert holidays.holidays_sweep(now=midnight - timedelta(seconds=1)) == 0
    assert holidays.holidays_sweep(now=midnight) == 1
    assert fresh(game).clock_held
    assert holidays.holidays_sweep(now=midnight + timedelta(days=2) - timedelta(seconds=1)) == 0
    assert holidays.holidays_sweep(now=midnight + timedelta(days=2)) == 1
    holiday.refresh_from_db()
    assert holiday.status == Holiday.Status.OVER and not fresh(game).clock_held


def test_a_player_may_plan_thirty_days_a_year_and_no_more(ana_ben):
    ana, _ben = ana_ben
    start = date(2030, 7, 1)
    with pytest.raises(ServiceError, match="A holiday lasts 30 days at most."):
        away(ana, 31, start=start, now=JUNE)
    away(ana, 20, start=start, now=JUNE)
    with pytest.raises(ServiceError, match="you have 10 days left in 2030"):
        away(ana, 11, start=start + timedelta(days=40), now=JUNE)
    away(ana, 10, start=start + timedelta(days=40), now=JUNE)
    assert holiday_days_left(ana, 2030, zoneinfo.ZoneInfo("UTC")) == 0
    with pytest.raises(ServiceError, match="you have 0 days left in 2030"):
        away(ana, 1, start=start + timedelta(days=60), now=JUNE)


def test_a_holiday_over_new_year_counts_its_days_in_each_year(ana_ben):
    ana, _ben = ana_ben
    away(ana, 25, start=date(2030, 7, 1), now=JUNE)
    with pytest.raises(ServiceError, match="you have 5 days left in 2030"):
        away(ana, 10, start=date(2030, 12, 25), now=JUNE)
    away(ana, 10, start=date(2030, 12, 27), now=JUNE)  # 5 days of 2030, 5 of 2031
    assert holiday_days_left(ana, 2031, zoneinfo.ZoneInfo("UTC")) == 25


def test_overlapping_holidays_are_refused_with_the_days_of_the_other(ana_ben):
    ana, _ben = ana_ben
    start = today() + timedelta(days=10)
    away(ana, 5, start=start)
    with pytest.raises(ServiceError, match="overlaps another of yours"):
        away(ana, 3, start=start + timedelta(days=4))
    away(ana, 3, start=start + timedelta(days=5))  # the day after its last


def test_a_holiday_cannot_end_before_it_starts_nor_start_in_the_past(ana_ben):
    ana, _ben = ana_ben
    with pytest.raises(ServiceError, match="cannot come before its first day"):
        holidays.holiday_plan(user=ana, first_day=today() + timedelta(days=3), last_day=today() + timedelta(days=2))
    with pytest.raises(ServiceError, match="cannot start in the past"):
        holidays.holiday_plan(user=ana, first_day=today() - timedelta(days=1), last_day=today() + timedelta(days=2))
    with pytest.raises(ServiceError, match="up to a year ahead"):
        away(ana, 3, start=today() + timedelta(days=400))
    assert not Holiday.objects.exists()


def test_ending_early_frees_the_days_not_taken_and_cancelling_a_planned_one_frees_all(ana_ben):
    ana, _ben = ana_ben
    zone = zoneinfo.ZoneInfo("UTC")
    left = holiday_days_left(ana, today().year, zone)
    planned = away(ana, 5, start=today() + timedelta(days=1))
    if planned.last_day.year == today().year:
        assert holiday_days_left(ana, today().year, zone) == left - 5
    assert holidays.holiday_end(user=ana, holiday_id=planned.pk) == Holiday.Status.PLANNED
    assert not Holiday.objects.filter(pk=planned.pk).exists()
    holiday = away(ana, 10)
    assert holidays.holiday_end(user=ana, holiday_id=holiday.pk) == Holiday.Status.AWAY
    holiday.refresh_from_db()
    assert holiday.status == Holiday.Status.OVER
    assert holiday_days_left(ana, today().year, zone) == left - 1  # today only
    with pytest.raises(ServiceError, match="over or was cancelled already"):
        holidays.holiday_end(user=ana, holiday_id=holiday.pk)
    away(ana, 2, start=today() + timedelta(days=1))  # a new one may follow at once


def test_another_players_holiday_cannot_be_ended(ana_ben):
    ana, ben = ana_ben
    holiday = away(ana, 3, start=today() + timedelta(days=2))
    with pytest.raises(ServiceError):
        holidays.holiday_end(user=ben, holiday_id=holiday.pk)
    assert Holiday.objects.filter(pk=holiday.pk).exists()


def test_answering_while_away_plays_and_the_next_decision_waits_again(ana_ben):
    ana, ben = ana_ben
    game = started_game(ana, ben, takeover=0)
    away(ana)
    coins = game_state(game).by_name["p1"].coins
    play.decision_submit(game=game, user=ana, command={"act": "income"}, version=awaited(game)["p1"][1])
    game = fresh(game)
    assert not game.clock_held and game.deadline_at is not None  # Ben's turn runs
    assert game_state(game).by_name["p1"].coins == coins + 1


def test_a_holiday_starting_while_the_game_waits_for_its_player_has_the_bot_answer_at_once(
    ana_ben, django_capture_on_commit_callbacks
):
    ana, ben = ana_ben
    game = started_game(ana, ben)  # Ana's turn, stand-ins chosen
    version = fresh(game).version
    with django_capture_on_commit_callbacks(execute=True):
        away(ana)
    game = fresh(game)
    assert game.version > version and "p1" not in awaited(game)  # her bot took her turn
    assert game.seats.get(user=ana).stand_in == "easy"
