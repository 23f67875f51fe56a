"""Reading games for their spectators: which game a visitor may watch, the public
games being played now, and who follows what. A spectator's table is
``table_for`` with no seat: the engine's public view, nothing more."""

from django.db.models import Prefetch, Q

from games.kinds import KINDS
from games.models import Follow, Game, Seat
from games.selectors import display_name

WATCH_LISTED = 50  # the public games /games/watch/ lists, newest first
HOME_LISTED = 5  # the public games the landing page lists


def watchable_game(pk: int) -> Game | None:
    """The game ``pk`` if anyone may watch it (public, or unlisted: by its link);
    None for a private game, as for one that does not exist."""
    return Game.objects.filter(pk=pk).exclude(visibility=Game.Visibility.PRIVATE).first()


def games_being_played(limit: int = WATCH_LISTED) -> list[dict]:
    """The public games in play, the latest started first: each its ``game``, the
    name of its kind and its players' ``names``, in two queries however many games there are."""
    seats = Seat.objects.select_related("user__profile").order_by("position")
    games = (
        Game.objects.filter(visibility=Game.Visibility.PUBLIC, status=Game.Status.ACTIVE)
        .order_by("-started_at", "-pk")
        .prefetch_related(Prefetch("seats", queryset=seats))[:limit]
    )
    return [
        {
            "game": game,
            "game_name": KINDS[game.kind].name,
            "names": [display_name(seat.user) for seat in game.seats.all()],
        }
        for game in games
    ]


def follows_game(user, game: Game) -> bool:
    return user.is_authenticated and Follow.objects.filter(user=user, game=game).exists()


def followed_players(user) -> set[int]:
    """The ids of the players ``user`` follows."""
    if not user.is_authenticated:
        return set()
    return set(Follow.objects.filter(user=user, followed__isnull=False).values_list("followed_id", flat=True))


def followers_of_result(game: Game) -> list:
    """The users to tell ``game``'s result: who follows it, or follows one of its
    players in a public game; never one of its players (they are told as players)."""
    players = list(game.seats.values_list("user_id", flat=True))
    wanted = Q(game=game)
    if game.visibility == Game.Visibility.PUBLIC:
        wanted |= Q(followed_id__in=players)
    follows = Follow.objects.filter(wanted).exclude(user_id__in=players).select_related("user__profile")
    return list({follow.user_id: follow.user for follow in follows}.values())
