"""The game page's card reference and rules are rendered once per kind, variants and
language and then served to every viewer of every such game: nothing of a game, a
viewer or a request may be in them, and a page served from them is the page
rendered afresh."""

import pickle
import re

import pytest
from django.core.cache import caches
from django.test import override_settings
from django.urls import reverse

from games.web import pages
from tests.web.conftest import make_player, started_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def cold_panels():
    """The process's rendered panels emptied before and after: each test sees its own."""
    pages._static_panels.cache_clear()
    yield pages._static_panels
    pages._static_panels.cache_clear()


def without_tokens(html: str) -> str:
    """A page without its CSRF tokens, which are masked afresh at every rendering."""
    return re.sub(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*', r"\1", html)


def page_of(client, user, game) -> str:
    client.force_login(user)
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200, response.status_code
    return without_tokens(response.content.decode())


@override_settings(DEBUG=False)
def test_every_viewer_of_every_game_gets_the_panels_of_its_kind_variants_and_language_alone(client, cold_panels):
    ana, ben, cai, dora = (make_player(name) for name in ("Ana", "Ben", "Cai", "Dora"))
    first = started_game(ana, ben)
    second = started_game(cai, dora)
    page_of(client, ana, first)  # renders the panels of the classic game in English
    assert cold_panels.cache_info().currsize == 1
    panels = pages.static_panels(first)
    # What the cache holds is what the three keys alone render, with no game at all.
    assert panels == cold_panels.__wrapped__("coup", (), "en")
    cached = panels["reference_panel"] + panels["rules_panel"]
    assert "The characters" in panels["reference_panel"] and "Rules of this game" in panels["rules_panel"]
    for secret in ("Ana", "Ben", "Cai", "Dora", "example.com", f"/games/{first.pk}/", "Game #", "csrf", "nonce"):
        assert secret not in cached, secret
    # Another game, another viewer: the same panels, served from the cache.
    second_page = page_of(client, dora, second)
    assert cold_panels.cache_info().hits >= 1 and cold_panels.cache_info().currsize == 1
    assert panels["reference_panel"] in second_page and panels["rules_panel"] in second_page


def test_the_panels_are_keyed_by_kind_variants_and_language(cold_panels):
    classic = cold_panels("coup", (), "en")
    assert cold_panels("coup", ("inquisitor",), "en") != classic
    assert "Inquisitor" in cold_panels("coup", ("inquisitor",), "en")["reference_panel"]
    assert "Inquisitor" not in classic["reference_panel"]
    assert cold_panels("coup", (), "es")["rules_panel"] != classic["rules_panel"]
    assert "Reglas de esta partida" in cold_panels("coup", (), "es")["rules_panel"]
    assert cold_panels("kobayakawa", (), "en")["reference_panel"] != classic["reference_panel"]


def test_a_page_served_from_the_panels_is_the_page_rendered_afresh(client, cold_panels):
    ana, ben = make_player("Ana"), make_player("Ben", language="es")
    game = started_game(ana, ben)
    for viewer in (ana, ben):
        fresh = page_of(client, viewer, game)  # DEBUG on in the tests: rendered each time
        with override_settings(DEBUG=False):
            page_of(client, viewer, game)  # fills the cache
            cached = page_of(client, viewer, game)
        assert cached == fresh
    assert cold_panels.cache_info().currsize == 2  # one per language


FRAGMENTS_KEPT = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "default"},
    "fragments": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "kept-fragments"},
}


def test_the_site_chrome_kept_per_language_is_the_chrome_rendered_afresh(client):
    """The head's links, the header and the language choice are kept per language
    and signed in or not (``CACHES["fragments"]`` outside DEBUG): a signed-in player,
    then one of another language and someone signed out, see what a fresh rendering
    shows them, never what the cache kept for another."""
    ana, ben = make_player("Ana"), make_player("Ben", language="es")
    game = started_game(ana, ben)
    fresh = {viewer: page_of(client, viewer, game) for viewer in (ana, ben)}
    client.logout()
    fresh_home = without_tokens(client.get("/").content.decode())
    with override_settings(CACHES=FRAGMENTS_KEPT):
        for _round in range(2):  # the first fills the fragments, the second is served from them
            for viewer in (ana, ben):
                assert page_of(client, viewer, game) == fresh[viewer]
            client.logout()
            assert without_tokens(client.get("/").content.decode()) == fresh_home
        kept = [pickle.loads(value) for value in caches["fragments"]._cache.values()]
        # The head once; the header signed in in English, in Spanish, and signed out;
        # the language choice in English and in Spanish.
        assert len(kept) == 6
        for html in kept:
            for secret in ("Ana", "Ben", "example.com", f"/games/{game.pk}/"):
                assert secret not in html, secret
    assert fresh[ana] != fresh[ben]  # the two languages do differ
