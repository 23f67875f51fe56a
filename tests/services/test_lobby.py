"""The lobby's services on PostgreSQL: open games, joining in a click, the start
when full, the host's early start, play now, the limits, and the sweep that
offers bots and then cancels a game that never filled."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Block, Game, OpenGame, SeatResult
from games.services import errors, gathering, lobby
from ratings.models import Rating
from tests.players import make_player, race
from tests.ratings.builders import finished_game

DAY = 86400


def open_game(host, seats=3, kind="coup", terms=None, **options) -> Game:
    return lobby.open_game_create(
        host=host,
        terms=terms or lobby.Terms(language="en"),
        kind=kind,
        variants=options.pop("variants", []),
        seat_count=seats,
        turn_seconds=DAY,
        response_seconds=DAY // 3,
        **options,
    )


def test_an_open_game_is_public_and_starts_by_itself_once_full_emailing_everyone(
    ana, ben, cai, smtp, django_capture_on_commit_callbacks
):
    game = open_game(ana, rated=True)
    assert game.visibility == Game.Visibility.PUBLIC and game.options["rated"] is True
    lobby.open_game_join(game_id=game.pk, user=ben)
    game.refresh_from_db()
    assert game.status == Game.Status.GATHERING
    with django_capture_on_commit_callbacks(execute=True):
        lobby.open_game_join(game_id=game.pk, user=cai)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.version > 0
    subjects = {player.email: [m.subject for m in smtp.to(player.email)] for player in (ana, ben, cai)}
    # As in an invited game: the first to act is asked for their move, the others told of the start.
    assert sorted(subject.split(":")[0] for told in subjects.values() for subject in told) == [
        "Started",
        "Started",
        "Your move",
    ], subjects


def test_an_invited_game_is_private_and_waits_for_its_host(ana, ben):
    game = gathering.game_create(host=ana, variants=[], seat_count=2, turn_seconds=DAY, response_seconds=DAY)
    gathering.seat_join(game=game, user=ben, join_token=game.join_token)
    game.refresh_from_db()
    assert game.visibility == Game.Visibility.PRIVATE and game.status == Game.Status.GATHERING


def test_the_host_may_start_an_open_game_with_the_players_it_has(ana, ben, cai):
    game = open_game(ana, seats=5)
    with pytest.raises(errors.ServiceError, match="at least 2 players"):
        gathering.game_start(game=game, by=ana)
    lobby.open_game_join(game_id=game.pk, user=ben)
    with pytest.raises(errors.ServiceError, match="Only the host"):
        gathering.game_start(game=game, by=ben)
    started = gathering.game_start(game=game, by=ana)
    started.refresh_from_db()
    assert started.status == Game.Status.ACTIVE and started.seat_count == 2


def test_kobayakawa_needs_three_to_start_early(ana, ben):
    game = open_game(ana, seats=5, kind="kobayakawa")
    lobby.open_game_join(game_id=game.pk, user=ben)
    with pytest.raises(errors.ServiceError, match="at least 3 players"):
        gathering.game_start(game=game, by=ana)
    game.refresh_from_db()
    assert game.status == Game.Status.GATHERING and game.seat_count == 5


def test_joining_a_full_started_private_missing_or_own_game_is_refused_and_changes_nothing(ana, ben, cai, dora):
    private = gathering.game_create(host=ana, variants=[], seat_count=3, turn_seconds=DAY, response_seconds=DAY)
    started = open_game(ana, seats=2)
    lobby.open_game_join(game_id=started.pk, user=ben)
    waiting = open_game(ben, seats=3)
    cancelled = open_game(dora, seats=3)
    gathering.game_cancel(game=cancelled, by=dora)
    refusals = {
        "was cancelled": cancelled.pk,
        "not in the lobby": private.pk,
        "has started: it takes no more players": started.pk,
    }
    for message, game_id in refusals.items():
        with pytest.raises(errors.ServiceError, match=message):
            lobby.open_game_join(game_id=game_id, user=cai)
    for forged in (None, 0, -1, 10**9, 10**30, "1"):
        with pytest.raises(errors.ServiceError, match="not in the lobby"):
            lobby.open_game_join(game_id=forged, user=cai)
    with pytest.raises(errors.ServiceError, match="already have a seat"):
        lobby.open_game_join(game_id=waiting.pk, user=ben)
    assert private.seats.count() == 1 and waiting.seats.count() == 1
    assert not private.seats.filter(user=cai).exists()


def test_two_players_racing_for_the_last_seat_one_wins_the_other_is_told(transactional_db):
    ana, ben, cai = (make_player(name) for name in ("Ana", "Ben", "Cai"))
    game = open_game(ana, seats=2)
    outcomes = race(
        lambda: lobby.open_game_join(game_id=game.pk, user=ben),
        lambda: lobby.open_game_join(game_id=game.pk, user=cai),
    )
    refused = [outcome for outcome in outcomes if isinstance(outcome, errors.ServiceError)]
    assert len(refused) == 1 and "has started: it takes no more players" in refused[0].message
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.seats.count() == 2


def test_a_host_has_at_most_the_open_games_the_setting_allows(ana, settings):
    settings.LOBBY_GAMES_PER_HOST = 2
    open_game(ana)
    open_game(ana)
    with pytest.raises(errors.ServiceError, match="You host 2 open games"):
        open_game(ana)
    assert OpenGame.objects.filter(game__host=ana).count() == 2


def test_a_player_holds_at_most_the_seats_the_setting_allows(ana, ben, cai, settings):
    settings.LOBBY_SEATS_WAITING = 2
    first, second, third = open_game(ana), open_game(cai), open_game(cai)
    lobby.open_game_join(game_id=first.pk, user=ben)
    lobby.open_game_join(game_id=second.pk, user=ben)
    with pytest.raises(errors.ServiceError, match="already wait for 2 open games"):
        lobby.open_game_join(game_id=third.pk, user=ben)
    assert not third.seats.filter(user=ben).exists()


def test_a_rating_or_finish_rate_below_the_hosts_minimum_is_refused(ana, ben, cai):
    game = open_game(ana, terms=lobby.Terms(language="en", min_rating=1500, min_finish_rate=80))
    with pytest.raises(errors.ServiceError, match="rating of at least 1500; yours is not set yet"):
        lobby.open_game_join(game_id=game.pk, user=ben)
    rating = Rating.objects.create(user=ben, kind="coup", mu=25, sigma=3, shown=1400, games=6)
    with pytest.raises(errors.ServiceError, match="yours is 1400"):
        lobby.open_game_join(game_id=game.pk, user=ben)
    rating.shown = 1600
    rating.save()
    # Two finished games, one of them left to a stand-in bot: a finish rate of 50%.
    for abandoned in (False, True):
        _game, results = finished_game("coup", [ben, cai], [1, 2])
        SeatResult.objects.filter(pk=results[0].pk).update(abandoned=abandoned)
    with pytest.raises(errors.ServiceError, match="at least 80% of their games; you finish 50%"):
        lobby.open_game_join(game_id=game.pk, user=ben)
    assert game.seats.count() == 1
    SeatResult.objects.filter(user=ben).update(abandoned=False)
    lobby.open_game_join(game_id=game.pk, user=ben)
    assert game.seats.count() == 2


def test_a_newcomer_with_no_finished_game_meets_a_minimum_finish_rate(ana, ben):
    game = open_game(ana, terms=lobby.Terms(language="en", min_finish_rate=80))
    lobby.open_game_join(game_id=game.pk, user=ben)
    assert game.seats.count() == 2


def test_players_kept_apart_by_a_block_do_not_meet_in_an_open_game(ana, ben, cai):
    game = open_game(ana)
    Block.objects.create(blocker=ben, blocked=ana)
    with pytest.raises(errors.ServiceError, match="a block keeps you and one of its players apart"):
        lobby.open_game_join(game_id=game.pk, user=ben)
    assert game.seats.count() == 1
    # Play now passes over the game and opens another for ben; cai, blocked by nobody, joins ana's.
    opened = lobby.play_now(user=ben, kind="coup", seat_count=game.seat_count)
    assert opened.pk != game.pk and opened.host_id == ben.pk
    assert lobby.play_now(user=cai, kind="coup", seat_count=game.seat_count).pk == game.pk


def test_no_limit_is_a_pass_for_anyone():
    open_game = OpenGame(language="en")
    assert lobby.limits_unmet(open_game, lobby.Standing()) == ""


def test_play_now_seats_the_player_at_the_fullest_matching_game(ana, ben, cai, dora):
    emptier = open_game(ana, seats=4)
    fuller = open_game(ben, seats=4)
    lobby.open_game_join(game_id=fuller.pk, user=cai)
    open_game(ben, seats=3)  # another size: another queue
    joined = lobby.play_now(user=dora, kind="coup", seat_count=4)
    assert joined.pk == fuller.pk and fuller.seats.filter(user=dora).exists()
    assert emptier.seats.count() == 1


def test_play_now_opens_a_game_when_none_waits_in_the_players_language(db):
    eva = make_player("Eva", language="es")
    opened = lobby.play_now(user=eva, kind="kobayakawa", seat_count=4)
    assert opened.host_id == eva.pk and opened.kind == "kobayakawa" and opened.seat_count == 4
    assert opened.open_game.language == "es" and opened.status == Game.Status.GATHERING


def test_the_host_fills_an_open_game_with_bots_and_it_starts(ana, ben):
    game = open_game(ana, seats=4)
    lobby.open_game_join(game_id=game.pk, user=ben)
    with pytest.raises(errors.ServiceError, match="Only the host"):
        lobby.open_game_fill_with_bots(game=game, by=ben, level="easy")
    started = lobby.open_game_fill_with_bots(game=game, by=ana, level="easy")
    assert started.status == Game.Status.ACTIVE and started.seats.count() == 4


def test_an_unfilled_game_is_offered_bots_once_then_cancelled_with_an_email_to_its_players(
    ana, ben, smtp, settings, django_capture_on_commit_callbacks
):
    game = open_game(ana, seats=4, terms=lobby.Terms(language="en", fill_days=3))
    lobby.open_game_join(game_id=game.pk, user=ben)
    now = timezone.now()
    assert lobby.open_games_sweep(now + timedelta(days=2)) == (0, 0)
    with django_capture_on_commit_callbacks(execute=True):
        assert lobby.open_games_sweep(now + timedelta(days=3, minutes=1)) == (1, 0)
    [offer] = smtp.to(ana.email)
    assert offer.subject == f"Not full yet: Coup #{game.pk} — start it with bots?"
    assert "2 of 4 seats taken" in offer.text and f"/games/{game.pk}/" in offer.text
    assert smtp.to(ben.email) == []
    assert lobby.open_games_sweep(now + timedelta(days=3, hours=2)) == (0, 0)  # offered once
    later = now + timedelta(days=3, hours=settings.LOBBY_BOTS_OFFER_HOURS, minutes=2)
    with django_capture_on_commit_callbacks(execute=True):
        assert lobby.open_games_sweep(later) == (0, 1)
    game.refresh_from_db()
    assert game.status == Game.Status.CANCELLED
    [cancelled] = smtp.to(ben.email)
    assert cancelled.subject == f"Cancelled: Coup #{game.pk} did not fill" and "/lobby/" in cancelled.text
    assert lobby.open_games_sweep(later) == (0, 0)


def test_a_game_started_before_its_time_is_neither_offered_nor_cancelled(ana, ben):
    game = open_game(ana, seats=2)
    lobby.open_game_join(game_id=game.pk, user=ben)
    assert lobby.open_games_sweep(timezone.now() + timedelta(days=30)) == (0, 0)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_bad_terms_are_refused(ana):
    for terms, message in (
        (lobby.Terms(language="xx"), "language"),
        (lobby.Terms(language="en", fill_days=0), "how long"),
        (lobby.Terms(language="en", min_finish_rate=120), "percentage"),
    ):
        with pytest.raises(errors.ServiceError, match=message):
            open_game(ana, terms=terms)
    assert not Game.objects.filter(host=ana).exists()
