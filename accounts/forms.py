"""Sign-up asks for the display name and language; the profile page edits them."""

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from accounts.models import Profile, profile_of


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


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name", "language", "email_mode"]

    def clean_display_name(self):
        name = self.cleaned_data["display_name"].strip()
        if not name:
            raise forms.ValidationError(_("Choose a name the other players will see."))
        return name
