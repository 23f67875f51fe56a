"""Every page a player can reach, on a phone and a desktop, in English and in Brazilian
Portuguese (whose longer words are the first to overflow): none is wider than the
screen in any of the four, and none has a serious or critical accessibility
violation on the phone in Portuguese or on the desktop in English, between them
every page at each width and in each language (axe-core,
tests/e2e/axe.py). Each walk reports every page that fails, not only the first."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

import pyotp
import pytest
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.test import RequestFactory
from django.utils import timezone, translation
from playwright.sync_api import Page

from accounts.bounces import mail_failed
from accounts.export import data_export_request, export_token
from accounts.models import MailFailure
from games.mail.tokens import answer_token, stop_token, unsubscribe_token
from games.models import Game
from games.services import bots, gathering, holidays, lobby
from games.web.views import server_error
from ratings.services import game_rate
from ratings.skill import ESTABLISHED
from tests.e2e import axe
from tests.e2e.helpers import fresh_code, log_in
from tests.players import PASSWORD, awaited, gathering_game, make_player, play_to_the_end, started_game
from tests.ratings.builders import finished_game

# No address of the site fails on purpose: the server error page, as its handler renders
# it, is served at this address by the browser itself (Playwright's routing), so its
# stylesheet still comes from the site.
SERVER_ERROR = "/server-error-page/"


@dataclass(frozen=True)
class Visit:
    name: str
    path: str
    who: str | None  # the signed-in player's name; None: nobody signed in
    status: int = 200
    then: Callable[[Page], None] | None = None  # done on the page once it is checked


def _enter_code(secret: str) -> Callable[[Page], None]:
    """Sign in's second step on the page: the authenticator app's code for ``secret``."""

    def enter(page: Page) -> None:
        form = page.locator("main form").filter(has=page.locator('[name="code"]'))
        form.locator('[name="code"]').fill(fresh_code(pyotp.TOTP(secret)))
        with page.expect_navigation():
            form.locator('button[type="submit"]').click()
        assert urlsplit(page.url).path == "/", f"the code was refused: {page.url}"

    return enter


def _site(language: str) -> list[Visit]:
    """Players and games in every state a page shows, and the pages that show them."""
    ana, ben, cai = (make_player(name, language) for name in ("Ana", "Ben", "Cai"))
    waiting = gathering_game(ana, ben, seats=4)
    invitation = gathering.invitation_send(game=waiting, by=ana, email="dora@example.com")
    gathering.invitation_send(game=waiting, by=ana, email="eve@example.com")
    # Mail to one invited address bounces (the waiting room tells its host), and to a
    # player's own (the banner on every page of theirs).
    mail_failed(address="eve@example.com", kind=MailFailure.Kind.HARD)
    mail_failed(address=make_player("Dan", language).email, kind=MailFailure.Kind.SOFT)
    public = Game.Visibility.PUBLIC
    coup = started_game(ana, ben, cai, variants=["factions", "inquisitor"], visibility=public)
    kobayakawa = started_game(ana, ben, cai, kind="kobayakawa", visibility=public)
    practice = bots.practice_start(host=ana, seat_count=6, level="easy")
    open_waiting = lobby.open_game_create(
        host=ana,
        terms=lobby.Terms(language=language, min_rating=1500, min_finish_rate=80),
        kind="coup",
        variants=["inquisitor"],
        seat_count=5,
        turn_seconds=86400,
        response_seconds=28800,
    )
    gathering.seat_join(game=open_waiting, user=cai, join_token=open_waiting.join_token)  # the host's link: no limit
    bens_game = gathering_game(ben, seats=3)
    gathering.invitation_send(game=bens_game, by=ben, email=cai.email)
    finished = started_game(ana, ben, rated=True, visibility=public)
    kobayakawa_finished = started_game(ana, ben, cai, kind="kobayakawa", rated=True)
    for game in (finished, kobayakawa_finished):
        play_to_the_end(game, 24)
    assert "p1" in awaited(coup) and "p1" in awaited(kobayakawa), "Ana must have a decision open"
    for number in range(ESTABLISHED):  # on the leaderboard: established players
        game, results = finished_game(
            coup.kind, [ana, ben, cai][number % 3 :] + [ana, ben, cai][: number % 3], [1, 2, 3]
        )
        game_rate(game=game, results=results)
    ana_seat = coup.seats.get(user=ana)
    dora, eve = make_player("Dora", language), make_player("Eve", language)
    today = timezone.now().date()
    holidays.holiday_plan(user=eve, first_day=today, last_day=today + timedelta(days=6))
    holidays.holiday_plan(user=eve, first_day=today + timedelta(days=30), last_day=today + timedelta(days=40))
    eve_away = started_game(dora, eve, takeover=0)
    bens_data = data_export_request(user=ben)
    # Fay signs in with an authenticator app, and has her recovery codes.
    fay, fay_secret = make_player("Fay", language), generate_totp_secret()
    TOTP.activate(fay, fay_secret)
    RecoveryCodes.activate(fay)
    return [
        Visit("home", "/", None),
        Visit("sign up", "/accounts/signup/", None),
        Visit("sign in", "/accounts/login/", None),
        Visit("sign in by code", "/accounts/login/code/", None),
        Visit("password reset", "/accounts/password/reset/", None),
        Visit("password reset sent", "/accounts/password/reset/done/", None),
        Visit("confirm your address", "/accounts/confirm-email/", None),
        Visit("invitation", f"/invitations/{invitation.token}/", None),
        Visit("join, signed out", f"/join/{waiting.join_token}/", None),
        Visit("lobby, signed out", "/lobby/", None),
        Visit("stop all email", f"/stop/{stop_token('dora@example.com')}/", None),
        Visit("not found", "/no-such-page/", None, 404),
        Visit("address not understood", "/?q=%00", None, 400),
        Visit("answer link not valid", "/a/not-a-token/", None, 400),
        Visit("server error", SERVER_ERROR, None, 500),
        Visit("dashboard", "/", "Ana"),
        Visit("create", "/games/new/", "Ana"),
        Visit("waiting room", f"/games/{waiting.pk}/", "Ana"),
        Visit("lobby", "/lobby/?kind=coup", "Ana"),
        Visit("waiting room of an open game", f"/games/{open_waiting.pk}/", "Ana"),
        Visit("lobby, a seat taken", "/lobby/", "Cai"),
        Visit("join", f"/join/{waiting.join_token}/", "Cai"),
        Visit("dashboard with an invitation", "/", "Cai"),
        Visit("dashboard, mail to the player bouncing", "/", "Dan"),
        Visit("preferences, mail to the player bouncing", "/accounts/profile/", "Dan"),
        Visit("Coup table, a decision open", f"/games/{coup.pk}/", "Ana"),
        Visit("Coup table, a target to choose", f"/games/{coup.pk}/?action=steal", "Ana"),
        Visit("Coup table, another's move", f"/games/{coup.pk}/", "Ben"),
        Visit("answer from an email", f"/a/{answer_token(ana_seat, awaited(coup)['p1'][1], 0)}/", "Ana"),
        Visit("practice table, five bots", f"/games/{practice.pk}/", "Ana"),
        Visit("Kobayakawa table, a decision open", f"/games/{kobayakawa.pk}/", "Ana"),
        Visit("finished game", f"/games/{finished.pk}/", "Ana"),
        Visit("history", f"/games/{finished.pk}/history", "Ana"),
        Visit("replay", f"/games/{finished.pk}/replay/", "Ana"),
        Visit("finished Kobayakawa game", f"/games/{kobayakawa_finished.pk}/", "Ana"),
        Visit("Kobayakawa replay", f"/games/{kobayakawa_finished.pk}/replay/", "Ana"),
        Visit("past games", "/games/past/", "Ana"),
        Visit("statistics", "/stats/", "Ana"),
        Visit("leaderboard", f"/leaderboard/{coup.kind}/", "Ana"),
        Visit("Kobayakawa leaderboard, Ana provisional", f"/leaderboard/{kobayakawa.kind}/", "Ana"),
        Visit("leaderboard, signed out", f"/leaderboard/{coup.kind}/", None),
        Visit("player page", f"/players/{ben.pk}/", None),
        Visit("no such leaderboard", "/leaderboard/chess/", None, 404),
        Visit("no such player", "/players/999999/", "Ana", 404),
        Visit("preferences", "/accounts/profile/", "Ana"),
        Visit("a table waiting for a player away", f"/games/{eve_away.pk}/", "Dora"),
        Visit("holidays on the profile", "/accounts/profile/", "Eve"),
        Visit("email addresses", "/accounts/email/", "Ana"),
        Visit("password change", "/accounts/password/change/", "Ana"),
        Visit("your data", "/accounts/profile/data/", "Ana"),
        Visit("another's data", f"/accounts/profile/data/{export_token(bens_data)}/", "Ana", 403),
        Visit("delete your account", "/accounts/profile/delete/", "Ana"),
        Visit("passkeys and codes", "/accounts/2fa/", "Ana"),
        Visit("the password again, to add a passkey", "/accounts/2fa/webauthn/add/", "Ana"),
        Visit("where one is signed in", "/accounts/sessions/", "Ana"),
        Visit("sign-in's second step", "/accounts/2fa/authenticate/", "Fay", then=_enter_code(fay_secret)),
        Visit("passkeys and codes, an app set up", "/accounts/2fa/", "Fay"),
        Visit("recovery codes", "/accounts/2fa/recovery-codes/", "Fay"),
        Visit("passkeys", "/accounts/2fa/webauthn/", "Fay"),
        Visit("profile with a second factor", "/accounts/profile/", "Fay"),
        Visit("unsubscribe", f"/unsubscribe/{unsubscribe_token(ana)}/", "Ana"),
        Visit("sign out", "/accounts/logout/", "Ana"),
        Visit("not found, signed in", f"/games/{finished.pk + 1000}/", "Ana", 404),
        Visit("games being watched", "/games/watch/", None),
        Visit("spectators' page, signed out", f"/games/{coup.pk}/watch/", None),
        Visit("spectators' page", f"/games/{coup.pk}/watch/", "Eve"),
        Visit("spectators' page, Kobayakawa", f"/games/{kobayakawa.pk}/watch/", "Eve"),
        Visit("spectators' page, game over", f"/games/{finished.pk}/watch/", "Eve"),
        Visit("spectators' page, waiting room", f"/games/{waiting.pk}/watch/", "Eve", 404),
    ]


def _server_error_page(language: str):
    """A route handler answering with the server error page as its handler renders it."""
    with translation.override(language):
        body = server_error(RequestFactory().get("/")).content

    def answer(route):
        route.fulfill(status=500, body=body, content_type="text/html; charset=utf-8")

    return answer


def _too_wide(page) -> str:
    """What sticks out past the right edge of the screen ('' when the page fits)."""
    return page.evaluate(
        """() => {
            const width = document.documentElement.clientWidth;
            if (document.documentElement.scrollWidth <= width) return "";
            const culprits = [...document.querySelectorAll("body *")]
                .filter(e => e.getBoundingClientRect().right > width + 0.5)
                .filter(e => !e.parentElement || e.parentElement.getBoundingClientRect().right <= width + 0.5)
                .slice(0, 4)
                .map(e => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} ` +
                          `(${Math.round(e.getBoundingClientRect().right)} px)`);
            return `${document.documentElement.scrollWidth} px wide for ${width}: ${culprits.join(", ")}`;
        }"""
    )


@pytest.mark.parametrize("language", ["en", "pt-br"])
@pytest.mark.parametrize("phone", [True, False], ids=["phone", "desktop"])
def test_every_page_fits_the_screen_and_passes_axe(new_page, live_server, phone, language):
    visits = _site(language)
    accessibility_checked = phone == (language == "pt-br")
    headers = {"locale": "pt-BR", "extra_http_headers": {"Accept-Language": "pt-BR"}} if language != "en" else {}
    pages = {}
    problems = []
    for visit in visits:
        if visit.who not in pages:
            pages[visit.who] = new_page(phone=phone, **headers)
            if visit.who is not None:
                log_in(pages[visit.who], live_server, f"{visit.who.lower()}@example.com", PASSWORD)
        page = pages[visit.who]
        if visit.path == SERVER_ERROR:
            page.route(f"**{SERVER_ERROR}", _server_error_page(language))
        response = page.goto(visit.path)
        assert response is not None and response.status == visit.status, f"{visit.name}: HTTP {response.status}"
        assert page.locator("html").get_attribute("lang") == language, f"{visit.name}: not in {language}"
        if wide := _too_wide(page):
            problems.append(f"{visit.name} ({visit.path}): {wide}")
        if accessibility_checked:
            problems += [f"{visit.name} ({visit.path}): {violation}" for violation in axe.violations(page)]
        if visit.then:
            visit.then(page)
    assert not problems, "\n".join(problems)
