"""Sign-up asks for the display name and language; the profile page edits them,
the time zone and the emails (each game kind adds its own section of preferences,
``Forms.preferences_form``), and plans holidays."""

from django import forms
from django.conf import settings
from django.utils import translation
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

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].initial = _language_default()

    def signup(self, request, user):
        profile = profile_of(user)
        profile.display_name = self.cleaned_data["display_name"].strip()
        profile.language = self.cleaned_data["language"]
        profile.save()


def time_zone_choices() -> list[tuple[str, str]]:
    return [(zone, zone.replace("_", " ")) for zone in sorted(available_time_zones())]


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name", "language", "time_zone", "email_mode", "digest_hour", "practice_emails"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Built per form, so the labels follow the active language.
        self.fields["time_zone"] = forms.ChoiceField(
            label=_("Time zone"),
            choices=time_zone_choices(),
            required=False,  # left out: the zone stays as it was
            help_text=Profile._meta.get_field("time_zone").help_text,
        )

        self.fields["digest_hour"] = forms.TypedChoiceField(
            label=_("Daily digest at"),
            choices=[(hour, f"{hour:02d}:00") for hour in range(24)],
            coerce=int,
            empty_value=None,
            required=False,  # left out: the hour stays as it was
            help_text=Profile._meta.get_field("digest_hour").help_text,
        )

    def clean_time_zone(self):
        return self.cleaned_data.get("time_zone") or self.instance.time_zone or "UTC"

    def clean_digest_hour(self):
        hour = self.cleaned_data.get("digest_hour")
        return self.instance.digest_hour if hour is None else hour

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
