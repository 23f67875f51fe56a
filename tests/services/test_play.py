"""Play: decisions, refusals, resignations, expiries and the event log, on PostgreSQL."""

import random
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.kinds import KINDS
from games.models import Event, Game
from games.selectors import game_state, table_for
from games.services import errors, play
from tests.players import awaited, make_player, play_randomly, started_game


def test_a_decision_appends_its_events_and_moves_the_deadline(game, ana):
    before = game.version
    [(kind, version)] = awaited(game).values()
    play.decision_submit(game=game, user=ana, command={"act": "income"}, version=version)
    game.refresh_from_db()
    seqs = list(game.events.values_list("seq", flat=True))
    assert seqs == list(range(game.version)) and game.version > before
    assert game_state(game).by_name["p1"].coins == 3


def test_an_illegal_move_is_refused_in_words_and_changes_nothing(game, ana):
    [(kind, version)] = awaited(game).values()
    with pytest.raises(errors.ServiceError) as refused:
        play.decision_submit(game=game, user=ana, command={"act": "coup", "target": "p2"}, version=version)
    assert refused.value.message == "You need 7 coins to launch a Coup; you have 2."
    assert game.events.count() == Game.objects.get(pk=game.pk).version


def test_errors_name_players_by_their_display_names(game, ana):
    play.decision_submit(game=game, user=ana, command={"act": "income"}, version=awaited(game)["p1"][1])
    ben = game.seats.get(position=1).user
    version = awaited(game)["p2"][1]
    play.game_resign(game=game, user=game.seats.get(position=2).user)
    with pytest.raises(errors.ServiceError, match="Cai is out of the game"):
        play.decision_submit(game=game, user=ben, command={"act": "steal", "target": "p3"}, version=version)


def test_refusals_are_translated(game, ana, settings):
    from django.utils import translation

    [(kind, version)] = awaited(game).values()
    with translation.override("es"), pytest.raises(errors.ServiceError) as refused:
        play.decision_submit(game=game, user=ana, command={"act": "coup", "target": "p2"}, version=version)
    assert "7 monedas" in refused.value.message


def test_a_stale_version_is_told_the_decision_passed(game, ana):
    [(kind, version)] = awaited(game).values()
    play.decision_submit(game=game, user=ana, command={"act": "income"}, version=version)
    with pytest.raises(errors.DecisionPassed):
        play.decision_submit(game=game, user=ana, command={"act": "income"}, version=version)


def test_only_seated_players_act(game):
    outsider = make_player("dee")
    with pytest.raises(errors.ServiceError, match="no seat"):
        play.decision_submit(game=game, user=outsider, command={"act": "income"}, version=0)


def test_answering_for_another_seat_is_impossible(game, ben):
    """A command names no player: the seat is always the requesting user's."""
    [(kind, version)] = awaited(game).values()
    with pytest.raises(errors.DecisionPassed):
        play.decision_submit(game=game, user=ben, command={"act": "income", "player": "p1"}, version=version)
    assert game_state(game).by_name["p1"].coins == 2


def test_the_event_log_rejects_updates_and_deletes(game):
    event = game.events.first()
    for statement in ("UPDATE games_event SET type = 'forged' WHERE id = %s", "DELETE FROM games_event WHERE id = %s"):
        with pytest.raises(Exception, match="append-only"), transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(statement, [event.pk])
    assert Event.objects.get(pk=event.pk).type == event.type


def test_the_unique_seq_rejects_a_duplicate(game):
    with pytest.raises(IntegrityError), transaction.atomic():
        Event.objects.create(game=game, seq=0, type="coup.turn.started", payload={})


@pytest.mark.parametrize("variants", [(), ("lawyer", "factions"), ("inquisitor", "declared_coup", "patron")])
def test_the_cached_snapshot_always_equals_a_full_replay(ana, ben, cai, variants):
    game = started_game(ana, ben, cai, variants=variants)
    for played in play_randomly(game, random.Random(len(variants))):
        logged = [row.payload for row in played.events.order_by("seq")]
        rules = KINDS["coup"].rules
        assert played.snapshot == rules.dump(rules.replay(logged))
    assert played.status == Game.Status.FINISHED and played.winner is not None and played.deadline_at is None


def test_a_resignation_reveals_the_cards_and_the_game_goes_on(game, ben):
    play.game_resign(game=game, user=ben)
    game.refresh_from_db()
    state = game_state(game)
    assert not state.by_name["p2"].alive and len(state.by_name["p2"].revealed) == 2
    assert Game.objects.get(pk=game.pk).status == Game.Status.ACTIVE


def test_an_expired_deadline_applies_the_defaults_once(game):
    game.refresh_from_db()
    version = game.version
    assert play.deadline_expire(game=game, version=version) is False  # not yet due
    Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=1))
    assert play.deadline_expire(game=game, version=version) is True
    assert play.deadline_expire(game=game, version=version) is False
    game.refresh_from_db()
    assert game_state(game).by_name["p1"].coins == 3  # the default turn is Income


def test_chat_is_for_seated_players(game, ana):
    message = play.chat_post(game=game, user=ana, text="  Ben is bluffing  ")
    assert message.text == "Ben is bluffing"
    with pytest.raises(errors.ServiceError):
        play.chat_post(game=game, user=make_player("dee"), text="hi")
    with pytest.raises(errors.ServiceError):
        play.chat_post(game=game, user=ana, text="   ")


def test_a_table_shows_only_what_the_seat_may_see(game, ben):
    table = table_for(game, ben)
    hands = {p["name"]: p["hand"] for p in table.view["players"]}
    assert isinstance(hands["p1"], int) and isinstance(hands["p3"], int) and len(hands["p2"]) == 2
    assert table.options == []
    dealt = [line.text for line in table.history.lines if line.kind == "coup.hand.dealt"]  # p1, p2, p3
    assert len(dealt) == 3 and dealt[1].startswith("You were dealt: ")
    assert dealt[0].endswith(" received face-down cards.") and dealt[2].endswith(" received face-down cards.")
