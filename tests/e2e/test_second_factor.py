"""Signing in safely, in a real chromium: a passkey added from the profile (chromium's
virtual authenticator, through the DevTools protocol's WebAuthn domain) signs the
player in without a password; an authenticator app's codes (computed here as a phone
computes them, from the secret the page shows) are asked for after the password,
a wrong one is told plainly and a recovery code works once; the admin refuses
staff without a second factor outside DEBUG; and the profile lists every browser
signed in, with a button that signs all the others out. In English and another
language, under the site's Content-Security-Policy."""

from __future__ import annotations

import pyotp
import pytest
from allauth.mfa.models import Authenticator
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from tests.e2e import axe
from tests.e2e.helpers import form_with, fresh_code, is_logged_in, log_in, submit
from tests.e2e.test_content_security_policy import RECORD_VIOLATIONS
from tests.players import PASSWORD, make_player

# A platform authenticator with user verification, like a phone's screen lock: it
# keeps discoverable credentials, so the passkey alone names the account.
VIRTUAL_AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}

# The phone's browser, as the list of sessions names it.
PHONE_BROWSER = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148"
User = get_user_model()
PASSKEY_FAILED = (
    "The passkey was not used: the request was cancelled, timed out, or this device has no passkey "
    "for this site. Try again, or choose another way."
)
LANGUAGES = {"en": "en-US", "es": "es-ES", "pt-br": "pt-BR"}


def browser_in(language: str) -> dict:
    """Options for a browser context whose reader asks for ``language``."""
    return {"locale": LANGUAGES[language], "extra_http_headers": {"Accept-Language": LANGUAGES[language]}}


def translated(language: str, message: str) -> str:
    with translation.override(language):
        text = gettext(message)
    assert language == "en" or text != message, f"{message!r} has no {language} translation"
    return text


def watch_the_policy(page) -> None:
    """Record, on every page ``page`` loads, each violation of the Content-Security-Policy."""
    page.add_init_script(RECORD_VIOLATIONS)


def no_violations(page) -> None:
    assert page.evaluate("window.cspViolations") == []


