"""The leaderboard, the public player page, the rating in the dashboard and the
statistics, and the "rated" choice of a new game: what they show, what they
never show (an address, a bot, a provisional player on the board), a clear 404
for an unknown game or player, and a fixed number of queries per leaderboard
page however many players are rated."""

import random
import re

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.kinds import DEFAULT_KIND, KINDS
from games.models import Game
from ratings.models import Rating
from ratings.services import game_rate
from ratings.skill import ESTABLISHED
from tests.ratings.builders import bots, finished_game, people

pytestmark = pytest.mark.django_db


def rate(kind, players, places):
    game, results = finished_game(kind, players, places)
    with transaction.atomic():
        game_rate(game=game, results=results)
    return game


def season(players, games: int, kind: str = DEFAULT_KIND, seed: int = 1):
    rng = random.Random(seed)
    for _ in range(games):
        table = rng.sample(players, min(len(players), 4))
        rate(kind, table, list(range(1, len(table) + 1)))


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_leaderboard_lists_established_players_best_first_and_the_readers_place(client):
    strong, middle, weak, newcomer = people(4, "Lead")
    for _ in range(ESTABLISHED):
        rate(DEFAULT_KIND, [strong, middle, weak], [1, 2, 3])
    rate(DEFAULT_KIND, [newcomer, weak], [1, 2])
    client.force_login(newcomer)
    page = text(client.get(reverse("leaderboard", args=[DEFAULT_KIND])).content.decode())
    assert page.index("Lead0") < page.index("Lead1") < page.index("Lead2")
    assert "Lead3" not in page.split("Your rating")[1]  # provisional: not on the board
    assert "provisional: 4 more rated games and you join the leaderboard" in page
    client.force_login(weak)
    page = text(client.get(reverse("leaderboard", args=[DEFAULT_KIND])).content.decode())
    assert re.search(r"Your rating is [\d,]+: place 3 of 3", page)
    assert "@" not in page  # never an address


def test_the_readers_place_below_the_top_hundred_is_counted(client):
    everyone = people(103, "Many")
    for rank, user in enumerate(everyone):
        Rating.objects.create(user=user, kind=DEFAULT_KIND, mu=40 - rank * 0.1, sigma=2, shown=2000 - rank, games=9)
    client.force_login(everyone[-1])
    page = text(client.get(reverse("leaderboard", args=[DEFAULT_KIND])).content.decode())
    assert "place 103 of 103" in page
    assert "Many102" not in page.split("Your rating")[1]  # the board shows the top hundred


def test_a_bot_is_never_on_the_leaderboard_nor_has_a_page(client):
    ana, ben = people(2, "Human")
    [bot] = bots(1)
    for _ in range(ESTABLISHED):
        rate(DEFAULT_KIND, [bot, ana, ben], [1, 2, 3])
    assert not Rating.objects.filter(user=bot).exists()
    page = client.get(reverse("leaderboard", args=[DEFAULT_KIND])).content.decode()
    assert "Peter" not in page and "Human0" in page
    assert client.get(reverse("player", args=[bot.pk])).status_code == 404


def test_a_signed_out_visitor_reads_the_leaderboard_and_a_player_page(client):
    ana, ben = people(2, "Open")
    season([ana, ben], ESTABLISHED)
    assert "Open0" in client.get(reverse("leaderboard", args=[DEFAULT_KIND])).content.decode()
    assert client.get(reverse("leaderboards")).url == reverse("leaderboard", args=[DEFAULT_KIND])
    assert "Open1" in client.get(reverse("player", args=[ben.pk])).content.decode()


def test_the_player_page_shows_ratings_games_and_reliability_and_no_address(client):
    ana, ben, cai = people(3, "Page")
    season([ana, ben, cai], ESTABLISHED)
    game = rate(DEFAULT_KIND, [ana, ben], [2, 1])
    game.results.filter(user=ana).update(abandoned=True, deadlines_missed=3)
    page = client.get(reverse("player", args=[ana.pk])).content.decode()
    words = text(page)
    assert "Page0" in words
    assert re.search(r"Games played (\d+) Finish rate (\d+)% Deadlines missed 3", words)
    played, rate_shown = map(int, re.search(r"Games played (\d+) Finish rate (\d+)%", words).groups())
    assert played == ESTABLISHED + 1 and rate_shown == round(100 * ESTABLISHED / played)
    assert str(KINDS[DEFAULT_KIND].name) in words
    assert ana.email not in page and "@" not in page


def test_the_player_page_lists_public_games_only_each_with_its_spectators_address(client):
    ana, ben = people(2, "Watched")
    public, _results = finished_game(DEFAULT_KIND, [ana, ben], [1, 2])
    hidden = [finished_game(DEFAULT_KIND, [ana, ben], [2, 1])[0] for _ in range(2)]
    Game.objects.filter(pk=public.pk).update(visibility=Game.Visibility.PUBLIC)
    Game.objects.filter(pk=hidden[1].pk).update(visibility=Game.Visibility.UNLISTED)
    page = client.get(reverse("player", args=[ana.pk])).content.decode()
    assert reverse("game_watch", args=[public.pk]) in page
    assert all(reverse("game_watch", args=[game.pk]) not in page for game in hidden)
    assert "No public game yet" in client.get(reverse("player", args=[people(1, "Quiet")[0].pk])).content.decode()


