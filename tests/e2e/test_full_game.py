"""A whole game in three browsers: sign up, invite by email, play to a winner.

Ana signs up and creates a 3-seat classic game that she starts; she invites Ben
and Cai by email from the waiting room; they follow the emailed links, sign up and
accept; Ana starts the game. Then the three play it out with the decision buttons
of their own game pages. The deal is random, so the driver is generic: each step it
finds the player the game waits for and clicks an answer chosen by a simple policy
that forces one block (Ana steals from Ben, Ben blocks as Captain, nobody challenges
the block) and one challenge (the next Tax claim is challenged), then plays fast
(Tax, challenged by the first player asked; Coup when forced or affordable) until
someone wins. Cai plays on a phone: a screenshot of her table must be readable.
"""

from __future__ import annotations

from django.urls import reverse
from playwright.sync_api import expect

from games.models import Game, Seat
from tests.e2e.helpers import (
    click_option,
    decision_options,
    page_messages,
    sign_up,
    site_path,
)

PASSWORD = "correct-horse-battery-9"
STEP_CAP = 120  # one click per step; a game here takes about 20-40
TURN_ACTS = {"income", "foreign_aid", "tax", "steal", "exchange", "assassinate", "coup"}


def _invite(host_page, email: str) -> None:
    host_page.get_by_label("Friend's email address").fill(email)
    host_page.get_by_role("button", name="Send invitation").click()
    host_page.get_by_text(f"Invitation sent to {email}.").wait_for()


def _accept_invitation(page, live_server, smtp, email: str, name: str):
    """Open the emailed invitation signed out, sign up, come back and accept it."""
    invitation = smtp.wait_for(to=email, subject_contains="invites you")
    [link] = [link for link in invitation.links if "/invitations/" in link]
    page.goto(site_path(link))
    page.get_by_text("Sign in or create an account to accept.").wait_for()
    sign_up(page, live_server, smtp, email, PASSWORD, display_name=name)
    page.goto(site_path(link))
    page.get_by_role("heading", name="Ana invites you to play Coup").wait_for()
    with page.expect_navigation():
        page.get_by_role("button", name="Accept and take a seat").click()
    page.get_by_text("You have a seat at this game.").wait_for()


class Driver:
    """Chooses each player's answer; forces a block first, then a challenge."""

    def __init__(self, names: dict[str, str]):
        self.names = names  # engine player -> display name
        self.players = {name: player for player, name in names.items()}
        self.stage = None  # what the action being resolved is for: "steal", "blocked", "tax"
        self.block_done = False
        self.challenge = None  # (challenger, claimant) of the forced challenge
        self.claimant = None
        self.log: list[str] = []

    def choose(self, name: str, options: list[dict]) -> dict:
        commands = [o["command"] for o in options]

        def find(**wanted):
            return next((c for c in commands if all(c.get(k) == v for k, v in wanted.items())), None)

        acts = {c["act"] for c in commands}
        if acts & TURN_ACTS:  # a turn
            self.stage = None
            if not self.block_done and name == "Ana" and (steal := find(act="steal", target=self.players["Ben"])):
                self.stage = "steal"
                return steal
            if self.block_done and self.challenge is None and (tax := find(act="tax")):
                self.stage = "tax"
                self.claimant = name
                return tax
            return find(act="coup") or find(act="tax") or find(act="income") or commands[0]
        if "allow" in acts:  # a response window (or a block-only decision)
            if self.stage == "steal":
                block = find(act="block", **{"as": "captain"})
                if block:
                    self.stage = "blocked"
                    self.block_done = True
                    return block
                return find(act="allow")
            if self.stage == "blocked":
                return find(act="allow")  # let the block stand
            if challenge := find(act="challenge"):
                if self.stage == "tax" and self.challenge is None:
                    self.challenge = (name, self.claimant)
                return challenge  # challenging ends the game quickly
            return find(act="allow")
        if "prove" in acts or "concede" in acts:
            return find(act="prove") or find(act="concede")
        return commands[0]  # lose the first card, keep the first cards...


def _assert_fits_the_phone(page, tmp_path):
    """The phone's game page: no sideways scrolling; hand and buttons inside the screen."""
    shot = tmp_path / "game-phone.png"
    page.screenshot(path=shot, full_page=True)
    print(f"phone screenshot: {shot}")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert shot.stat().st_size > 30_000, "the phone screenshot looks blank"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (
        "the game page scrolls sideways on a phone: "
        + str(page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]"))
    )
    width = page.viewport_size["width"]
    cards = page.locator("section.hand [data-card]")
    buttons = page.locator("section.decisions button")
    assert cards.count() >= 1 and buttons.count() >= 1
    for what, locator in (("hand card", cards), ("decision button", buttons)):
        for i in range(locator.count()):
            item = locator.nth(i)
            assert item.is_visible(), f"{what} {i} is hidden on the phone"
            box = item.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (
                f"{what} {i} ({item.inner_text()!r}) sticks out of the {width}px screen: {box}"
            )
            assert box["width"] >= 44 and box["height"] >= 24, f"{what} {i} is too small to use: {box}"
    # The text stays readable: no shrunk fonts in the hand or on the buttons.
    smallest = page.evaluate(
        """() => Math.min(...[...document.querySelectorAll('section.decisions button, section.hand .card__name')]
                .map(e => parseFloat(getComputedStyle(e).fontSize)))"""
    )
    assert smallest >= 11, f"text as small as {smallest}px on the phone"


