"""The history on game pages and in emails: the latest turns from a cached story
(``games.history``), the whole story on the history page, each viewer's secrets
kept to that viewer whichever viewer warmed the cache, and a cost that does not
grow with the game."""

import json
import random

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import history
from games.history import LATEST_TURNS
from games.mail import emails
from games.models import Game
from games.selectors import player_names, table_for
from games.services import play
from tests.players import awaited, blocked_foreign_aid, make_player, started_game

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def page_of(user, game) -> str:
    response = client_of(user).get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def answer(game, user, player, command):
    play.decision_submit(game=game, user=user, command=command, version=awaited(game)[player][1])
    game.refresh_from_db()


def secrets_of_an_exchange(game, ana, ben, cai) -> list[str]:
    """Ana exchanges with the court deck and keeps two cards; her two secret
    lines, as she reads them."""
    answer(game, ana, "p1", {"act": "exchange", "draws": 2})
    answer(game, ben, "p2", {"act": "allow"})
    answer(game, cai, "p3", {"act": "allow"})
    drew = [line.text for line in table_for(game, ana).history.lines if line.kind == "coup.exchange.drew"]
    answer(game, ana, "p1", table_for(game, ana).options[0])
    kept = [line.text for line in table_for(game, ana).history.lines if line.kind == "coup.exchange.kept"]
    assert drew[0].startswith("You drew from the court deck: ") and kept[0].startswith("You kept ")
    return drew + kept


