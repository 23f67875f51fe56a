"""Coup's names for players: characters, actions, factions, coins.

Translated at call time (gettext), so call them inside a request or under
``translation.override``. Card names stand alone ("claims Duke") or after a colon,
so no language needs an article that agrees with the card's gender.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from games.kinds.coup.engine.cards import CARD_NAMES


def card_name(card) -> str:
    """The translated name of a character id ("duke" → "Duke" / "Duque")."""
    return _(CARD_NAMES[card]) if card in CARD_NAMES else str(card)


def card_list(cards) -> str:
    """ "Duke, Captain" — card names joined for a sentence."""
    return ", ".join(card_name(card) for card in cards)


ACTION_NAMES = {
    "income": pgettext_lazy("action", "Income"),
    "foreign_aid": pgettext_lazy("action", "Foreign Aid"),
    "coup": pgettext_lazy("action", "Coup"),
    "tax": pgettext_lazy("action", "Tax"),
    "assassinate": pgettext_lazy("action", "Assassination"),
    "steal": pgettext_lazy("action", "Steal"),
    "exchange": pgettext_lazy("action", "Exchange"),
    "examine": pgettext_lazy("action", "Examine"),
    "patronage": pgettext_lazy("action", "Patronage"),
    "convert": pgettext_lazy("action", "Conversion"),
    "embezzle": pgettext_lazy("action", "Embezzlement"),
}


def action_name(action) -> str:
    return str(ACTION_NAMES.get(action, action))


FACTION_NAMES = {
    "loyalist": gettext_lazy("Loyalist"),
    "reformist": gettext_lazy("Reformist"),
}


def faction_name(faction) -> str:
    return str(FACTION_NAMES.get(faction, faction or ""))


# What each character does, for the card faces and the rules summary.
CARD_ABILITIES = {
    "duke": gettext_lazy("Tax: take 3 coins. Blocks Foreign Aid."),
    "assassin": gettext_lazy("Assassinate: pay 3 coins, a player loses an influence."),
    "captain": gettext_lazy("Steal: take 2 coins from a player. Blocks stealing."),
    "ambassador": gettext_lazy("Exchange: draw 2 cards, return 2. Blocks stealing."),
    "contessa": gettext_lazy("Blocks an assassination."),
    "inquisitor": gettext_lazy(
        "Exchange 1 card, or examine a player's card and maybe make them swap it. Blocks stealing."
    ),
    "lawyer": gettext_lazy("Blocks an assassination. Claims the coins of eliminated players."),
    "patron": gettext_lazy("Patronage: take 3 coins, give 1 of them away. Blocks Foreign Aid."),
}


def card_ability(card) -> str:
    return str(CARD_ABILITIES.get(card, ""))


def coins(amount) -> str:
    return ngettext("%(count)d coin", "%(count)d coins", amount) % {"count": amount}
