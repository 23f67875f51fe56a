"""What the site renders once a process and serves to everyone (``CACHES["fragments"]``
outside DEBUG): a game page's card reference and rules, per kind, variants and
language; the head's links, the header and the language choice, per language and
signed in or not. Nothing of a game, a viewer or a request may be in them, and a
page served from them is the page rendered afresh."""

import pickle
import re

import pytest
from django.core.cache import caches
from django.test import override_settings
from django.urls import reverse
from django.utils import translation

from games.web import pages
from tests.web.conftest import make_player, started_game

pytestmark = pytest.mark.django_db

FRAGMENTS_KEPT = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "default"},
    "fragments": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "kept-fragments"},
}


@pytest.fixture
def kept():
    """The fragments kept as outside DEBUG, from empty; what is kept, by key."""
    with override_settings(CACHES=FRAGMENTS_KEPT):
        caches["fragments"].clear()
        yield lambda: {key: pickle.loads(value) for key, value in caches["fragments"]._cache.items()}
        caches["fragments"].clear()


def without_tokens(html: str) -> str:
    """A page without its CSRF tokens, which are masked afresh at every rendering."""
    return re.sub(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*', r"\1", html)


def page_of(client, user, game) -> str:
    client.force_login(user)
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200, response.status_code
    return without_tokens(response.content.decode())


def panels_kept(fragments: dict) -> list[dict]:
    return [value for key, value in fragments.items() if ":panels:" in key]


def test_every_viewer_of_every_game_gets_the_panels_of_its_kind_variants_and_language_alone(client, kept):
    ana, ben, cai, dora = (make_player(name) for name in ("Ana", "Ben", "Cai", "Dora"))
    first = started_game(ana, ben)
    second = started_game(cai, dora)
    page_of(client, ana, first)  # renders the panels of the classic game in English
    (panels,) = panels_kept(kept())
    # What is kept is what the kind and variants alone render, with no game at all.
    with translation.override("en"):
        assert panels == pages._static_panels("coup", [])
    assert "The characters" in panels["reference_panel"] and "Rules of this game" in panels["rules_panel"]
    for html in panels.values():
        for secret in ("Ana", "Ben", "Cai", "Dora", "example.com", f"/games/{first.pk}/", "Game #", "csrf", "nonce"):
            assert secret not in html, secret
    # Another game, another viewer: the same panels, served from what was kept.
    second_page = page_of(client, dora, second)
    assert panels_kept(kept()) == [panels]
    assert panels["reference_panel"] in second_page and panels["rules_panel"] in second_page


def test_the_panels_are_kept_apart_by_kind_variants_and_language(client, kept):
    ana, ben = make_player("Ana"), make_player("Ben", language="es")
    classic = started_game(ana, ben)
    inquisitor = started_game(ana, ben, variants=["inquisitor"])
    for game in (classic, inquisitor):
        for viewer in (ana, ben):
            page_of(client, viewer, game)
    panels = {key.split(":panels:")[1]: value for key, value in kept().items() if ":panels:" in key}
    assert sorted(panels) == ["coup::en", "coup::es", "coup:inquisitor:en", "coup:inquisitor:es"]
    assert "Inquisitor" in panels["coup:inquisitor:en"]["reference_panel"]
    assert "Inquisitor" not in panels["coup::en"]["reference_panel"]
    assert "Reglas de esta partida" in panels["coup::es"]["rules_panel"]
    assert "Rules of this game" in panels["coup::en"]["rules_panel"]


def test_a_page_served_from_what_is_kept_is_the_page_rendered_afresh(client):
    """A signed-in player, one of another language and someone signed out see what
    a fresh rendering shows them, never what was kept for another."""
    ana, ben = make_player("Ana"), make_player("Ben", language="es")
    game = started_game(ana, ben)
    fresh = {viewer: page_of(client, viewer, game) for viewer in (ana, ben)}  # DEBUG in the tests: nothing kept
    client.logout()
    fresh_home = without_tokens(client.get("/").content.decode())
    assert fresh[ana] != fresh[ben]  # the two languages do differ
    with override_settings(CACHES=FRAGMENTS_KEPT):
        caches["fragments"].clear()
        for _round in range(2):  # the first keeps the fragments, the second is served from them
            for viewer in (ana, ben):
                assert page_of(client, viewer, game) == fresh[viewer]
            client.logout()
            assert without_tokens(client.get("/").content.decode()) == fresh_home
        kept = [pickle.loads(value) for value in caches["fragments"]._cache.values()]
        # The head once; the header signed in in English, in Spanish, and signed out;
        # the language choice in English and in Spanish; the panels in both languages.
        assert len(kept) == 8
        for fragment in kept:
            html = "".join(fragment.values()) if isinstance(fragment, dict) else str(fragment)
            for secret in ("Ana", "Ben", "example.com", f"/games/{game.pk}/"):
                assert secret not in html, secret
        caches["fragments"].clear()
