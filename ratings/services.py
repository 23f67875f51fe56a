"""Every write of the ratings: a rated game's changes when it ends, and their
recomputation from the stored results (``manage.py rerate``).

Which games are rated: the host chose "rated" when creating it, and at least two
people (not bots) had seats when it ended; a practice game (one person against
bots) never is. Only the people's order counts, each ranked at their place in
the game's results (``SeatResult.place``, from the rules' standings), so a bot
between two people changes nothing, and a player who resigned, or whom a bot
played to the end, ranks where they were eliminated.

Order: ratings move one game after another, so the numbers depend on the order
the games were rated. Every write here takes one lock first (``_ratings_locked``)
and the ids of the ``RatingChange`` rows it inserts under it record that order;
a recomputation follows them, and so gives exactly the numbers the live updates
gave, however the games' transactions overlapped. It recomputes a kind in one
transaction: interrupted, it leaves the numbers as they were; run twice, it
writes the same numbers twice.
"""

from collections.abc import Iterable, Sequence
from itertools import groupby

from django.db import connection, transaction

from accounts.models import Profile, profile_of
from games.kinds import KINDS
from games.models import Game, SeatResult
from ratings.models import Rating, RatingChange
from ratings.skill import Skill, game_rated

# The key of the PostgreSQL advisory lock every rating write holds until its
# transaction ends (an arbitrary number, fixed: "RATE" in ASCII).
RATINGS_LOCK = 0x52415445


def _ratings_locked() -> None:
    """Hold the ratings lock until the current transaction ends. SQLite needs none:
    a writing transaction holds the whole database."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RATINGS_LOCK])


def is_rated(game: Game, results: Sequence[SeatResult]) -> bool:
    """Whether ``game``, finished with ``results``, moves ratings (see the module)."""
    return bool(game.options.get("rated")) and len(_people(results)) >= 2


def _people(results: Iterable[SeatResult]) -> list[SeatResult]:
    return [result for result in results if result.place and not profile_of(result.seat.user).bot_level]


def game_rate(*, game: Game, results: Sequence[SeatResult]) -> list[RatingChange]:
    """Move the ratings of the people of ``game`` by its ``results``, if it is
    rated. Precondition: inside the transaction that records the results (the game
    row locked), so a game is rated exactly once, when it ends."""
    if not is_rated(game, results):
        return []
    people = _people(results)
    _ratings_locked()
    users = [result.user_id for result in people]
    ratings = {rating.user_id: rating for rating in Rating.objects.filter(kind=game.kind, user_id__in=users)}
    before = {user: ratings[user].skill if user in ratings else Skill() for user in users}
    after = game_rated(before, {result.user_id: result.place for result in people if result.place})
    changes = [
        RatingChange(
            game=game,
            user_id=user,
            kind=game.kind,
            finished_at=people[0].finished_at,
            mu=after[user].mu,
            sigma=after[user].sigma,
            shown_before=before[user].shown,
            shown_after=after[user].shown,
        )
        for user in sorted(users)
    ]
    RatingChange.objects.bulk_create(changes)
    games = {user: ratings[user].games if user in ratings else 0 for user in users}
    _ratings_write(game.kind, {user: (after[user], games[user] + 1) for user in users})
    return changes


def _ratings_write(kind: str, standings: dict[int, tuple[Skill, int]]) -> None:
    """Set each user's ``Rating`` of ``kind`` to their (skill, rated games); a
    former player (``accounts.leaving``) has none, so no leaderboard lists them."""
    former = set(
        Profile.objects.filter(user_id__in=list(standings), former_number__isnull=False).values_list(
            "user_id", flat=True
        )
    )
    Rating.objects.bulk_create(
        [
            Rating(user_id=user, kind=kind, mu=skill.mu, sigma=skill.sigma, shown=skill.shown, games=games)
            for user, (skill, games) in standings.items()
            if user not in former
        ],
        update_conflicts=True,
        unique_fields=["user", "kind"],
        update_fields=["mu", "sigma", "shown", "games"],
        batch_size=1000,
    )


def ratings_recompute(*, kind: str) -> int:
    """Recompute every rating of ``kind`` from the stored results of the games
    rated so far, in the order they were rated (see the module). Returns how many
    games were replayed."""
    if kind not in KINDS:
        raise ValueError(f"unknown game kind: {kind!r}")
    with transaction.atomic():
        _ratings_locked()
        changes = list(RatingChange.objects.filter(kind=kind).order_by("id"))
        places = {
            (game, user): place
            for game, user, place in SeatResult.objects.filter(
                game_id__in=RatingChange.objects.filter(kind=kind).values("game_id")
            ).values_list("game_id", "user_id", "place")
        }
        skills: dict[int, Skill] = {}
        games: dict[int, int] = {}
        first_change: dict[int, int] = {}  # game → the id of its first change: the order it was rated in
        for change in changes:
            first_change.setdefault(change.game_id, change.id)
        replayed = 0
        for _game, rows in groupby(sorted(changes, key=lambda c: (first_change[c.game_id], c.id)), lambda c: c.game_id):
            # A result recorded afresh always places everyone; one that did not would be left out.
            game_changes = [change for change in rows if places.get((change.game_id, change.user_id))]
            before = {change.user_id: skills.get(change.user_id, Skill()) for change in game_changes}
            after = game_rated(before, {c.user_id: places[(c.game_id, c.user_id)] or 0 for c in game_changes})
            for change in game_changes:
                user = change.user_id
                change.mu, change.sigma = after[user].mu, after[user].sigma
                change.shown_before, change.shown_after = before[user].shown, after[user].shown
                skills[user] = after[user]
                games[user] = games.get(user, 0) + 1
            replayed += 1
        RatingChange.objects.bulk_update(changes, ["mu", "sigma", "shown_before", "shown_after"], batch_size=1000)
        Rating.objects.filter(kind=kind).exclude(user_id__in=list(skills)).delete()
        _ratings_write(kind, {user: (skills[user], games[user]) for user in skills})
    return replayed
