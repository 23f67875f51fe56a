"""A player downloads their data, then deletes their account, from their profile
in a browser: the list of what happens, a wrong password refused, the page after.
In English and Spanish."""

import json
import zipfile

import pytest
from django.contrib.auth import get_user_model

from tests.e2e import axe
from tests.e2e.helpers import log_in
from tests.players import PASSWORD, make_player, started_game

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {
        "headers": {},
        "data": "Download your data",
        "prepare": "Prepare my data",
        "delete": "Delete your account",
        "confirm": "Delete my account",
        "wrong": "That is not your password. Your account is not deleted.",
        "deleted": "Account deleted",
        "former": "Former player",
        "ready_subject": "Your data is ready to download",
        "not_yours": "This download link belongs to another account.",
    },
    "es": {
        "headers": {"locale": "es-ES", "extra_http_headers": {"Accept-Language": "es"}},
        "data": "Descargar tus datos",
        "prepare": "Preparar mis datos",
        "delete": "Eliminar tu cuenta",
        "confirm": "Eliminar mi cuenta",
        "wrong": "Esa no es tu contraseña. Tu cuenta no se ha eliminado.",
        "deleted": "Cuenta eliminada",
        "former": "Jugador antiguo",
        "ready_subject": "Tus datos están listos para descargar",
        "not_yours": "Este enlace de descarga pertenece a otra cuenta.",
    },
}


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_player_downloads_their_data_then_deletes_their_account(new_page, live_server, smtp, tmp_path, language):
    words = WORDS[language]
    ana, ben = make_player("Ana", language), make_player("Ben", language)
    game = started_game(ana, ben, takeover=0)
    page = new_page(**words["headers"])
    log_in(page, live_server, "ana@example.com", PASSWORD)

    page.goto(live_server.url + "/accounts/profile/")
    with page.expect_navigation():
        page.locator("#leaving").get_by_role("link", name=words["data"]).click()
    with page.expect_navigation():
        page.get_by_role("button", name=words["prepare"]).click()
    email = smtp.wait_for(to="ana@example.com", subject_contains=words["ready_subject"])
    link = next(link for link in email.links if "/profile/data/" in link)
    page.reload()
    assert axe.violations(page) == []
    with page.expect_download() as download:
        page.get_by_role("link", name=words["data"]).click()
    path = tmp_path / "data.zip"
    download.value.save_as(path)
    with zipfile.ZipFile(path) as archive:
        data = json.loads(archive.read("data.json"))
        assert sorted(archive.namelist()) == ["README.md", "data.json"]
    assert data["profile"]["email"] == "ana@example.com"
    assert [exported["id"] for exported in data["games"]] == [game.pk]
    # Her link, followed by another player, is refused with the reason.
    bens_page = new_page(**words["headers"])
    log_in(bens_page, live_server, "ben@example.com", PASSWORD)
    bens_page.goto(live_server.url + link[link.index("/accounts/") :])
    assert words["not_yours"] in bens_page.inner_text("main")

    page.goto(live_server.url + "/accounts/profile/")
    with page.expect_navigation():
        page.locator("#leaving").get_by_role("link", name=words["delete"]).click()
    assert words["former"] in page.inner_text("main")  # the list of what happens
    assert axe.violations(page) == []
    page.locator('[name="password"]').fill("not my password")
    with page.expect_navigation():
        page.get_by_role("button", name=words["confirm"]).click()
    assert words["wrong"] in page.inner_text("main")
    assert get_user_model().objects.filter(pk=ana.pk).exists()
    page.locator('[name="password"]').fill(PASSWORD)
    with page.expect_navigation():
        page.get_by_role("button", name=words["confirm"]).click()
    main = page.inner_text("main")
    assert words["deleted"] in main and words["former"] in main
    assert axe.violations(page) == []
    assert not get_user_model().objects.filter(pk=ana.pk).exists()
