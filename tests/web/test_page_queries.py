"""The game page, its live partial and a decision cost a fixed number of queries,
however many players sit at the table."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game
from games.services import bots
from tests.web.conftest import awaited, make_player, player_of, started_game

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Cai", "Dora", "Eli", "Fay"]
HTMX = {"HX-Request": "true"}


def table_of(size: int) -> tuple[Game, object]:
    """A classic game of ``size`` players that has just started, and its host (who plays first)."""
    host, *others = [make_player(f"{name}{size}") for name in NAMES[:size]]
    return started_game(host, *others), host


def queries_of(request) -> list[str]:
    """The SQL of one request; the request must succeed."""
    with CaptureQueriesContext(connection) as captured:
        response = request()
    assert response.status_code == 200, response.status_code
    return [query["sql"] for query in captured.captured_queries]


def request_costs(client, size: int) -> dict[str, list[str]]:
    game, host = table_of(size)
    client.force_login(host)
    client.get(reverse("game", args=[game.pk]))  # a first visit: the session is warm, as it is for a player
    page = queries_of(lambda: client.get(reverse("game", args=[game.pk])))
    live = queries_of(lambda: client.get(reverse("game_live", args=[game.pk]), {"since": "0"}, headers=HTMX))
    _kind, version = awaited(game)[player_of(game, host)]
    decide = queries_of(
        lambda: client.post(
            reverse("game_decide", args=[game.pk]),
            {"command": '{"act":"income"}', "version": str(version)},
            headers=HTMX,
        )
    )
    game.refresh_from_db()
    assert game.version > version  # the move was made: the count is that of a decision, not of a refusal
    return {"page": page, "live": live, "decide": decide}


# The most each request may make. The page: the session, the user, their profile,
# the game, its seats (with their players' accounts and profiles), the chat; the
# live part the same but the chat. The history reads no event: the cache holds the
# viewer's story and the game's latest events (games.history), and no seat changed
# hands. A decision: the page's first three, then under the lock the game and its
# seats, the events appended, the game saved, the notification queued; its answer
# continues the story from the events it appended. A test runs inside a
# transaction: the decision's own is a savepoint (two more statements), and what
# follows a commit (handing the queued tasks to the broker) is not counted. Each
# one then counts the games waiting for the player, for the tab's title (one more).
LIMITS = {"page": 7, "live": 6, "decide": 11}


@pytest.mark.parametrize("request_name", ["page", "live", "decide"])
def test_a_game_request_costs_the_same_few_queries_at_a_table_of_two_or_six(client, request_name):
    two = request_costs(client, 2)[request_name]
    six = request_costs(client, 6)[request_name]
    listing = "\n".join(six)
    assert len(two) == len(six), f"2 players: {len(two)} queries, 6 players: {len(six)}\n{listing}"
    assert len(six) <= LIMITS[request_name], f"{len(six)} queries:\n{listing}"


def without_tokens(html: str) -> str:
    """A page without its CSRF tokens, which are masked afresh at every rendering."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", html)


def test_the_answer_to_a_click_is_the_table_as_the_move_left_it(client):
    game, ana = table_of(3)
    bots.stand_in_ask(game=game, user=ana)  # her click brings her back: the answer must say so
    client.force_login(ana)
    _kind, version = awaited(game)[player_of(game, ana)]
    url = reverse("game_decide", args=[game.pk])
    answer = client.post(url, {"command": '{"act":"income"}', "version": str(version)}, headers=HTMX)
    shown = answer.content.decode()
    assert "Ana3 took Income." in shown and "Ana3 is back." in shown and "played by" not in shown
    fresh = client.get(reverse("game_live", args=[game.pk]), {"since": "0"}, headers=HTMX)
    assert without_tokens(shown) == without_tokens(fresh.content.decode())
