"""A player's holidays: planned, cancelled or ended early on their profile, begun
and ended by the minute sweep (``holidays_sweep``), and what they do to the games.

While a player is away (``Profile.away_until``), in each game of theirs in play:
- where the host chose stand-in bots (``takeover`` above 0) a bot plays their
  seat (``SeatChange`` "away") and gives it back on their return ("back");
- elsewhere, and in a practice game (which a bot would otherwise finish alone),
  the clock of the decisions awaited of them is held (``clock.clock_hold_check``),
  and runs again, with a full period, when they return.
The same holds for a game that starts while they are away (``holiday_stand_ins``
at its start; the clock's hold with every new decision). No decision email
reaches them while away; on their return each game waiting for them sends its
decision email. A player may still play while away: an answer of theirs takes
the seat back from its bot, as it always does, and the decisions asked of them
next wait for them again.

Days are the player's own: from the start of the first day to the end of the last
in the time zone of their profile when they set it. At most
``HOLIDAY_DAYS_PER_YEAR`` days fall in one calendar year, counting every holiday
that is planned, under way or over (one ended early counts up to the day it
ended; a cancelled one is gone)."""

import zoneinfo
from datetime import date, datetime, time, timedelta

from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import HOLIDAY_DAYS_PER_YEAR, Holiday, Profile, profile_of
from accounts.selectors import days_in, holiday_days_taken
from games.kinds import KINDS
from games.models import Game, Seat, SeatChange
from games.selectors import game_state, is_practice, seats_of
from games.services import notifications
from games.services.attention import game_isolated
from games.services.clock import clock_hold_check
from games.services.errors import ServiceError
from games.services.play import DEFAULT_TAKEOVER, seat_returned, stand_in_begin

# How far ahead a holiday may be planned.
PLANNED_AHEAD_AT_MOST = timedelta(days=366)


def holiday_plan(*, user, first_day: date, last_day: date, now: datetime | None = None) -> Holiday:
    """``user`` will be away from ``first_day`` to ``last_day`` (both included, days
    of their time zone). One that starts today begins at once."""
    now = now or timezone.now()
    zone = zoneinfo.ZoneInfo(profile_of(user).time_zone)
    today = now.astimezone(zone).date()
    if last_day < first_day:
        raise ServiceError(_("The last day of a holiday cannot come before its first day."))
    if first_day < today:
        raise ServiceError(_("A holiday cannot start in the past: its first day is today at the earliest."))
    if (last_day - first_day).days >= HOLIDAY_DAYS_PER_YEAR:
        raise ServiceError(_("A holiday lasts %(most)d days at most.") % {"most": HOLIDAY_DAYS_PER_YEAR})
    if first_day > today + PLANNED_AHEAD_AT_MOST:
        raise ServiceError(_("A holiday can be planned up to a year ahead."))
    with transaction.atomic():
        Profile.objects.select_for_update().filter(user=user).first()  # one plan of a player at a time
        holiday = Holiday(
            user=user,
            first_day=first_day,
            last_day=last_day,
            starts_at=max(_midnight(first_day, zone), now),
            ends_at=_midnight(last_day + timedelta(days=1), zone),
        )
        for other in Holiday.objects.filter(user=user).exclude(status=Holiday.Status.OVER):
            if other.starts_at < holiday.ends_at and holiday.starts_at < other.ends_at:
                raise ServiceError(
                    _("This holiday overlaps another of yours, from %(first)s to %(last)s.")
                    % {"first": _day(other.first_day), "last": _day(other.last_day)}
                )
        _check_days_per_year(holiday, zone)
        holiday.save()
        if holiday.starts_at <= now:
            _holiday_begin(holiday)
    return holiday


def holiday_end(*, user, holiday_id: int) -> Holiday.Status:
    """``user`` cancels a planned holiday of theirs (it is deleted) or ends the one
    under way now (they are back at once). Returns the status it had."""
    with transaction.atomic():
        holiday = (
            Holiday.objects.select_for_update()
            .filter(pk=holiday_id, user=user)
            .exclude(status=Holiday.Status.OVER)
            .first()
        )
        if holiday is None:
            raise ServiceError(_("That holiday is over or was cancelled already."))
        status = Holiday.Status(holiday.status)
        if status == Holiday.Status.PLANNED:
            holiday.delete()
        else:
            holiday.ends_at = timezone.now()
            _holiday_finish(holiday)
    return status


def holidays_sweep(*, now: datetime | None = None) -> int:
    """Begin every holiday whose start has come and end every one whose end has
    (run every minute), one per transaction, each locked with SKIP LOCKED so
    sweeps running at once never take the same one. Returns how many changed."""
    now = now or timezone.now()
    changed = 0
    steps = (
        (Holiday.Status.PLANNED, {"starts_at__lte": now}, "starts_at", _holiday_begin),
        (Holiday.Status.AWAY, {"ends_at__lte": now}, "ends_at", _holiday_finish),
    )
    for status, due, order, step in steps:
        while True:
            with transaction.atomic():
                holidays = Holiday.objects.select_for_update(skip_locked=True).filter(status=status, **due)
                holiday = holidays.order_by(order).first()
                if holiday is None:
                    break
                step(holiday)
            changed += 1
    return changed


