"""Bots at the table, through the services on PostgreSQL: bot seats and a bot
standing in for an absent player play games to their end with a real worker, a
returning player takes their seat back, a bot's late answer changes nothing,
bot accounts never sign in nor get email, and bad input changes nothing."""

import random
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import override

from accounts.models import BOT_NAMES, Profile, profile_of
from accounts.services import bot_account
from games import tasks
from games.kinds import KINDS
from games.models import Game, Invitation, Seat, SeatChange
from games.selectors import game_state, player_names
from games.services import bots, gathering, play
from games.services.errors import DecisionPassed, ServiceError
from tests.players import awaited, gathering_game, make_player, started_game
from tests.worker import wait_for

STANDS_IN = "plays your seat until you are back"
PLAYED = "has answered a decision of yours"


def finished(game) -> Game:
    game.refresh_from_db()
    return game if game.status == Game.Status.FINISHED else None


def test_a_game_of_bot_seats_plays_to_its_end_and_no_bot_is_emailed(celery_worker, smtp):
    ana = make_player("Ana")
    profile = profile_of(ana)
    profile.practice_emails = True  # alone with bots: only a player who asked is emailed the game's news
    profile.save()
    game = gathering_game(ana, seats=3)
    bots.bot_seat(game=game, by=ana, level="easy")
    bots.bot_seat(game=game, by=ana, level="strong")
    names = player_names(game)
    assert names["p1"] == "Ana" and names["p2"].endswith(" (easy bot)") and names["p3"].endswith(" (strong bot)")
    gathering.game_start(game=game, by=ana)
    bots.stand_in_ask(game=game, user=ana)  # every seat is a bot's now
    game = wait_for(lambda: finished(game), timeout=180)
    assert game.moves > 0
    bot_users = get_user_model().objects.filter(profile__bot_level__in=["easy", "strong"], seats__game=game)
    assert bot_users.count() == 2 and not any(user.email for user in bot_users)
    celery_worker.drain()
    recipients = {address for message in smtp.messages for address in message.to}
    assert recipients == {"ana@example.com"}
    texts = [message.text for message in smtp.to("ana@example.com")]
    assert sum(STANDS_IN in text for text in texts) == 1
    assert sum(PLAYED in text for text in texts) == 1
    assert list(SeatChange.objects.filter(game=game).values_list("change", flat=True)) == ["asked"]


def _expire(game) -> None:
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    game.refresh_from_db()
    assert play.deadline_expire(game=game, version=game.version)


def test_an_absentee_is_played_by_a_bot_after_two_missed_deadlines_to_the_end(celery_worker, smtp):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben)
    assert game.options["takeover"] == 2
    rng, rules = random.Random(7), KINDS[game.kind].rules
    ben_seat = game.seats.get(user=ben)
    missed = 0
    while not finished(game):
        waiting = awaited(game)
        if "p1" in waiting:  # Ana answers whatever she is asked, at once
            state = game_state(game)
            play.decision_submit(
                game=game, user=ana, command=rng.choice(rules.options(state, "p1")), version=waiting["p1"][1]
            )
        elif missed < 2:  # Ben lets his deadlines pass
            _expire(game)
            missed += 1
            ben_seat.refresh_from_db()
            assert ben_seat.missed_deadlines == missed and bool(ben_seat.stand_in) == (missed == 2)
        else:  # his bot answers through the worker
            version = game.version
            wait_for(lambda: Game.objects.get(pk=game.pk).version > version)
    ben_seat.refresh_from_db()
    assert ben_seat.stand_in == "easy"
    assert list(SeatChange.objects.filter(seat=ben_seat).values_list("change", flat=True)) == ["missed"]
    celery_worker.drain()
    texts = [message.text for message in smtp.to("ben@example.com")]
    assert sum(STANDS_IN in text for text in texts) == 1
    assert sum(PLAYED in text for text in texts) <= 1  # the first answer, if the game went on that long
    assert not any(STANDS_IN in message.text or PLAYED in message.text for message in smtp.to("ana@example.com"))


def test_never_means_no_bot_takes_over(db):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben, takeover=0)
    for _ in range(4):  # both let two turns pass
        _expire(game)
    seats = list(game.seats.all())
    assert [seat.missed_deadlines for seat in seats] == [2, 2]
    assert [seat.stand_in for seat in seats] == ["", ""]
    assert not SeatChange.objects.filter(game=game).exists()


def test_a_returning_player_answers_first_and_the_bots_late_answer_changes_nothing(celery_workers):
    """No worker runs: the bot's task waits in the broker while its player comes back."""
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben)
    seat = game.seats.get(user=ana)
    bots.stand_in_ask(game=game, user=ana)
    seat.refresh_from_db()
    assert seat.stand_in == "easy"
    state = game_state(game)
    version = awaited(game)["p1"][1]
    play.decision_submit(game=game, user=ana, command=KINDS[game.kind].rules.options(state, "p1")[0], version=version)
    seat.refresh_from_db()
    assert seat.stand_in == "" and seat.missed_deadlines == 0
    assert list(SeatChange.objects.filter(seat=seat).values_list("change", flat=True)) == ["asked", "back"]
    game.refresh_from_db()
    after = game.version
    assert tasks.bot_answer(game.pk, seat.pk, version) is False
    with pytest.raises(DecisionPassed):
        bots.bot_answer(game=game, seat_id=seat.pk, version=version)
    game.refresh_from_db()
    assert game.version == after and not game.attention


