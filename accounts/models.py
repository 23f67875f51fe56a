"""A player's profile: the name shown at the table, the language and time zone of
pages and emails, and which emails they want. What a game kind keeps per player
(Coup's standing answers) is the kind's own (``Forms.player_preferences``)."""

import zoneinfo
from datetime import datetime, time, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _


class EmailMode(models.TextChoices):
    EVERY = "every", _("An email for every decision")
    DIGEST = "digest", _("One daily digest of the games waiting for me")
    NONE = "none", _("No emails")


def validate_time_zone(value: str) -> None:
    """An IANA time zone name known to this system ("Europe/Madrid", "UTC")."""
    if value not in available_time_zones():
        raise ValidationError(_("Choose a time zone from the list."), code="time_zone")


def available_time_zones() -> set[str]:
    return zoneinfo.available_timezones() | {"UTC"}


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(
        _("display name"), max_length=40, blank=True, help_text=_("How the other players see you at the table.")
    )
    language = models.CharField(
        _("language"), max_length=10, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    email_mode = models.CharField(
        _("emails"),
        max_length=10,
        choices=EmailMode.choices,
        default=EmailMode.EVERY,
        help_text=_("When to write to you about your games."),
    )
    practice_emails = models.BooleanField(
        _("emails from practice games"),
        default=False,
        help_text=_("Write to me when a game against bots waits for me, as any other game does."),
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text=_("Dates and deadlines on the pages and in the emails are shown in this time zone."),
    )
    # The player said "no thanks" to the time zone their browser gave: never offered again.
    time_zone_offer_declined = models.BooleanField(default=False, editable=False)
    digest_hour = models.PositiveSmallIntegerField(
        _("daily digest at"),
        default=8,
        validators=[MaxValueValidator(23)],
        help_text=_("The hour of your morning, in your time zone, at which the daily digest arrives."),
    )
    # Off for the accounts that existed before quiet nights, which keep the emails
    # they had; sign-up offers it ticked (``SignupForm``), so a new player has it.
    quiet_nights = models.BooleanField(
        _("quiet nights"),
        default=False,
        help_text=_(
            "During your night, news and reminders wait for your morning, and so does a decision "
            "whose deadline falls after it."
        ),
    )
    quiet_from = models.PositiveSmallIntegerField(
        _("night from"), default=22, validators=[MaxValueValidator(23)], help_text=_("In your time zone.")
    )
    quiet_until = models.PositiveSmallIntegerField(
        _("morning at"), default=7, validators=[MaxValueValidator(23)], help_text=_("In your time zone.")
    )
    # The day (in the player's time zone) of the last digest queued for them, so an
    # hourly run that comes again, or twice, within their hour sends nothing twice.
    digest_sent_on = models.DateField(null=True, blank=True, editable=False)
    # A computer player's account: its level (empty for a person). It has no email
    # address and no usable password, so it can neither sign in nor be written to.
    bot_level = models.CharField(max_length=20, blank=True, default="", editable=False)
    # While one of the player's holidays is under way, the moment it ends (else
    # None): set and cleared with the holiday's start and end (the games' holiday
    # sweep), read by the clock and the emails from the profiles they load anyway.
    away_until = models.DateTimeField(null=True, blank=True, editable=False)
    # The account that keeps the seats of a person who deleted theirs
    # (``accounts.leaving``): the number of its name, "Former player 4821". Drawn
    # at random, never the deleted account's id, which their old links and pages showed.
    former_number = models.PositiveIntegerField(null=True, blank=True, unique=True, editable=False)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self):
        return self.name

    @property
    def name(self) -> str:
        return display_name_of(self.user, profile=self)

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        """The player's time zone; UTC for a name this system no longer knows."""
        try:
            return zoneinfo.ZoneInfo(self.time_zone)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            return zoneinfo.ZoneInfo("UTC")

    def morning_after(self, now: datetime) -> datetime | None:
        """The end of the quiet night ``now`` falls in (``quiet_until`` o'clock, in the
        player's zone), or None when it falls in none: quiet nights off, the
        player's day, or a night that starts and ends at the same hour."""
        if not self.quiet_nights or self.quiet_from == self.quiet_until:
            return None
        local = now.astimezone(self.zone)
        start, end = self.quiet_from, self.quiet_until
        night = (start <= local.hour < end) if start < end else (local.hour >= start or local.hour < end)
        if not night:
            return None
        day = local.date() if local.hour < end else local.date() + timedelta(days=1)
        return datetime.combine(day, time(end), tzinfo=self.zone)


# The bot levels as players read them (``Bots.levels``).
BOT_LEVEL_NAMES = {
    "default": _("by the clock"),
    "easy": _("easy"),
    "strong": _("strong"),
    "treason": _("treason"),
}


# The names a bot takes at a table, in English: a bot's account keeps the one it
# was given (``Profile.display_name``), and each language shows its own form of it
# ("Peter", "Pedro"), so the same bot keeps its name on every page, email and replay.
BOT_NAMES = (
    gettext_noop("Peter"),
    gettext_noop("Mary"),
    gettext_noop("John"),
    gettext_noop("Lucy"),
    gettext_noop("Michael"),
    gettext_noop("Helen"),
    gettext_noop("George"),
    gettext_noop("Clara"),
    gettext_noop("Paul"),
    gettext_noop("Teresa"),
    gettext_noop("Martin"),
    gettext_noop("Sophie"),
)


def bot_label(level: str, name: str = "") -> str:
    """How a bot of ``level`` named ``name`` (one of ``BOT_NAMES``) is named at the
    table: "Peter (strong bot)"; "Bot (strong)" for one that has no name."""
    level_name = BOT_LEVEL_NAMES.get(level, level)
    if name:
        return gettext("%(name)s (%(level)s bot)") % {"name": gettext(name), "level": level_name}
    return gettext("Bot (%(level)s)") % {"level": level_name}


