"""Finished games built straight in the database, results and all, to rate many
quickly: no game is played through the engine or the web."""

import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.utils import timezone

from accounts.models import profile_of
from accounts.services import bot_account
from games.models import Game, Seat, SeatResult
from tests.players import make_player


def people(count: int, prefix: str = "P") -> list:
    """``count`` players, each with their profile read (as the services read seats)."""
    users = [make_player(f"{prefix}{number}") for number in range(count)]
    for user in users:
        profile_of(user)
    return users


def bots(count: int) -> list:
    """``count`` bot accounts, read afresh with their profiles (the account's own
    instance holds the profile as first made, before it was marked a bot)."""
    made = [bot_account("easy", "Peter").pk for _ in range(count)]
    return list(get_user_model().objects.select_related("profile").filter(pk__in=made).order_by("pk"))


def finished_game(kind: str, players: list, places: list[int], *, rated: bool = True, minutes_ago: int = 0):
    """A finished game of ``kind`` whose ``players`` (users, in seat order) ended
    at ``places``, with its seats and results stored; returns the game and the
    results, each with its seat and user as ``game_results_record`` returns them."""
    finished_at = timezone.now() - timedelta(minutes=minutes_ago)
    game = Game.objects.create(
        kind=kind,
        host=players[0],
        seat_count=len(players),
        status=Game.Status.FINISHED,
        options={"variants": [], "rated": rated},
        turn_seconds=86400,
        response_seconds=28800,
        started_at=finished_at - timedelta(days=1),
        finished_at=finished_at,
    )
    seats = Seat.objects.bulk_create(
        Seat(game=game, user=user, position=position) for position, user in enumerate(players)
    )
    with_bots = any(profile_of(user).bot_level for user in players)
    results = SeatResult.objects.bulk_create(
        SeatResult(
            seat=seat,
            game=game,
            user=seat.user,
            kind=kind,
            players=len(players),
            finished_at=finished_at,
            place=place,
            with_bots=with_bots,
        )
        for seat, place in zip(seats, places, strict=True)
    )
    return game, results


def random_places(rng: random.Random, count: int, ties: bool) -> list[int]:
    """Places for ``count`` players in seat order: a finishing order (1, 2, 3 …)
    or, with ``ties``, medals' standings where equal players share a place."""
    if not ties:
        order = list(range(1, count + 1))
        rng.shuffle(order)
        return order
    scores = [rng.randint(0, 3) for _ in range(count)]
    return [1 + sum(other > score for other in scores) for score in scores]