def test_im_back_ends_the_stand_in_and_saying_it_twice_is_a_clear_error(db, smtp):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben)
    bots.stand_in_ask(game=game, user=ben)  # Ben is not awaited: the bot waits for his turn
    with pytest.raises(ServiceError, match="A bot already plays for you"):
        bots.stand_in_ask(game=game, user=ben)
    bots.stand_in_end(game=game, user=ben)
    seat = game.seats.get(user=ben)
    assert seat.stand_in == ""
    with pytest.raises(ServiceError, match="No bot plays for you"):
        bots.stand_in_end(game=game, user=ben)


def test_a_practice_game_starts_at_once_against_bots(db):
    ana = make_player("Ana")
    game = bots.practice_start(host=ana, kind="kobayakawa", seat_count=3, level="easy")
    assert game.status == Game.Status.ACTIVE
    assert [seat.bot_level for seat in game.seats.all()] == ["", "easy", "easy"]


def test_bad_bot_requests_change_nothing(db):
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    users = get_user_model().objects.count()
    game = gathering_game(ana, seats=3)
    with pytest.raises(ServiceError, match="There is no bot of that level for this game"):
        bots.bot_seat(game=game, by=ana, level="grandmaster")
    with pytest.raises(ServiceError, match="There is no bot of that level"):
        bots.bot_seat(game=gathering_game(ben, kind="kobayakawa", seats=3), by=ben, level="treason")
    with pytest.raises(ServiceError, match="Only the host can seat a bot"):
        bots.bot_seat(game=game, by=ben, level="easy")
    with pytest.raises(ServiceError, match="There is no bot of that level"):
        bots.practice_start(host=ana, seat_count=3, level="grandmaster")
    with pytest.raises(ServiceError, match="Choose when a bot plays"):
        gathering.game_create(host=ana, variants=[], seat_count=2, turn_seconds=60, response_seconds=60, takeover=9)
    full = gathering_game(cai, ben)
    with pytest.raises(ServiceError, match="This game is full"):
        bots.bot_seat(game=full, by=cai, level="easy")
    assert get_user_model().objects.count() == users
    assert Seat.objects.filter(game__in=[game, full]).count() == 3
    assert Game.objects.filter(host=ana).count() == 1  # the practice game was never made


def test_a_bot_asked_to_play_a_finished_game_is_a_clear_error(db):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben)
    seat = game.seats.get(user=ben)
    play.game_resign(game=game, user=ben)
    game.refresh_from_db()
    with pytest.raises(ServiceError, match="This game is not in play; a bot has nothing to answer"):
        bots.bot_answer(game=game, seat_id=seat.pk, version=game.version)
    assert tasks.bot_answer(game.pk, seat.pk, game.version) is False


def test_a_bot_account_cannot_sign_in_and_is_shown_as_a_bot(db, client):
    bot = bot_account("strong", "Peter")
    assert not bot.is_active and not bot.has_usable_password() and bot.email == ""
    assert not client.login(username=bot.username, password="")
    game = gathering_game(make_player("Ana"), seats=2)
    bots.bot_seat(game=game, by=game.host, level="strong")
    with override("es"):
        assert player_names(game)["p2"].endswith(" (bot fuerte)")


def test_a_rematch_seats_fresh_bots_of_the_same_levels_and_invites_only_people(db):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = gathering_game(ana, seats=4)
    bots.bot_seat(game=game, by=ana, level="easy")
    bots.bot_seat(game=game, by=ana, level="strong")
    gathering.take_seat(game, ben)
    gathering.game_start(game=game, by=ana)
    old_bots = set(game.seats.exclude(user__in=[ana, ben]).values_list("user_id", flat=True))
    winner = game.seats.get(position=1).user  # the easy bot
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, winner=winner)
    game.refresh_from_db()
    rematch = gathering.game_rematch(game=game, by=ana)
    seats = list(rematch.seats.select_related("user__profile").order_by("position"))
    assert [profile_of(seat.user).bot_level for seat in seats] == ["", "easy", "strong"]
    assert not old_bots & {seat.user_id for seat in seats}
    assert rematch.options["first_user"] == seats[1].user_id  # the winner's level stands in for it
    old_names = [seat.user.profile.display_name for seat in game.seats.order_by("position")[1:] if seat.user != ben]
    assert [seat.user.profile.display_name for seat in seats[1:]] == old_names  # the same bots, by name
    assert list(Invitation.objects.filter(game=rematch).values_list("user", flat=True)) == [ben.pk]


def test_the_bots_of_a_table_have_names_of_their_own_kept_and_shown_in_the_readers_language(db):
    ana = make_player("Ana")
    game = bots.practice_start(host=ana, seat_count=6, level="easy")
    seats = list(game.seats.select_related("user__profile").order_by("position"))
    kept = [seat.user.profile.display_name for seat in seats[1:]]
    assert len(set(kept)) == 5 and set(kept) <= set(BOT_NAMES)
    with override("en"):
        names = player_names(game)
    assert names["p1"] == "Ana" and [names[seat.player] for seat in seats[1:]] == [f"{n} (easy bot)" for n in kept]
    Profile.objects.filter(user=seats[1].user).update(display_name="Peter")  # one whose name differs in Spanish
    with override("es"):
        assert player_names(game)["p2"] == "Pedro (bot fácil)"
    with override("pt-br"):
        assert player_names(game)["p2"] == "Pedro (bot fácil)"


def test_a_bot_is_never_given_the_name_of_someone_at_the_table(db):
    peter = make_player("Peter")
    game = gathering_game(peter, seats=10)
    for _bot in range(9):
        bots.bot_seat(game=game, by=peter, level="easy")
    names = [seat.user.profile.display_name for seat in game.seats.select_related("user__profile")]
    assert names[0] == "Peter" and len(set(names)) == 10 and set(names[1:]) <= set(BOT_NAMES)
