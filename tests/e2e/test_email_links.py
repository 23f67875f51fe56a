"""One-click answers from a decision email, in a real browser that is not signed in.

A player opens an answer link from the email the SMTP server captured: the page
(GET) only shows the situation and a confirm button, and changes nothing (mail
scanners prefetch links); confirming (POST) plays the answer, the game moves on and
the next player's decision email goes out. The same link opened again says the
decision has passed. Only the page of the decision still awaited shows the hand.
"""

from __future__ import annotations

from playwright.sync_api import expect

from accounts.models import profile_of
from games.models import Game
from games.services import gathering
from tests.e2e.helpers import answer_links, is_logged_in, site_path


def _player(django_user_model, name: str):
    user = django_user_model.objects.create_user(username=name.lower(), email=f"{name.lower()}@example.com")
    profile = profile_of(user)
    profile.display_name = name
    profile.save()
    return user


def _started_game(django_user_model) -> tuple[Game, object, object]:
    """A classic two-player game that Ana (the host) plays first, started."""
    ana, ben = _player(django_user_model, "Ana"), _player(django_user_model, "Ben")
    game = gathering.game_create(
        host=ana, variants=[], seat_count=2, turn_seconds=24 * 3600, response_seconds=8 * 3600, first="host"
    )
    gathering.seat_join(game=game, user=ben, join_token=game.join_token)
    gathering.game_start(game=game, by=ana)
    game.refresh_from_db()
    return game, ana, ben


def test_an_emailed_answer_link_confirms_then_plays_and_the_game_moves_on(
    page, live_server, smtp, settings, django_user_model
):
    settings.SITE_URL = live_server.url  # the links in the emails point at this server
    game, ana, ben = _started_game(django_user_model)

    # Ana's decision email: one link per legal answer, the game's number in the subject.
    email = smtp.wait_for(to=ana.email, subject_contains=f"#{game.pk}")
    assert "it is your move — choose your action" in email.text
    links = answer_links(email)
    assert links, f"no answer links in the decision email:\n{email.text}"
    assert all("/a/" in link for link in links.values())
    [income] = [link for label, link in links.items() if label.startswith("Income")]
    assert any(label.startswith("Tax") for label in links), list(links)

    # Opening it, signed out, shows the situation and one confirm button: nothing changes.
    version = game.version
    response = page.goto(site_path(income))
    assert response is not None and response.status == 200
    expect(page.get_by_role("heading", name=f"Coup #{game.pk}")).to_be_visible()
    expect(page.get_by_text("The game is waiting for you to choose your action.")).to_be_visible()
    confirm = page.get_by_role("button", name="Confirm: Income — take 1 coin")
    expect(confirm).to_be_visible()
    expect(page.locator("[data-card]")).to_have_count(2)  # Ana's own hand, to decide with
    expect(page.get_by_text("You have 1 coin.")).to_be_visible()  # the first of two players starts with 1
    page.reload()  # a second GET (a mail scanner, a reload) changes nothing either
    game.refresh_from_db()
    assert game.version == version, "opening an answer link (GET) changed the game"

    # Confirming plays the answer.
    with page.expect_navigation():
        page.get_by_role("button", name="Confirm: Income — take 1 coin").click()
    expect(page.get_by_role("status").filter(has_text="Done: your answer is played.")).to_be_visible()
    game.refresh_from_db()
    assert game.version > version
    expect(page.get_by_text("Ana took Income.")).to_be_visible()  # as the table saw it
    expect(page.locator("[data-card]")).to_have_count(0)  # and no hand any more

    # Ben's turn now: his decision email arrives (after the "game started" one).
    ben_email = smtp.wait_for(to=ben.email, subject_contains=f"#{game.pk}", count=2)
    assert "it is your move — choose your action" in ben_email.text, ben_email.text
    assert "Ana took Income." in ben_email.text
    assert answer_links(ben_email)

    # The same link again: the decision has passed; no button, nothing changes.
    after = game.version
    response = page.goto(site_path(income))
    assert response is not None and response.status == 409
    expect(page.get_by_role("alert")).to_have_text(
        "This decision has already passed. Open the game to see where it stands."
    )
    expect(page.get_by_role("button", name="Confirm: Income — take 1 coin")).to_have_count(0)
    expect(page.locator("[data-card]")).to_have_count(0)
    expect(page.get_by_text("You have")).to_have_count(0)
    game.refresh_from_db()
    assert game.version == after
    # The game itself asks whoever holds the link to sign in.
    with page.expect_navigation():
        page.get_by_role("link", name="Open the game").click()
    assert "/accounts/login/" in page.url

    # Still nobody is signed in: the link itself was the credential.
    assert not is_logged_in(page, live_server)


def test_a_tampered_answer_link_is_refused(page, live_server, smtp, settings, django_user_model):
    settings.SITE_URL = live_server.url
    game, ana, _ben = _started_game(django_user_model)
    email = smtp.wait_for(to=ana.email, subject_contains=f"#{game.pk}")
    link = next(iter(answer_links(email).values()))
    path = site_path(link)
    forged = path[:-6] + ("A" if path[-6] != "A" else "B") + path[-5:]  # one character of the signature

    response = page.goto(forged)

    assert response is not None and response.status == 400
    expect(page.get_by_role("alert")).to_have_text(
        "This link is not valid. Open the game from your latest email or from the site."
    )
    expect(page.get_by_role("button", name="Confirm", exact=False)).to_have_count(0)
    version = game.version
    game.refresh_from_db()
    assert game.version == version
