"""Coup's turn actions, one record each: its rules (what it costs, the character it
claims, whom it aims at, who may block it, what it does once it stands) and its
words, in the order a turn offers them (``ACTIONS``).

A record lists every character that may claim, block or be disclaimed by the
action, whichever variant brings that character in; the rulebook
(``cards.Rulebook``) keeps those of the deck in play. The words are English
templates marked for translation (``_`` is the engine's ``gettext_noop``; the
name and the reply word are kept under a context, ``pgettext_noop``);
``words/`` translates them at call time and fills their placeholders:

- a button's (``label``, ``words/decisions.py``): ``%(player)s`` the target (the
  reader is the actor), ``%(claim)s`` "claims <character>", ``%(card)s`` the
  character named, disclaimed or first to block, ``%(coins)s`` the coins the
  option takes or pays;
- a pending action's (``unopposed``, idem) and the history's (``told``,
  ``words/history.py``): ``%(player)s`` the actor, ``%(target)s`` the target or
  beneficiary, ``%(coins)s`` the coins it takes or pays; ``%(card)s`` the
  character named (pending) or claimed or disclaimed (history, where
  ``%(named)s`` is the one named).
"""

from dataclasses import KW_ONLY, dataclass

from games.engine.errors import gettext_noop as _
from games.engine.errors import pgettext_noop
from games.kinds.coup.engine.characters import AMBASSADOR, ASSASSIN, CAPTAIN, CONTESSA, DUKE, INQUISITOR, LAWYER, PATRON

# Whom an action aims at (``Action.aim``; None: nobody).
OPPONENT = "opponent"  # another player, whom the faction rule may put out of reach
BENEFICIARY = "beneficiary"  # another player of either faction, recorded as the beneficiary
ANYONE = "anyone"  # oneself (no target named) or another player, of either faction

# What an action does once it stands, besides moving coins (``Action.effect``;
# ``flow.EFFECTS`` carries each one out).
ATTACK = "attack"  # the target loses an influence (a declared attack: the character named)
EXCHANGE_CARDS = "exchange cards"  # the actor draws from the court deck and returns as many
SHOW_A_CARD = "show a card"  # the target shows the actor one card
CHANGE_FACTION = "change faction"  # the target joins the other faction


@dataclass(frozen=True, slots=True)
class Action:
    """One turn action.

    The rules:

    - ``aim``: whom it aims at (``OPPONENT``, ``BENEFICIARY``, ``ANYONE``; None:
      nobody).
    - ``cost``: the coins paid on declaring it, into ``pays_into`` ("treasury" or
      "reserve"); ``own_cost``: what it costs aimed at oneself, when it may be.
    - ``gain``: the coins the actor takes from the treasury once it stands;
      ``gives``: those its beneficiary then takes, if still in the game.
    - ``steals``: the most coins it takes from its target (all they have, if fewer).
    - ``takes_reserve``: it takes the whole treasury reserve on being declared,
      returned if it fails.
    - ``claimed_by``: the characters that may claim it (the one in the deck does);
      ``disclaims``: instead, the characters it claims not to hold (idem);
      ``blocked_by``: the characters that may block it (those in the deck). The
      target blocks an aimed action, any other player one aimed at nobody.
    - ``effect``: what else it does once it stands (``ATTACK``...), if anything.
    - ``variant``: the variant that brings it into the game (None: always in);
      ``declared_in``: the variant in which it names a character.

    The words:

    - ``name`` ("action" context), ``reply``: the word an email suggests for
      it ("reply word" context), ``reply_words`` / ``reply_phrases``: every other
      word or two-word phrase that names it in a reply, in any language, accents
      dropped.
    - ``label``: its button; ``unopposed``: what it does if nobody stops it,
      while it is pending; ``told``: the history's sentence. A ``_named`` form is
      used when it names a character, an ``_own`` form when it aims at the actor,
      ``label_drawing_one`` when it draws one card, ``_empty_reserve`` forms when it
      would take an empty treasury reserve (still a legal action: a claim to hold no
      character, which may be challenged).
    - ``unaffordable`` / ``own_unaffordable``: the refusal when the actor cannot
      pay ``cost`` / ``own_cost`` (``{cost}`` and ``{coins}``: what they have).
    - ``style``: how its button looks ("plain", "attack").
    """

    id: str
    _: KW_ONLY
    aim: str | None = None
    cost: int = 0
    own_cost: int | None = None
    pays_into: str = "treasury"
    gain: int = 0
    gives: int = 0
    steals: int = 0
    takes_reserve: bool = False
    claimed_by: tuple = ()
    disclaims: tuple = ()
    blocked_by: tuple = ()
    effect: str | None = None
    variant: str | None = None
    declared_in: str | None = None
    name: str
    reply: str
    reply_words: str
    reply_phrases: tuple = ()
    label: str
    label_named: str = ""
    label_own: str = ""
    label_drawing_one: str = ""
    label_empty_reserve: str = ""
    unopposed: str
    unopposed_named: str = ""
    told: str
    told_named: str = ""
    told_own: str = ""
    told_empty_reserve: str = ""
    unaffordable: str = ""
    own_unaffordable: str = ""
    style: str = "plain"

    @property
    def target_key(self) -> str:
        """The field its declaration records its target under."""
        return "beneficiary" if self.aim == BENEFICIARY else "target"