def test_three_players_sign_up_invite_and_play_to_a_winner(new_page, live_server, smtp, settings, tmp_path):
    settings.SITE_URL = live_server.url  # the links in the emails point at this server
    ana, ben, cai = new_page(), new_page(), new_page(phone=True)

    # Ana signs up and creates a 3-seat classic game that she starts.
    sign_up(ana, live_server, smtp, "ana@example.com", PASSWORD, display_name="Ana")
    ana.get_by_role("link", name="Start a new game").click()
    ana.get_by_role("spinbutton", name="Players").fill("3")
    ana.get_by_role("radio", name="Me").check()
    with ana.expect_navigation():
        ana.get_by_role("button", name="Create the game").click()
    ana.get_by_text("Your game is ready: invite your friends.").wait_for()
    game = Game.objects.get(host__email="ana@example.com")
    game_url = reverse("game", args=[game.pk])
    assert site_path(ana.url) == game_url
    assert (game.seat_count, game.variants, game.options["first"]) == (3, [], "host")

    # She invites Ben and Cai from the waiting room; they accept from the emails.
    _invite(ana, "ben@example.com")
    _invite(ana, "cai@example.com")
    _accept_invitation(ben, live_server, smtp, "ben@example.com", "Ben")
    _accept_invitation(cai, live_server, smtp, "cai@example.com", "Cai")
    ana.reload()
    seats = ana.locator("#seats li")
    assert [t.split()[0] for t in seats.all_inner_texts()] == ["Ana", "Ben", "Cai"]
    with ana.expect_navigation():
        ana.get_by_role("button", name="Start the game").click()
    ana.get_by_text("Your decision: choose your action").wait_for()
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    # The others' waiting rooms turn into the table by themselves (htmx polls the seats).
    for page in (ben, cai):
        expect(page.locator(".banner").first).to_contain_text("Waiting for Ana", timeout=15_000)

    names = {seat.player: seat.user.profile.display_name for seat in Seat.objects.filter(game=game)}
    assert sorted(names.values()) == ["Ana", "Ben", "Cai"]
    players = [("Ana", ana), ("Ben", ben), ("Cai", cai)]
    driver = Driver(names)
    phone_checked = False

    for step in range(STEP_CAP):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        for name, page in players:
            if step == 1 and name == "Ben":
                # Ben's open page shows Ana's Steal by itself: the table polls every few seconds.
                page.locator("section.decisions button").first.wait_for(timeout=15_000)
            else:
                page.goto(game_url)
            options = decision_options(page)
            if options:
                break
        else:
            raise AssertionError(
                f"step {step}: the game (version {game.version}) waits, but no page shows a decision "
                f"button; Ana's page says: {ana.locator('.banner').first.inner_text()!r}; moves: {driver.log}"
            )
        if name == "Cai" and not phone_checked:
            _assert_fits_the_phone(cai, tmp_path)
            phone_checked = True
        command = driver.choose(name, options)
        label = next(o["label"] for o in options if o["command"] == command)
        driver.log.append(f"{name}: {label}")
        before = game.version
        click_option(page, command)
        game.refresh_from_db()
        assert game.version > before, (
            f"step {step}: {name}'s answer {label!r} changed nothing; the page says "
            f"{page_messages(page)!r}; moves: {driver.log}"
        )
    else:
        raise AssertionError(f"no winner after {STEP_CAP} answers; moves: {driver.log}")

    print(f"game #{game.pk} in {len(driver.log)} answers: " + "; ".join(driver.log))
    assert driver.block_done and driver.challenge, f"no block or no challenge was played: {driver.log}"
    assert phone_checked, "Cai never had a decision to show on the phone"

    # Everyone's page says the game is over, and who won.
    winner = game.winner.profile.display_name
    for name, page in players:
        page.goto(game_url)
        banner = page.locator(".banner--over")
        expected = "You won the game!" if name == winner else f"{winner} won the game."
        assert banner.inner_text().strip() == expected, f"{name}'s page: {banner.inner_text()!r}"
        assert page.locator("section.decisions").count() == 0
        assert page.locator(f".seat:has-text('{winner}') .seat__status").inner_text().strip() == "Winner"
        assert page.locator(".seat__status", has_text="Out of the game").count() == 2

    # The history tells the block and the challenge in words.
    history = ana.locator("section.history").inner_text()
    challenger, claimant = driver.challenge
    for sentence in (
        "Ana claimed the Captain to steal from Ben.",
        "Ben claimed the Captain to block.",
        "Cai let it pass.",
        "The block stands: Ana's Steal failed.",
        f"{claimant} claimed the Duke to take 3 coins.",
        f"{challenger} challenged {claimant}'s Duke.",
        f"{winner} won the game!",
    ):
        assert sentence.replace("Ana won", "You won") in history, f"{sentence!r} is not in the history:\n{history}"
    assert (
        f"{claimant} showed the Duke and shuffled it into the court deck." in history
        or f"{'You' if claimant == 'Ana' else claimant} did not prove the Duke and lost an influence: " in history
    ), history
    assert "Ana took 2 coins from Ben." not in history  # the blocked steal took nothing
