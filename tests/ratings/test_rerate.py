"""Ratings recomputed from the stored results (``manage.py rerate``) are the
numbers the live updates gave: over hundreds of random finished games, run
twice, and after the numbers were damaged or a run was cut short."""

import random
import threading

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from games.kinds import KINDS
from ratings.models import Rating, RatingChange
from ratings.services import game_rate, ratings_recompute
from tests.ratings.builders import bots, finished_game, people, random_places

KIND_NAMES = sorted(KINDS)


def numbers() -> tuple[list, list]:
    """Every rating and every change, to the last bit of their floats."""
    ratings = list(
        Rating.objects.order_by("kind", "user_id").values_list("kind", "user_id", "mu", "sigma", "shown", "games")
    )
    changes = list(
        RatingChange.objects.order_by("id").values_list(
            "id", "game_id", "user_id", "mu", "sigma", "shown_before", "shown_after"
        )
    )
    return ratings, changes


def play_random_season(rng: random.Random, games: int) -> int:
    """``games`` random finished games among 30 people and 3 bots, each rated live
    as it ends (as ``events_prepare`` does); some not rated by choice, some with
    one person only. Returns how many were rated."""
    everyone, machines = people(30), bots(3)
    rated = 0
    for number in range(games):
        kind = rng.choice(KIND_NAMES)
        players = rng.sample(everyone, rng.randint(1, 5)) + rng.sample(machines, rng.randint(0, 2))
        if len(players) < 2:
            players += machines[:1]
        rng.shuffle(players)
        places = random_places(rng, len(players), ties=kind == KIND_NAMES[-1])
        game, results = finished_game(kind, players, places, rated=rng.random() < 0.9, minutes_ago=games - number)
        with transaction.atomic():
            rated += bool(game_rate(game=game, results=results))
    return rated


@pytest.mark.django_db
def test_recomputed_ratings_equal_the_live_ones_over_hundreds_of_random_games():
    rng = random.Random(26)
    rated = play_random_season(rng, 300)
    assert rated > 200  # most games were rated: the comparison covers them
    assert not Rating.objects.filter(user__profile__bot_level__gt="").exists()
    live = numbers()
    assert {kind for kind, *_rest in live[0]} == set(KIND_NAMES)
    assert all(games >= 5 for *_rest, games in live[0][:3])  # some players are established

    call_command("rerate")
    assert numbers() == live
    call_command("rerate", kind=KIND_NAMES[0])
    assert numbers() == live


@pytest.mark.django_db
def test_a_recomputation_repairs_damaged_numbers():
    play_random_season(random.Random(7), 120)
    live = numbers()
    Rating.objects.filter(pk__in=list(Rating.objects.order_by("pk").values_list("pk", flat=True))[::2]).update(
        mu=1.0, sigma=1.0, shown=0, games=99
    )
    RatingChange.objects.filter(
        pk__in=list(RatingChange.objects.order_by("pk").values_list("pk", flat=True))[::3]
    ).update(mu=0.0, shown_after=0)
    Rating.objects.filter(pk=Rating.objects.order_by("pk").first().pk).delete()
    for kind in KIND_NAMES:
        ratings_recompute(kind=kind)
    assert numbers() == live


@pytest.mark.django_db
def test_a_recomputation_cut_short_leaves_the_live_numbers():
    play_random_season(random.Random(11), 60)
    live = numbers()

    class Interrupted(Exception):
        pass

    with pytest.raises(Interrupted), transaction.atomic():
        ratings_recompute(kind=KIND_NAMES[0])
        Rating.objects.update(shown=0)  # half-done work of a run stopped here
        raise Interrupted
    assert numbers() == live
    call_command("rerate")
    assert numbers() == live


@pytest.mark.django_db
def test_rerate_refuses_an_unknown_game():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="invalid choice"):
        call_command("rerate", "--kind", "chess")


@pytest.mark.django_db(transaction=True)
def test_games_ending_at_once_with_the_same_players_are_rated_one_after_the_other():
    """Two games sharing their players end in two transactions at the same moment:
    the second waits for the first (the ratings lock), so neither rates from
    numbers the other is replacing, and a recomputation agrees."""
    ana, ben, cai = people(3, "Racer")
    kind = KIND_NAMES[0]
    first = finished_game(kind, [ana, ben, cai], [1, 2, 3])
    second = finished_game(kind, [cai, ben, ana], [1, 2, 3])
    start = threading.Barrier(2)
    errors = []

    def end(game_and_results):
        try:
            start.wait()
            with transaction.atomic():
                game_rate(game=game_and_results[0], results=game_and_results[1])
        except Exception as error:  # reported below, in the test's thread
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=end, args=(game,)) for game in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert set(Rating.objects.values_list("games", flat=True)) == {2}  # each counted both games
    live = numbers()
    ratings_recompute(kind=kind)
    assert numbers() == live
