"""The lobby: games opened to strangers. A host opens a game as they create it,
with who may join (a minimum rating, a minimum finish rate) and how long it may
wait to fill; anyone listed may take a seat in one click, and the game starts by
itself once full (``gathering.take_seat``), or when its host starts it with the
players it has. "Play now" seats a player at the fullest game of the kind and size
they ask for, or opens one: a queue per kind and player count.

No table waits for ever: past its time (``OpenGame.fill_by``) its host is emailed
an offer to fill the empty seats with bots and start, and a game still not started
``LOBBY_BOTS_OFFER_HOURS`` later is cancelled, its players told
(``open_games_sweep``, run by beat).

Limits: a player holds at most ``LOBBY_SEATS_WAITING`` seats in open games not
started (their own included), a host gathers at most ``LOBBY_GAMES_PER_HOST`` open
games. They are counted under a lock on the player's account row, so two clicks
at once cannot both pass. Every refusal is a ``ServiceError`` saying why; nothing
changes.

Ratings and finish rates are read through ``standing_of`` alone, the one door to
the ratings a limit needs.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import profile_of
from games.models import Game, OpenGame, Seat
from games.selectors.gathering import open_game_of
from games.selectors.lobby import lobby_changed
from games.selectors.moderation import blocked_either_way
from games.services import notifications
from games.services.bots import bot_seat
from games.services.errors import ServiceError
from games.services.gathering import game_cancel_unstarted, game_create, take_seat
from ratings.models import Rating
from ratings.selectors import reliability

DEFAULT_FILL_DAYS = 3
# The games play now opens when none is waiting: a day per turn, the lobby's default.
PLAY_NOW_SECONDS = (24 * 3600, 8 * 3600)
# Play now tries this many of the fullest games before opening one: each may fill
# (or its limits refuse the player) between the look and the seat.
PLAY_NOW_TRIES = 5


@receiver([post_save, post_delete], sender=OpenGame, dispatch_uid="lobby_games_changed")
@receiver([post_save, post_delete], sender=Seat, dispatch_uid="lobby_seats_changed")
def _listings_changed(sender, created: bool = True, **_signal) -> None:
    """A game entered or left the lobby, or a seat was taken or freed (a seat's
    later changes, such as a stand-in, list nothing new)."""
    if created:
        lobby_changed()


@dataclass(frozen=True)
class Terms:
    """An open game's terms: the language of its table, who may join, how long it waits."""

    language: str
    min_rating: int | None = None
    min_finish_rate: int | None = None
    fill_days: int = DEFAULT_FILL_DAYS


@dataclass(frozen=True)
class Standing:
    """What a lobby limit reads of a player at a game kind: their rating (None:
    not rated yet) and the percentage of games they joined that they finished
    (None: none finished yet)."""

    rating: int | None = None
    finish_rate: int | None = None


def standing_of(user, kind: str) -> Standing:
    """``user``'s standing at ``kind``, as the ratings app keeps it (a provisional
    rating counts: a minimum is about skill, not about how many games were played)."""
    rating = Rating.objects.filter(user=user, kind=kind).values_list("shown", flat=True).first()
    return Standing(rating=rating, finish_rate=reliability(user)["finish_rate"])


def limits_unmet(open_game: OpenGame, standing: Standing) -> str:
    """Why a player of ``standing`` may not join ``open_game`` ('' when they may).
    A player with no rating yet does not meet a minimum rating; a player with no
    finished game yet is given the benefit of the doubt on the finish rate, or no
    newcomer could ever join."""
    if open_game.min_rating is not None and (standing.rating is None or standing.rating < open_game.min_rating):
        return _("This game asks for a rating of at least %(rating)d; yours is %(yours)s.") % {
            "rating": open_game.min_rating,
            "yours": standing.rating if standing.rating is not None else _("not set yet"),
        }
    if (
        open_game.min_finish_rate is not None
        and standing.finish_rate is not None
        and standing.finish_rate < open_game.min_finish_rate
    ):
        return _(
            "This game asks for players who finish at least %(rate)d%% of their games; you finish %(yours)d%%."
        ) % {
            "rate": open_game.min_finish_rate,
            "yours": standing.finish_rate,
        }
    return ""


