"""A player's profile: the name shown at the table and the language of pages and emails."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class EmailMode(models.TextChoices):
    EVERY = "every", _("An email for every decision")
    DIGEST = "digest", _("One daily digest of the games waiting for me")
    NONE = "none", _("No emails")


class Profile(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    display_name = models.CharField(
        _("display name"), max_length=40, blank=True, help_text=_("How the other players see you at the table.")
    )
    language = models.CharField(
        _("language"), max_length=10, choices=settings.LANGUAGES, default=settings.LANGUAGE_CODE
    )
    email_mode = models.CharField(
        _("emails"), max_length=10, choices=EmailMode.choices, default=EmailMode.EVERY,
        help_text=_("When to write to you about your games."),
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self):
        return self.name

    @property
    def name(self) -> str:
        return display_name_of(self.user, profile=self)


def display_name_of(user, *, profile=None) -> str:
    """The name shown for ``user``: their display name, else the start of their email
    address (never the whole address: other players must not learn it)."""
    if profile is None:
        profile = Profile.objects.filter(user=user).first()
    if profile is not None and profile.display_name:
        return profile.display_name
    email = getattr(user, "email", "") or ""
    return email.split("@", 1)[0] or getattr(user, "username", "") or "?"


def profile_of(user) -> Profile:
    """The user's profile, created on first use (users made by createsuperuser or admin)."""
    try:
        return user.profile  # the cached instance, so later reads of user.profile agree
    except Profile.DoesNotExist:
        profile, _created = Profile.objects.get_or_create(user=user)
        user.profile = profile
        return profile
