"""One broken game stops nothing else: the sweep goes on past it, its players' other
pages work, and it is marked for an operator (the admin's "needs attention")."""

import logging
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import tasks
from games.models import Game
from games.selectors import GameUnreadable, game_state
from tests.players import awaited, make_player, make_staff, started_game


def make_due(*games):
    for offset, game in enumerate(games):
        # One second apart, in this order: the sweep takes the earliest deadline first.
        Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() - timedelta(seconds=10 - offset))


def break_timeout(game):
    """A snapshot that loads, but whose timeout raises: it asks the first player to
    lose an influence they do not have (the default answer draws from an empty hand)."""
    snapshot = Game.objects.get(pk=game.pk).snapshot
    snapshot["players"][0]["hand"] = []
    snapshot["awaiting"] = {"p1": ["lose", snapshot["seq"]]}
    Game.objects.filter(pk=game.pk).update(snapshot=snapshot)


def break_snapshot(game, *, turn="contessa"):
    """A snapshot that cannot be loaded at all (its turn names no player; the
    engine's KeyError quotes it, a card name that must not reach the log)."""
    snapshot = Game.objects.get(pk=game.pk).snapshot
    snapshot["turn"] = turn
    Game.objects.filter(pk=game.pk).update(snapshot=snapshot)


@pytest.fixture
def four(db):
    return [make_player(name) for name in ("Ana", "Ben", "Cai", "Dora")]


def test_a_game_whose_timeout_raises_is_marked_and_the_games_after_it_are_swept(four, caplog):
    ana, ben, cai, dora = four
    first, broken, last = started_game(ana, ben), started_game(ben, cai), started_game(cai, dora)
    make_due(first, broken, last)
    break_timeout(broken)
    versions = {game.pk: Game.objects.get(pk=game.pk).version for game in (first, broken, last)}

    with caplog.at_level(logging.ERROR, logger="games.services"):
        assert tasks.sweep_deadlines() == 2

    assert Game.objects.get(pk=first.pk).version > versions[first.pk]
    assert Game.objects.get(pk=last.pk).version > versions[last.pk]  # swept although a game before it failed
    broken = Game.objects.get(pk=broken.pk)
    assert broken.version == versions[broken.pk]
    assert broken.attention == "deadline: IndexError" and broken.attention_at is not None
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert f"Game {broken.pk} needs attention (deadline: IndexError)" in record.getMessage()


def test_a_game_failing_again_keeps_its_first_reason_and_logs_one_line(four, caplog):
    ana, ben, *_ = four
    game = started_game(ana, ben)
    make_due(game)
    break_timeout(game)
    tasks.sweep_deadlines()
    first_seen = Game.objects.get(pk=game.pk).attention_at
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="games.services"):
        tasks.sweep_deadlines()
    assert Game.objects.get(pk=game.pk).attention_at == first_seen
    assert [r.getMessage() for r in caplog.records] == [f"Game {game.pk} still needs attention (deadline: IndexError)"]


def test_the_log_names_the_error_and_where_never_what_it_said(four, caplog):
    ana, ben, *_ = four
    game = started_game(ana, ben)
    make_due(game)
    break_snapshot(game, turn="contessa")
    with caplog.at_level(logging.ERROR, logger="games.services"):
        tasks.sweep_deadlines()
    [record] = caplog.records
    assert "(deadline: GameUnreadable from KeyError)" in record.getMessage() and "in from_json" in record.getMessage()
    assert "contessa" not in record.getMessage().lower()


def test_the_admin_lists_the_games_that_need_attention_and_clears_them(four, client):
    ana, ben, cai, dora = four
    make_staff(ana)
    client.force_login(ana)
    fine, broken = started_game(ana, ben), started_game(cai, dora)
    make_due(broken)
    break_timeout(broken)
    tasks.sweep_deadlines()

    url = reverse("admin:games_game_changelist")
    listed = client.get(url, {"attention": "yes"}).content.decode()
    assert f"/admin/games/game/{broken.pk}/change/" in listed and f"/admin/games/game/{fine.pk}/change/" not in listed
    assert "deadline: IndexError" in listed
    detail = client.get(reverse("admin:games_game_change", args=[broken.pk])).content.decode()
    assert "deadline: IndexError" in detail and "snapshot" not in detail.lower()  # never the hands

    client.post(url, {"action": "clear_attention", "_selected_action": [broken.pk]})
    assert Game.objects.get(pk=broken.pk).attention == ""


def test_an_unreadable_game_is_shown_as_needing_attention_on_its_players_home_page(four, client):
    ana, ben, cai, dora = four
    fine, broken = started_game(ana, ben), started_game(ana, cai)
    break_snapshot(broken)
    client.force_login(ana)
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    attention = html[html.index("Needs attention") :]
    assert f"Game #{broken.pk}" in attention and f"Game #{fine.pk}" not in attention
    assert reverse("game", args=[fine.pk]) in html  # the other game is listed as usual
    assert Game.objects.get(pk=broken.pk).attention == "reading: GameUnreadable from KeyError"


def test_the_pages_of_an_unreadable_game_fail_gracefully(four, client):
    ana, ben, *_ = four
    game = started_game(ana, ben)
    version = awaited(game)["p1"][1]
    break_snapshot(game)
    client.force_login(ana)
    for response in (
        client.get(reverse("game", args=[game.pk])),
        client.post(reverse("game_decide", args=[game.pk]), {"version": version, "command": '{"act": "income"}'}),
        client.post(reverse("game_resign", args=[game.pk])),
    ):
        assert response.status_code == 503
        assert f"Game #{game.pk} needs attention" in response.content.decode()
    polled = client.get(reverse("game_live", args=[game.pk]), {"since": "0"}, headers={"HX-Request": "true"})
    assert (polled.status_code, polled["HX-Refresh"]) == (204, "true")  # the page reloads and says so
    assert client.get(reverse("home")).status_code == 200
    with pytest.raises(GameUnreadable):
        game_state(Game.objects.get(pk=game.pk))  # still broken: nothing was changed on the way


def test_a_game_whose_reminder_fails_does_not_stop_the_others(four, smtp, django_capture_on_commit_callbacks):
    ana, ben, cai, dora = four
    fine, broken = started_game(ana, ben), started_game(cai, dora)
    for game in (fine, broken):  # a quarter of the time left: reminders are due
        Game.objects.filter(pk=game.pk).update(deadline_at=timezone.now() + timedelta(minutes=10))
    break_snapshot(broken)
    smtp.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.send_reminders() == 1
    assert [mail.to for mail in smtp.messages] == [[ana.email]]
    assert "Reminder" in smtp.messages[0].text
    assert Game.objects.get(pk=broken.pk).attention == "reminder: GameUnreadable from KeyError"
