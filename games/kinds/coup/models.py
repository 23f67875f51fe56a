"""What Coup keeps per player outside any game: their standing answers (docs/rules.md
§1), which the engine gives for them at once, in both branches, so how soon a
decision is answered reveals nothing of a hand."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class CoupPreferences(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="coup_preferences")
    always_prove = models.BooleanField(
        _("always prove when I can"),
        default=False,
        help_text=_(
            "When a claim of yours is challenged, show the card at once if you hold it, and concede at once if you don't."
        ),
    )
    lose_first = models.JSONField(
        _("the cards I give up first"),
        default=list,
        blank=True,
        help_text=_(
            "Character ids in order: when you lose an influence, the first of them you hold is given up at once."
        ),
    )

    class Meta:
        verbose_name = _("Coup standing answers")
        verbose_name_plural = _("Coup standing answers")

    def __str__(self):
        return f"{self.user}: Coup standing answers"

    def as_engine_preferences(self) -> dict:
        return {"always_prove": self.always_prove, "lose_first": list(self.lose_first or [])}


def preferences_of(user) -> CoupPreferences:
    """``user``'s standing answers; an unsaved blank one when they never set any."""
    return CoupPreferences.objects.filter(user=user).first() or CoupPreferences(user=user)
