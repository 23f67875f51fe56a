"""Reading a game's table talk."""

from django.contrib.auth import get_user_model

from games.models import ChatMessage, Game
from games.selectors import display_name, seats_of

CHAT_SHOWN = 100  # the latest messages a page shows


def chat_messages(game: Game, seats=None) -> list[dict]:
    """The latest messages, oldest first: ``id``, ``name`` (the author's), ``text``
    and ``at``. Their authors are the players seated, read with the ``seats``
    (``seats_of``) the page holds; a player who left a gathering game after
    speaking is read apart."""
    chat = list(
        ChatMessage.objects.filter(game=game)
        .order_by("-pk")
        .values_list("pk", "user_id", "text", "created_at")[:CHAT_SHOWN]
    )
    chat.reverse()
    authors = {seat.user_id: seat.user for seat in (seats_of(game) if seats is None else seats)}
    if missing := {user_id for _pk, user_id, _text, _at in chat} - authors.keys():
        authors |= {user.pk: user for user in get_user_model().objects.select_related("profile").filter(pk__in=missing)}
    return [
        {"id": pk, "name": display_name(authors[user_id]), "text": text, "at": at} for pk, user_id, text, at in chat
    ]


def chat_newer_than(game: Game, after: int) -> bool:
    """Whether anything was said at ``game`` since the message ``after``."""
    return ChatMessage.objects.filter(game=game, pk__gt=after).exists()
