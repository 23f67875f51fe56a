"""Second opinions through the services, on PostgreSQL: only once the game is over,
only on the asker's own decisions, at most so many a day, weighed once and kept;
weighed by a real worker when one runs. Every refusal computes and stores nothing."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone
from django.utils.translation import override

from games.kinds import KINDS
from games.models import Game, SecondOpinion
from games.services import opinions
from games.services.errors import NotSeated, ServiceError
from tests.players import make_player, play_randomly, play_to_the_end, started_game
from tests.worker import wait_for

OVER_FIRST = "A second opinion is given only once the game is over."
NOT_YOURS = "That is not one of your decisions in this game."


def finished_game(ana, ben, cai) -> Game:
    game = started_game(ana, ben, cai)
    play_to_the_end(game, 11)
    return game


def decisions(game, user) -> list[int]:
    seat = game.seats.get(user=user)
    return list(opinions.decisions_of(game, seat)[1])


@pytest.fixture
def over(ana, ben, cai):
    return finished_game(ana, ben, cai)


def test_an_opinion_asked_is_weighed_once_and_kept(over, ana, django_capture_on_commit_callbacks, settings):
    settings.SECOND_OPINION_WORLDS = 20
    version = decisions(over, ana)[0]
    with django_capture_on_commit_callbacks(execute=True):
        opinion = opinions.second_opinion_ask(game=over, user=ana, version=version)
    opinion.refresh_from_db()
    options = [weighed["option"] for weighed in opinion.weighed]
    assert len(options) > 1 and opinion.worlds == 20
    assert all(0 <= weighed["score"] <= 1 for weighed in opinion.weighed)
    assert [weighed["chosen"] for weighed in opinion.weighed].count(True) == 1
    first = opinion.weighed
    # Asked again: the same row, nothing queued, nothing weighed again.
    with django_capture_on_commit_callbacks(execute=True) as queued:
        again = opinions.second_opinion_ask(game=over, user=ana, version=version)
    assert again.pk == opinion.pk and not queued
    assert not opinions.second_opinion_give(opinion_id=opinion.pk)
    # Worked out again from scratch, the answer is the same: the seed is the decision's.
    SecondOpinion.objects.filter(pk=opinion.pk).update(weighed=None)
    assert opinions.second_opinion_give(opinion_id=opinion.pk)
    opinion.refresh_from_db()
    assert opinion.weighed == first


def test_no_opinion_while_the_game_is_in_play(ana, ben, cai):
    game = started_game(ana, ben, cai)
    for _game in play_randomly(game, random.Random(3), decisions=6):
        pass
    with pytest.raises(ServiceError, match=OVER_FIRST):
        opinions.second_opinion_ask(game=game, user=ana, version=1)
    assert not SecondOpinion.objects.exists()


def test_another_seats_decision_or_a_forged_number_is_refused(over, ana, ben):
    theirs = set(decisions(over, ben)) - set(decisions(over, ana))
    assert theirs
    for version in (min(theirs), 10**6, 0):
        with pytest.raises(ServiceError, match=NOT_YOURS):
            opinions.second_opinion_ask(game=over, user=ana, version=version)
    assert not SecondOpinion.objects.exists()


def test_a_stranger_is_told_they_have_no_seat(over, ana):
    dora = make_player("Dora")
    with pytest.raises(NotSeated):
        opinions.second_opinion_ask(game=over, user=dora, version=decisions(over, ana)[0])
    assert not SecondOpinion.objects.exists()


def test_a_player_asks_at_most_so_many_a_day(over, ana, ben, settings):
    settings.SECOND_OPINIONS_PER_DAY = 2
    first, second, third, fourth = decisions(over, ana)[:4]
    opinions.second_opinion_ask(game=over, user=ana, version=first)
    opinions.second_opinion_ask(game=over, user=ana, version=second)
    with pytest.raises(ServiceError, match="asked for 2 second opinions in the last 24 hours"):
        opinions.second_opinion_ask(game=over, user=ana, version=third)
    assert SecondOpinion.objects.count() == 2
    # One already asked is shown again, limit or not; and another player has their own count.
    assert opinions.second_opinion_ask(game=over, user=ana, version=first).version == first
    opinions.second_opinion_ask(game=over, user=ben, version=decisions(over, ben)[0])
    # A day later, the oldest ask no longer counts.
    SecondOpinion.objects.filter(version=first).update(asked_at=timezone.now() - timedelta(hours=25))
    opinions.second_opinion_ask(game=over, user=ana, version=third)
    with pytest.raises(ServiceError):
        opinions.second_opinion_ask(game=over, user=ana, version=fourth)


def test_a_refused_ask_shows_the_limit_in_the_players_language(over, ana, settings):
    settings.SECOND_OPINIONS_PER_DAY = 0
    with override("es"), pytest.raises(ServiceError) as refused:
        opinions.second_opinion_ask(game=over, user=ana, version=decisions(over, ana)[0])
    assert "24 horas" in refused.value.message


@pytest.mark.django_db(transaction=True)
def test_a_worker_weighs_an_opinion_from_the_seats_own_decision(celery_worker):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    over = finished_game(ana, ben, cai)
    seat = over.seats.get(user=ana)
    stored, found = opinions.decisions_of(over, seat)
    version = next(v for v, decision in found.items() if decision.kind == "turn")
    opinion = opinions.second_opinion_ask(game=over, user=ana, version=version)
    assert opinion.weighed is None  # queued: the request does not weigh it
    wait_for(lambda: SecondOpinion.objects.get(pk=opinion.pk).weighed, timeout=60)
    opinion.refresh_from_db()
    state = KINDS["coup"].rules.replay(event for _seq, event in stored[: found[version].upto])
    assert [weighed["option"] for weighed in opinion.weighed] == KINDS["coup"].rules.options(state, seat.player)
