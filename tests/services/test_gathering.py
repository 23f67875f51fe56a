"""Gathering players: creating, joining, inviting and starting games, on PostgreSQL."""

import pytest

from games.models import Game, Invitation
from games.services import errors, gathering


def test_the_host_takes_the_first_seat_and_others_join_by_link(ana, ben):
    game = gathering.game_create(host=ana, variants=["inquisitor"], seat_count=2, turn_seconds=60, response_seconds=30)
    gathering.seat_join(game=game, user=ben, join_token=game.join_token)
    assert [(s.position, s.user) for s in game.seats.all()] == [(0, ana), (1, ben)]
    assert game.status == Game.Status.GATHERING


def test_a_forged_join_link_is_refused(ana, ben):
    game = gathering.game_create(host=ana, variants=[], seat_count=2, turn_seconds=60, response_seconds=30)
    with pytest.raises(errors.ServiceError, match="not valid"):
        gathering.seat_join(game=game, user=ben, join_token="forged")
    assert game.seats.count() == 1


def test_seats_must_fit_the_variants(ana):
    with pytest.raises(errors.ServiceError, match="exactly 2 players"):
        gathering.game_create(
            host=ana, variants=["two_player_draft"], seat_count=3, turn_seconds=60, response_seconds=30
        )
    with pytest.raises(errors.ServiceError, match="2 to 10"):
        gathering.game_create(host=ana, variants=[], seat_count=11, turn_seconds=60, response_seconds=30)


def test_a_full_game_refuses_another_player(ana, ben, cai):
    game = gathering.game_create(host=ana, variants=[], seat_count=2, turn_seconds=60, response_seconds=30)
    gathering.seat_join(game=game, user=ben, join_token=game.join_token)
    with pytest.raises(errors.ServiceError, match="full"):
        gathering.seat_join(game=game, user=cai, join_token=game.join_token)


def test_an_invitation_is_emailed_and_accepting_it_takes_a_seat(
    ana, ben, mailoutbox, django_capture_on_commit_callbacks
):
    game = gathering.game_create(host=ana, variants=[], seat_count=2, turn_seconds=60, response_seconds=30)
    with django_capture_on_commit_callbacks(execute=True):
        invitation = gathering.invitation_send(game=game, by=ana, email="ben@example.com")
    [mail] = mailoutbox
    assert mail.to == ["ben@example.com"] and invitation.token in mail.body
    seat = gathering.invitation_respond(token=invitation.token, user=ben, accept=True)
    assert seat.position == 1
    invitation.refresh_from_db()
    assert invitation.status == Invitation.Status.ACCEPTED
    with pytest.raises(errors.ServiceError, match="already been answered"):
        gathering.invitation_respond(token=invitation.token, user=ben, accept=False)


def test_only_the_host_starts_a_full_game(ana, ben):
    game = gathering.game_create(host=ana, variants=[], seat_count=2, turn_seconds=60, response_seconds=30)
    with pytest.raises(errors.ServiceError, match="every seat"):
        gathering.game_start(game=game, by=ana)
    gathering.seat_join(game=game, user=ben, join_token=game.join_token)
    with pytest.raises(errors.ServiceError, match="Only the host"):
        gathering.game_start(game=game, by=ben)
    gathering.game_start(game=game, by=ana)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.version == game.events.count() > 0
    assert game.deadline_at is not None


def test_a_kinds_own_create_choices_are_stored_and_others_left_out(ana):
    game = gathering.game_create(
        host=ana,
        variants=["factions"],
        seat_count=4,
        turn_seconds=60,
        response_seconds=30,
        kind_options={"first_faction": "reformist", "not_a_choice": "x"},
    )
    assert game.options["first_faction"] == "reformist" and "not_a_choice" not in game.options
