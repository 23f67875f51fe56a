"""Kobayakawa through the shared service: decision emails with one-click answers,
a reply by email, the replay of a finished game and the dashboard."""

from django.urls import reverse

from accounts.models import profile_of
from games.kinds import KINDS
from games.mail.inbound import receive
from games.models import Game, SeatResult
from games.selectors import game_state
from games.services import gathering, play
from tests.mail.test_replies import reply
from tests.players import awaited, play_to_the_end


def kobayakawa_game(host, *others):
    game = gathering.game_create(
        host=host,
        kind="kobayakawa",
        variants=[],
        seat_count=1 + len(others),
        turn_seconds=86400,
        response_seconds=28800,
        first=Game.First.HOST,
    )
    for user in others:
        gathering.seat_join(game=game, user=user, join_token=game.join_token)
    return gathering.game_start(game=game, by=host)


def _named(*users):
    for user in users:
        profile = profile_of(user)
        profile.display_name = user.username.title()
        profile.save()


def test_a_kobayakawa_decision_email_has_one_click_answers(ana, ben, cai, smtp, django_capture_on_commit_callbacks):
    _named(ana, ben, cai)
    with django_capture_on_commit_callbacks(execute=True):
        game = kobayakawa_game(ana, ben, cai)
    [to_ana] = smtp.to("ana@example.com")
    assert f"Kobayakawa #{game.pk}" in to_ana.subject
    assert "it is your move" in to_ana.text
    card = game_state(game).by_name["p1"].card
    assert f"Your card: {card}" in to_ana.text
    assert "draw / flip" in to_ana.text
    links = [link for link in to_ana.links if "/a/" in link]
    assert len(links) == 2  # draw, flip
    # The others are told the game started, with their own card and nobody else's.
    to_ben = smtp.to("ben@example.com")[0]
    assert "has started" in to_ben.text
    assert f"Your card: {game_state(game).by_name['p2'].card}" in to_ben.text


def test_a_one_click_answer_plays_a_kobayakawa_decision(
    client, ana, ben, cai, smtp, django_capture_on_commit_callbacks
):
    _named(ana, ben, cai)
    with django_capture_on_commit_callbacks(execute=True):
        game = kobayakawa_game(ana, ben, cai)
    [to_ana] = smtp.to("ana@example.com")
    link = next(link for link in to_ana.links if "/a/" in link)
    path = link.split("://", 1)[1].split("/", 1)[1]
    page = client.get("/" + path)
    assert page.status_code == 200 and b"Confirm:" in page.content
    before = game.version
    client.post("/" + path)
    game.refresh_from_db()
    assert game.version > before


def test_a_reply_bet_is_played(ana, ben, cai, smtp, django_capture_on_commit_callbacks):
    _named(ana, ben, cai)
    game = kobayakawa_game(ana, ben, cai)
    users = {"p1": ana, "p2": ben, "p3": cai}
    # Everyone flips until the bets are asked.
    while awaited(game) and next(iter(awaited(game).values()))[0] != "bet":
        [(player, (_kind, version))] = awaited(game).items()
        play.decision_submit(game=game, user=users[player], command={"act": "flip"}, version=version)
    [(player, (kind, _version))] = awaited(game).items()
    assert kind == "bet"
    with django_capture_on_commit_callbacks(execute=True):
        outcome = receive(reply(game, users[player], "Bet\n\n> quoted text"))
    assert outcome.status == "played" and outcome.answer == "bet", outcome
    game.refresh_from_db()
    assert game_state(game).by_name[player].answer == "bet"


def test_an_unclear_kobayakawa_reply_is_explained(ana, ben, cai, smtp, django_capture_on_commit_callbacks):
    _named(ana, ben, cai)
    game = kobayakawa_game(ana, ben, cai)
    with django_capture_on_commit_callbacks(execute=True):
        outcome = receive(reply(game, ana, "discard 99"))
    assert outcome.status == "explained"
    [explained] = [m for m in smtp.to("ana@example.com") if "not played" in m.subject.lower()]
    assert "draw" in explained.text and "flip" in explained.text


def test_a_finished_kobayakawa_game_is_replayed_and_on_the_dashboard(client, ana, ben, cai):
    _named(ana, ben, cai)
    game = kobayakawa_game(ana, ben, cai)
    play_to_the_end(game, 7)
    winners = KINDS["kobayakawa"].rules.winners(game_state(game))
    positions = {int(name[1:]) - 1 for name in winners}
    results = {r.seat.position: r.place for r in SeatResult.objects.filter(game=game).select_related("seat")}
    assert {p for p, place in results.items() if place == 1} == positions
    assert game.winner is not None and game.seats.get(user=game.winner).position in positions

    client.force_login(ana)
    first = client.get(reverse("game_replay", args=[game.pk]))
    assert first.status_code == 200 and b"kobayakawa-table" in first.content
    last = client.get(reverse("game_replay", args=[game.pk]) + "?step=100000")
    assert last.status_code == 200 and (b"won the game" in last.content or b"share the win" in last.content)
    home = client.get(reverse("home")).content.decode()
    assert "Kobayakawa" in home
    past = client.get(reverse("past_games")).content.decode()
    assert "Kobayakawa" in past


def test_the_dashboard_says_what_a_kobayakawa_game_waits_for(client, ana, ben, cai):
    _named(ana, ben, cai)
    game = kobayakawa_game(ana, ben, cai)
    client.force_login(ana)
    home = client.get(reverse("home")).content.decode()
    assert "Draw a card or flip a new Kobayakawa card" in home
    assert f"#{game.pk}" in home or reverse("game", args=[game.pk]) in home
