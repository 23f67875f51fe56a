"""Migration 0010 moves Coup's counters from their columns into ``SeatResult.counters``
and back, keeping every number: rows written before it are read after it, both ways."""

from datetime import UTC, datetime

from django.conf import settings

COLUMNS = [("games", "0009_fewer_indexes")]
JSON = [("games", "0010_seat_result_counters")]
COUNTERS = ("claims", "claims_challenged", "bluffs_caught", "challenges_made", "challenges_won")


def finished_game(apps, kind: str, users: list, counts: list[dict]) -> None:
    """A finished game of ``kind`` whose seats' results hold ``counts`` in their columns."""
    Game, Seat, SeatResult = (apps.get_model("games", name) for name in ("Game", "Seat", "SeatResult"))
    finished = datetime(2026, 5, 1, tzinfo=UTC)
    game = Game.objects.create(
        kind=kind, host=users[0], seat_count=len(users), status="finished", turn_seconds=60, response_seconds=60
    )
    for position, (user, counted) in enumerate(zip(users, counts, strict=True)):
        seat = Seat.objects.create(game=game, user=user, position=position)
        SeatResult.objects.create(
            seat=seat,
            game=game,
            user=user,
            kind=kind,
            players=len(users),
            finished_at=finished,
            place=position + 1,
            moves=10 + position,
            **counted,
        )


def test_coups_counters_move_into_the_json_and_back_with_every_number(migrate):
    apps = migrate(COLUMNS)
    User = apps.get_model(settings.AUTH_USER_MODEL)
    ana, ben, cai = (User.objects.create(username=name, email=f"{name}@example.com") for name in ("ana", "ben", "cai"))
    ana_counts = dict(zip(COUNTERS, (7, 3, 1, 4, 2), strict=True))
    finished_game(apps, "coup", [ana, ben], [ana_counts, {}])  # Ben's are all 0
    finished_game(apps, "kobayakawa", [ana, ben, cai], [{}, {}, {}])

    apps = migrate(JSON)
    results = apps.get_model("games", "SeatResult").objects
    stored = {(r.kind, r.user.username): (r.place, r.moves, r.counters) for r in results.select_related("user")}
    assert stored == {
        ("coup", "ana"): (1, 10, ana_counts),
        ("coup", "ben"): (2, 11, dict.fromkeys(COUNTERS, 0)),  # as a Coup game's results are recorded now
        ("kobayakawa", "ana"): (1, 10, {}),
        ("kobayakawa", "ben"): (2, 11, {}),
        ("kobayakawa", "cai"): (3, 12, {}),
    }

    apps = migrate(COLUMNS)
    results = apps.get_model("games", "SeatResult").objects
    columns = {
        (r.kind, r.user.username): {name: getattr(r, name) for name in COUNTERS} for r in results.select_related("user")
    }
    assert columns == {
        ("coup", "ana"): ana_counts,
        ("coup", "ben"): dict.fromkeys(COUNTERS, 0),
        **{("kobayakawa", name): dict.fromkeys(COUNTERS, 0) for name in ("ana", "ben", "cai")},
    }
