"""Steps that browser tests share: signing up through the real allauth pages."""

from __future__ import annotations

import re
import time
from urllib.parse import urlsplit

import pyotp
from django.contrib.auth import get_user_model
from django.urls import reverse

# A phone: 390x844 CSS pixels (an iPhone 12-15), touch, and the mobile viewport rules.
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}

# A verification code on a line of its own in the email (allauth's codes are short).
CODE_RE = re.compile(r"^\s*([A-Z0-9][A-Z0-9-]{3,11})\s*$", re.MULTILINE)


def _path(url: str) -> str:
    return urlsplit(url).path


def form_with(page, field_name: str):
    """The form on the page that has an input named ``field_name`` (not the footer's)."""
    return page.locator("form").filter(has=page.locator(f'[name="{field_name}"]')).first


def submit(page, form) -> None:
    """Submit ``form`` with its own submit button and wait for the next page to load."""
    with page.expect_navigation():
        form.locator('button[type="submit"], input[type="submit"]').first.click()


def form_errors(page) -> str:
    errors = page.locator(".errorlist, .errors, [role=alert]")
    texts = [t.strip() for t in errors.all_inner_texts() if t.strip()]
    return "; ".join(texts) or page.locator("main, body").first.inner_text()[:500]


def is_logged_in(page, live_server) -> bool:
    """True when the page's browser profile has a logged-in session (asks the site)."""
    email_url = reverse("account_email")
    page.goto(live_server.url + email_url)
    return _path(page.url) == email_url


def log_in(page, live_server, email: str, password: str) -> None:
    """Sign in with email and password through allauth's login page."""
    page.goto(live_server.url + reverse("account_login"))
    form = form_with(page, "password")
    form.locator('[name="login"]').fill(email)
    form.locator('[name="password"]').fill(password)
    submit(page, form)
    if _path(page.url) == reverse("account_login"):
        raise AssertionError(f"login as {email} failed: {form_errors(page)}")


def fresh_code(totp: pyotp.TOTP) -> str:
    """An authenticator app's code now, from a window with time left to type and send
    it (the site takes the code of the current 30 seconds only)."""
    if totp.interval - time.time() % totp.interval < 3:
        time.sleep(3)
    return totp.now()


def sign_up(
    page,
    live_server,
    smtp,
    email: str,
    password: str,
    display_name: str | None = None,
    *,
    language: str | None = None,
    quiet_nights: bool = False,
):
    """Sign up through /accounts/signup/, verify the address from the real email, end logged in.

    Fills ``display_name`` when the form has that field (default: the email's local
    part) and picks ``language`` (a code from settings.LANGUAGES) when given and the
    form has that field. The form ticks quiet nights; it is unticked unless
    ``quiet_nights``, so that a test's emails leave at once whatever the hour it runs. Follows the confirmation link in the email captured by
    ``smtp`` and confirms (or enters the code, if verification by code is turned on);
    allauth does not log in on confirmation by default (ACCOUNT_LOGIN_ON_EMAIL_
    CONFIRMATION), so it then signs in with the password when needed. Ends on the
    home page, logged in, and returns the user.
    """
    signup_url = reverse("account_signup")
    page.goto(live_server.url + signup_url)
    form = form_with(page, "password1")
    form.locator('[name="email"]').fill(email)
    form.locator('[name="password1"]').fill(password)
    for name, value in (("password2", password), ("display_name", display_name or email.split("@")[0])):
        field = form.locator(f'[name="{name}"]')
        if field.count():
            field.fill(value)
    if language is not None and form.locator('select[name="language"]').count():
        form.locator('select[name="language"]').select_option(language)
    quiet = form.locator('[name="quiet_nights"]')
    if quiet.count():
        quiet.set_checked(quiet_nights)
    earlier = len(smtp.to(email))  # e.g. a game invitation sent before the player signed up
    submit(page, form)
    if _path(page.url) == signup_url:
        raise AssertionError(f"sign-up of {email} failed: {form_errors(page)}")

    message = smtp.wait_for(to=email, count=earlier + 1)
    code_form = form_with(page, "code")
    if code_form.count():
        found = CODE_RE.search(message.text)
        assert found, f"no verification code in the email to {email}:\n{message.text}"
        code_form.locator('[name="code"]').fill(found.group(1))
        submit(page, code_form)
    else:
        site_links = [link for link in message.links if link.startswith(live_server.url)]
        confirm_links = [link for link in site_links if "confirm" in link] or site_links
        assert confirm_links, f"no confirmation link in the email to {email}:\n{message.text}"
        page.goto(confirm_links[0])
        # allauth confirms on POST, to the link's path with a freshly signed key (whose
        # timestamp may differ from the link's): the form whose action is a sibling path.
        parent = _path(page.url).rstrip("/").rsplit("/", 1)[0] + "/"
        confirm_form = page.locator(f'form[method="post"][action^="{parent}"]')
        if confirm_form.count():
            submit(page, confirm_form.first)

    if _path(page.url) == reverse("account_login") or not is_logged_in(page, live_server):
        log_in(page, live_server, email, password)
    assert is_logged_in(page, live_server), f"{email} is not logged in after signing up"
    page.goto(live_server.url + "/")
    return get_user_model().objects.get(email__iexact=email)


