"""What spectators do: talk among themselves, and follow a game or a player to be
emailed the result. Players never read the spectators' chat while the game runs
(it is shown in the replay), so nobody watching can whisper them hints."""

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.models import ChatMessage, Follow, Game
from games.selectors import seat_of
from games.services.errors import ServiceError
from games.services.play import chat_text_checked


def _watchable(game: Game) -> None:
    if game.visibility == Game.Visibility.PRIVATE:
        raise ServiceError(_("This game is private: only its players see it."))


def spectator_chat_post(*, game: Game, user, text: str) -> ChatMessage:
    """Say ``text`` in the spectators' chat of a game anyone may watch, as a spectator."""
    _watchable(game)
    if seat_of(game, user) is not None:
        raise ServiceError(_("You play this game: its spectators' chat opens to you once it is over."))
    if game.status not in (Game.Status.GATHERING, Game.Status.ACTIVE):
        raise ServiceError(_("The game is over: its spectators' chat is closed."))
    text = chat_text_checked(user, text)
    return ChatMessage.objects.create(game=game, user=user, text=text, audience=ChatMessage.Audience.SPECTATORS)


def game_follow(*, game: Game, user, follow: bool) -> None:
    """``user`` follows ``game`` (or no longer does), to be emailed its result."""
    if follow:
        _watchable(game)
        if seat_of(game, user) is not None:
            raise ServiceError(_("You play this game: you will be told its result as a player."))
        if game.status not in (Game.Status.GATHERING, Game.Status.ACTIVE):
            raise ServiceError(_("The game is over: its result is on this page."))
        _follow_once(user=user, game=game)
    else:
        Follow.objects.filter(user=user, game=game).delete()


def player_follow(*, user, followed_id: int, follow: bool) -> None:
    """``user`` follows the player ``followed_id`` (or no longer does), to be emailed
    the result of each public game they finish."""
    if follow:
        followed = get_user_model().objects.filter(pk=followed_id).first()
        if followed is None:
            raise ServiceError(_("There is no such player."))
        if followed.pk == user.pk:
            raise ServiceError(_("You cannot follow yourself."))
        _follow_once(user=user, followed=followed)
    else:
        Follow.objects.filter(user=user, followed_id=followed_id).delete()


def _follow_once(**follow) -> None:
    """A follow, unless it exists: following twice changes nothing."""
    try:
        with transaction.atomic():
            Follow.objects.get_or_create(**follow)
    except IntegrityError:  # the same click, twice at once: the other made it
        pass
