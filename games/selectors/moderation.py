"""Who blocked whom: the block list keeps two players' chats apart, and keeps them
out of each other's open games (the lobby asks ``blocks_between``)."""

from django.db.models import Q

from games.models import Block


def blocks_between(user_a, user_b) -> bool:
    """Whether either of two users blocked the other."""
    return Block.objects.filter(
        Q(blocker_id=user_a.pk, blocked_id=user_b.pk) | Q(blocker_id=user_b.pk, blocked_id=user_a.pk)
    ).exists()


def blocked_either_way(user) -> set[int]:
    """The ids of the users ``user`` blocked or was blocked by: whose chat ``user``
    does not read, and who does not read theirs."""
    pairs = Block.objects.filter(Q(blocker_id=user.pk) | Q(blocked_id=user.pk)).values_list("blocker_id", "blocked_id")
    return {blocked if blocker == user.pk else blocker for blocker, blocked in pairs}


def blocked_by(user) -> set[int]:
    """The ids of the users ``user`` blocked (what their page offers to unblock)."""
    return set(Block.objects.filter(blocker_id=user.pk).values_list("blocked_id", flat=True))