# ---- games: links from emails, decision buttons --------------------------------------------

# One answer link of a decision email's text part: "- Income — take 1 coin: https://…/a/<token>/".
ANSWER_LINE_RE = re.compile(r"^- (?P<label>.+): (?P<url>https?://\S+/a/[^/\s]+/)\s*$", re.MULTILINE)


def site_path(url: str) -> str:
    """The path (and query) of a link to the site, to open it on the live server."""
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def answer_links(message) -> dict[str, str]:
    """A decision email's one-click answers: {button label: link}, in the email's order."""
    return {m.group("label"): m.group("url") for m in ANSWER_LINE_RE.finditer(message.text)}


def decision_options(page) -> list[dict]:
    """The decision buttons the game page offers now, those one step further too (an
    action with several answers is picked first, then its target):
    ``[{"command": dict, "label": str}]`` (empty when the game is not waiting for this player)."""
    import html
    import json

    found = page.locator("section.decisions form[method='post']").evaluate_all(
        """forms => forms.map(f => ({
            command: f.querySelector('input[name="command"]').value,
            label: f.querySelector('button').innerText.trim(),
        }))"""
    )
    options = [{"command": json.loads(item["command"]), "label": item["label"]} for item in found]
    for act in page.locator("section.decisions form.pick button").evaluate_all("buttons => buttons.map(b => b.value)"):
        step = page.request.get(page.url.split("?")[0] + f"?action={act}").text()
        for form in re.findall(r'<form method="post" action="[^"]*/decide".*?</form>', step, re.S):
            command = html.unescape(re.search(r'name="command" value="([^"]*)"', form).group(1))
            label = html.unescape(re.search(r"<button[^>]*>(.*?)</button>", form, re.S).group(1).strip())
            options.append({"command": json.loads(command), "label": label})
    return options


def option_button(page, command: dict):
    """The button of the decision form that plays ``command``."""
    import json

    value = json.dumps(command, sort_keys=True, separators=(",", ":"))
    form = page.locator("section.decisions form").filter(has=page.locator(f"input[name='command'][value='{value}']"))
    return form.get_by_role("button")


def click_option(page, command: dict) -> None:
    """Click the decision button for ``command`` (after picking its action first when
    the page asks for two steps) and wait for the htmx answer to be swapped in."""
    button = option_button(page, command)
    if not button.count():
        with page.expect_navigation():
            page.locator(f"section.decisions form.pick button[value='{command['act']}']").click()
        button = option_button(page, command)
    with page.expect_response(lambda r: r.url.endswith("/decide") and r.request.method == "POST") as answered:
        button.click()
    response = answered.value
    assert response.ok, f"answering {command} failed: HTTP {response.status} {response.text()[:500]}"


def page_messages(page) -> str:
    """The flash messages the page shows (e.g. why an answer was refused)."""
    return "; ".join(t.strip() for t in page.locator(".messages .message").all_inner_texts() if t.strip())
