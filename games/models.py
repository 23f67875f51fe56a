"""Games, seats and the append-only event log a game is made of."""

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.models import profile_of
from games.engine.seats import seat_player
from games.kinds import DEFAULT_KIND


def new_token() -> str:
    return secrets.token_urlsafe(18)


class Game(models.Model):
    class Status(models.TextChoices):
        GATHERING = "gathering", _("Gathering players")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class First(models.TextChoices):
        RANDOM = "random", _("Chosen at random")
        HOST = "host", _("The host")
        # options["first_user"] names the user (a rematch: the previous winner).
        PLAYER = "player", _("A chosen player")

    class Visibility(models.TextChoices):
        # Who may watch the game's public view: spectators never see more than it.
        PUBLIC = "public", _("Public: listed, anyone may watch")
        UNLISTED = "unlisted", _("Unlisted: anyone with the link may watch")
        PRIVATE = "private", _("Private: players only")

    kind = models.CharField(max_length=20, default=DEFAULT_KIND)
    options = models.JSONField(
        default=dict,
        help_text="variants, first (with first_user), takeover, rematch_of, and the kind's own choices (create_fields)",
    )
    seat_count = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.GATHERING)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE)
    host = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="hosted_games")
    turn_seconds = models.PositiveIntegerField()
    response_seconds = models.PositiveIntegerField()
    reminders = models.BooleanField(default=True)
    version = models.PositiveIntegerField(default=0, help_text="events appended so far")
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)
    deadline_seconds = models.PositiveIntegerField(default=0, help_text="the length of the current deadline")
    paused_remaining = models.DurationField(null=True, blank=True, help_text="time left when the host paused")
    clock_held = models.BooleanField(default=False, help_text="the clock waits for an awaited player who is away")
    reminded_version = models.IntegerField(default=-1, help_text="the last version a reminder went out for")
    # The engine state at ``version``: a cache of the log, always equal to a replay.
    snapshot = models.JSONField(null=True, blank=True, editable=False)
    # The hash of the log's last event (``games.chain``): the link the next append extends.
    log_hash = models.CharField(max_length=64, blank=True, default="", editable=False)
    join_token = models.CharField(max_length=32, default=new_token, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="won_games"
    )
    moves = models.PositiveIntegerField(null=True, blank=True, help_text="decisions made by all players, once finished")
    # Set when the service could not handle the game (its deadline raised, its state
    # could not be read, its snapshot differs from its log): an operator looks at it
    # in the admin and clears it. Never shown to players beyond "needs attention".
    attention = models.CharField(max_length=200, blank=True, help_text="why the game needs an operator")
    attention_at = models.DateTimeField(null=True, blank=True, help_text="when it was first found")

    class Meta:
        ordering = ["-created_at"]
        # Every move changes the indexed deadline, so PostgreSQL writes a new entry
        # in each of the row's indexes: declared here rather than with db_index or
        # unique, these are not doubled by the pattern-matching copies Django adds
        # for a text column (status and join token are only ever compared whole).
        indexes = [models.Index(fields=["status"], name="game_status")]
        constraints = [models.UniqueConstraint(fields=["join_token"], name="game_join_token_unique")]

    def __str__(self):
        return f"{self.kind} #{self.pk}"

    @property
    def variants(self) -> list[str]:
        return list(self.options.get("variants", []))


