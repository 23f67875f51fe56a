"""Characters, decks and which character each action claims or each block needs.

Variants are data: a variant swaps a character for another (Inquisitor for
Ambassador, Patron for Duke, Lawyer for Contessa) and the tables below follow.
"""

from functools import cache

from games.engine.errors import gettext_noop as _

DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA = "duke", "assassin", "captain", "ambassador", "contessa"
INQUISITOR, LAWYER, PATRON = "inquisitor", "lawyer", "patron"
CHARACTERS = (DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA, INQUISITOR, LAWYER, PATRON)

CARD_NAMES = {
    DUKE: _("Duke"),
    ASSASSIN: _("Assassin"),
    CAPTAIN: _("Captain"),
    AMBASSADOR: _("Ambassador"),
    CONTESSA: _("Contessa"),
    INQUISITOR: _("Inquisitor"),
    LAWYER: _("Lawyer"),
    PATRON: _("Patron"),
}


def card_name(card) -> str:
    """The English name of a character id, for the engine's messages."""
    return CARD_NAMES.get(card, str(card))


VARIANTS = (
    "two_player_draft",
    "declared_coup",
    "declared_assassination",
    "inquisitor",
    "factions",
    "patron",
    "lawyer",
)

# Which base character each replacing variant takes the place of.
REPLACEMENTS = {"inquisitor": (AMBASSADOR, INQUISITOR), "patron": (DUKE, PATRON), "lawyer": (CONTESSA, LAWYER)}

LOYALIST, REFORMIST = "loyalist", "reformist"
FACTIONS = (LOYALIST, REFORMIST)
OPPOSITE_FACTION = {LOYALIST: REFORMIST, REFORMIST: LOYALIST}

MIN_PLAYERS, MAX_PLAYERS = 2, 10
START_COINS, TWO_PLAYER_FIRST_COINS = 2, 1
FORCED_COUP_COINS = 10
COSTS = {"coup": 7, "assassinate": 3}
CONVERT_COST = {True: 1, False: 2}  # keyed by "converting oneself"
STEAL_COINS = 2  # what a Steal takes, when the target has that many
EXCHANGE_DRAWS = {AMBASSADOR: 2, INQUISITOR: 1}  # cards an Exchange draws, by the character claimed
DECLARED_ATTACK_DRAWS = 2  # the exchange that hides a hand again after a Declared Coup


def characters_in_play(variants) -> tuple:
    """The five characters of the deck, in the base game's order."""
    chosen = [DUKE, ASSASSIN, CAPTAIN, AMBASSADOR, CONTESSA]
    for variant, (old, new) in REPLACEMENTS.items():
        if variant in variants:
            chosen[chosen.index(old)] = new
    return tuple(chosen)


def copies_per_character(player_count: int) -> int:
    if player_count <= 6:
        return 3
    return 4 if player_count <= 8 else 5


def deck_for(variants, player_count: int) -> list:
    """The full deck (sorted) for these variants and this many players."""
    return list(_deck(frozenset(variants), copies_per_character(player_count)))


@cache  # every game deals one, and there are few combinations
def _deck(variants: frozenset, copies: int) -> tuple:
    return tuple(sorted(card for card in characters_in_play(variants) for _ in range(copies)))


PLAIN_ACTIONS = ("income", "foreign_aid", "tax", "exchange", "embezzle")  # untargeted, in the order offered
AIMED_ACTIONS = ("coup", "assassinate", "steal", "examine")  # targeted, in the order offered


class Table:
    """The rules tables for one combination of variants, and the options that
    never change in a game of them (constant dicts that ``options`` shares: every
    caller must treat them as read-only)."""

    __slots__ = (
        "characters",
        "claims",
        "challengeable",
        "blockers",
        "turn_actions",
        "declared",
        "embezzle_forbidden",
        "exchange_draws",
        "plain_options",
        "aimed_costs",
        "block_options",
    )

    def __init__(self, variants):
        self.characters = characters_in_play(variants)
        has = set(self.characters)
        duke_like = PATRON if PATRON in has else DUKE
        exchanger = INQUISITOR if INQUISITOR in has else AMBASSADOR
        self.claims = {"exchange": exchanger, "assassinate": ASSASSIN, "steal": CAPTAIN}
        if DUKE in has:
            self.claims["tax"] = DUKE
        if PATRON in has:
            self.claims["patronage"] = PATRON
        if INQUISITOR in has:
            self.claims["examine"] = INQUISITOR
        # The actions a challenge may answer: every character claim, and Embezzlement's
        # claim of holding no Duke (or Patron).
        self.challengeable = frozenset((*self.claims, "embezzle"))
        self.blockers = {
            "foreign_aid": (duke_like,),
            "assassinate": (LAWYER if LAWYER in has else CONTESSA,),
            "steal": (CAPTAIN, exchanger),
        }
        actions = ["income", "foreign_aid", "coup", *self.claims]
        if "factions" in variants:
            actions += ["convert", "embezzle"]
        self.turn_actions = frozenset(actions)
        self.declared = frozenset(
            act
            for act, variant in (("coup", "declared_coup"), ("assassinate", "declared_assassination"))
            if variant in variants
        )
        # Embezzlement claims not to hold the Duke, or the Patron that replaces it.
        self.embezzle_forbidden = duke_like
        self.exchange_draws = EXCHANGE_DRAWS[exchanger]
        # An Exchange's option says how many cards it draws (its consequence).
        self.plain_options = tuple(
            {"act": act, "draws": self.exchange_draws} if act == "exchange" else {"act": act}
            for act in PLAIN_ACTIONS
            if act in self.turn_actions
        )
        self.aimed_costs = tuple((act, COSTS.get(act, 0)) for act in AIMED_ACTIONS if act in self.turn_actions)
        self.block_options = {
            act: tuple({"act": "block", "as": card} for card in cards) for act, cards in self.blockers.items()
        }


@cache
def table_for(variants: frozenset) -> Table:
    """The shared ``Table`` of these variants: it never changes once built, and a
    game's state is rebuilt far more often than a new combination comes up."""
    return Table(variants)
