"""Every write to a player's profile outside its own form: the language chosen
from any page, and the one-click stop of a notification's unsubscribe link."""

from accounts.models import EmailMode, profile_of


def profile_language_set(*, user, language: str) -> None:
    """``user`` chose ``language`` (one of settings.LANGUAGES) from the language switch."""
    profile = profile_of(user)
    profile.language = language
    profile.save(update_fields=["language"])


def profile_emails_stop(*, user) -> None:
    """``user`` followed an email's unsubscribe link: no more email about games."""
    profile = profile_of(user)
    profile.email_mode = EmailMode.NONE
    profile.save(update_fields=["email_mode"])
