"""Coup's characters, one record each: its name and ability (marked for
translation), the variant that puts it in the deck in place of a base character,
and what it is worth to the easy bot.

What a character lets a player do is on the actions' records (``actions.py``:
who claims, blocks or disclaims each action); the rulebook (``cards.Rulebook``)
keeps the characters of the deck in play.
"""

from dataclasses import KW_ONLY, dataclass

from games.engine.errors import gettext_noop as _

DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA = "duke", "assassin", "captain", "ambassador", "contessa"
INQUISITOR, LAWYER, PATRON = "inquisitor", "lawyer", "patron"


@dataclass(frozen=True, slots=True)
class Character:
    """One character card.

    - ``name``, ``ability``: what its card says, marked for translation.
    - ``variant``, ``replaces``: the variant that brings it into the deck, and the
      base character it takes the place of there (None for the base game's five).
    - ``draws``: the cards an Exchange claimed with it draws from the court deck.
    - ``worth``: how much the easy bot values keeping it (``bots.py``), for its
      choices of what to keep, lose or show (ties broken by the deck's order).
    """

    id: str
    _: KW_ONLY
    name: str
    ability: str
    worth: int
    variant: str | None = None
    replaces: str | None = None
    draws: int = 0


# Every character by id: the base game's five in the order of the deck, then the
# ones a variant brings in.
CHARACTERS = {
    character.id: character
    for character in (
        Character(
            DUKE,
            name=_("Duke"),
            ability=_("Tax: take 3 coins. Blocks Foreign Aid."),
            worth=5,
        ),
        Character(
            ASSASSIN,
            name=_("Assassin"),
            ability=_("Assassinate: pay 3 coins, a player loses an influence."),
            worth=4,
        ),
        Character(
            CAPTAIN,
            name=_("Captain"),
            ability=_("Steal: take 2 coins from a player. Blocks stealing."),
            worth=4,
        ),
        Character(
            AMBASSADOR,
            name=_("Ambassador"),
            ability=_("Exchange: draw 2 cards, return 2. Blocks stealing."),
            worth=2,
            draws=2,
        ),
        Character(
            CONTESSA,
            name=_("Contessa"),
            ability=_("Blocks an assassination."),
            worth=3,
        ),
        Character(
            INQUISITOR,
            name=_("Inquisitor"),
            ability=_("Exchange 1 card, or examine a player's card and maybe make them swap it. Blocks stealing."),
            worth=3,
            variant="inquisitor",
            replaces=AMBASSADOR,
            draws=1,
        ),
        Character(
            LAWYER,
            name=_("Lawyer"),
            ability=_("Blocks an assassination. Claims the coins of eliminated players."),
            worth=3,
            variant="lawyer",
            replaces=CONTESSA,
        ),
        Character(
            PATRON,
            name=_("Patron"),
            ability=_("Patronage: take 3 coins, give 1 of them away. Blocks Foreign Aid."),
            worth=5,
            variant="patron",
            replaces=DUKE,
        ),
    )
}


def card_name(card) -> str:
    """The English name of a character id, for the engine's messages."""
    character = CHARACTERS.get(card)
    return character.name if character is not None else str(card)
