"""No input gives a server error: every URL pattern the site routes (the DEBUG-only
mailbox and the inbound webhook included), fuzzed with hypothesis, anonymous,
signed in as a player, and as staff (the admin): random path tokens and numbers (and real ones), query strings, form
fields, JSON bodies (deeply nested ones too), GET and POST, with and without
htmx. Django's test client re-raises any exception a view lets escape, so a
500 fails the test with its traceback."""

import json
import re
from urllib.parse import quote, urlencode

import pytest
from django.urls import get_resolver
from django.urls.converters import IntConverter, PathConverter
from django.urls.resolvers import RegexPattern, RoutePattern, URLResolver
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from accounts.export import data_export_request, export_token
from games.mail.tokens import answer_token, stop_token, unsubscribe_token
from games.models import Game, Seat
from games.services import gathering, play
from tests.players import make_staff
from tests.web.conftest import awaited, gathering_game, started_game

pytestmark = pytest.mark.django_db

EXAMPLES_PER_ROUTE = 8
# Without staff rights every admin address is one gate, the admin's sign-in: a few
# examples each suffice there.
EXAMPLES_PER_CLOSED_ADMIN_ROUTE = 2
ROUTE_PART = re.compile(r"<(?:(?P<converter>\w+):)?(?P<name>\w+)>")
# Field names the site's forms and views read, and a few they do not.
FIELDS = [
    "command",
    "version",
    "text",
    "email",
    "answer",
    "language",
    "next",
    "display_name",
    "login",
    "password",
    "password1",
    "password2",
    "code",
    "action",
    "kind",
    "seat_count",
    "variants",
    "time_control",
    "first",
    "reminders",
    "email_mode",
    "digest_hour",
    "time_zone",
    "always_prove",
    "lose_first_0",
    "mail",
    "List-Unsubscribe",
    "action_remove",
    "step",
    "since",
    "visibility",
    "follow",
    "block",
    "clock",
    "after",
    "seats",
    "game",
    "variant",
    "opponent",
    "page",
    "to",
    "RawEmail",
    "MessageID",
]
# Text that has broken web applications: NUL (PostgreSQL refuses it), other
# control characters, surrogates' neighbours, digits that are not ASCII, huge numbers.
NASTY = [
    "\x00",
    "a\x00b",
    "\x1b[2J",
    "\ufeff",
    "²",
    "١٢٣",
    "99999999999999999999999",
    "-1",
    "0",
    "1e309",
    "NaN",
    "null",
    "[]",
    "{}",
    '{"act": "income"}',
    "../../etc/passwd",
    "%00",
    "<script>",
    "' OR 1=1 --",
    "é" * 300,
]


def deeply_nested(depth: int) -> str:
    return "[" * depth + "]" * depth


text = st.one_of(st.sampled_from(NASTY), st.text(max_size=40))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)
json_text = st.one_of(
    json_values.map(json.dumps),
    st.integers(100, 200_000).map(deeply_nested),
    st.sampled_from(['{"act": ' * 5000, '{"act": "steal", "target": "p2", "x": ' + deeply_nested(50_000) + "}"]),
)
field_values = st.one_of(text, json_text, st.integers().map(str))
# Each field a view reads is there about half the time, beside random others.
forms = st.fixed_dictionaries(
    {}, optional={name: st.one_of(field_values, st.lists(field_values, max_size=3)) for name in FIELDS}
).flatmap(lambda form: st.dictionaries(text, field_values, max_size=2).map(lambda extra: {**extra, **form}))


def routes():
    """Every leaf URL pattern, as the chain of patterns that leads to it."""

    def walk(patterns, chain):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, (*chain, pattern.pattern))
            else:
                yield (*chain, pattern.pattern)

    return list(walk(get_resolver().url_patterns, ()))


def describe(route) -> str:
    return "".join(str(pattern) for pattern in route)


