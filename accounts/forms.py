"""Sign-up asks for the display name and language; the profile page edits them,
the time zone, the emails and the standing answers."""

from django import forms
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.models import Profile, available_time_zones, profile_of

LOSE_FIRST_SLOTS = 3  # the order of up to three characters: hands hold two cards


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


class CardOrderWidget(forms.MultiWidget):
    """A few selects in a row: the first character, the next one, ..."""

    def __init__(self, choices=(), attrs=None):
        slots = [_("Give up first"), pgettext_lazy("card order", "then"), pgettext_lazy("card order", "then")]
        super().__init__([forms.Select(choices=choices, attrs={"aria-label": label}) for label in slots], attrs)

    def decompress(self, value):
        cards = list(value or [])[:LOSE_FIRST_SLOTS]
        return cards + [""] * (LOSE_FIRST_SLOTS - len(cards))


class CardOrderField(forms.MultiValueField):
    """An ordered list of distinct character ids (blanks left out)."""

    def __init__(self, choices, **kwargs):
        choices = [("", "—"), *choices]
        fields = [forms.ChoiceField(choices=choices, required=False) for _slot in range(LOSE_FIRST_SLOTS)]
        super().__init__(fields, widget=CardOrderWidget(choices), require_all_fields=False, required=False, **kwargs)

    def has_changed(self, initial, data):
        # The stored list may be shorter than the selects: pad it as they show it.
        return super().has_changed(self.widget.decompress(initial), data)

    def compress(self, data_list):
        cards = [card for card in data_list or [] if card]
        if len(set(cards)) != len(cards):
            raise forms.ValidationError(_("Name each character once."))
        return cards


def time_zone_choices() -> list[tuple[str, str]]:
    return [(zone, zone.replace("_", " ")) for zone in sorted(available_time_zones())]


def character_choices() -> list[tuple[str, str]]:
    from games.kinds.coup.engine.cards import CHARACTERS
    from games.kinds.coup.words.names import card_name

    return [(card, card_name(card)) for card in CHARACTERS]


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ["display_name", "language", "time_zone", "email_mode", "always_prove", "lose_first"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Built per form, so the card names follow the active language.
        self.fields["time_zone"] = forms.ChoiceField(
            label=_("Time zone"),
            choices=time_zone_choices(),
            required=False,  # left out: the zone stays as it was
            help_text=Profile._meta.get_field("time_zone").help_text,
        )
        self.fields["always_prove"].label = _("Always prove when I can")
        self.fields["lose_first"] = CardOrderField(
            character_choices(),
            label=_("The cards I give up first"),
            help_text=_(
                "When you must lose an influence, the first of these you hold is turned face up at once; "
                "if you hold none of them, one of your cards is chosen at random. Leave empty to be asked every time."
            ),
        )

    def clean_time_zone(self):
        return self.cleaned_data.get("time_zone") or self.instance.time_zone or "UTC"

    @property
    def standing_answers_changed(self) -> bool:
        return bool({"always_prove", "lose_first"} & set(self.changed_data))

    def clean_display_name(self):
        name = self.cleaned_data["display_name"].strip()
        if not name:
            raise forms.ValidationError(_("Choose a name the other players will see."))
        return name