def test_a_player_without_a_display_name_is_named_by_number_not_by_address(client):
    ana, ben = people(2, "Nameless")
    ana.profile.display_name = ""
    ana.profile.save()
    season([ana, ben], ESTABLISHED)
    for url in (reverse("leaderboard", args=[DEFAULT_KIND]), reverse("player", args=[ana.pk])):
        page = client.get(url).content.decode()
        assert f"Player {ana.pk}" in page and "nameless0" not in page.lower()


@pytest.mark.parametrize(
    "url",
    ["/leaderboard/chess/", "/leaderboard/%00/", "/players/999999/", "/players/99999999999999999999999/"],
)
def test_an_unknown_game_or_player_is_a_clear_404(client, url):
    response = client.get(url)
    assert response.status_code == 404
    words = text(response.content.decode())
    assert "There is no leaderboard for this game" in words or "There is no player with this number" in words


def test_a_closed_account_has_no_page(client):
    [ana] = people(1, "Closed")
    ana.is_active = False
    ana.save()
    assert client.get(reverse("player", args=[ana.pk])).status_code == 404


def leaderboard_queries(client, reader) -> list[str]:
    client.force_login(reader)
    url = reverse("leaderboard", args=[DEFAULT_KIND])
    client.get(url)  # the session is warm, as it is for a reader
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return [query["sql"] for query in captured.captured_queries]


def established_players(count: int, prefix: str) -> list:
    users = people(count, prefix)
    Rating.objects.bulk_create(
        Rating(user=user, kind=DEFAULT_KIND, mu=30, sigma=3, shown=1100 + rank, games=ESTABLISHED)
        for rank, user in enumerate(users)
    )
    return users


def test_a_leaderboard_page_costs_the_same_few_queries_with_few_or_many_players(client):
    """The session, the reader and their profile, then the reader's rating, the
    number of players with the reader's place (one pass), the top rows with their
    names; the games waiting for the reader, for the tab's title, is one more."""
    small = leaderboard_queries(client, established_players(10, "Few")[0])
    large = leaderboard_queries(client, established_players(400, "Lots")[0])
    listing = "\n".join(large)
    assert len(small) == len(large), listing
    assert len(large) <= 7, listing


def test_the_dashboard_says_how_a_rated_game_moved_the_rating(client):
    ana, ben = people(2, "Dash")
    game = rate(DEFAULT_KIND, [ana, ben], [1, 2])
    change = game.rating_changes.get(user=ana)
    client.force_login(ana)
    words = text(client.get("/").content.decode())
    gained = change.shown_after - change.shown_before
    assert gained > 0
    assert f"Rating +{gained}, now {change.shown_after:,}" in words
    client.force_login(ben)
    assert re.search(r"Rating −\d+, now [\d,]+", text(client.get("/").content.decode()))


def test_the_dashboard_writes_the_rating_in_the_readers_language(client):
    ana, ben = people(2, "Idioma")
    for _ in range(30):
        rate(DEFAULT_KIND, [ana, ben], [1, 2])
    shown = Rating.objects.get(user=ana).shown
    thousands, rest = divmod(shown, 1000)
    assert thousands >= 1
    client.force_login(ana)
    # Each language groups thousands its own way: a space that never breaks, a point.
    for language, words in (("es", f"ahora {thousands}\xa0{rest:03d}"), ("pt-br", f"agora {thousands}.{rest:03d}")):
        client.post(reverse("set_language"), {"language": language, "next": "/"})
        assert words in client.get("/").content.decode()


def test_the_statistics_draw_the_rating_history(client):
    ana, ben = people(2, "Chart")
    season([ana, ben], 7)
    client.force_login(ana)
    page = client.get(reverse("stats")).content.decode()
    [points] = re.findall(r'<polyline points="([^"]+)"', page)
    assert len(points.split()) == 8  # the rating before the first game, then after each of the seven
    assert f'href="/players/{ana.pk}/"' in page


def test_a_new_game_is_rated_unless_the_host_says_not(client):
    [ana] = people(1, "Host")
    client.force_login(ana)
    form = client.get(reverse("game_create")).content.decode()
    assert re.search(r'<input type="checkbox" name="rated"[^>]*checked', form)
    base = {"kind": DEFAULT_KIND, "seat_count": "3", "time_control": "day", "first": "random", "takeover": "2"}
    rated = client.post(reverse("game_create"), {**base, "rated": "on"}, follow=True)
    unrated = client.post(reverse("game_create"), base, follow=True)
    assert [game.options["rated"] for game in Game.objects.order_by("pk")] == [True, False]
    assert "Rated game Yes: the finishing order moves the ratings" in text(rated.content.decode())
    assert "Rated game No" in text(unrated.content.decode())