class OpenGame(models.Model):
    """A game in the lobby (``games/services/lobby.py``): its host opened it to
    strangers, with terms for who may join. The row lives while the game gathers
    players: starting or cancelling the game deletes it (the game keeps
    ``options["open"]``), so the lobby reads this one narrow table, which holds
    no more rows than games are listed. The game's kind, seats and turn time are
    copied here for the lobby's filters; they do not change while it gathers."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="open_game")
    kind = models.CharField(max_length=20)
    seat_count = models.PositiveSmallIntegerField()
    turn_seconds = models.PositiveIntegerField()
    language = models.CharField(max_length=10, choices=settings.LANGUAGES, help_text="the language of the table")
    # Checked through ``lobby.standing_of`` when a player joins; empty: no limit.
    min_rating = models.IntegerField(null=True, blank=True, help_text="the lowest rating that may join")
    min_finish_rate = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="the lowest finish rate (percent) that may join"
    )
    fill_by = models.DateTimeField(help_text="when the host is offered bots for the empty seats")
    bots_offered_at = models.DateTimeField(null=True, blank=True, help_text="when that offer was emailed")

    class Meta:
        # The sweep's two questions (``lobby.open_games_sweep``): whose offer is due, whose game ends.
        indexes = [
            models.Index(fields=["fill_by"], name="open_game_fill_by", condition=models.Q(bots_offered_at=None)),
            models.Index(fields=["bots_offered_at"], name="open_game_offered"),
        ]

    def __str__(self):
        return f"open {self.game_id}"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    joined_at = models.DateTimeField(auto_now_add=True)
    extension_used = models.BooleanField(default=False, help_text="more time is granted once per game")
    notified_version = models.PositiveIntegerField(default=0, help_text="the log read up to in the last email")
    # The clock's count of this seat's deadlines missed in a row (an answer resets it).
    missed_deadlines = models.PositiveSmallIntegerField(default=0)
    # A bot's level playing this seat while its player is away; empty when they play.
    stand_in = models.CharField(max_length=20, blank=True, default="")
    # Whether the player was told that the stand-in played one of their decisions.
    stand_in_told = models.BooleanField(default=False)
    # When the player last had the game's page open (``services.presence``).
    seen_at = models.DateTimeField(null=True, blank=True)
    # Not a column: the version of the seat's latest change (a bot taking it over,
    # its player back; None if none ever), on the seats ``games.selectors.seats_of``
    # reads and kept up to date by the services that make a change.
    last_change: int | None

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="seat_unique_position"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]

    def __str__(self):
        return f"{self.game} seat {self.position}"

    @property
    def player(self) -> str:
        """This seat's player name inside the engine."""
        return seat_player(self.position)

    @property
    def bot_level(self) -> str:
        """The level of the bot that plays this seat now: its bot account's, or the
        stand-in's while its player is away; empty when a person plays it."""
        return self.stand_in or profile_of(self.user).bot_level


class SeatChange(models.Model):
    """A bot took a seat over for its absent player (after missed deadlines, when
    asked, or for their holiday), or the player came back: shown
    in the history among the game's events (after event ``version - 1``)."""

    class Change(models.TextChoices):
        MISSED = "missed", _("missed deadlines")
        ASKED = "asked", _("asked for it")
        AWAY = "away", _("went on holiday")
        BACK = "back", _("came back")
        LEFT = "left", _("deleted their account")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_changes")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="changes")
    version = models.PositiveIntegerField(help_text="the game's version when it happened")
    change = models.CharField(max_length=10, choices=Change.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "version", "pk"]

    def __str__(self):
        return f"{self.seat} {self.change} at {self.version}"


class Event(models.Model):
    """One engine event. Rows are never updated, deleted or truncated: database
    triggers reject all three (migrations 0002 and 0006), and in production the
    site's database role may only insert and read them (``grant_site_role``)."""

    # Found by its game through the (game, seq) constraint's index: one index fewer
    # to write on every event.
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events", db_index=False)
    seq = models.PositiveIntegerField()
    type = models.CharField(max_length=64)
    payload = models.JSONField()
    # sha256 of the previous event's hash and this row's content (``games.chain``).
    hash = models.CharField(max_length=64, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="event_unique_seq")]

    def __str__(self):
        return f"{self.game} #{self.seq} {self.type}"


