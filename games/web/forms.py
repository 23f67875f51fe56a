"""Forms of the game pages: create a game, invite by email, table talk; and the
numbers the pages send in their query strings."""

from django import forms
from django.conf import settings
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import BOT_LEVEL_NAMES
from games.engine import IllegalMove
from games.engine.seats import seat_players
from games.kinds import DEFAULT_KIND, KINDS, kind_choices, variant_choices, variant_name
from games.models import Game
from games.services.bots import SEATED_LEVELS
from games.services.lobby import DEFAULT_FILL_DAYS, Terms
from games.translation import translate_illegal_move


def number_in(text: str) -> int | None:
    """The non-negative number ``text`` writes in ASCII digits, else None ("²" is
    a digit to str.isdigit, but no number to int())."""
    return int(text) if text.isascii() and text.isdigit() else None


# The seat range the field accepts, from the smallest game to the largest; each game checks its own.
MIN_PLAYERS = min(game_kind.rules.min_players for game_kind in KINDS.values())
MAX_PLAYERS = max(game_kind.rules.max_players for game_kind in KINDS.values())

# Time controls: (turn seconds, response seconds). The turn is the player's own
# action; a response is everything else (challenge, block, lose a card...).
TIME_CONTROLS = {
    "day": (24 * 3600, 8 * 3600),
    "slow": (3 * 24 * 3600, 24 * 3600),
    "live": (2 * 60, 30),
}
TIME_CONTROL_CHOICES = [
    ("day", _("24 h per turn / 8 h per response")),
    ("slow", _("3 days per turn / 1 day per response")),
    ("live", _("Live: 2 min per turn / 30 s per response")),
]


# After how many missed deadlines in a row a bot plays for an absent player (0: never).
TAKEOVER_FORM_CHOICES = [
    ("2", _("After 2 missed deadlines in a row")),
    ("1", _("After 1 missed deadline")),
    ("3", _("After 3 missed deadlines in a row")),
    ("0", _("Never: the deadline's safe answer plays for them")),
]


FILL_DAYS_CHOICES = [
    (1, _("1 day")),
    (3, _("3 days")),
    (7, _("7 days")),
]


def bot_level_choices() -> list[tuple[str, str]]:
    """The bot levels a table can seat, as players read them."""
    return [(level, str(BOT_LEVEL_NAMES[level])) for level in SEATED_LEVELS]


# The choices of games, variants and bot levels are given as functions, which the fields
# call each time they list them: their names follow the active language.


