"""Moderation, since strangers meet at public games: a player blocks another (their
chats kept apart, and no shared open game), reports a chat message to staff, and
staff hide it from the admin."""

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Block, ChatMessage, ChatReport
from games.selectors.chat import message_by_id, message_readable
from games.services.errors import ServiceError


def block_set(*, user, blocked_id: int, block: bool) -> None:
    """``user`` blocks the player ``blocked_id`` (or unblocks them)."""
    if not block:
        Block.objects.filter(blocker=user, blocked_id=blocked_id).delete()
        return
    if blocked_id == user.pk:
        raise ServiceError(_("You cannot block yourself."))
    blocked = get_user_model().objects.filter(pk=blocked_id).first()
    if blocked is None:
        raise ServiceError(_("There is no such player."))
    try:
        with transaction.atomic():
            Block.objects.get_or_create(blocker=user, blocked=blocked)
    except IntegrityError:  # the same click, twice at once: the other made it
        pass


def chat_report(*, user, message_id: int) -> ChatMessage:
    """``user`` reports a chat message they could read to staff; once only."""
    message = message_by_id(message_id)
    if message is None or not message_readable(message, user):
        raise ServiceError(_("There is no such message."))
    if message.user_id == user.pk:
        raise ServiceError(_("You cannot report your own message."))
    try:
        with transaction.atomic():
            ChatReport.objects.create(message=message, reporter=user)
    except IntegrityError:
        raise ServiceError(_("You already reported this message: staff will look at it.")) from None
    return message


def chat_hide(*, messages) -> int:
    """Staff hide ``messages`` (a queryset of them) from every reader; how many were shown."""
    return messages.filter(hidden_at__isnull=True).update(hidden_at=timezone.now())
