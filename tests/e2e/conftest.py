"""Browser tests: Playwright drives Debian's chromium against pytest-django's live server.

Fixtures:

- ``browser``      one headless chromium for the e2e package (/usr/bin/chromium, never
                   Playwright's own download).
- ``new_context``  factory: ``new_context(phone=False, **options)`` -> a fresh
                   BrowserContext, i.e. a separate browser profile (own cookies, own
                   session). One per user in multi-user tests. ``base_url`` is the live
                   server, so ``page.goto("/accounts/signup/")`` works.
- ``new_page``     factory: ``new_page(phone=False, **options)`` -> a Page in its own new
                   context.
- ``page``         a desktop page in its own context; ``phone_page`` a 390x844 phone one.
- ``smtp``         (tests/conftest.py) the site's email goes to a real SMTP server.
- ``sign_up``      the helper from tests/e2e/helpers.py, re-exported here.

Every page gets a 10 s default timeout, English (Accept-Language: en) and the live
server as ``base_url``. On failure, a screenshot of every open page is saved and its
path printed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.helpers import PHONE

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DEFAULT_TIMEOUT_MS = 10_000
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def pytest_collection_modifyitems(items):
    """Mark every test under tests/e2e as ``e2e`` (deselect them with ``-m 'not e2e'``)."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.path).parents:
            item.add_marker(pytest.mark.e2e)


def pytest_configure(config):
    config.addinivalue_line("markers", "e2e: real-browser end-to-end test (tests/e2e)")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.when == "call":
        item.e2e_failed = report.failed
    return report


@pytest.fixture(scope="package")
def playwright():
    """Playwright's sync API for the e2e package only.

    Its event loop counts as running in the main thread while it is open, so Django's
    async-safety check must be relaxed for the test code's ORM calls; both end with
    the package, so the rest of the suite runs as usual afterwards.
    """
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            yield p
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="package")
def browser(playwright):
    """Headless chromium from Debian (`make test` installs it through apt)."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: run `make test`, or `apt-get install chromium` as root.")
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    yield browser
    browser.close()


@pytest.fixture(autouse=True)
def _clean_cache():
    """Start each browser test with an empty cache: allauth keeps its rate limits there
    (e.g. one confirmation email per address every few minutes), and with Redis they
    would outlive the test that set them."""
    from django.core.cache import caches

    for cache in caches.all():
        cache.clear()
    yield


@pytest.fixture
def new_context(browser, live_server, request, tmp_path):
    """Factory for separate browser profiles: ``new_context(phone=False, **options)``."""
    contexts = []

    def make(*, phone: bool = False, **options):
        context_options = {
            **(PHONE if phone else DESKTOP),
            "base_url": live_server.url,
            "locale": "en-US",
            "extra_http_headers": {"Accept-Language": "en"},
            **options,
        }
        context = browser.new_context(**context_options)
        context.set_default_timeout(DEFAULT_TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make

    if getattr(request.node, "e2e_failed", False):
        shots = 0
        for c, context in enumerate(contexts):
            for p, open_page in enumerate(context.pages):
                path = tmp_path / f"failure-context{c}-page{p}.png"
                try:
                    open_page.screenshot(path=path, full_page=True)
                except Exception:  # a crashed page must not hide the test's own failure
                    continue
                shots += 1
                print(f"e2e failure screenshot: {path} ({open_page.url})")
        if not shots:
            print("e2e: no page to screenshot")
    for context in contexts:
        context.close()


@pytest.fixture
def new_page(new_context):
    """Factory: ``new_page(phone=False, **options)`` -> a Page in a new, separate context."""

    def make(*, phone: bool = False, **options):
        return new_context(phone=phone, **options).new_page()

    return make


@pytest.fixture
def page(new_page):
    """A desktop-sized page (1280x800) in its own browser context."""
    return new_page()


@pytest.fixture
def phone_page(new_page):
    """A phone-sized page (390x844, touch, mobile viewport) in its own browser context."""
    return new_page(phone=True)