# The two attacks' words for what happens to their target.
LOSES_AN_INFLUENCE = _("%(target)s loses an influence")
LOSES_THE_NAMED_CARD = _("%(target)s shows every card and loses %(card)s if it is there")

ACTIONS = {
    action.id: action
    for action in (
        Action(
            "income",
            gain=1,
            name=pgettext_noop("action", "Income"),
            reply=pgettext_noop("reply word", "income"),
            reply_words="income ingreso ingresos renda rendimento",
            label=_("Income — take 1 coin"),
            unopposed=_("%(player)s takes 1 coin"),
            told=_("%(player)s took Income."),
        ),
        Action(
            "foreign_aid",
            gain=2,
            blocked_by=(DUKE, PATRON),
            name=pgettext_noop("action", "Foreign Aid"),
            reply=pgettext_noop("reply word", "foreign aid"),
            reply_words="foreign_aid aid ayuda ajuda",
            reply_phrases=("foreign aid", "ayuda exterior", "ajuda externa", "ajuda estrangeira"),
            label=_("Foreign Aid — take 2 coins (%(card)s can block)"),
            unopposed=_("%(player)s takes 2 coins"),
            told=_("%(player)s asked for Foreign Aid (2 coins)."),
        ),
        Action(
            "tax",
            gain=3,
            claimed_by=(DUKE,),
            name=pgettext_noop("action", "Tax"),
            reply=pgettext_noop("reply word", "tax"),
            reply_words="tax taxes impuesto impuestos imposto impostos",
            label=_("Tax — take 3 coins (%(claim)s)"),
            unopposed=_("%(player)s takes 3 coins"),
            told=_("%(player)s claimed the %(card)s to take 3 coins."),
        ),
        Action(
            "exchange",
            claimed_by=(AMBASSADOR, INQUISITOR),
            effect=EXCHANGE_CARDS,
            name=pgettext_noop("action", "Exchange"),
            reply=pgettext_noop("reply word", "exchange"),
            reply_words="exchange swap intercambiar intercambio cambiar cambio trocar troca",
            label=_("Exchange — draw 2 cards from the court deck, then return 2 (%(claim)s)"),
            label_drawing_one=_("Exchange — draw 1 card from the court deck, then return 1 (%(claim)s)"),
            unopposed=_("%(player)s exchanges cards with the court deck"),
            told=_("%(player)s claimed the %(card)s to exchange cards with the court deck."),
        ),
        Action(
            "embezzle",
            takes_reserve=True,
            disclaims=(DUKE, PATRON),
            variant="factions",
            name=pgettext_noop("action", "Embezzlement"),
            reply=pgettext_noop("reply word", "embezzle"),
            reply_words="embezzle embezzlement malversar malversacion desviar desvio",
            label=_("Embezzle — take the %(coins)s of the treasury reserve (claims you hold no %(card)s)"),
            label_empty_reserve=_(
                "Embezzle — the treasury reserve is empty: you take nothing (claims you hold no %(card)s)"
            ),
            unopposed=_("%(player)s keeps the coins of the treasury reserve"),
            told=_("%(player)s claimed to hold no %(card)s to take the %(coins)s of the treasury reserve."),
            told_empty_reserve=_(
                "%(player)s claimed to hold no %(card)s to take the treasury reserve, which was empty."
            ),
        ),
        Action(
            "convert",
            aim=ANYONE,
            cost=2,
            own_cost=1,
            pays_into="reserve",
            effect=CHANGE_FACTION,
            variant="factions",
            name=pgettext_noop("action", "Conversion"),
            reply=pgettext_noop("reply word", "convert"),
            reply_words="convert conversion convertir converter conversao",
            label=_("Convert %(player)s to the other faction — pay %(coins)s to the treasury reserve"),
            label_own=_("Convert yourself to the other faction — pay %(coins)s to the treasury reserve"),
            unopposed=_("%(target)s changes faction"),
            told=_("%(player)s paid to convert %(target)s to the other faction."),
            told_own=_("%(player)s paid to change faction."),
            unaffordable=_("Converting another player costs {cost} coins; you have {coins}."),
            own_unaffordable=_("Converting yourself costs 1 coin; you have none."),
        ),
        Action(
            "patronage",
            aim=BENEFICIARY,
            gain=2,
            gives=1,
            claimed_by=(PATRON,),
            name=pgettext_noop("action", "Patronage"),
            reply=pgettext_noop("reply word", "patronage"),
            reply_words="patronage mecenazgo mecenato patrocinio patrocinar",
            label=_("Patronage — take 3 coins, keep 2 and give 1 to %(player)s (%(claim)s)"),
            unopposed=_("%(player)s takes 2 coins and %(target)s 1"),
            told=_("%(player)s claimed the %(card)s to take 3 coins and give 1 of them to %(target)s."),
        ),
        Action(
            "coup",
            aim=OPPONENT,
            cost=7,
            effect=ATTACK,
            declared_in="declared_coup",
            name=pgettext_noop("action", "Coup"),
            reply=pgettext_noop("reply word", "coup"),
            reply_words="coup golpe",
            label=_("Coup against %(player)s — pay %(coins)s; %(player)s loses an influence"),
            label_named=_(
                "Coup against %(player)s naming %(card)s — pay %(coins)s; %(player)s shows every card "
                "and loses that one if it is there"
            ),
            unopposed=LOSES_AN_INFLUENCE,
            unopposed_named=LOSES_THE_NAMED_CARD,
            told=_("%(player)s paid %(coins)s to launch a Coup against %(target)s."),
            told_named=_("%(player)s paid %(coins)s to launch a Coup against %(target)s, naming %(named)s."),
            unaffordable=_("You need {cost} coins to launch a Coup; you have {coins}."),
            style="attack",
        ),
        Action(
            "assassinate",
            aim=OPPONENT,
            cost=3,
            claimed_by=(ASSASSIN,),
            blocked_by=(CONTESSA, LAWYER),
            effect=ATTACK,
            declared_in="declared_assassination",
            name=pgettext_noop("action", "Assassination"),
            reply=pgettext_noop("reply word", "assassinate"),
            reply_words="assassinate assassination kill asesinar asesinato assassinar assassinato",
            label=_("Assassinate %(player)s — pay %(coins)s; %(player)s loses an influence (%(claim)s)"),
            label_named=_(
                "Assassinate %(player)s naming %(card)s — pay %(coins)s; %(player)s shows every card "
                "and loses that one if it is there (%(claim)s)"
            ),
            unopposed=LOSES_AN_INFLUENCE,
            unopposed_named=LOSES_THE_NAMED_CARD,
            told=_("%(player)s claimed the %(card)s and paid %(coins)s to assassinate %(target)s."),
            told_named=_(
                "%(player)s claimed the %(card)s and paid %(coins)s to assassinate %(target)s, naming %(named)s."
            ),
            unaffordable=_("You need {cost} coins to assassinate; you have {coins}."),
            style="attack",
        ),
        Action(
            "steal",
            aim=OPPONENT,
            steals=2,
            claimed_by=(CAPTAIN,),
            blocked_by=(CAPTAIN, AMBASSADOR, INQUISITOR),
            name=pgettext_noop("action", "Steal"),
            reply=pgettext_noop("reply word", "steal"),
            reply_words="steal robar robo roubar roubo extorsion extorquir",
            label=_("Steal from %(player)s — take %(coins)s (%(claim)s)"),
            unopposed=_("%(player)s takes %(coins)s from %(target)s"),
            told=_("%(player)s claimed the %(card)s to steal from %(target)s."),
        ),
        Action(
            "examine",
            aim=OPPONENT,
            claimed_by=(INQUISITOR,),
            effect=SHOW_A_CARD,
            name=pgettext_noop("action", "Examine"),
            reply=pgettext_noop("reply word", "examine"),
            reply_words="examine examinar investigar interrogar",
            label=_("Examine %(player)s — see one of their cards, maybe make them swap it (%(claim)s)"),
            unopposed=_("%(player)s sees one of %(target)s's cards"),
            told=_("%(player)s claimed the %(card)s to examine a card of %(target)s."),
        ),
    )
}
