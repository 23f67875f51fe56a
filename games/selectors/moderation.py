"""Who blocked whom: the block list keeps two players' chats apart, and keeps them
out of each other's open games (the lobby asks ``blocked_either_way``)."""

from django.db.models import Q

from games.models import Block


def blocked_either_way(user) -> set[int]:
    """The ids of the users ``user`` blocked or was blocked by: whose chat ``user``
    does not read, and who does not read theirs."""
    pairs = Block.objects.filter(Q(blocker_id=user.pk) | Q(blocked_id=user.pk)).values_list("blocker_id", "blocked_id")
    return {blocked if blocker == user.pk else blocker for blocker, blocked in pairs}


def blocked_by(user) -> set[int]:
    """The ids of the users ``user`` blocked (what their page offers to unblock)."""
    return set(Block.objects.filter(blocker_id=user.pk).values_list("blocked_id", flat=True))
