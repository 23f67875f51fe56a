"""The rulebook of each combination of variants, worked out once from the
characters' records (``characters.py``) and the actions' (``actions.py``): the
deck, the actions in play, what each claims and who blocks it; and the numbers
every game shares (players, coins, factions).

Variants are data: each is a hook that a record or the ``Rulebook`` reads. A
character's record names the variant that brings it into the deck in place of a
base character (Inquisitor for Ambassador, Patron for Duke, Lawyer for
Contessa); an action's record names the variant that brings it (Reformation's
Conversion and Embezzlement) or makes it name a character (Declared Coup and
Assassination); the rulebook works out the rest (the two-player draft's deal,
the factions, the Lawyer's inheritance).
"""

from functools import cache

from games.kinds.coup.engine.actions import ACTIONS, ANYONE, BENEFICIARY, EXCHANGE_CARDS, OPPONENT
from games.kinds.coup.engine.characters import CHARACTERS, LAWYER

VARIANTS = (
    "two_player_draft",
    "declared_coup",
    "declared_assassination",
    "inquisitor",
    "factions",
    "patron",
    "lawyer",
)

LOYALIST, REFORMIST = "loyalist", "reformist"
FACTIONS = (LOYALIST, REFORMIST)
OPPOSITE_FACTION = {LOYALIST: REFORMIST, REFORMIST: LOYALIST}

MIN_PLAYERS, MAX_PLAYERS = 2, 10
START_COINS, TWO_PLAYER_FIRST_COINS = 2, 1
HAND = 2  # the influences each player is dealt
FORCED_ACTION, FORCED_COUP_COINS = "coup", 10  # with this many coins, a player must Coup
DECLARED_ATTACK_DRAWS = 2  # the exchange that hides a hand again after a Declared Coup


class Rulebook:
    """The rules of one combination of variants, and the options that never
    change in a game of them (constant dicts that ``options`` shares: every
    caller must treat them as read-only).

    - ``characters``: the five of the deck, in the base game's order; ``copies``
      and ``deck``: how many of each, and the whole deck, for a player count.
    - ``draft``, ``factions``, ``inheritance``: whether the game starts with the
      two-player draft, seats players in factions, opens the Lawyer's inheritance;
      ``deal_size``: the cards each player is dealt.
    - ``actions``: the actions in play, by id, in the order a turn offers them;
      ``claims``, ``disclaims``, ``blockers``: by action, the character it claims,
      the one it claims not to hold (Embezzlement) and those that block it;
      ``challengeable``: the actions a challenge may answer; ``declared``: the
      attacks that name a character; ``draws``: the cards an exchange draws.
    """

    __slots__ = (
        "characters",
        "draft",
        "factions",
        "inheritance",
        "deal_size",
        "actions",
        "claims",
        "disclaims",
        "challengeable",
        "blockers",
        "declared",
        "draws",
        "plain_options",
        "open_actions",
        "aimed",
        "block_options",
    )

    def __init__(self, variants):
        replaced = {c.replaces: c.id for c in CHARACTERS.values() if c.variant in variants}
        self.characters = tuple(replaced.get(c.id, c.id) for c in CHARACTERS.values() if c.variant is None)
        self.draft = "two_player_draft" in variants
        self.factions = "factions" in variants
        self.inheritance = LAWYER in self.characters
        self.deal_size = len(self.characters) if self.draft else HAND
        in_deck = set(self.characters)

        def kept(cards) -> tuple:
            return tuple(card for card in cards if card in in_deck)

        self.actions = {
            act: action
            for act, action in ACTIONS.items()
            if (action.variant is None or action.variant in variants)
            and (not action.claimed_by or kept(action.claimed_by))
        }
        self.claims = {act: kept(a.claimed_by)[0] for act, a in self.actions.items() if a.claimed_by}
        self.disclaims = {act: kept(a.disclaims)[0] for act, a in self.actions.items() if a.disclaims}
        self.challengeable = frozenset((*self.claims, *self.disclaims))
        self.blockers = {act: cards for act, a in self.actions.items() if (cards := kept(a.blocked_by))}
        self.declared = frozenset(act for act, a in self.actions.items() if a.declared_in in variants)
        self.draws = {
            act: CHARACTERS[card].draws for act, card in self.claims.items() if ACTIONS[act].effect == EXCHANGE_CARDS
        }
        # What a turn offers, worked out here so that listing it reads no record:
        # the untargeted actions' options (an Exchange's says how many cards it
        # draws), then (act, own cost or None, cost) of those aimed at anyone,
        # then (act, cost, names a character, most coins stolen) of the attacks.
        self.plain_options = tuple(
            {"act": act, "draws": self.draws[act]} if act in self.draws else {"act": act}
            for act, a in self.actions.items()
            if a.aim is None
        )
        self.open_actions = tuple(
            (act, a.own_cost, a.cost) for act, a in self.actions.items() if a.aim in (ANYONE, BENEFICIARY)
        )
        self.aimed = tuple(
            (act, a.cost, act in self.declared, a.steals) for act, a in self.actions.items() if a.aim == OPPONENT
        )
        self.block_options = {
            act: tuple({"act": "block", "as": card} for card in cards) for act, cards in self.blockers.items()
        }

    def copies(self, player_count: int) -> int:
        """Copies of each character in the deck: one set per player and one for
        the court in the draft, else 3 up to 6 players, 4 up to 8, 5 beyond."""
        if self.draft:
            return player_count + 1
        if player_count <= 6:
            return 3
        return 4 if player_count <= 8 else 5

    def deck(self, player_count: int) -> list:
        """The full deck (sorted) for this many players."""
        return list(_deck(self.characters, self.copies(player_count)))


@cache  # every game deals one, and there are few combinations
def _deck(characters: tuple, copies: int) -> tuple:
    return tuple(sorted(card for card in characters for _ in range(copies)))


@cache
def rulebook_for(variants: frozenset) -> Rulebook:
    """The shared ``Rulebook`` of these variants: it never changes once built, and
    a game's state is rebuilt far more often than a new combination comes up."""
    return Rulebook(variants)


def deck_for(variants, player_count: int) -> list:
    """The full deck (sorted) for these variants and this many players."""
    return rulebook_for(frozenset(variants)).deck(player_count)
