"""Coup's forms outside a game: the standing answers on the profile page, and the
choices of the create form that only Coup has (the first player's faction)."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.kinds.base import Forms
from games.kinds.coup.engine.cards import LOYALIST, REFORMIST
from games.kinds.coup.engine.characters import CHARACTERS
from games.kinds.coup.models import CoupPreferences, preferences_of
from games.kinds.coup.words.names import card_name

LOSE_FIRST_SLOTS = 3  # the order of up to three characters: hands hold two cards


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


def character_choices() -> list[tuple[str, str]]:
    return [(card, card_name(card)) for card in CHARACTERS]


class StandingAnswersForm(forms.ModelForm):
    """The profile page's section of Coup's standing answers."""

    legend = _("Standing answers")
    intro = _(
        "The game gives these answers for you at once, in every game you play, whether or not you hold the card: "
        "so how fast you answer never tells anything about your hand."
    )

    class Meta:
        model = CoupPreferences
        fields = ["always_prove", "lose_first"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Built per form, so the card names follow the active language.
        self.fields["always_prove"].label = _("Always prove when I can")
        self.fields["lose_first"] = CardOrderField(
            character_choices(),
            label=_("The cards I give up first"),
            help_text=_(
                "When you must lose an influence, the first of these you hold is turned face up at once; "
                "if you hold none of them, one of your cards is chosen at random. Leave empty to be asked every time."
            ),
        )


class CoupForms(Forms):
    def create_fields(self) -> dict[str, forms.Field]:
        """The create form's Coup-only choices, by the game option each sets."""
        return {
            "first_faction": forms.ChoiceField(
                label=_("Faction of the first player (Reformation only)"),
                choices=[(LOYALIST, _("Loyalist")), (REFORMIST, _("Reformist"))],
                initial=LOYALIST,
                required=False,
            ),
        }

    def player_preferences(self, user) -> dict:
        return preferences_of(user).as_engine_preferences()

    def preferences_form(self, user, data=None) -> StandingAnswersForm:
        return StandingAnswersForm(data, instance=preferences_of(user))
