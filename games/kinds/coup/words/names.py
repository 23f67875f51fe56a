"""Coup's names for players: characters, actions, factions, coins.

Translated at call time (gettext), so call them inside a request or under
``translation.override``. Card names stand alone ("claims Duke") or after a colon,
so no language needs an article that agrees with the card's gender. A character's
name and ability and an action's name are kept on their records in the engine
(``engine/characters.py``, ``engine/actions.py``), marked for translation.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from games.kinds.coup.engine.actions import ACTIONS
from games.kinds.coup.engine.characters import CHARACTERS


def card_name(card) -> str:
    """The translated name of a character id ("duke" → "Duke" / "Duque")."""
    return _(CHARACTERS[card].name) if card in CHARACTERS else str(card)


def card_list(cards) -> str:
    """ "Duke, Captain" — card names joined for a sentence."""
    return ", ".join(card_name(card) for card in cards)


def card_ability(card) -> str:
    """What a character does, for the card faces and the rules summary."""
    return _(CHARACTERS[card].ability) if card in CHARACTERS else ""


def action_name(action) -> str:
    """The translated name of an action id ("assassinate" → "Assassination")."""
    return pgettext("action", ACTIONS[action].name) if action in ACTIONS else str(action)


FACTION_NAMES = {
    "loyalist": gettext_lazy("Loyalist"),
    "reformist": gettext_lazy("Reformist"),
}


def faction_name(faction) -> str:
    return str(FACTION_NAMES.get(faction, faction or ""))


def coins(amount) -> str:
    return ngettext("%(count)d coin", "%(count)d coins", amount) % {"count": amount}