def open_game_create(*, host, terms: Terms, **game) -> Game:
    """A new game (``gathering.game_create``'s ``game`` arguments) listed in the
    lobby on ``terms``, public unless the host chose otherwise."""
    if terms.language not in dict(settings.LANGUAGES):
        raise ServiceError(_("Choose the language of the table."))
    if terms.fill_days <= 0:
        raise ServiceError(_("Choose how long the game may wait for players."))
    if terms.min_finish_rate is not None and not 0 <= terms.min_finish_rate <= 100:
        raise ServiceError(_("A finish rate is a percentage, from 0 to 100."))
    game.setdefault("visibility", Game.Visibility.PUBLIC)
    visibility = game.pop("visibility")
    with transaction.atomic():
        _player_locked(host)
        hosting = OpenGame.objects.filter(game__host=host).count()
        if hosting >= settings.LOBBY_GAMES_PER_HOST:
            raise ServiceError(
                _(
                    "You host %(count)d open games waiting for players, the most one host may have. Start or cancel one first."
                )
                % {"count": hosting}
            )
        _check_seats_waiting(host)
        created = game_create(host=host, **game)
        created.visibility = visibility
        created.options["open"] = True  # for good: the lobby's row goes when the game starts
        created.save(update_fields=["visibility", "options"])
        OpenGame.objects.create(
            game=created,
            kind=created.kind,
            seat_count=created.seat_count,
            turn_seconds=created.turn_seconds,
            language=terms.language,
            min_rating=terms.min_rating,
            min_finish_rate=terms.min_finish_rate,
            fill_by=timezone.now() + timedelta(days=terms.fill_days),
        )
    return created


def _player_locked(user) -> None:
    """Lock ``user``'s account row: their limits are counted once per click."""
    get_user_model().objects.select_for_update().get(pk=user.pk)


def seats_waiting(user) -> int:
    """The seats ``user`` holds in open games that have not started."""
    return Seat.objects.filter(user=user, game__open_game__isnull=False).count()


def _check_seats_waiting(user) -> None:
    waiting = seats_waiting(user)
    if waiting >= settings.LOBBY_SEATS_WAITING:
        raise ServiceError(
            _(
                "You already wait for %(count)d open games to start, the most we allow. Leave one, or wait for one to start."
            )
            % {"count": waiting}
        )


def open_game_join(*, game_id, user) -> Seat:
    """``user`` takes a seat at the open game ``game_id`` from the lobby. A game
    that is not open (a private, invited game), or no game at all, gets the same
    answer, so the lobby reveals no game it does not list."""
    with transaction.atomic():
        open_game = OpenGame.objects.filter(game_id=game_id).first() if _is_id(game_id) else None
        if open_game is None:
            raise ServiceError(_why_not_listed(game_id))
        # The game, then the player, as ``gathering.invitation_send`` locks them.
        game = Game.objects.select_for_update().get(pk=open_game.game_id)  # one seat each, two clicks or not
        _player_locked(user)
        if game.status != Game.Status.GATHERING:  # it filled, or was cancelled, since the look
            raise ServiceError(_why_not_listed(game.pk))
        if game.seats.filter(user=user).exists():
            raise ServiceError(_("You already have a seat at this game."))
        if game.seats.filter(user_id__in=blocked_either_way(user)).exists():
            # Whoever blocked whom stays unsaid.
            raise ServiceError(_("You cannot join this game: a block keeps you and one of its players apart."))
        refusal = limits_unmet(open_game, standing_of(user, game.kind))
        if refusal:
            raise ServiceError(refusal)
        _check_seats_waiting(user)
        return take_seat(game, user)


