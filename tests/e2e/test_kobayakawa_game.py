"""A whole Kobayakawa game in three browsers, played to the end with the buttons.

Ana hosts a 3-seat Kobayakawa game that Ben and Cai have joined; each signs in
in their own browser and answers from their own game page whenever the game waits
for them: the first player of a round draws (and discards the higher card), the
others flip, and everyone bets, so every round ends in a showdown. The pages end
saying who won.
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.urls import reverse

from accounts.models import profile_of
from games.kinds import KINDS
from games.models import Game
from games.selectors import game_state
from games.services import gathering
from tests.e2e.helpers import click_option, decision_options, log_in, page_messages

PASSWORD = "correct-horse-battery-9"
STEP_CAP = 200


def _player(name: str):
    email = f"{name.lower()}@example.com"
    user = get_user_model().objects.create_user(username=name.lower(), email=email, password=PASSWORD)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    profile = profile_of(user)
    profile.display_name = name
    profile.save()
    return user


def _choose(options: list[dict]) -> dict:
    commands = [o["command"] for o in options]
    acts = {c["act"] for c in commands}
    if "bet" in acts:
        return next(c for c in commands if c["act"] == "bet")
    if "discard" in acts:
        return max(commands, key=lambda c: c["card"])  # keep the lower card
    return commands[0]  # draw when first offered, which is the top button


def test_three_players_play_kobayakawa_to_the_end(new_page, live_server):
    ana, ben, cai = _player("Ana"), _player("Ben"), _player("Cai")
    game = gathering.game_create(
        host=ana,
        kind="kobayakawa",
        variants=[],
        seat_count=3,
        turn_seconds=86400,
        response_seconds=28800,
        first=Game.First.HOST,
    )
    for user in (ben, cai):
        gathering.seat_join(game=game, user=user, join_token=game.join_token)
    pages = {}
    for user in (ana, ben, cai):
        page = new_page()
        log_in(page, live_server, user.email, PASSWORD)
        pages[user.pk] = page
    game_url = reverse("game", args=[game.pk])
    host_page = pages[ana.pk]
    host_page.goto(game_url)
    with host_page.expect_navigation():
        host_page.get_by_role("button", name="Start the game").click()
    host_page.get_by_text("Your decision: draw a card or flip a new Kobayakawa card").wait_for()
    host_page.locator("section.hand [data-card]").first.wait_for()
    assert host_page.locator("[data-kobayakawa]").count() == 1

    users = {seat.player: seat.user for seat in game.seats.all()}
    names = {"p1": "Ana", "p2": "Ben", "p3": "Cai"}
    log = []
    for step in range(STEP_CAP):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        [(player, _kind, _version)] = KINDS[game.kind].rules.awaiting(game_state(game))
        page = pages[users[player].pk]
        page.goto(game_url)
        options = decision_options(page)
        assert options, f"step {step}: {names[player]}'s page shows no decision; moves: {log}"
        command = _choose(options)
        label = next(o["label"] for o in options if o["command"] == command)
        log.append(f"{names[player]}: {label}")
        before = game.version
        click_option(page, command)
        game.refresh_from_db()
        assert game.version > before, f"{label!r} changed nothing: {page_messages(page)!r}; moves: {log}"
    else:
        raise AssertionError(f"no end after {STEP_CAP} answers; moves: {log}")

    winners = [names[p] for p in KINDS["kobayakawa"].rules.winners(game_state(game))]
    for user in (ana, ben, cai):
        page = pages[user.pk]
        page.goto(game_url)
        banner = page.locator(".banner--over").inner_text().strip()
        name = profile_of(user).display_name
        if name in winners:
            assert banner == "You won the game!", banner
        else:
            assert banner == f"{', '.join(winners)} won the game.", banner
        assert page.locator("section.decisions").count() == 0
        assert page.locator(".seat__status", has_text="Winner").count() == len(winners)
    history = host_page.locator("section.history").inner_text()
    assert "Ana drew a card." in history or "You drew" in history
    assert "bet 1 medal" in history and "The bettors showed their cards" in history
