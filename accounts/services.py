"""Every write to a player's profile outside its own form: the language chosen
from any page, the one-click stop of a notification's unsubscribe link; and the
accounts of bots."""

import secrets

from django.contrib.auth import get_user_model

from accounts.models import EmailMode, Profile, profile_of


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


def bot_account(level: str, name: str):
    """A bot account of ``level`` named ``name`` (one of ``BOT_NAMES``, kept in
    English and shown in each reader's language): no email address, no usable
    password, inactive (allauth refuses it), never written to. One is made per
    seat it takes; a game seats each account once."""
    user = get_user_model().objects.create(username=f"bot-{level}-{secrets.token_hex(6)}", email="", is_active=False)
    user.set_unusable_password()
    user.save(update_fields=["password"])
    Profile.objects.update_or_create(
        user=user, defaults={"bot_level": level, "display_name": name, "email_mode": EmailMode.NONE}
    )
    return user
