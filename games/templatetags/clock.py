"""A game's clock in words (``{% load clock %}``): a time control's length
(``{{ game.turn_seconds|duration }}``: "2 minutes") and a deadline's moment
(``{{ game.deadline_at|moment }}``) or its day (``|day``: "3 March"), in the active
language and time zone, which a moment names."""

from datetime import datetime, timedelta
from functools import lru_cache

from babel import Locale, UnknownLocaleError
from babel.dates import get_timezone_location
from django import template
from django.template.defaultfilters import date
from django.utils import timezone, translation
from django.utils.translation import ngettext, pgettext

register = template.Library()

# A deadline nearer than this is told to the second: "1:47:32 a.m." tells a player
# with 30 seconds to answer what "1:47 a.m." does not.
TO_THE_SECOND_WITHIN = timedelta(hours=1)


@register.filter
def duration(seconds: int) -> str:
    """``seconds`` in the largest unit that counts them whole: "1 day", "8 hours",
    "2 minutes", "30 seconds"."""
    if seconds and seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    if seconds and seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    if seconds and seconds % 60 == 0:
        minutes = seconds // 60
        return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


@register.filter(expects_localtime=True)
def moment(value: datetime | None) -> str:
    """When a deadline falls, with its time zone named: its date and time,
    or, when it is less than an hour away, its time to the second."""
    if value is None:
        return ""
    if value - timezone.now() < TO_THE_SECOND_WITHIN:
        # Translators: a time of day to the second, in Django's date format letters
        # (https://docs.djangoproject.com/en/stable/ref/templates/builtins/#date).
        shown = date(value, pgettext("date format", "g:i:s a"))
    else:
        shown = date(value, "DATETIME_FORMAT")
    return in_zone(shown)


def in_zone(shown: str) -> str:
    """``shown``, a time in the active time zone, with that zone named: "… UTC", or
    "… (Madrid time)", "… (hora de Madrid)", "… (horário de Madri)". A city reads
    better than an abbreviation, which many zones lack ("-03" in São Paulo)."""
    zone = timezone.get_current_timezone_name()
    if zone in ("UTC", "Etc/UTC"):
        return f"{shown} UTC"
    # Translators: a date or time, then the city of its time zone ("Madrid", "São Paulo").
    return pgettext("a time in a time zone", "%(time)s (%(city)s time)") % {
        "time": shown,
        "city": zone_city(zone, translation.get_language() or "en"),
    }


@lru_cache(maxsize=1024)
def zone_city(zone: str, language: str) -> str:
    """The city a time zone is named after, as ``language`` writes it (the Unicode
    CLDR's exemplar cities, through Babel): "Lisboa" in Spanish and Portuguese."""
    try:
        locale = Locale.parse(translation.to_locale(language))
    except (UnknownLocaleError, ValueError):
        locale = Locale("en")
    return get_timezone_location(zone, locale=locale, return_city=True)


@register.filter(expects_localtime=True)
def day(value: datetime | None) -> str:
    """The day of a moment, as a date is said in a sentence: "3 March"."""
    if value is None:
        return ""
    # Translators: a day and month, in Django's date format letters (Spanish: "j \d\e F").
    return date(value, pgettext("date format", "j F"))