def holiday_stand_ins(game: Game, seats: list[Seat]) -> None:
    """At the start of ``game`` (locked; ``seats`` with their profiles): a bot
    stands in for each player away, where the game has stand-ins."""
    away = [seat for seat in seats if profile_of(seat.user).away_until is not None and not seat.bot_level]
    if away and stands_in_for_absent(game):
        for seat in away:
            stand_in_begin(game, seat, SeatChange.Change.AWAY)


def _holiday_begin(holiday: Holiday) -> None:
    """``holiday`` (locked) begins: its player is away in every game of theirs."""
    holiday.status = Holiday.Status.AWAY
    holiday.save(update_fields=["status"])
    Profile.objects.filter(user=holiday.user_id).update(away_until=holiday.ends_at)
    for game in _games_locked(holiday.user_id):
        game_isolated(game, "holiday", _savepointed, step=_away, user_id=holiday.user_id)


def _holiday_finish(holiday: Holiday) -> None:
    """``holiday`` (locked) ends at its ``ends_at``: its player is back in every game."""
    holiday.status = Holiday.Status.OVER
    holiday.save(update_fields=["status", "ends_at"])
    Profile.objects.filter(user=holiday.user_id).update(away_until=None)
    for game in _games_locked(holiday.user_id):
        game_isolated(game, "holiday", _savepointed, step=_back, user_id=holiday.user_id)


def _games_locked(user_id: int) -> list[Game]:
    """The games in play with a seat of ``user_id``, locked in one order (by id)."""
    return list(Game.objects.select_for_update().filter(status=Game.Status.ACTIVE, seats__user=user_id).order_by("pk"))


def _savepointed(*, game: Game, step, user_id: int) -> None:
    """``step`` for one game in a savepoint, so that a game failing undoes only its own writes."""
    with transaction.atomic():
        seats = seats_of(game)
        seat = next(seat for seat in seats if seat.user_id == user_id)
        step(game, seats, seat, game_state(game))


def _away(game: Game, seats: list[Seat], seat: Seat, state) -> None:
    """``seat``'s player went away: a bot plays for them, or their clock is held."""
    if stands_in_for_absent(game) and not seat.bot_level:
        stand_in_begin(game, seat, SeatChange.Change.AWAY)
        version = _awaited_version(game, state, seat)
        if version is not None:
            notifications.bot_called(game, seat, version)
    clock_hold_check(game, state, seats)


def _back(game: Game, seats: list[Seat], seat: Seat, state) -> None:
    """``seat``'s player is back: the bot that stood in for their holiday leaves,
    the clock held for them runs again, and a decision awaited of them is emailed."""
    latest = seat.changes.order_by("-version", "-pk").values_list("change", flat=True).first()
    if seat.stand_in and latest == SeatChange.Change.AWAY:
        seat_returned(game, seat)
    clock_hold_check(game, state, seats)
    version = _awaited_version(game, state, seat)
    if version is not None and not seat.bot_level:
        notifications.decision_after_holiday(seat, version)


def stands_in_for_absent(game: Game) -> bool:
    """Whether a bot plays for a player on holiday in ``game``: its host chose
    stand-ins, and it is no practice game, which the bots would finish alone."""
    return bool(game.options.get("takeover", DEFAULT_TAKEOVER)) and not is_practice(game)


def _awaited_version(game: Game, state, seat: Seat) -> int | None:
    return {name: version for name, _decision, version in KINDS[game.kind].rules.awaiting(state)}.get(seat.player)


def _midnight(day: date, zone: zoneinfo.ZoneInfo) -> datetime:
    return datetime.combine(day, time(0), tzinfo=zone)


def _day(day: date) -> str:
    return formats.date_format(day, "DATE_FORMAT")


def _check_days_per_year(holiday: Holiday, zone: zoneinfo.ZoneInfo) -> None:
    """Refuse ``holiday`` if it takes a calendar year of its player's beyond
    ``HOLIDAY_DAYS_PER_YEAR`` days with their other holidays."""
    others = list(Holiday.objects.filter(user=holiday.user))
    for year in range(holiday.first_day.year, holiday.last_day.year + 1):
        taken = holiday_days_taken(others, year, zone)
        if taken + days_in(holiday.first_day, holiday.last_day, year) > HOLIDAY_DAYS_PER_YEAR:
            left = max(HOLIDAY_DAYS_PER_YEAR - taken, 0)
            raise ServiceError(
                ngettext(
                    "A player is away at most %(most)d days a year: you have %(left)d day left in %(year)d.",
                    "A player is away at most %(most)d days a year: you have %(left)d days left in %(year)d.",
                    left,
                )
                % {"most": HOLIDAY_DAYS_PER_YEAR, "left": left, "year": year}
            )
