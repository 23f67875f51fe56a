"""The lobby's pages: what a visitor and a player see, the filters, joining in a
click, play now, opening a game from the create page, the host's early start and
bots, the refusals shown as messages, and a page's queries at two sizes."""

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game, OpenGame, SeatResult
from games.selectors.lobby import PER_PAGE
from games.services import gathering, lobby
from tests.ratings.builders import finished_game
from tests.services.test_lobby import open_game
from tests.web.conftest import make_player

pytestmark = pytest.mark.django_db


def said(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def test_a_signed_out_visitor_finds_the_lobby_from_the_landing_page_and_is_asked_to_sign_up(client, ana):
    game = open_game(ana)
    home = client.get("/").content.decode()
    assert 'href="/lobby/"' in home
    page = client.get(reverse("lobby")).content.decode()
    assert f'id="open-{game.pk}"' in page and "Ana" in page and "1 of 3 seats taken" in page
    assert "Sign up to join" in page and reverse("lobby_join") not in page and "Play now" not in page


def test_each_host_is_shown_with_how_often_they_finish_their_games(client, ana, ben):
    open_game(ana)
    open_game(ben)
    for abandoned in (False, False, False, True):
        _game, results = finished_game("coup", [ana, ben], [1, 2])
        SeatResult.objects.filter(pk=results[0].pk).update(abandoned=abandoned)
    page = client.get(reverse("lobby")).content.decode()
    assert page.count("finishes 75% of games") == 1 and page.count("finishes 100% of games") == 1
    assert reverse("player", args=[ana.pk]) in page


def test_a_join_needs_an_account(client, ana):
    game = open_game(ana)
    response = client.post(reverse("lobby_join"), {"game": game.pk})
    assert response.status_code == 302 and response["Location"].startswith(reverse("account_login"))
    assert game.seats.count() == 1


def test_joining_is_one_click_and_needs_the_csrf_token(ana, ben):
    game = open_game(ana)
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(ben)
    assert strict.post(reverse("lobby_join"), {"game": game.pk}).status_code == 403
    assert game.seats.count() == 1
    client = Client()
    client.force_login(ben)
    page = client.get(reverse("lobby")).content.decode()
    assert f'<input type="hidden" name="game" value="{game.pk}">' in page
    response = client.post(reverse("lobby_join"), {"game": game.pk})
    assert response["Location"] == reverse("game", args=[game.pk])
    assert said(response) == ["You have a seat at this game."]
    assert game.seats.filter(user=ben).exists()
    assert "Your seat: open the game" in client.get(reverse("lobby")).content.decode()


@pytest.mark.parametrize("sent", ["", "abc", "-1", "99999999", "1e3", "٣"])
def test_a_forged_join_is_refused_with_a_message(client, ben, sent):
    client.force_login(ben)
    response = client.post(reverse("lobby_join"), {"game": sent, "query": "kind=coup"})
    assert response.status_code == 302 and response["Location"] == reverse("lobby") + "?kind=coup"
    assert said(response) == ["This game is not in the lobby: only its invited players may join it."]


def test_joining_a_private_game_by_its_number_is_refused_and_reveals_nothing(client, ana, ben):
    private = gathering.game_create(host=ana, variants=[], seat_count=3, turn_seconds=60, response_seconds=60)
    client.force_login(ben)
    response = client.post(reverse("lobby_join"), {"game": private.pk})
    assert said(response) == ["This game is not in the lobby: only its invited players may join it."]
    assert private.seats.count() == 1
    assert f'id="open-{private.pk}"' not in client.get(reverse("lobby")).content.decode()


def test_the_filters_narrow_the_list_and_a_bad_filter_is_shown_not_a_server_error(client, ana, ben):
    coup = open_game(ana, seats=3)
    kobayakawa = open_game(ana, seats=4, kind="kobayakawa")
    spanish = open_game(ben, seats=3, terms=lobby.Terms(language="es"))
    live = lobby.open_game_create(
        host=ben,
        terms=lobby.Terms(language="en"),
        kind="coup",
        variants=[],
        seat_count=5,
        turn_seconds=120,
        response_seconds=30,
    )

    def listed(**query) -> set[int]:
        page = client.get(reverse("lobby"), query)
        assert page.status_code == 200
        return {
            pk for pk in (coup.pk, kobayakawa.pk, spanish.pk, live.pk) if f'id="open-{pk}"' in page.content.decode()
        }

    assert listed() == {coup.pk, kobayakawa.pk, spanish.pk, live.pk}
    assert listed(kind="kobayakawa") == {kobayakawa.pk}
    assert listed(seat_count="3") == {coup.pk, spanish.pk}
    assert listed(language="es") == {spanish.pk}
    assert listed(time_control="live") == {live.pk}
    assert listed(kind="coup", time_control="day", language="en") == {coup.pk}
    bad = client.get(reverse("lobby"), {"kind": "chess", "seat_count": "many", "language": "es"})
    assert bad.status_code == 200 and "Select a valid choice" in bad.content.decode()
    assert f'id="open-{spanish.pk}"' in bad.content.decode()  # the filters that read well still apply


def test_a_started_game_leaves_the_lobby(client, ana, ben):
    game = open_game(ana, seats=2)
    lobby.open_game_join(game_id=game.pk, user=ben)
    assert f'id="open-{game.pk}"' not in client.get(reverse("lobby")).content.decode()


def test_a_limit_reached_is_said_above_the_lobby(client, ana, ben, settings):
    first, second = open_game(ana), open_game(ana)
    settings.LOBBY_SEATS_WAITING = 1
    client.force_login(ben)
    client.post(reverse("lobby_join"), {"game": first.pk})
    response = client.post(reverse("lobby_join"), {"game": second.pk}, follow=True)
    assert "You already wait for 1 open games to start" in response.content.decode()
    assert not second.seats.filter(user=ben).exists()


def test_play_now_seats_the_player_or_opens_a_game(client, ana, ben, cai):
    waiting = open_game(ana, seats=4)
    client.force_login(ben)
    response = client.post(reverse("lobby_play_now"), {"kind": "coup", "seat_count": "4"})
    assert response["Location"] == reverse("game", args=[waiting.pk])
    client.force_login(cai)
    response = client.post(reverse("lobby_play_now"), {"kind": "kobayakawa", "seat_count": "3"})
    opened = Game.objects.get(host=cai)
    assert response["Location"] == reverse("game", args=[opened.pk]) and opened.kind == "kobayakawa"
    assert said(response)[-1] == "No table was waiting: you opened one. It starts as soon as it is full."
    response = client.post(reverse("lobby_play_now"), {"kind": "kobayakawa", "seat_count": "2"})
    assert response["Location"] == reverse("lobby") and "3" in said(response)[-1]
    assert Game.objects.filter(host=cai).count() == 1


def test_the_create_page_opens_a_game_in_the_table_language_chosen(client, ana):
    client.force_login(ana)
    page = client.get(reverse("game_create")).content.decode()
    assert 'name="open"' in page and 'name="min_finish_rate"' in page
    data = {
        "kind": "coup",
        "seat_count": "4",
        "time_control": "slow",
        "first": "random",
        "takeover": "2",
        "rated": "on",
        "open": "on",
        "language": "pt-br",
        "min_rating": "",
        "min_finish_rate": "75",
        "fill_days": "7",
    }
    response = client.post(reverse("game_create"), data)
    game = Game.objects.get(host=ana)
    assert response["Location"] == reverse("game", args=[game.pk])
    terms = OpenGame.objects.get(game=game)
    assert (terms.language, terms.min_rating, terms.min_finish_rate) == ("pt-br", None, 75)
    assert (terms.fill_by - game.created_at).days == 6 or (terms.fill_by - game.created_at).days == 7
    assert game.visibility == Game.Visibility.PUBLIC and game.options["rated"] is True
    waiting = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "An open game" in waiting and "Start with bots" in waiting


def test_a_game_by_invitation_is_not_opened(client, ana):
    client.force_login(ana)
    data = {"kind": "coup", "seat_count": "3", "time_control": "day", "first": "random", "takeover": "2"}
    client.post(reverse("game_create"), data)
    game = Game.objects.get(host=ana)
    assert not OpenGame.objects.filter(game=game).exists() and game.visibility == Game.Visibility.PRIVATE
    assert game.options["rated"] is False


def test_the_host_starts_early_or_with_bots_from_the_waiting_room(client, ana, ben):
    early, with_bots = open_game(ana, seats=4), open_game(ana, seats=4)
    lobby.open_game_join(game_id=early.pk, user=ben)
    client.force_login(ben)
    client.post(reverse("game_fill_with_bots", args=[with_bots.pk]), {"level": "easy"})
    with_bots.refresh_from_db()
    assert with_bots.status == Game.Status.GATHERING  # not Ben's to fill
    client.force_login(ana)
    client.post(reverse("game_start", args=[early.pk]))
    client.post(reverse("game_fill_with_bots", args=[with_bots.pk]), {"level": "easy"})
    early.refresh_from_db()
    with_bots.refresh_from_db()
    assert (early.status, early.seat_count) == (Game.Status.ACTIVE, 2)
    assert (with_bots.status, with_bots.seats.count()) == (Game.Status.ACTIVE, 4)


def lobby_queries(client, games: int, tag: str) -> tuple[list[str], list[str]]:
    """The queries of a lobby page read afresh, and of the same page read again."""
    hosts = [make_player(f"Host{tag}{index}") for index in range((games + 2) // 3)]
    for index in range(games):
        open_game(hosts[index // 3], seats=3 + index % 3)
    client.force_login(make_player(f"Reader{tag}"))
    client.get(reverse("lobby"))  # a warm session, as a reader's is
    readings = []
    for _reading in range(2):
        with CaptureQueriesContext(connection) as captured:
            response = client.get(reverse("lobby"), {"kind": "coup"})
        assert response.status_code == 200
        assert response.content.count(b'class="panel lobby-game"') == min(games, PER_PAGE)
        readings.append([query["sql"] for query in captured.captured_queries])
    return readings[0], readings[1]


# The session, the user, their profile (language and time zone), the reader's seats
# among the page's games, and the games waiting for the reader (the tab's title);
# read afresh, also the count of the games the filters match and the page of games
# (with their terms, hosts and seats taken).
LOBBY_QUERIES_CACHED = 5
LOBBY_QUERIES = LOBBY_QUERIES_CACHED + 2


def test_a_lobby_page_costs_the_same_few_queries_with_three_or_thirty_games(client, settings):
    settings.LOBBY_GAMES_PER_HOST = 3
    few, few_cached = lobby_queries(client, 3, "a")
    many, many_cached = lobby_queries(client, 30, "b")
    listing = "\n".join(many)
    assert len(few) == len(many) == LOBBY_QUERIES, listing
    assert len(few_cached) == len(many_cached) == LOBBY_QUERIES_CACHED, "\n".join(many_cached)


def test_the_cached_lobby_follows_every_seat_taken_or_freed_and_every_game_gone(client):
    ana, ben, cai = (make_player(name) for name in ("Ana", "Ben", "Cai"))
    game = open_game(ana, seats=3)
    client.force_login(cai)

    def listing() -> str:
        return client.get(reverse("lobby")).content.decode()

    assert "1 of 3 seats taken" in listing()
    lobby.open_game_join(game_id=game.pk, user=ben)
    assert "2 of 3 seats taken" in listing()
    gathering.seat_leave(game=game, user=ben)
    assert "1 of 3 seats taken" in listing()
    lobby.open_game_join(game_id=game.pk, user=ben)
    gathering.game_start(game=Game.objects.get(pk=game.pk), by=ana)
    assert f'id="open-{game.pk}"' not in listing()