class GameCreateForm(forms.Form):
    kind = forms.ChoiceField(
        label=_("Game"), choices=kind_choices, initial=DEFAULT_KIND, required=False, widget=forms.RadioSelect
    )
    seat_count = forms.IntegerField(
        label=_("Players"),
        min_value=MIN_PLAYERS,
        max_value=MAX_PLAYERS,
        initial=4,
    )
    variants = forms.MultipleChoiceField(
        label=_("Variants"),
        choices=variant_choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    time_control = forms.ChoiceField(
        label=_("Time to answer"), choices=TIME_CONTROL_CHOICES, initial="day", widget=forms.RadioSelect
    )
    reminders = forms.BooleanField(
        label=_("Remind players by email before their time runs out"), required=False, initial=True
    )
    first = forms.ChoiceField(
        label=_("Who starts"),
        choices=[("random", _("Chosen at random")), ("host", _("Me"))],
        initial="random",
        widget=forms.RadioSelect,
    )
    takeover = forms.ChoiceField(
        label=_("When a player stops answering, a bot plays for them"),
        choices=TAKEOVER_FORM_CHOICES,
        initial="2",
        widget=forms.RadioSelect,
        required=False,
    )
    rated = forms.BooleanField(
        label=_("Rated game"),
        required=False,
        initial=True,
        help_text=_(
            "The finishing order moves the ratings of the people who play it. "
            "A game with fewer than two people is never rated; bots never are."
        ),
    )
    # An open game: listed in the lobby, where anyone may take a seat.
    open = forms.BooleanField(
        label=_("Open it to everyone: list it in the lobby, where anyone may take a seat"), required=False
    )
    language = forms.ChoiceField(label=_("Language of the table"), choices=settings.LANGUAGES, required=False)
    min_rating = forms.IntegerField(label=_("Lowest rating that may join"), required=False)
    min_finish_rate = forms.IntegerField(
        label=_("Lowest finish rate that may join (%)"), min_value=0, max_value=100, required=False
    )
    fill_days = forms.TypedChoiceField(
        label=_("If it has not filled after"),
        choices=FILL_DAYS_CHOICES,
        coerce=int,
        initial=DEFAULT_FILL_DAYS,
        required=False,
        help_text=_("You are then offered bots for the empty seats; a day later, a game still waiting is cancelled."),
    )

    visibility = forms.ChoiceField(
        label=_("Who may watch"),
        choices=Game.Visibility.choices,
        initial=Game.Visibility.PRIVATE,
        widget=forms.RadioSelect,
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Built per form so the explanations follow the active language.
        game_kinds = list(KINDS.values())
        self.fields["seat_count"].help_text = gettext("You included. %(seats)s.") % {
            "seats": "; ".join(str(game_kind.about.seats_note) for game_kind in game_kinds)
        }
        # Each kind's own choices (``Forms.create_fields``), after the variants.
        for game_kind in game_kinds:
            self.fields.update(game_kind.forms.create_fields())

    def kind_sections(self) -> list[dict]:
        """Each game's own options (its variants and its choices), for a fieldset
        of its own: a host reads only the options of the game they pick."""
        sections = []
        for game_kind in KINDS.values():
            variants = [choice for choice in self["variants"] if choice.data["value"] in game_kind.rules.variants]
            fields = [self[name] for name in game_kind.forms.create_fields()]
            if variants or fields:
                sections.append(
                    {
                        "name": game_kind.name,
                        "note": game_kind.about.variants_note,
                        "variants": variants,
                        "fields": fields,
                    }
                )
        return sections

    def clean(self):
        super().clean()
        data = self.cleaned_data
        # The game its field accepted (a key of ``KINDS``), the default when none is chosen.
        game_kind = KINDS[data.get("kind") or DEFAULT_KIND]
        foreign = [v for v in data.get("variants") or () if v not in game_kind.rules.variants]
        if foreign:  # the variants of another game, ticked before choosing this one
            self.add_error(
                "variants",
                gettext("%(game)s has no variant %(variants)s: untick it, or choose the game it belongs to.")
                % {"game": game_kind.name, "variants": ", ".join(variant_name(v) for v in foreign)},
            )
        seats = data.get("seat_count")
        if seats is not None and not self.errors:
            try:  # each game's own rules: its seat range, its variants and how they combine
                game_kind.rules.check_config(seat_players(seats), sorted(data["variants"]))
            except IllegalMove as error:
                self.add_error(None, translate_illegal_move(error, {}))
        return data

    def service_arguments(self) -> dict:
        """Keyword arguments for ``services.gathering.game_create`` (the host added by the view)."""
        data = self.cleaned_data
        turn, response = TIME_CONTROLS[data["time_control"]]
        kind = data.get("kind") or DEFAULT_KIND
        return {
            "kind": kind,
            "variants": sorted(data.get("variants") or []),
            "seat_count": data["seat_count"],
            "turn_seconds": turn,
            "response_seconds": response,
            "reminders": bool(data.get("reminders")),
            "first": data["first"],
            "kind_options": {name: data[name] for name in KINDS[kind].forms.create_fields() if data.get(name)},
            "takeover": int(data["takeover"] or TAKEOVER_FORM_CHOICES[0][0]),
            "rated": bool(data.get("rated")),
            # An invited game is private unless its host opens it to spectators; an open
            # game is public, as the create page says.
            "visibility": Game.Visibility.PUBLIC
            if data.get("open")
            else data.get("visibility") or Game.Visibility.PRIVATE,
        }

    def open_terms(self) -> Terms | None:
        """The lobby's terms of an open game (``services.lobby``); None for a game by invitation."""
        data = self.cleaned_data
        if not data.get("open"):
            return None
        return Terms(
            language=data.get("language") or settings.LANGUAGE_CODE,
            min_rating=data.get("min_rating"),
            min_finish_rate=data.get("min_finish_rate"),
            fill_days=data.get("fill_days") or DEFAULT_FILL_DAYS,
        )


def _any(choices) -> list:
    """``choices`` after an "any" choice, for the lobby's filters."""
    return [("", _("Any")), *(choices() if callable(choices) else choices)]


class LobbyFilterForm(forms.Form):
    """The lobby's filters (GET): each left empty matches every game."""

    kind = forms.ChoiceField(label=_("Game"), choices=lambda: _any(kind_choices), required=False)
    seat_count = forms.IntegerField(label=_("Players"), min_value=MIN_PLAYERS, max_value=MAX_PLAYERS, required=False)
    time_control = forms.ChoiceField(
        label=_("Time to answer"), choices=lambda: _any(TIME_CONTROL_CHOICES), required=False
    )
    language = forms.ChoiceField(label=_("Language"), choices=lambda: _any(settings.LANGUAGES), required=False)

    def filters(self) -> dict:
        """Keyword arguments for ``selectors.lobby.open_games``: the filters read well (a
        filter that is not one of its choices is left out, and its error shown)."""
        self.is_valid()  # cleaned_data then holds the fields that are valid
        data = self.cleaned_data
        control = data.get("time_control")
        return {
            "kind": data.get("kind") or "",
            "seat_count": data.get("seat_count"),
            "turn_seconds": TIME_CONTROLS[control][0] if control else None,
            "language": data.get("language") or "",
        }


class PlayNowForm(forms.Form):
    """Play now: the game and the number of players one wants."""

    kind = forms.ChoiceField(label=_("Game"), choices=kind_choices, initial=DEFAULT_KIND)
    seat_count = forms.IntegerField(label=_("Players"), min_value=MIN_PLAYERS, max_value=MAX_PLAYERS, initial=4)

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        try:
            KINDS[data["kind"]].rules.check_config(seat_players(data["seat_count"]), [])
        except IllegalMove as error:
            self.add_error("seat_count", translate_illegal_move(error, {}))
        return data


class PracticeForm(forms.Form):
    """A practice game: the player alone against bots of one level."""

    # Its own prefix: the create form on the same page has fields of the same names.
    prefix = "practice"

    kind = forms.ChoiceField(label=_("Game"), choices=kind_choices, initial=DEFAULT_KIND)
    seat_count = forms.IntegerField(label=_("Seats"), min_value=MIN_PLAYERS, max_value=MAX_PLAYERS, initial=4)
    level = forms.ChoiceField(label=_("Bots"), choices=bot_level_choices, initial="easy")


class BotSeatForm(forms.Form):
    level = forms.CharField(label=_("Level"), max_length=20)


class InviteForm(forms.Form):
    email = forms.EmailField(
        label=_("Friend's email address"),
        widget=forms.EmailInput(attrs={"autocomplete": "email", "placeholder": "friend@example.com"}),
    )


class ChatForm(forms.Form):
    text = forms.CharField(
        label=_("Message"),
        max_length=1000,
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": _("Say something to the table…")}),
    )


class VisibilityForm(forms.Form):
    visibility = forms.ChoiceField(label=_("Who may watch"), choices=Game.Visibility.choices)


class SpectatorChatForm(forms.Form):
    text = forms.CharField(
        label=_("Message"),
        max_length=1000,
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": _("Say something to the spectators…")}),
    )