def test_a_players_secret_lines_stay_theirs_whoever_warmed_the_cache(
    ana, ben, cai, smtp, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(ana, ben, cai)
    # Every other viewer's story is told (and cached) before Ana's, and again after.
    page_of(ben, game), page_of(cai, game), table_for(game, None)
    with django_capture_on_commit_callbacks(execute=True):
        secrets = secrets_of_an_exchange(game, ana, ben, cai)
    before_ana = {"Ben": page_of(ben, game), "Cai": page_of(cai, game)}
    own = page_of(ana, game)
    after_ana = {"Ben": page_of(ben, game), "Cai": page_of(cai, game)}
    public = [line.text for line in table_for(game, None).history.lines]
    whole = {
        user: client_of(user).get(reverse("game_history", args=[game.pk])).content.decode() for user in (ana, ben, cai)
    }
    assert all(secret in own and secret in whole[ana] for secret in secrets)
    assert (
        "Ana drew 2 cards from the court deck." in whole[ben] and "Ana drew 2 cards from the court deck." in whole[cai]
    )
    assert "Ana drew 2 cards from the court deck." in after_ana["Ben"]
    for secret in secrets:
        for name, page in [
            *before_ana.items(),
            *after_ana.items(),
            ("Ben's history", whole[ben]),
            ("Cai's history", whole[cai]),
        ]:
            assert secret not in page, (name, secret)
        assert secret not in public
        for mail in smtp.to("ben@example.com") + smtp.to("cai@example.com"):
            assert secret not in mail.text and secret not in mail.html, (mail.to, secret)
    assert any("Ana drew 2 cards from the court deck." in mail.text for mail in smtp.to("ben@example.com"))


def test_the_history_page_is_for_the_games_players_only(ana, ben, cai):
    game = started_game(ana, ben)
    assert client_of(cai).get(reverse("game_history", args=[game.pk])).status_code == 404
    assert client_of(ben).get(reverse("game_history", args=[game.pk])).status_code == 200


def test_a_long_games_page_shows_its_latest_turns_and_links_to_them_all(ana, ben, cai):
    game = blocked_foreign_aid(started_game(ana, ben, cai), 300)
    page = page_of(ana, game)
    assert page.count('class="turn-start"') == LATEST_TURNS
    assert "The game began with" not in page
    link = reverse("game_history", args=[game.pk])
    assert f'href="{link}"' in page and "Earlier turns" in page
    whole = client_of(ana).get(link).content.decode()
    assert "The game began with" in whole and "You were dealt: " in whole
    assert whole.count('class="turn-start"') == sum(
        line.turn for line in history.full(game, "p1", table_for(game, ana).names)
    )


def test_a_short_games_page_has_no_link_to_earlier_turns(ana, ben):
    game = started_game(ana, ben)
    page = page_of(ana, game)
    assert "The game began with" in page and "Earlier turns" not in page


def test_a_name_in_the_history_is_shown_as_text_never_as_markup(ben):
    mal = make_player('<b title="x">Mal & Co</b>')
    game = started_game(mal, ben)
    answer(game, mal, "p1", {"act": "income"})
    escaped = "&lt;b title=&quot;x&quot;&gt;Mal &amp; Co&lt;/b&gt; took Income."
    for html in (page_of(ben, game), client_of(ben).get(reverse("game_history", args=[game.pk])).content.decode()):
        assert escaped in history_shown(html)
        assert '<b title="x">' not in html


def test_a_decision_email_does_not_tell_its_reader_their_own_move(
    ana, ben, cai, smtp, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(ana, ben, cai)
    with django_capture_on_commit_callbacks(execute=True):
        answer(game, ana, "p1", {"act": "steal", "target": "p2"})
        answer(game, ben, "p2", {"act": "block", "as": "captain"})
    asked = [mail for mail in smtp.to("ana@example.com") if "it is your move" in mail.text]
    news = asked[-1].text.split("Since your last move:")[1]
    assert "Ben claimed the Captain to block." in news
    assert "Ana claimed the Captain to steal from Ben." not in news and "Turn 1 — you." not in news


def test_an_email_whose_news_is_older_than_the_latest_turns_points_to_the_page(ana, ben, cai, smtp):
    game = blocked_foreign_aid(started_game(ana, ben, cai), 300)
    player, (_kind, version) = next(iter(awaited(game).items()))
    seat = next(seat for seat in game.seats.all() if seat.player == player)
    emails.send_decision(seat.pk, version)
    [mail] = smtp.messages
    assert "Earlier moves are on the game page." in mail.text and "Earlier moves are on the game page." in mail.html


def queries_of(client, url, **params) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, params).status_code == 200
    return len(queries)


def test_a_long_games_page_and_live_partial_read_no_more_than_a_short_games(ana, ben, cai):
    short = blocked_foreign_aid(started_game(ana, ben, cai), 8)
    dora, eli, fay = make_player("Dora"), make_player("Eli"), make_player("Fay")
    long = blocked_foreign_aid(started_game(dora, eli, fay), 1000)
    assert short.version <= 20 and long.version >= 1000
    counts = {}
    for name, game, user in (("short", short, ana), ("long", long, dora)):
        client = client_of(user)
        page, live = reverse("game", args=[game.pk]), reverse("game_live", args=[game.pk])
        counts[name] = [
            queries_of(client, page),  # the story told from the start
            queries_of(client, page),  # from the cache
            queries_of(client, live, since="none"),
        ]
    assert all(long <= short for long, short in zip(counts["long"], counts["short"], strict=True)), counts


def test_an_older_read_of_a_game_gets_its_own_story_and_keeps_the_newer_one_cached(ana, ben):
    game = started_game(ana, ben)
    stale = Game.objects.get(pk=game.pk)
    answer(game, ana, "p1", {"act": "income"})
    newer = table_for(game, ana).history
    older = table_for(stale, ana).history
    assert older.version == stale.version < newer.version == game.version
    assert "Ana took Income." in [line.text for line in newer.lines]
    assert "Ana took Income." not in [line.text for line in older.lines]
    again = table_for(game, ana).history
    assert (again.version, again.lines) == (newer.version, newer.lines)


def htmx_answer(game, user, player, command) -> tuple[str, list[str]]:
    """``user``'s click answering ``command`` as the page's htmx form sends it: the
    live part it answers with, and the SQL of the request."""
    client = client_of(user)
    data = {"version": awaited(game)[player][1], "command": json.dumps(command)}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(reverse("game_decide", args=[game.pk]), data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    game.refresh_from_db()
    return response.content.decode(), [query["sql"] for query in queries.captured_queries]


def history_shown(html: str) -> str:
    start = html.index('<section class="history panel"')
    return html[start : html.index("</section>", start)]


def test_a_clicks_answer_tells_the_moves_own_events_without_reading_the_log_and_keeps_secrets(ana, ben, cai):
    game = started_game(ana, ben, cai)
    for user in (ana, ben, cai):
        page_of(user, game)  # every story, and the game's tail, cached
    steps = [(ana, "p1", {"act": "exchange", "draws": 2}), (ben, "p2", {"act": "allow"}), (cai, "p3", {"act": "allow"})]
    answers = {}
    for user, player, command in steps:
        answers[player], sql = htmx_answer(game, user, player, command)
        assert not [query for query in sql if "games_event" in query and query.startswith("SELECT")], sql
    keep = table_for(game, ana).options[0]
    answers["p1"], sql = htmx_answer(game, ana, "p1", keep)
    assert not [query for query in sql if "games_event" in query and query.startswith("SELECT")], sql
    secrets = [
        line.text
        for line in table_for(game, ana).history.lines
        if line.kind in ("coup.exchange.drew", "coup.exchange.kept")
    ]
    assert len(secrets) == 2 and all(secret in answers["p1"] for secret in secrets)
    for secret in secrets:
        assert secret not in answers["p2"] and secret not in answers["p3"]
        assert secret not in page_of(ben, game) and secret not in page_of(cai, game)
    # Told from the cached story and tail, the answer is what a retelling of the whole log says.
    told = history_shown(answers["p1"])
    cache.clear()
    assert (
        history_shown(
            client_of(ana)
            .post(
                reverse("game_decide", args=[game.pk]),
                {"version": "0", "command": '{"act":"income"}'},
                headers={"HX-Request": "true"},
            )
            .content.decode()
        )
        == told
    )  # a refused click answers with the game as it stands, told afresh


@pytest.mark.parametrize("seed", range(6))
def test_any_cached_tail_and_story_continue_to_a_full_retellings_lines(ana, ben, cai, seed):
    """Whatever the cache holds (no entry, a story or tail behind, ahead of this read
    of the row, short, or not joining the events a move appended), the latest turns
    are those of a retelling of the whole log."""
    rng = random.Random(seed)
    game = blocked_foreign_aid(started_game(ana, ben, cai), 120)
    names = player_names(game)
    log = history._events(Game.objects.get(pk=game.pk), 0)
    for _round in range(12):
        version = rng.randrange(1, game.version + 1)
        row = Game.objects.get(pk=game.pk)
        row.version = version  # a read of the row as it was then
        viewer = rng.choice(["p1", "p2", "p3", None])
        cache.clear()
        expected = history.latest(row, viewer, names)
        cache.clear()
        if rng.random() < 0.7:  # a story told up to some version, maybe ahead of this row
            told_to = rng.randrange(0, game.version + 1)
            other = Game.objects.get(pk=game.pk)
            other.version = told_to
            history.latest(other, viewer, names)
        if rng.random() < 0.7:  # a tail of any run of the log
            start = rng.randrange(0, game.version)
            end = rng.randrange(start, game.version + 1)
            cache.set(history._tail_key(game), history.Tail(start, log[start:end]), 60)
        appended = log[rng.randrange(0, version) : version] if rng.random() < 0.5 else []
        told = history.latest(row, viewer, names, appended)
        assert (told.version, told.start, told.lines) == (expected.version, expected.start, expected.lines)
        again = history.latest(row, viewer, names)  # and from what that left in the cache
        assert (again.version, again.start, again.lines) == (expected.version, expected.start, expected.lines)


def event_reads(call) -> tuple:
    """``call()``'s result and how many times it read the event log."""
    with CaptureQueriesContext(connection) as queries:
        result = call()
    return result, sum(1 for query in queries.captured_queries if 'FROM "games_event"' in query["sql"])


# (tail start, tail end, appended from) relative to a story told up to S and a row at V.
TAIL_EDGES = [
    ("S", "V", None, 0),  # exactly the events the story lacks
    ("S", "V+5", None, 0),  # and some a newer read of the row appended
    ("S", "V-1", None, 1),  # one short
    ("S+1", "V", None, 1),  # begins one too late
    ("S", "V-2", "V-2", 0),  # the move's own events continue it
    ("S", "V-3", "V-2", 1),  # they do not join it
    ("V-2", "V", "V-2", 1),  # the move's events alone, the story further behind
]


@pytest.mark.parametrize("start,end,appended_from,reads", TAIL_EDGES)
def test_a_tail_at_the_edges_is_used_only_when_it_holds_every_event_needed(ana, ben, start, end, appended_from, reads):
    game = blocked_foreign_aid(started_game(ana, ben), 60)
    names = player_names(game)
    log = history._events(game, 0)
    row = Game.objects.get(pk=game.pk)
    row.version -= 5  # a read of the row five events ago: the log holds events after it
    at = {"S": row.version - 10, "V": row.version}

    def position(text: str) -> int:
        base, _, offset = text.replace("-", "+-").partition("+")
        return at[base] + int(offset or 0)

    cache.clear()
    expected = history.latest(row, "p1", names)
    cache.clear()
    story = Game.objects.get(pk=game.pk)
    story.version = at["S"]
    history.latest(story, "p1", names)
    tail_start, tail_end = position(start), position(end)
    cache.set(history._tail_key(game), history.Tail(tail_start, log[tail_start:tail_end]), 60)
    appended = log[position(appended_from) : row.version] if appended_from else []
    told, read = event_reads(lambda: history.latest(row, "p1", names, appended))
    assert (told.version, told.start, told.lines) == (expected.version, expected.start, expected.lines)
    assert read == reads
