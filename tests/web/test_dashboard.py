"""The account dashboard: where am I needed (home), how have I done (past games,
statistics), the results stored when a game ends, and a query count that does
not grow with a player's history."""

import json
import re
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import profile_of
from games.engine.dealer import LiveDealer
from games.kinds import KINDS
from games.kinds.coup.engine import cards as coup_cards
from games.kinds.coup.engine.setup import setup_events
from games.models import Game, Invitation, Seat, SeatResult
from games.services import clock, gathering, play
from games.services.results import outcome, places_of, variants_key
from tests.web.conftest import answer, gathering_game, started_game

pytestmark = pytest.mark.django_db


def page(client, user, url, data=None) -> str:
    client.force_login(user)
    response = client.get(url, data)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def text(html: str) -> str:
    """The page's words, tags and runs of white space dropped."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#x27;", "'")


# ---- a scripted game: fixed hands, a proved challenge, a caught bluff -----------------------

HANDS = {"p1": ["captain", "duke"], "p2": ["assassin", "contessa"], "p3": ["ambassador", "contessa"]}


@pytest.fixture
def dealt(monkeypatch):
    """Games start with ``HANDS`` (classic, three players) and the rest of the deck
    as the court, in order."""
    rules = KINDS["coup"].rules
    deck = coup_cards.deck_for((), 3)
    for hand in HANDS.values():
        for card in hand:
            deck.remove(card)
    monkeypatch.setattr(
        rules,
        "setup",
        lambda *, players, first, variants=(), options=None, dealer=None: setup_events(
            players, variants, first, LiveDealer(), deal=HANDS, court=deck
        ),
    )


def play_scripted_game(ana, ben, cai) -> Game:
    """Ana claims the Duke (she holds it); Ben challenges and loses an influence. Ben
    claims the Captain to steal from Ana (he does not hold it); Ana challenges and
    Ben, caught bluffing, is out. Cai resigns: Ana wins."""
    game = started_game(ana, ben, cai)
    answer(game, ana, {"act": "tax"})
    answer(game, ben, {"act": "challenge"})
    answer(game, ana, {"act": "prove"})
    answer(game, ben, {"act": "lose", "card": "contessa"})
    answer(game, ben, {"act": "steal", "target": "p1"})
    answer(game, ana, {"act": "challenge"})
    answer(game, ben, {"act": "concede"})
    play.game_resign(game=game, user=cai)
    game.refresh_from_db()
    return game


def test_a_finished_game_stores_each_seats_place_moves_challenges_and_bluffs(dealt, ana, ben, cai):
    game = play_scripted_game(ana, ben, cai)
    assert game.status == Game.Status.FINISHED and game.winner == ana
    results = {r.user.username: r for r in SeatResult.objects.select_related("user")}
    assert {name: r.place for name, r in results.items()} == {"ana": 1, "cai": 2, "ben": 3}
    ana_r, ben_r, cai_r = results["ana"], results["ben"], results["cai"]
    assert ana_r.counters == coup_counters(claims=1, claims_challenged=1, challenges_made=1, challenges_won=1)
    assert ben_r.counters == coup_counters(claims=1, claims_challenged=1, bluffs_caught=1, challenges_made=1)
    assert cai_r.counters == coup_counters()  # every counter Coup keeps, at 0
    # Ana: Tax, prove, challenge. Ben: challenge, lose, steal, concede. Resigning is no move.
    assert (ana_r.moves, ben_r.moves, cai_r.moves) == (3, 4, 0)
    assert game.moves == 7
    assert ana_r.finished_at == game.finished_at and ana_r.players == 3 and ana_r.variants == ""


def test_results_of_a_game_in_play_are_not_stored(game):
    answer(game, game.host, {"act": "income"})
    assert not SeatResult.objects.exists() and game.moves is None


def test_backfill_records_finished_games_without_results_and_can_run_again(dealt, ana, ben, cai):
    game = play_scripted_game(ana, ben, cai)
    stored = sorted(SeatResult.objects.values_list("user_id", "place", "moves", "counters"))
    SeatResult.objects.all().delete()
    Game.objects.filter(pk=game.pk).update(moves=None)
    call_command("record_results")
    call_command("record_results")
    assert sorted(SeatResult.objects.values_list("user_id", "place", "moves", "counters")) == stored
    assert Game.objects.get(pk=game.pk).moves is not None
    call_command("record_results", "--recompute")
    assert SeatResult.objects.count() == 3


def test_places_follow_the_reverse_order_of_elimination():
    log = [
        {
            "type": "coup.game.started",
            "data": {
                "players": ["p1", "p2", "p3", "p4"],
                "variants": [],
                "first": "p1",
                "coins": {"p1": 2, "p2": 2, "p3": 2, "p4": 2},
            },
        },
        *({"type": "coup.player.eliminated", "data": {"player": p}} for p in ("p3", "p1", "p4")),
        {"type": "coup.game.won", "data": {"player": "p2"}},
    ]
    assert outcome("coup", log).places == {"p2": 1, "p4": 2, "p1": 3, "p3": 4}


def test_players_tied_share_a_place_and_the_next_place_counts_them():
    assert places_of([["p3"], ["p1", "p4"], ["p2"]]) == {"p3": 1, "p1": 2, "p4": 2, "p2": 4}
    assert places_of([["p1", "p2"], ["p3"]]) == {"p1": 1, "p2": 1, "p3": 3}  # a shared win


def coup_counters(**counted) -> dict:
    return {name: counted.get(name, 0) for name in KINDS["coup"].stats.counters}


def test_variants_are_stored_so_one_can_be_filtered_on():
    assert variants_key([]) == ""
    assert variants_key(["lawyer", "inquisitor"]) == ",inquisitor,lawyer,"


# ---- home: where am I needed? ----------------------------------------------------------------


def test_home_shows_the_decision_awaited_and_a_button_to_the_game(client, game, ana, ben):
    html = page(client, ana, "/")
    assert "Your move" in html and "Choose an action" in html
    assert f'href="{reverse("game", args=[game.pk])}"' in html
    other = text(page(client, ben, "/"))
    assert "Your move" not in other
    assert "In play" in other and "Ana's turn" in other


def test_a_response_names_the_claimant_and_the_action(client, game, ana, ben, cai):
    answer(game, ana, {"act": "tax"})
    html = text(page(client, ben, "/"))
    assert "Respond to Ana's Tax" in html
    mine = text(page(client, ana, "/"))
    assert "Respond to" not in mine and "Last action: You: Tax" in mine


def test_losing_an_influence_asks_for_a_card(client, dealt, ana, ben, cai):
    game = started_game(ana, ben, cai)
    answer(game, ana, {"act": "tax"})
    answer(game, ben, {"act": "challenge"})
    assert "Ana challenges" not in text(page(client, ana, "/"))  # Ana is the one challenged
    assert "Prove your claim to Ben or concede" in text(page(client, ana, "/"))
    answer(game, ana, {"act": "prove"})
    assert "Choose a card to lose" in text(page(client, ben, "/"))


def test_games_waiting_for_me_come_nearest_deadline_first(client, ana, ben, cai):
    later = started_game(ana, ben)
    sooner = started_game(ana, cai)
    now = timezone.now()
    Game.objects.filter(pk=later.pk).update(deadline_at=now + timedelta(hours=20))
    Game.objects.filter(pk=sooner.pk).update(deadline_at=now + timedelta(hours=2))
    html = page(client, ana, "/")
    assert html.index(f"Game #{sooner.pk}") < html.index(f"Game #{later.pk}")
    assert re.search(r"time left: 1.hour", html)  # "1 hour, 59 minutes"


def test_a_paused_game_says_so(client, game, ana):
    clock.game_pause(game=game, by=ana)
    assert "The clock is paused by the host." in page(client, ana, "/")


def test_invitations_can_be_answered_from_the_dashboard(client, ana, dora):
    game = gathering_game(ana, seats=3)
    invitation = gathering.invitation_send(game=game, by=ana, email=dora.email)
    html = page(client, dora, "/")
    action = reverse("invitation", args=[invitation.token])
    assert f'action="{action}"' in html and 'value="accept"' in html and 'value="decline"' in html
    response = client.post(action, {"answer": "accept"})
    assert response.status_code == 302
    assert Seat.objects.filter(game=game, user=dora).exists()
    assert Invitation.objects.get().status == Invitation.Status.ACCEPTED


def test_the_host_of_a_full_gathering_game_can_start_it_from_the_dashboard(client, ana, ben):
    full = gathering_game(ana, ben)
    open_ = gathering_game(ana, seats=3)
    html = page(client, ana, "/")
    assert reverse("game_start", args=[full.pk]) in html
    assert reverse("game_start", args=[open_.pk]) not in html
    assert "1 of 3 seats taken" in text(html)
    assert reverse("game_start", args=[full.pk]) not in page(client, ben, "/")  # only the host starts


def test_signed_out_home_is_unchanged(client):
    html = client.get("/").content.decode()
    assert "Play Coup by email with your friends" in html and "Your games" not in html


# ---- finished games built directly: many, quickly ------------------------------------------


def finished_games(user, opponents, count, *, start=None, variants=(), kind="coup", won_every=2, moves=30):
    """``count`` finished games of ``user`` against ``opponents`` with stored results,
    one a day back from ``start``; ``user`` wins every ``won_every``-th one."""
    start = start or datetime(2026, 6, 30, 12, tzinfo=UTC)
    players = [user, *opponents]
    games = Game.objects.bulk_create(
        Game(
            kind=kind,
            host=user,
            seat_count=len(players),
            status=Game.Status.FINISHED,
            options={"variants": sorted(variants), "first": "host"},
            turn_seconds=86400,
            response_seconds=28800,
            started_at=start - timedelta(days=index, hours=50),
            finished_at=start - timedelta(days=index),
            moves=moves,
            version=10,
        )
        for index in range(count)
    )
    seats = Seat.objects.bulk_create(
        Seat(game=game, user=player, position=position) for game in games for position, player in enumerate(players)
    )
    results = []
    for index, game in enumerate(games):
        mine = index % won_every == 0
        order = players if mine else [*opponents[:1], user, *opponents[1:]]
        for seat in seats[index * len(players) : (index + 1) * len(players)]:
            place = order.index(seat.user) + 1
            results.append(
                SeatResult(
                    seat=seat,
                    game=game,
                    user=seat.user,
                    kind=kind,
                    variants=variants_key(variants),
                    players=len(players),
                    finished_at=game.finished_at,
                    place=place,
                    moves=moves // len(players),
                    counters=coup_counters(
                        claims=4,
                        claims_challenged=2,
                        bluffs_caught=1 if place > 1 else 0,
                        challenges_made=2,
                        challenges_won=1 if place == 1 else 0,
                    )
                    if kind == "coup"
                    else {},
                )
            )
    SeatResult.objects.bulk_create(results)
    return games


# ---- past games ----------------------------------------------------------------------------


def test_past_games_are_newest_first_with_my_result_length_and_replay(client, ana, ben, cai):
    games = finished_games(ana, [ben, cai], 3)
    html = page(client, ana, reverse("past_games"))
    words = text(html)
    assert (
        words.index(f"Game #{games[0].pk}") < words.index(f"Game #{games[1].pk}") < words.index(f"Game #{games[2].pk}")
    )
    assert "Won" in words and "Place 2 of 3" in words
    assert "2 days · 30 moves" in words
    assert reverse("game_replay", args=[games[0].pk]) in html
    assert "Ana › Ben › Cai" not in words  # the ordering marks are drawn by CSS
    assert re.search(r"Ana\s*</li>\s*<li>\s*Ben", html)  # the winner first, then by place


def test_past_games_are_paginated(client, ana, ben):
    finished_games(ana, [ben], 45)
    first = text(page(client, ana, reverse("past_games")))
    assert "45 finished games" in first and "Page 1 of 3" in first
    third = page(client, ana, reverse("past_games"), {"page": 3})
    assert len(re.findall(r'<li class="past[ "]', third)) == 5
    assert "Page 3 of 3" in text(third)


def test_past_games_filter_by_game_variant_and_opponent(client, ana, ben, cai, dora):
    classic = finished_games(ana, [ben], 2)
    inquisitor = finished_games(ana, [cai], 3, variants=["inquisitor", "lawyer"])
    finished_games(dora, [ben], 2)  # not Ana's
    url = reverse("past_games")
    assert "5 finished games" in text(page(client, ana, url))
    assert "3 finished games" in text(page(client, ana, url, {"variant": "inquisitor"}))
    assert "2 finished games" in text(page(client, ana, url, {"variant": "classic"}))
    assert "2 finished games" in text(page(client, ana, url, {"opponent": ben.pk}))
    html = page(client, ana, url, {"opponent": cai.pk, "variant": "lawyer", "game": "coup"})
    assert "3 finished games" in text(html)
    assert all(f"Game #{g.pk}<" in html for g in inquisitor) and not any(f"Game #{g.pk}<" in html for g in classic)
    # An unknown filter or someone Ana never played is ignored rather than an error.
    assert "5 finished games" in text(page(client, ana, url, {"opponent": dora.pk, "variant": "nope", "game": "x"}))


def test_dates_follow_the_players_time_zone(client, ana, ben):
    finished_games(ana, [ben], 1, start=datetime(2026, 3, 1, 20, 0, tzinfo=UTC))
    assert "March 1, 2026" in page(client, ana, reverse("past_games"))
    profile = profile_of(ana)
    profile.time_zone = "Asia/Tokyo"  # activated for each of Ana's requests
    profile.save()
    html = page(client, ana, reverse("past_games"))
    assert "March 2, 2026" in html and "March 1, 2026" not in html


def test_past_games_need_a_signed_in_player(client):
    assert client.get(reverse("past_games")).status_code == 302
    assert client.get(reverse("stats")).status_code == 302


# ---- statistics ----------------------------------------------------------------------------


def test_statistics_count_games_wins_rates_head_to_head_challenges_and_bluffs(client, ana, ben, cai, dora):
    finished_games(ana, [ben, cai], 4)  # Ana wins 2 of 4, 3 players
    finished_games(ana, [dora], 2, variants=["inquisitor"], won_every=1)  # Ana wins both, 2 players
    words = text(page(client, ana, reverse("stats")))
    assert "Played 6 Won 4 Win rate 67%" in words
    assert "3 players: 2 won of 4 (50%)" in words and "2 players: 2 won of 2 (100%)" in words
    assert "Classic 4 2 50%" in words and "Inquisitor 2 2 100%" in words
    # Ben: 4 games; Ana ahead in the 2 she won, Ben ahead in the 2 he won.
    assert "Ben 4 2 2" in words and "Cai 4 4 0" in words and "Dora 2 2 0" in words
    # 6 games x 2 challenges, 4 won; 6 x 4 claims, 12 challenged, caught in the 2 games lost.
    assert "Your challenges: 4 of 12 succeeded (33%)" in words
    assert "Your claims: 12 of 24 were challenged (50%)" in words
    assert "Caught bluffing: 2 of your 12 challenged claims (17%)" in words
    assert "<svg" in page(client, ana, reverse("stats"))


def test_each_games_panels_sum_only_its_own_games(client, ana, ben, cai):
    finished_games(ana, [ben, cai], 2, kind="kobayakawa")
    words = text(page(client, ana, reverse("stats")))
    assert "Played 2 Won 1" in words and "Kobayakawa 2 1 50%" in words
    assert "Challenges and bluffs" not in words  # Kobayakawa declares no panel of its own
    finished_games(ana, [ben, cai], 4)  # Coup: 2 challenges a game, Ana wins 2 of them
    words = text(page(client, ana, reverse("stats")))
    assert "Played 6 Won 3" in words
    assert "Challenges and bluffs Your challenges: 2 of 8 succeeded (25%)." in words


def test_the_charts_draw_the_numbers_they_are_given(client, ana, ben, cai):
    finished_games(ana, [ben, cai], 4, start=timezone.now())  # 2 of 4 won, this month and the last few days
    html = page(client, ana, reverse("stats"))
    # Challenges: 2 won of 8, drawn to the scale of the whole.
    assert re.search(r'viewBox="0 0 8 14".*?width="2" height="14".*?x="2" y="0" width="6"', html, re.S)
    # 3 players, 50% won: half of the 150 wide bar; an even share (33%) marked.
    assert 'width="75" height="20" rx="3" class="chart__bar"' in html and 'x1="146"' in html


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "Your challenges: 2 of 6 succeeded (33%)."),
        ("es", "Tus desafíos: acertaste 2 de 6 (33%)."),
        ("pt-br", "Seus desafios: 2 de 6 deram certo (33%)."),
    ],
)
def test_a_games_panels_speak_the_players_language(client, ana, ben, language, sentence):
    finished_games(ana, [ben], 3)  # Ana wins 2 of 3, a challenge won in each
    profile = profile_of(ana)
    profile.language = language
    profile.save()
    assert sentence in text(page(client, ana, reverse("stats")))


def test_charts_keep_plain_numbers_in_every_language(client, ana, ben):
    finished_games(ana, [ben], 3)
    profile = profile_of(ana)
    profile.language = "es"  # Spanish writes 32,4: an SVG attribute must stay 32.4
    profile.save()
    html = page(client, ana, reverse("stats"))
    assert "Desafíos y faroles" in html
    assert not re.search(r'(width|x|x1|y)="[\d.]*,', html)
    assert re.search(r'class="chart__bar"', html)


def test_statistics_of_a_new_player_say_there_are_none_yet(client, ana):
    assert "once you have finished a game" in page(client, ana, reverse("stats"))


def test_the_months_chart_counts_games_in_the_active_time_zone(client, ana, ben):
    now = timezone.now()
    finished_games(ana, [ben], 3, start=now)
    words = text(page(client, ana, reverse("stats")))
    month = timezone.localtime(now).strftime("%B %Y")
    assert re.search(rf"{month}: [1-3] played", words)


# ---- the number of queries does not grow with a player's history ---------------------------


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def active_games(user, others, count):
    for index in range(count):
        game = started_game(user, others[index % len(others)])
        if index % 2:
            answer(game, user, {"act": "income"})  # half wait for the opponent


@pytest.mark.parametrize("url", ["/", "/games/past/", "/stats/", "/games/past/?variant=classic&page=2"])
def test_the_dashboard_makes_a_fixed_number_of_queries(client, url, ana, ben, cai, dora):
    client.force_login(ana)
    finished_games(ana, [ben, cai], 25)
    active_games(ana, [ben, cai], 2)
    gathering_game(ana, seats=3)
    gathering.invitation_send(game=gathering_game(dora, seats=3), by=dora, email=ana.email)
    small = count_queries(client, url)
    finished_games(ana, [dora], 60, start=datetime(2025, 1, 1, tzinfo=UTC), variants=["inquisitor"])
    finished_games(ana, [ben, dora, cai], 15, start=datetime(2024, 1, 1, tzinfo=UTC))
    active_games(ana, [dora, ben, cai], 6)
    gathering_game(ana, seats=4)
    assert count_queries(client, url) == small


def test_the_home_dashboard_query_count(client, django_assert_num_queries, ana, ben, cai):
    """Session, user, profile (language and time zone), then: open games, their
    seats, invitations, recent results, their tables, the summary, and the public
    games being played (none here: their seats would be one query more)."""
    finished_games(ana, [ben, cai], 30)
    active_games(ana, [ben, cai], 4)
    client.force_login(ana)
    with django_assert_num_queries(10):
        assert client.get("/").status_code == 200


def test_a_game_without_variants_is_named_alone(client, ana, ben, cai):
    """ "Kobayakawa", never "Kobayakawa ·" with nothing after the separator."""
    game = started_game(ana, ben, cai, kind="kobayakawa")  # Ana's turn: waiting for her, in play for Ben
    gathering_game(ana, seats=3, kind="kobayakawa")
    for user, url in ((ana, "/"), (ben, "/"), (ana, reverse("game", args=[game.pk]))):
        html = page(client, user, url)
        assert "{#" not in html and "{% " not in html  # every template comment is one
        spans = [text(span).strip() for span in re.findall(r"<span[^>]*>(.*?)</span>", html, re.S)]
        named = [span for span in spans if "Kobayakawa" in span]
        assert named, url
        for span in named:
            assert not span.endswith("·") and "· ·" not in span and "·  ·" not in span, (url, span)


def test_the_tab_title_counts_the_games_waiting_for_me_on_every_page(client, ana, ben, cai):
    first, _second = started_game(ana, ben), started_game(ana, cai)  # Ana plays first in both
    started_game(ben, ana)  # Ben's turn
    for url in ("/", reverse("profile"), reverse("game_create"), reverse("stats"), reverse("game", args=[first.pk])):
        title = re.search(r"<title>(.*?)</title>", page(client, ana, url), re.S).group(1).strip()
        assert title.startswith("(2) "), (url, title)
    assert re.search(r"<title>\s*Coup by email", page(client, cai, "/"))  # nothing waits for Cai
    # The game page's poll brings the count, even when its own game did not change.
    answer(first, ana, {"act": "income"})
    first.refresh_from_db()
    live = reverse("game_live", args=[first.pk])
    since = {"since": first.version, "clock": str(int(first.deadline_at.timestamp()))}
    client.force_login(ana)
    polled = client.get(live, since, headers={"HX-Request": "true"})
    assert polled.status_code == 204 and json.loads(polled["HX-Trigger"]) == {"gamesWaiting": 1}