def path_strategy(route, known: dict):
    """Paths that this route (or a near miss of it) matches."""
    parts = []
    for pattern in route:
        if isinstance(pattern, RegexPattern):
            parts.append(st.from_regex(pattern.regex.pattern, fullmatch=True).map(lambda s: quote(s, safe="/")))
            continue
        assert isinstance(pattern, RoutePattern), pattern
        position = 0
        route_text = str(pattern)
        for match in ROUTE_PART.finditer(route_text):
            parts.append(st.just(route_text[position : match.start()]))
            converter = pattern.converters[match["name"]]
            parts.append(value_strategy(converter, known.get(match["name"], [])))
            position = match.end()
        parts.append(st.just(route_text[position:]))
    return st.tuples(*parts).map(lambda pieces: "/" + "".join(pieces))


def value_strategy(converter, known: list):
    if isinstance(converter, IntConverter):
        numbers = st.integers(0, 10**25).map(str)
    else:
        numbers = st.nothing()
    safe = "/" if isinstance(converter, PathConverter) else ""
    random = st.one_of(text, st.from_regex(converter.regex, fullmatch=True)).filter(bool)
    real = st.sampled_from(known) if known else st.nothing()
    return st.one_of(real, real, real, numbers, random).map(  # real ids and tokens reach the views
        lambda value: quote(str(value), safe=safe)
    )


@pytest.fixture
def world(ana, ben, cai, settings, routes_with):
    """Ana's games in every state, and the real tokens that name them."""
    settings.ANYMAIL = {"WEBHOOK_SECRET": "postmark:s3cret"}
    routes_with(DEBUG=True, INBOUND_ESP="postmark")
    waiting = gathering_game(ana, seats=3)
    invitation = gathering.invitation_send(game=waiting, by=ana, email="zed@example.com")
    active = started_game(ana, ben, cai, visibility=Game.Visibility.PUBLIC)
    finished = started_game(ana, ben, visibility=Game.Visibility.UNLISTED)
    play.game_resign(game=finished, user=ben)
    seat = Seat.objects.get(game=active, user=ana)
    said = play.chat_post(game=active, user=ben, text="hello")
    return {
        "pk": [waiting.pk, active.pk, finished.pk],
        "user_id": [ana.pk, ben.pk, cai.pk],
        "message_id": [said.pk],
        "token": [
            waiting.join_token,
            invitation.token,
            answer_token(seat, awaited(active)["p1"][1], 0),
            unsubscribe_token(ana),
            stop_token("zed@example.com"),
            export_token(data_export_request(user=ana)),
        ],
    }


def is_admin(route) -> bool:
    return describe(route).startswith("admin/")


# The site's pages and the admin's are fuzzed apart, so that the test processes share
# the work evenly.
@pytest.mark.parametrize("part", ["site", "admin"])
@pytest.mark.parametrize("who", ["anonymous", "player", "staff"])
def test_no_input_to_any_url_gives_a_server_error(client, ana, world, who, part):
    if who == "staff":  # the admin too, for whoever may open it
        make_staff(ana)
    every = routes()
    assert len(every) > 50 and any("mailbox" in describe(r) for r in every)
    chosen = [route for route in every if is_admin(route) == (part == "admin")]
    assert len(chosen) > 20, chosen
    examples = EXAMPLES_PER_ROUTE if who == "staff" or part == "site" else EXAMPLES_PER_CLOSED_ADMIN_ROUTE
    for route in chosen:
        fuzz_route(client, None if who == "anonymous" else ana, route, world, examples)


def fuzz_route(client, user, route, known, examples: int):
    @hypothesis_settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
    )
    @given(
        path=path_strategy(route, known),
        query=st.dictionaries(st.one_of(st.sampled_from(FIELDS), text), text, max_size=3),
        method=st.sampled_from(["get", "post"]),
        body=st.one_of(forms.map(lambda form: ("form", form)), json_text.map(lambda data: ("json", data))),
        htmx=st.booleans(),
    )
    def request(path, query, method, body, htmx):
        # Signing in again only when a request signed out (the logout URL is fuzzed too).
        if user is None:
            client.logout()
        elif client.session.get("_auth_user_id") != str(user.pk):
            client.force_login(user)
        url = path + ("?" + urlencode(query) if query else "")
        headers = {"HX-Request": "true"} if htmx else {}
        if method == "get":
            response = client.get(url, headers=headers)
        elif body[0] == "form":
            response = client.post(url, body[1], headers=headers)
        else:
            response = client.post(url, body[1], content_type="application/json", headers=headers)
        assert response.status_code < 500, (describe(route), method, url, response.status_code)

    request()