def _is_id(game_id) -> bool:
    """Whether ``game_id`` may be a game's id (a number the database's ids can hold)."""
    return isinstance(game_id, int) and 0 < game_id < 2**63


def _why_not_listed(game_id) -> str:
    """Why the game ``game_id`` is not in the lobby: a game opened once says how it
    left; any other (a private game, or none) gets one answer, so the lobby
    reveals no game it never listed."""
    was_open = Game.objects.filter(pk=game_id, options__open=True) if _is_id(game_id) else Game.objects.none()
    status = was_open.values_list("status", flat=True).first()
    if status == Game.Status.CANCELLED:
        return _("This game was cancelled.")
    if status is not None:
        return _("This game has started: it takes no more players.")
    return _("This game is not in the lobby: only its invited players may join it.")


def play_now(*, user, kind: str, seat_count: int) -> Game:
    """Seat ``user`` at the fullest open game of ``kind`` for ``seat_count``
    players they may join (the oldest first among equals), or open one for them
    in their language."""
    candidates = (
        OpenGame.objects.filter(kind=kind, seat_count=seat_count)
        .exclude(game__seats__user=user)
        .exclude(game__seats__user_id__in=blocked_either_way(user))
        .annotate(taken=Count("game__seats"))
        .order_by("-taken", "game_id")
        .values_list("game_id", flat=True)[:PLAY_NOW_TRIES]
    )
    for game_id in candidates:
        try:
            return open_game_join(game_id=game_id, user=user).game
        except ServiceError:
            continue  # filled, started or out of reach since: the next one
    turn, response = PLAY_NOW_SECONDS
    return open_game_create(
        host=user,
        terms=Terms(language=profile_of(user).language),
        kind=kind,
        variants=[],
        seat_count=seat_count,
        turn_seconds=turn,
        response_seconds=response,
    )


def open_game_fill_with_bots(*, game: Game, by, level: str) -> Game:
    """The host of an open game seats bots of ``level`` in its empty seats: the
    last one starts it (``take_seat``)."""
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if open_game_of(locked) is None:
            raise ServiceError(_("Only an open game waiting for players is filled with bots this way."))
        for _seat in range(locked.seat_count - locked.seats.count()):
            bot_seat(game=locked, by=by, level=level)
    game.refresh_from_db()
    return game


def open_games_sweep(now=None) -> tuple[int, int]:
    """Email the host of each open game past its time an offer of bots, and
    cancel each whose offer is ``LOBBY_BOTS_OFFER_HOURS`` old, telling its
    players. Each game is taken under its lock and skipped when another sweep
    holds it, so a sweep run twice offers and cancels once. Returns (offered,
    cancelled)."""
    now = now or timezone.now()
    due = list(OpenGame.objects.filter(bots_offered_at=None, fill_by__lte=now).values_list("game_id", flat=True))
    offered = sum(_offer_bots(game_id, now) for game_id in due)
    ended = OpenGame.objects.filter(bots_offered_at__lte=now - timedelta(hours=settings.LOBBY_BOTS_OFFER_HOURS))
    cancelled = sum(_cancel_unfilled(game_id) for game_id in ended.values_list("game_id", flat=True))
    return offered, cancelled


def _offer_bots(game_id: int, now) -> bool:
    with transaction.atomic():
        open_game = (
            OpenGame.objects.select_for_update(skip_locked=True).filter(game_id=game_id, bots_offered_at=None).first()
        )
        if open_game is None:
            return False
        open_game.bots_offered_at = now
        open_game.save(update_fields=["bots_offered_at"])
        notifications.open_game_unfilled(open_game.game_id)
    return True


def _cancel_unfilled(game_id: int) -> bool:
    with transaction.atomic():
        game = Game.objects.select_for_update(skip_locked=True).filter(pk=game_id, status=Game.Status.GATHERING).first()
        if game is None:
            return False
        game_cancel_unstarted(game)
        notifications.open_game_cancelled(game)
    return True
