"""Choosing an action in two steps, without JavaScript: the first step lists each
action once (an action with several answers is a plain GET form naming it), the
second shows only the chosen action's answers, by target."""

import json
import re

import pytest
from django.urls import reverse

from games.kinds import KINDS
from games.selectors import game_state
from tests.web.conftest import answer, awaited, player_of, seat_user, started_game
from tests.web.test_dashboard import text
from tests.web.test_pages import buttons, page

pytestmark = pytest.mark.django_db


def picks(html: str) -> list[str]:
    """The actions of the first step that open a second one."""
    return re.findall(r'<button type="submit" name="action" value="(\w+)"', html)


def test_the_first_step_lists_each_action_once(client, game, ana):
    html = page(client, ana, reverse("game", args=[game.pk]))
    assert picks(html) == ["steal"]
    assert "Steal from" not in html
    assert {b["command"]["act"] for b in buttons(html)} == {"income", "foreign_aid", "tax", "exchange"}
    assert f'<form method="get" action="{reverse("game", args=[game.pk])}" class="pick">' in html
    assert 'class="group-title"' not in html  # one button per action: a title would repeat it


def test_the_second_step_shows_the_chosen_actions_targets_and_plays_one(client, game, ana):
    html = page(client, ana, reverse("game", args=[game.pk]) + "?action=steal")
    offered = buttons(html)
    # Each target's button tells how their seat stands.
    assert [text(b["label"]).strip() for b in offered] == [
        "Steal from Ben — take 2 coins (claims Captain) Ben: 2 coins · 2 face-down cards",
        "Steal from Cai — take 2 coins (claims Captain) Cai: 2 coins · 2 face-down cards",
    ]
    assert "Back to every action" in html and picks(html) == []
    assert "&amp;action=steal" in html  # the page's polling keeps the step
    ben = next(b for b in offered if "Ben" in b["label"])
    client.post(
        reverse("game_decide", args=[game.pk]), {"version": ben["version"], "command": json.dumps(ben["command"])}
    )
    game.refresh_from_db()
    assert "Ana claimed the Captain to steal from Ben." in page(client, ana, reverse("game", args=[game.pk]))


def test_an_unknown_or_single_action_shows_the_first_step(client, game, ana):
    first = buttons(page(client, ana, reverse("game", args=[game.pk])))
    for action in ("nonsense", "income", "<script>"):
        html = page(client, ana, reverse("game", args=[game.pk]) + f"?action={action}")
        assert buttons(html) == first and picks(html) == ["steal"]


def _income_until(game, player: str, coins: int):
    """Every turn takes Income until it is ``player``'s turn with ``coins`` coins."""
    while True:
        view = KINDS[game.kind].rules.view(game_state(game), player)
        [turn] = [p for p, (kind, _version) in awaited(game).items() if kind == "turn"]
        if turn == player and next(p for p in view["players"] if p["name"] == player)["coins"] >= coins:
            return
        answer(game, seat_user(game, turn), {"act": "income"})


def test_declared_coup_names_the_character_in_the_second_step_by_target(client, ana, ben, cai):
    game = started_game(ana, ben, cai, variants=["declared_coup"])
    _income_until(game, player_of(game, ana), 7)
    html = page(client, ana, reverse("game", args=[game.pk]))
    assert "coup" in picks(html) and not [b for b in buttons(html) if b["command"]["act"] == "coup"]
    step = page(client, ana, reverse("game", args=[game.pk]) + "?action=coup")
    titles = re.findall(r'<h3 class="group-title">(.*?)</h3>', step)
    assert titles == ["Coup · Ben", "Coup · Cai"]
    offered = buttons(step)
    assert {b["command"]["act"] for b in offered} == {"coup"}
    assert len(offered) == 2 * len({b["command"]["name"] for b in offered}) > 2


def test_the_chosen_actions_targets_are_picked_on_their_seats(client, game, ana, ben):
    """Each seat the chosen action may aim at is a button submitting that answer's
    form; the reader's own seat is none, nor is any seat before an action is chosen."""
    html = page(client, ana, reverse("game", args=[game.pk]) + "?action=steal")
    seats = dict(re.findall(r'<li class="seat[^"]*" data-player="(\w+)">(.*?)</li>', html, re.S))
    me = player_of(game, ana)
    for player, seat in seats.items():
        pick = re.search(r'<button type="submit" form="([\w-]+)" class="seat__pick" aria-label="([^"]*)"', seat)
        if player == me:
            assert pick is None
            continue
        name = seat_user(game, player).profile.display_name
        assert pick.group(2) == f"Steal from {name} — take 2 coins (claims Captain)"
        form = re.search(rf'<form [^>]*id="{pick.group(1)}">.*?</form>', html, re.S).group(0)
        command = json.loads(re.search(r'name="command" value="([^"]*)"', form).group(1).replace("&quot;", '"'))
        assert (command["act"], command["target"]) == ("steal", player)
    assert "or choose a player's seat on the table" in text(html)
    assert "seat__pick" not in page(client, ana, reverse("game", args=[game.pk]))
    assert "seat__pick" not in page(client, ben, reverse("game", args=[game.pk]) + "?action=steal")


def test_the_decision_banner_shows_the_coins_that_matter(client, game, ana, ben, cai):
    assert "You have 2 coins." in text(page(client, ana, reverse("game", args=[game.pk])))
    answer(game, ana, {"act": "steal", "target": player_of(game, ben)})
    assert "You have 2 coins. Ben has 2 coins." in text(page(client, cai, reverse("game", args=[game.pk])))
    banner = text(page(client, ben, reverse("game", args=[game.pk])))
    assert "You have 2 coins." in banner and "Ben has" not in banner