def fits_and_passes_axe(page) -> None:
    """A page only reached by a form (so not in test_every_page's walk) fits the screen
    and has no serious accessibility violation."""
    width = page.evaluate("document.documentElement.clientWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, f"{page.url} is wider than the screen"
    assert axe.violations(page) == [], page.url


def sign_out(page, live_server) -> None:
    """Sign out with allauth's page (its form, in the page's main part)."""
    page.goto(reverse("account_logout"))
    submit(page, page.locator(f"main form[action='{reverse('account_logout')}']"))
    assert not is_logged_in(page, live_server)


def confirm_password(page) -> None:
    """allauth asks for the password again before a second factor is added."""
    assert reverse("account_reauthenticate") in page.url, page.url
    form = form_with(page, "password")
    form.locator('[name="password"]').fill(PASSWORD)
    submit(page, form)


def enter_code(page, code: str) -> None:
    form = form_with(page, "code")
    form.locator('[name="code"]').fill(code)
    submit(page, form)


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_passkey_added_from_the_profile_signs_in_without_the_password(new_page, live_server, language):
    ana = make_player("Ana", language)
    page = new_page(**browser_in(language))
    watch_the_policy(page)
    devtools = page.context.new_cdp_session(page)
    devtools.send("WebAuthn.enable")
    authenticator = devtools.send("WebAuthn.addVirtualAuthenticator", {"options": VIRTUAL_AUTHENTICATOR})
    log_in(page, live_server, ana.email, PASSWORD)

    # The profile offers the second factors; allauth's page adds a passkey.
    page.goto(reverse("profile"))
    expect(page.locator("#second-factor h2")).to_have_text(translated(language, "Passkeys and one-time codes"))
    page.locator(f"#second-factor a[href='{reverse('mfa_index')}']").click()
    page.locator(f"a[href='{reverse('mfa_add_webauthn')}']").click()
    confirm_password(page)
    assert page.locator("html").get_attribute("lang") == language
    fits_and_passes_axe(page)
    expect(page.locator("label[for=id_passwordless]")).to_contain_text(
        translated(language, "Sign in with this passkey alone")
    )
    expect(page.locator("#id_passwordless")).to_be_checked()
    with page.expect_navigation():
        page.locator("#mfa_webauthn_add").click()
    keys = Authenticator.objects.filter(user=ana, type=Authenticator.Type.WEBAUTHN)
    assert keys.count() == 1 and keys.get().wrap().is_passwordless
    credentials = devtools.send("WebAuthn.getCredentials", {"authenticatorId": authenticator["authenticatorId"]})
    assert [c["isResidentCredential"] for c in credentials["credentials"]] == [True]
    no_violations(page)

    # The profile says so; signed out, the passkey alone signs her in.
    page.goto(reverse("profile"))
    expect(page.locator("#second-factor")).to_contain_text(
        translated(language, "a passkey, which can also sign you in on its own")
    )
    sign_out(page, live_server)
    page.goto(reverse("account_login"))
    with page.expect_navigation():
        page.locator("#passkey_login").click()
    assert is_logged_in(page, live_server)
    signed_in = devtools.send("WebAuthn.getCredentials", {"authenticatorId": authenticator["authenticatorId"]})
    assert signed_in["credentials"][0]["signCount"] > credentials["credentials"][0]["signCount"]
    page.goto(reverse("profile"))
    expect(page.locator("#sessions .session--current")).to_have_count(1)

    # On a device without her passkey, the page says it was not used (and nothing is lost).
    devtools.send("WebAuthn.clearCredentials", {"authenticatorId": authenticator["authenticatorId"]})
    sign_out(page, live_server)
    page.goto(reverse("account_login"))
    page.locator("#passkey_login").click()
    expect(page.locator("main #passkey-failed")).to_be_visible(timeout=30_000)
    expect(page.locator("#passkey-failed")).to_have_text(translated(language, PASSKEY_FAILED))
    assert not is_logged_in(page, live_server)
    no_violations(page)


@pytest.mark.parametrize("language", ["en", "pt-br"])
def test_authenticator_app_codes_after_the_password_and_recovery_codes_once(new_page, live_server, language):
    ben = make_player("Ben", language)
    page = new_page(phone=True, **browser_in(language))
    watch_the_policy(page)
    log_in(page, live_server, ben.email, PASSWORD)

    # Set up from the profile, reading the secret from the page as one would type it into an app.
    page.goto(reverse("profile"))
    page.locator(f"#second-factor a[href='{reverse('mfa_index')}']").click()
    page.locator(f"a[href='{reverse('mfa_activate_totp')}']").click()
    confirm_password(page)
    expect(page.locator("img.qr-code")).to_be_visible()
    fits_and_passes_axe(page)
    totp = pyotp.TOTP(page.locator("#authenticator_secret").input_value())
    enter_code(page, "000000" if totp.now() != "000000" else "111111")
    expect(page.locator(".errorlist")).to_contain_text(translated(language, "Incorrect code."))
    assert not Authenticator.objects.filter(user=ben).exists()
    enter_code(page, fresh_code(totp))
    assert Authenticator.objects.filter(user=ben, type=Authenticator.Type.TOTP).exists()
    page.goto(reverse("mfa_view_recovery_codes"))
    recovery_codes = page.locator("#recovery_codes").input_value().split()
    assert len(recovery_codes) == 10
    fits_and_passes_axe(page)
    no_violations(page)

    # After the password, a code: a wrong one is refused with a clear message.
    sign_out(page, live_server)
    signed_in_before = User.objects.get(pk=ben.pk).last_login
    log_in(page, live_server, ben.email, PASSWORD)
    assert page.url.endswith(reverse("mfa_authenticate"))
    enter_code(page, "12345")
    expect(page.locator(".errorlist")).to_contain_text(translated(language, "Incorrect code."))
    fits_and_passes_axe(page)
    assert page.url.endswith(reverse("mfa_authenticate"))
    assert User.objects.get(pk=ben.pk).last_login == signed_in_before
    enter_code(page, fresh_code(totp))
    assert is_logged_in(page, live_server)
    page.goto(reverse("profile"))
    expect(page.locator("#second-factor")).to_contain_text(translated(language, "a code from your authenticator app"))

    # A recovery code instead of the app's code, once: the second time it is refused.
    sign_out(page, live_server)
    log_in(page, live_server, ben.email, PASSWORD)
    enter_code(page, recovery_codes[0])
    assert is_logged_in(page, live_server)
    sign_out(page, live_server)
    log_in(page, live_server, ben.email, PASSWORD)
    enter_code(page, recovery_codes[0])
    expect(page.locator(".errorlist")).to_contain_text(translated(language, "Incorrect code."))
    assert page.url.endswith(reverse("mfa_authenticate"))
    enter_code(page, recovery_codes[1])
    assert is_logged_in(page, live_server)
    no_violations(page)


def test_the_admin_refuses_staff_without_a_second_factor_outside_debug(page, live_server, settings):
    settings.DEBUG = False
    cleo = make_player("Cleo")
    cleo.is_staff = cleo.is_superuser = True
    cleo.save()
    watch_the_policy(page)

    # The admin's sign-in is the site's (with its second step), not a password form of its own.
    page.goto("/admin/")
    assert page.url.split("?")[0].endswith(reverse("account_login"))
    form = form_with(page, "password")
    form.locator('[name="login"]').fill(cleo.email)
    form.locator('[name="password"]').fill(PASSWORD)
    with page.expect_response(lambda r: r.url.endswith("/admin/")) as refused:
        submit(page, form)
    assert refused.value.status == 403
    expect(page.locator("h1")).to_have_text("Add a second factor to open the administration")
    fits_and_passes_axe(page)
    page.locator(f"main a[href='{reverse('mfa_index')}']").click()

    page.locator(f"a[href='{reverse('mfa_activate_totp')}']").click()
    confirm_password(page)
    totp = pyotp.TOTP(page.locator("#authenticator_secret").input_value())
    enter_code(page, fresh_code(totp))
    response = page.goto("/admin/")
    assert response.status == 200
    expect(page.locator("#site-name")).to_be_visible()
    no_violations(page)


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_profile_lists_each_browser_signed_in_and_signs_the_others_out(new_page, live_server, language):
    dan = make_player("Dan", language)
    laptop, phone = (
        new_page(**browser_in(language)),
        new_page(phone=True, user_agent=PHONE_BROWSER, **browser_in(language)),
    )
    watch_the_policy(laptop)
    log_in(phone, live_server, dan.email, PASSWORD)
    log_in(laptop, live_server, dan.email, PASSWORD)

    laptop.goto(reverse("profile"))
    sessions = laptop.locator("#sessions .session")
    expect(sessions).to_have_count(2)
    expect(laptop.locator("#sessions .session--current")).to_have_count(1)
    expect(laptop.locator("#sessions .session--current")).to_contain_text(translated(language, "This browser"))
    expect(laptop.locator("#sessions .session:not(.session--current)")).to_contain_text(PHONE_BROWSER)
    button = laptop.locator("#sessions form button")
    expect(button).to_have_text(translated(language, "Sign out everywhere else"))
    with laptop.expect_navigation():
        button.click()

    expect(laptop.locator(".session")).to_have_count(1)
    expect(laptop.locator("main")).to_contain_text(translated(language, "You are signed in in this browser only."))
    assert is_logged_in(laptop, live_server)
    assert not is_logged_in(phone, live_server)
    no_violations(laptop)
