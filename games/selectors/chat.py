"""Reading a game's chats: its table talk and its spectators' chat, as one reader
may read them (never a message staff hid, nor one of a player blocked either way)."""

from django.contrib.auth import get_user_model

from games.models import ChatMessage, Game
from games.selectors import display_name, seat_of, seats_of
from games.selectors.moderation import blocked_either_way

CHAT_SHOWN = 100  # the latest messages a page shows


def _readable(game: Game, audience: str, reader):
    """The messages of ``game``'s chat ``audience`` that ``reader`` may read."""
    messages = ChatMessage.objects.filter(game=game, audience=audience, hidden_at__isnull=True)
    if reader is not None and reader.is_authenticated:
        messages = messages.exclude(user_id__in=blocked_either_way(reader))
    return messages


def chat_messages(game: Game, seats=None, *, audience: str = ChatMessage.Audience.TABLE, reader=None) -> list[dict]:
    """The latest messages of ``game``'s chat ``audience`` that ``reader`` may read,
    oldest first: ``id``, ``name`` (the author's), ``user_id``, ``text`` and ``at``.
    The players' names are read with the ``seats`` (``seats_of``) the page holds; a
    spectator, or a player who left a gathering game after speaking, is read apart."""
    chat = list(
        _readable(game, audience, reader)
        .order_by("-pk")
        .values_list("pk", "user_id", "text", "created_at")[:CHAT_SHOWN]
    )
    chat.reverse()
    authors = {seat.user_id: seat.user for seat in (seats_of(game) if seats is None else seats)}
    if missing := {user_id for _pk, user_id, _text, _at in chat} - authors.keys():
        authors |= {user.pk: user for user in get_user_model().objects.select_related("profile").filter(pk__in=missing)}
    return [
        {"id": pk, "name": display_name(authors[user_id]), "user_id": user_id, "text": text, "at": at}
        for pk, user_id, text, at in chat
    ]


def chat_newer_than(game: Game, after: int, *, audience: str = ChatMessage.Audience.TABLE, reader=None) -> bool:
    """Whether anything ``reader`` may read was said in ``game``'s chat ``audience``
    since the message ``after``."""
    return _readable(game, audience, reader).filter(pk__gt=after).exists()


def message_by_id(pk: int) -> ChatMessage | None:
    return ChatMessage.objects.select_related("game").filter(pk=pk).first()


def message_readable(message: ChatMessage, reader) -> bool:
    """Whether ``reader`` may read ``message``: its game is theirs, or anyone may
    watch it; spectators' words reach its players only once it is over; never a
    message staff hid, nor one of a player blocked either way."""
    game = message.game
    seated = seat_of(game, reader) is not None
    if message.hidden_at is not None or message.user_id in blocked_either_way(reader):
        return False
    if not seated:
        return game.visibility != Game.Visibility.PRIVATE
    return message.audience == ChatMessage.Audience.TABLE or game.status == Game.Status.FINISHED