class Invitation(models.Model):
    """An invitation to a gathering game: to an address the host typed (``email``;
    shown to nobody but its host), or, for a rematch, to a previous player's
    account (``user`` from the start, ``email`` empty: players never see each
    other's addresses). Once answered, ``user`` is whoever answered."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    token = models.CharField(max_length=32, unique=True, default=new_token, editable=False)
    invited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="invitations"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self):
        return f"{self.game} invitation #{self.pk}"

    @property
    def invited_account(self):
        """The account a rematch invited, or None for an invitation to a typed address."""
        return self.user if not self.email else None


class ChatMessage(models.Model):
    """A message of a game's table talk (its players'), or of its spectators' chat,
    which its players read only in the replay once the game is over, so that nobody
    watching can whisper hints to a player."""

    class Audience(models.TextChoices):
        TABLE = "table", _("Table talk")
        SPECTATORS = "spectators", _("Spectators' chat")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.TextField(max_length=1000)
    audience = models.CharField(max_length=10, choices=Audience.choices, default=Audience.TABLE)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set by staff from the admin (a reported message): shown to nobody any more.
    hidden_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["user", "-created_at"], name="chat_user_latest")]

    def __str__(self):
        return f"{self.game} chat #{self.pk}"


class SeatResult(models.Model):
    """How one seat ended a finished game, worked out once from its event log when
    the game ends (``games/services/results.py``), so the dashboard and the statistics read
    stored rows and never replay logs. The columns hold what every game has; the
    game's kind, variants, player count and end are copied here so the statistics
    group and filter this one table; so are whether bots had seats of their own
    (a practice game) and the moves a bot made for the player while they were
    away, which the statistics keep apart from the player's own. What only one kind counts (Coup's claims and
    challenges) is in ``counters``, under the names its ``stats`` declares
    (``games/kinds/stats.py``)."""

    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="result")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="results")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_results")
    kind = models.CharField(max_length=20)
    variants = models.CharField(max_length=200, blank=True, help_text='",a,b," (sorted); "" for the classic game')
    players = models.PositiveSmallIntegerField()
    finished_at = models.DateTimeField()
    place = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="1 = first; players tied share a place (the rules' standings)"
    )
    moves = models.PositiveIntegerField(default=0, help_text="decisions this player made")
    stand_in_moves = models.PositiveIntegerField(
        default=0, help_text="decisions a bot made for this player while they were away"
    )
    with_bots = models.BooleanField(default=False, help_text="a bot had a seat of its own: a practice game")
    counters = models.JSONField(default=dict, blank=True, help_text="the kind's own counts: {counter: number}")
    deadlines_missed = models.PositiveIntegerField(default=0, help_text="this player's decisions the clock answered")
    abandoned = models.BooleanField(
        default=False, help_text="resigned, or a bot was playing for this player when the game ended"
    )

    class Meta:
        ordering = ["-finished_at", "-game_id"]
        indexes = [models.Index(fields=["user", "-finished_at"], name="seatresult_user_finished")]

    def __str__(self):
        return f"{self.seat}: place {self.place}"

    @property
    def won(self) -> bool:
        return self.place == 1


class Block(models.Model):
    """``blocker`` blocked ``blocked``: neither reads the other's chat any more, and
    they share no open game (``games.selectors.moderation``)."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="block_unique_pair")]

    def __str__(self):
        return f"{self.blocker_id} blocks {self.blocked_id}"


class ChatReport(models.Model):
    """A chat message a reader reported to staff, who may hide it from the admin."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [models.UniqueConstraint(fields=["message", "reporter"], name="chat_report_once")]

    def __str__(self):
        return f"report of {self.message}"


class Follow(models.Model):
    """A user follows a game, or a player (``followed``): they are emailed the result
    of the game, or of each public game of the player, once it is over."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="followers")
    followed = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="followers"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(game__isnull=True) ^ models.Q(followed__isnull=True), name="follow_one_thing"
            ),
            models.UniqueConstraint(fields=["user", "game"], name="follow_game_once"),
            models.UniqueConstraint(fields=["user", "followed"], name="follow_player_once"),
        ]

    def __str__(self):
        return f"{self.user_id} follows {self.game_id or self.followed_id}"


class SecondOpinion(models.Model):
    """What the strong bot would have done at one decision of a seat in a finished
    game (``games/services/opinions.py``): asked by the seat's player on the
    replay, weighed once by a worker and kept, so asking again costs nothing.
    ``weighed`` is None while it waits for the worker, then each option the seat
    had with its score and whether the bot would have chosen it:
    ``[{"option": {...}, "score": 0.41, "chosen": false}, ...]``, in the order
    the game listed them (the scores are from the seat's knowledge then, so the
    row holds nothing the seat did not know). An opinion weighed before the bot
    could prefer the easy answer to a higher score has no ``chosen``: its
    choice is the highest score."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="second_opinions")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="second_opinions")
    version = models.PositiveIntegerField(help_text="the decision's version in the game")
    asked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="second_opinions")
    asked_at = models.DateTimeField(auto_now_add=True)
    weighed = models.JSONField(null=True, blank=True, help_text="[{option, score}] once weighed; null while queued")
    worlds = models.PositiveIntegerField(default=0, help_text="the deals of the unseen cards imagined")
    weighed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "version"], name="second_opinion_unique_decision")
        ]
        # The daily limit counts a player's latest asks.
        indexes = [models.Index(fields=["asked_by", "-asked_at"], name="second_opinion_asker_recent")]

    def __str__(self):
        return f"{self.seat} decision {self.version}"
