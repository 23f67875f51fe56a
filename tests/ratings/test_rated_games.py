"""Games played through the services to their end move the ratings of their
people, and only when they are rated: by the finishing order, a player who
resigned or whom a bot played to the end ranked where they went out, bots and
practice games left out; and each result records how reliably its player played."""

import random
from collections import Counter

import pytest

from games.kinds import KINDS
from games.models import Game, SeatResult
from games.selectors import game_state
from games.services import bots, gathering, play
from ratings.models import Rating, RatingChange
from ratings.skill import Skill
from tests.players import gathering_game, started_game

pytestmark = pytest.mark.django_db


def play_out(game, rng: random.Random) -> Game:
    """Play ``game`` to its end: a decision awaited from a seat a bot plays is the
    bot's answer (the service its task calls), any other a person's random one."""
    rules = KINDS[game.kind].rules
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return game
        seats = {seat.player: seat for seat in game.seats.select_related("user__profile")}
        state = game_state(game)
        name, _decision, version = rng.choice(rules.awaiting(state))
        if seats[name].bot_level:
            bots.bot_answer(game=game, seat_id=seats[name].pk, version=version)
        else:
            command = rng.choice(rules.options(state, name))
            play.decision_submit(game=game, user=seats[name].user, command=command, version=version)
    raise AssertionError("the game did not end")


def changes_of(game) -> dict:
    return {change.user_id: change for change in RatingChange.objects.filter(game=game)}


def test_a_rated_game_moves_its_players_ratings_by_their_finishing_order(ana, ben, cai):
    game = play_out(started_game(ana, ben, cai, rated=True), random.Random(1))
    places = dict(SeatResult.objects.filter(game=game).values_list("user_id", "place"))
    assert sorted(places.values()) == [1, 2, 3]
    changes = changes_of(game)
    assert set(changes) == {ana.pk, ben.pk, cai.pk}
    first, last = (next(user for user, place in places.items() if place == wanted) for wanted in (1, 3))
    assert changes[first].shown_before == changes[last].shown_before == Skill().shown
    assert changes[first].shown_after > Skill().shown > changes[last].shown_after
    for user in (ana, ben, cai):
        rating = Rating.objects.get(user=user, kind=game.kind)
        assert (rating.games, rating.provisional, rating.shown) == (1, True, changes[user.pk].shown_after)


def test_a_player_who_resigns_ranks_where_they_were_eliminated(ana, ben, cai):
    game = started_game(ana, ben, cai, rated=True)
    play.game_resign(game=game, user=ben)
    game = play_out(game, random.Random(2))
    ben_result = SeatResult.objects.get(game=game, user=ben)
    assert (ben_result.place, ben_result.abandoned) == (3, True)
    assert not SeatResult.objects.get(game=game, user=ana).abandoned
    change = changes_of(game)[ben.pk]
    assert change.shown_after < change.shown_before


def test_a_player_a_bot_plays_to_the_end_is_rated_at_the_bots_place_and_did_not_finish(ana, ben, cai):
    game = started_game(ana, ben, cai, rated=True)
    bots.stand_in_ask(game=game, user=cai)
    game = play_out(game, random.Random(3))
    cai_result = SeatResult.objects.get(game=game, user=cai)
    assert cai_result.abandoned
    assert cai.pk in changes_of(game)
    assert Rating.objects.get(user=cai, kind=game.kind).games == 1


def test_with_bots_at_the_table_only_the_peoples_order_counts(ana, ben):
    game = gathering_game(ana, ben, seats=3, rated=True)
    bots.bot_seat(game=game, by=ana, level="easy")
    game = play_out(gathering.game_start(game=game, by=ana), random.Random(4))
    bot = game.seats.get(position=2).user
    changes = changes_of(game)
    assert set(changes) == {ana.pk, ben.pk}
    assert not Rating.objects.filter(user=bot).exists()
    people = SeatResult.objects.filter(game=game, user__in=[ana, ben]).order_by("place")
    ahead, behind = (result.user_id for result in people)
    # Two people alone: the one ahead rises, the other falls, wherever the bot finished.
    assert changes[ahead].shown_after > changes[ahead].shown_before
    assert changes[behind].shown_after < changes[behind].shown_before


def test_an_unrated_game_and_a_practice_game_move_no_rating(ana, ben):
    unrated = play_out(started_game(ana, ben, rated=False), random.Random(5))
    practice = bots.practice_start(host=ana, seat_count=3, level="easy")
    practice = play_out(practice, random.Random(6))
    assert unrated.status == practice.status == Game.Status.FINISHED
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_rematch_is_rated_as_the_game_before_it(ana, ben):
    game = play_out(started_game(ana, ben, rated=True), random.Random(7))
    assert gathering.game_rematch(game=game, by=ana).options["rated"] is True


def test_each_result_counts_the_deadlines_its_player_missed(ana, ben):
    game = started_game(ana, ben, rated=True, takeover=0)
    for _ in range(6):
        game.refresh_from_db()
        Game.objects.filter(pk=game.pk).update(deadline_at=game.started_at)
        assert play.deadline_expire(game=game, version=game.version)
    game = play_out(game, random.Random(8))
    timed_out = Counter(
        event.payload["data"]["player"] for event in game.events.all() if event.payload["data"].get("timed_out")
    )
    missed = {result.seat.player: result.deadlines_missed for result in SeatResult.objects.filter(game=game)}
    assert sum(missed.values()) >= 6
    assert missed == {player: timed_out[player] for player in missed}
