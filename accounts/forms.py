"""Sign-up asks for the display name and language; the profile page edits them,
the time zone and the emails (each game kind adds its own section of preferences,
``Forms.preferences_form``), and plans holidays."""

from allauth.mfa.webauthn.forms import AddWebAuthnForm
from django import forms
from django.conf import settings
from django.db import models
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from accounts.models import Profile, available_time_zones, profile_of


def _language_default() -> str:
    current = translation.get_language() or settings.LANGUAGE_CODE
    codes = [code for code, _name in settings.LANGUAGES]
    return current if current in codes else settings.LANGUAGE_CODE


class SignupForm(forms.Form):
    """allauth's ACCOUNT_SIGNUP_FORM_CLASS: extra fields before email and password."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=40,
        help_text=_("How the other players see you at the table."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "placeholder": _("Display name")}),
    )
    language = forms.ChoiceField(label=_("Language"), choices=settings.LANGUAGES)
    # Filled by static/js/site.js with the zone the browser gives (Intl), so a new
    # player's dates are right from the first email without a question.
    time_zone = forms.CharField(required=False, widget=forms.HiddenInput(attrs={"data-browser-zone": ""}))
    quiet_nights = forms.BooleanField(
        label=_("Quiet nights: no emails from 22:00 to 07:00 your time, unless a deadline falls before the morning"),
        required=False,
        initial=True,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = _language_default()

    def clean_time_zone(self) -> str:
        """The browser's zone, when this system knows it; anything else (no script, an
        old browser, a forged value) is UTC, never an error: the player chooses on
        their profile, and is offered the browser's zone there."""
        zone = self.cleaned_data.get("time_zone", "")
        return zone if zone in available_time_zones() else "UTC"

    def signup(self, request, user):
        profile = profile_of(user)
        profile.display_name = self.cleaned_data["display_name"].strip()
        profile.language = self.cleaned_data["language"]
        profile.time_zone = self.cleaned_data["time_zone"]
        profile.quiet_nights = self.cleaned_data["quiet_nights"]
        profile.save()


def time_zone_choices() -> list[tuple[str, str]]:
    return [(zone, zone.replace("_", " ")) for zone in sorted(available_time_zones())]


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = [
            "display_name",
            "language",
            "time_zone",
            "email_mode",
            "digest_hour",
            "quiet_nights",
            "quiet_from",
            "quiet_until",
            "practice_emails",
        ]

    HOURS = "digest_hour", "quiet_from", "quiet_until"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Built per form, so the labels follow the active language.
        self.fields["time_zone"] = forms.ChoiceField(
            label=_("Time zone"),
            choices=time_zone_choices(),
            required=False,  # left out: the zone stays as it was
            help_text=Profile._meta.get_field("time_zone").help_text,
        )

        for name in self.HOURS:
            model_field = Profile._meta.get_field(name)
            assert isinstance(model_field, models.Field), "an hour is a column of the profile"
            self.fields[name] = forms.TypedChoiceField(
                label=capfirst(model_field.verbose_name),
                choices=[(hour, f"{hour:02d}:00") for hour in range(24)],
                coerce=int,
                empty_value=None,
                required=False,  # left out: the hour stays as it was
                help_text=model_field.help_text,
            )

    def clean_time_zone(self):
        return self.cleaned_data.get("time_zone") or self.instance.time_zone or "UTC"

    def _clean_hour(self, name: str) -> int:
        hour = self.cleaned_data.get(name)
        return getattr(self.instance, name) if hour is None else hour

    def clean_digest_hour(self):
        return self._clean_hour("digest_hour")

    def clean_quiet_from(self):
        return self._clean_hour("quiet_from")

    def clean_quiet_until(self):
        return self._clean_hour("quiet_until")

    def clean_display_name(self):
        name = self.cleaned_data["display_name"].strip()
        if not name:
            raise forms.ValidationError(_("Choose a name the other players will see."))
        return name


class HolidayForm(forms.Form):
    """The days a player will be away (both included, in their time zone); the
    rules a holiday keeps are checked by ``games.services.holidays.holiday_plan``."""

    first_day = forms.DateField(
        label=_("Away from"),
        input_formats=["%Y-%m-%d"],  # what a browser's date field sends, in every language
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"invalid": _("Enter the first day as a date.")},
    )
    last_day = forms.DateField(
        label=_("Back after"),
        help_text=_("The last day you are away."),
        input_formats=["%Y-%m-%d"],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"invalid": _("Enter the last day as a date.")},
    )


class AddPasskeyForm(AddWebAuthnForm):
    """allauth's form that adds a passkey (settings.MFA_FORMS), its labels in the
    reader's language (allauth leaves the name's to the field's name, and has no
    Spanish word for the other); by default the passkey signs in on its own, as
    the profile says a passkey does."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].label = _("Name of this passkey")
        self.fields["name"].help_text = _("To tell your passkeys apart, e.g. “My phone”.")
        self.fields["passwordless"].label = _("Sign in with this passkey alone")
        self.fields["passwordless"].initial = True
