"""Smoke tests in a real browser: the site loads, signing up works by email, phones fit."""

from allauth.account.models import EmailAddress

from tests.e2e.helpers import is_logged_in, sign_up


def test_home_page_loads_in_chromium(page, live_server):
    response = page.goto("/")

    assert response is not None and response.status == 200
    assert page.locator("h1").first.is_visible()
    assert "Coup" in page.title()
    assert page.evaluate("navigator.userAgent").find("Chrome/") >= 0


def test_sign_up_verifies_the_email_over_smtp_and_ends_logged_in(page, live_server, smtp):
    user = sign_up(page, live_server, smtp, "ada@example.com", "correct-horse-battery-9")

    assert user.email == "ada@example.com"
    assert EmailAddress.objects.filter(user=user, email="ada@example.com", verified=True).exists()
    # The verification email really went through the SMTP server, to the new address.
    [verification] = smtp.to("ada@example.com")
    assert verification.links
    assert page.url.rstrip("/") == live_server.url
    assert is_logged_in(page, live_server)


def test_each_context_is_a_separate_browser_profile(new_page, live_server, smtp):
    ada = new_page()
    sign_up(ada, live_server, smtp, "ada@example.com", "correct-horse-battery-9")
    stranger = new_page()

    assert not is_logged_in(stranger, live_server)
    assert is_logged_in(ada, live_server)


def test_home_page_fits_a_phone(phone_page, live_server, tmp_path):
    phone_page.goto("/")
    screenshot = tmp_path / "home-phone.png"
    phone_page.screenshot(path=screenshot, full_page=True)

    assert phone_page.viewport_size == {"width": 390, "height": 844}
    assert screenshot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert screenshot.stat().st_size > 10_000  # a rendered page, not a blank one
    assert phone_page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    heading = phone_page.locator("h1").first.bounding_box()
    assert heading is not None and heading["x"] >= 0 and heading["x"] + heading["width"] <= 390


def test_an_invitation_is_emailed_by_the_celery_worker(celery_worker, smtp, django_user_model):
    from games.services import gathering

    host = django_user_model.objects.create_user(username="ana", email="ana@example.com")
    game = gathering.game_create(host=host, variants=[], seat_count=2, turn_seconds=60, response_seconds=30)
    gathering.invitation_send(game=game, by=host, email="zed@example.com")

    assert "invites you" in smtp.wait_for(to="zed@example.com", timeout=30).subject