def stand_in_label(player: str, level: str) -> str:
    """How the bot of ``level`` playing for ``player`` (their name) while they are
    away is named: "Ana's bot (easy)", one per seat, so never two alike."""
    return gettext("%(player)s's bot (%(level)s)") % {"player": player, "level": BOT_LEVEL_NAMES.get(level, level)}


def former_player_label(number: int) -> str:
    return gettext("Former player %(number)d") % {"number": number}


def display_name_of(user, *, profile=None) -> str:
    """The name shown for ``user``: their display name, else the start of their email
    address (never the whole address: other players must not learn it); a bot's
    name and level for a bot."""
    if profile is None:
        profile = Profile.objects.filter(user=user).first()
    if profile is not None and profile.former_number is not None:
        return former_player_label(profile.former_number)
    if profile is not None and profile.bot_level:
        return bot_label(profile.bot_level, profile.display_name)
    if profile is not None and profile.display_name:
        return profile.display_name
    email = getattr(user, "email", "") or ""
    return email.split("@", 1)[0] or getattr(user, "username", "") or "?"


def profile_of(user) -> Profile:
    """The user's profile, created on first use (users made by createsuperuser or admin)."""
    try:
        return user.profile  # the cached instance, so later reads of user.profile agree
    except Profile.DoesNotExist:
        profile, _created = Profile.objects.get_or_create(user=user)
        user.profile = profile
        return profile


class AddressOptOut(models.Model):
    """An address that asked the service for less mail, whether or not an account
    has it: after declining an invitation it gets no more invitations from anyone;
    after following the stop link of an email it gets no email at all (sign-in
    codes included) until the same link allows it again. Checked before every
    email the site sends (``accounts.mail.mail_refused``)."""

    class Scope(models.TextChoices):
        INVITATIONS = "invitations", _("No invitations")
        ALL = "all", _("No email at all")

    address = models.EmailField(unique=True, help_text="lower-cased")
    scope = models.CharField(max_length=12, choices=Scope.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("address that opted out")
        verbose_name_plural = _("addresses that opted out")

    def __str__(self):
        return f"{self.address}: {self.get_scope_display()}"


class SentEmail(models.Model):
    """One email the site handed to its own SMTP server, to one address: its id,
    signed, is the envelope sender of that email (``bounce+<id>.<signature>@…``,
    VERP), so a delivery report that comes back names the address it is about
    whatever the report itself says (a forwarded mailbox reports another address).
    Kept for ``SENT_EMAILS_KEPT`` days, longer than mail servers retry."""

    address = models.EmailField(help_text="lower-cased")
    sent_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self):
        return f"#{self.pk} to {self.address}"


class MailFailure(models.Model):
    """An address on the suppression list: mail to it bounced or was reported as
    spam. While it is ``stopped``, or paused (``paused_until`` in the future), no email
    of any kind goes to it (``accounts.mail.mail_refused``); the policy is
    ``accounts.bounces``."""

    class Kind(models.TextChoices):
        HARD = "hard", _("bounced")
        SOFT = "soft", _("bounced for now")
        COMPLAINT = "complaint", _("reported as spam")

    address = models.EmailField(unique=True, help_text="lower-cased")
    kind = models.CharField(max_length=10, choices=Kind.choices, help_text="of the last failure")
    failed_at = models.DateTimeField(help_text="the last failure")
    stopped = models.BooleanField(default=False)
    paused_until = models.DateTimeField(null=True, blank=True)
    # The times of the soft bounces of the last week (ISO 8601), counted toward a stop.
    soft_failures = models.JSONField(default=list, blank=True)
    # What the report said (status code, diagnostic), for the admin; never shown to players.
    detail = models.CharField(max_length=200, blank=True)

    class Meta:
        verbose_name = _("address mail fails to")
        verbose_name_plural = _("addresses mail fails to")

    def __str__(self):
        return f"{self.address}: {self.get_kind_display()}"


# The days a player may be away in one calendar year (BGA and lichess give as many).
HOLIDAY_DAYS_PER_YEAR = 30


class Holiday(models.Model):
    """A player's time away, from the start of ``first_day`` to the end of
    ``last_day``, days of the time zone they had when they set it: the clock of
    their decisions waits, or a stand-in bot plays for them
    (``games.services.holidays``). ``starts_at`` and ``ends_at`` are those
    moments (``starts_at`` no earlier than when it was set; ``ends_at`` moved to
    the moment they came back when they end it early)."""

    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        AWAY = "away", _("Under way")
        OVER = "over", _("Over")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="holidays")
    first_day = models.DateField()
    last_day = models.DateField()
    starts_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["first_day", "pk"]
        # The holiday sweep looks for the holidays to begin and to end.
        indexes = [models.Index(fields=["status", "starts_at"], name="holiday_status_starts")]

    def __str__(self):
        return f"{self.user} away {self.first_day}..{self.last_day}"


class DataExport(models.Model):
    """A player's data as one file to download (``accounts.export``): built by a
    worker, kept compressed here until ``EXPORT_KEPT`` after it is ready, and
    offered only to its owner through a signed link that expires with it."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="data_exports")
    requested_at = models.DateTimeField(auto_now_add=True)
    ready_at = models.DateTimeField(null=True, blank=True)
    archive = models.BinaryField(null=True, blank=True, editable=False, help_text="the zip: data.json and README.md")

    class Meta:
        ordering = ["-requested_at"]

    def __str__(self):
        return f"export #{self.pk} of {self.user_id}"
