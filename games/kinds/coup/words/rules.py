"""Coup's rules for players: the base game in a paragraph, each variant's name, line
and paragraph (the create form and the rules panel), the characters' gallery and
the card reference (who does what, who blocks what), read from the engine's table
of the variants in play."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.kinds.base import About
from games.kinds.coup.engine.actions import ACTIONS
from games.kinds.coup.engine.cards import FORCED_COUP_COINS, VARIANTS, rulebook_for
from games.kinds.coup.words.names import action_name, card_ability, card_list, card_name, coins

VARIANT_NAMES = {
    "two_player_draft": gettext_lazy("Two-player draft"),
    "declared_coup": gettext_lazy("Declared Coup"),
    "declared_assassination": gettext_lazy("Declared Assassination"),
    "inquisitor": gettext_lazy("Inquisitor"),
    "factions": gettext_lazy("Reformation (factions)"),
    "patron": gettext_lazy("Patron"),
    "lawyer": gettext_lazy("Lawyer"),
}

VARIANT_LINES = {
    "two_player_draft": gettext_lazy("Exactly 2 players; each keeps one card of a full set, then gets one more."),
    "declared_coup": gettext_lazy("A Coup names a character: it only hits if the target holds it."),
    "declared_assassination": gettext_lazy("With Declared Coup: an Assassination names a character too."),
    "inquisitor": gettext_lazy("The Inquisitor replaces the Ambassador: exchange 1 card or examine a player's card."),
    "factions": gettext_lazy("Players belong to two factions and may not attack their own; convert and embezzle."),
    "patron": gettext_lazy("The Patron replaces the Duke: take 3 coins and give 1 of them to another player."),
    "lawyer": gettext_lazy("The Lawyer replaces the Contessa and can inherit an eliminated player's coins."),
}

VARIANT_RULES = {
    "two_player_draft": gettext_lazy(
        "Two-player draft: each player receives one card of every character, secretly keeps one and sets the "
        "other four aside unseen. Then each player gets one more card from a shuffled third set; its last three "
        "cards are the court deck. The first player starts with 1 coin."
    ),
    "declared_coup": gettext_lazy(
        "Declared Coup: whoever launches a Coup names a character. The target reveals every face-down card and "
        "loses the named one if it is there. Either way the target then exchanges with the court deck (draw 2, "
        "return 2), so the hand is hidden again. The 7 coins are paid either way."
    ),
    "declared_assassination": gettext_lazy(
        "Declared Assassination: an Assassination also names a character and works like a Declared Coup; it "
        "can still be blocked or challenged as usual."
    ),
    "inquisitor": gettext_lazy(
        "Inquisitor (replaces the Ambassador): claim it to exchange one card with the court deck, or to examine "
        "another player: they show you one of their cards in secret, and you give it back or make them swap it "
        "for a card from the court deck. The Inquisitor also blocks stealing."
    ),
    "factions": gettext_lazy(
        "Reformation: every player is a Loyalist or a Reformist. You may not Coup, Assassinate, Steal from, "
        "Examine or block the Foreign Aid of your own faction while the other faction still has players. "
        "Conversion: pay 1 coin to change your own faction or 2 to change someone else's; the coins go to the "
        "treasury reserve. Embezzlement: claim you hold no Duke and take the whole reserve; if challenged, you "
        "reveal your cards to prove it."
    ),
    "patron": gettext_lazy(
        "Patron (replaces the Duke): claim it to take 3 coins, keep 2 and give 1 to a player you name. The "
        "Patron blocks Foreign Aid."
    ),
    "lawyer": gettext_lazy(
        "Lawyer (replaces the Contessa): it blocks an Assassination. When a player is eliminated holding coins, "
        "everyone still in the game may claim the Lawyer; claims may be challenged, and the coins are split "
        "equally among the claims that stand (the rest to the treasury)."
    ),
}


def base_rules(variants=()) -> str:
    """The base game in a short paragraph, with the characters actually in play."""
    cards = rulebook_for(frozenset(variants)).characters
    return _(
        "Each player starts with 2 face-down cards (influences) and 2 coins. On your turn take one action: "
        "Income (1 coin), Foreign Aid (2 coins, can be blocked), a Coup (7 coins: a player loses an influence; "
        "with 10 coins you must), or claim a character: %(cards)s. You may claim a character you do not hold. "
        "Anyone may challenge a claim: whoever is wrong loses an influence. The last player with an influence wins."
    ) % {"cards": card_list(cards)}


def characters(variants=()) -> list[dict]:
    """The characters in play with their names and abilities, for the card gallery."""
    characters = rulebook_for(frozenset(variants)).characters
    return [{"id": c, "name": card_name(c), "ability": card_ability(c)} for c in characters]


# The turn's actions in the order the reference lists them (a turn offers them in
# the order of ``ACTIONS``).
REFERENCE_ORDER = (
    "income",
    "foreign_aid",
    "coup",
    "tax",
    "patronage",
    "exchange",
    "steal",
    "examine",
    "assassinate",
    "embezzle",
    "convert",
)


def reference(variants=()) -> dict:
    """Every action of a game with ``variants``: its cost, the character it claims
    (if any) and the characters that block it; and the forced Coup."""
    rulebook = rulebook_for(frozenset(variants))
    rows = []
    for act in REFERENCE_ORDER:
        if act not in rulebook.actions:
            continue
        if act in rulebook.claims:
            who = card_name(rulebook.claims[act])
        elif act in rulebook.disclaims:
            who = _("whoever holds no %(card)s") % {"card": card_name(rulebook.disclaims[act])}
        else:
            who = _("anyone")
        action = ACTIONS[act]
        rows.append(
            {
                "action": action_name(act),
                # One cost, or none: what Conversion costs depends on whom it converts.
                "cost": coins(action.cost) if action.cost and action.own_cost is None else "",
                "who": who,
                "blocked_by": card_list(rulebook.blockers.get(act, ())),
            }
        )
    return {
        "rows": rows,
        "forced": _("With %(coins)s or more, a player must Coup.") % {"coins": coins(FORCED_COUP_COINS)},
    }


class CoupAbout(About):
    seats_note = gettext_lazy("Coup: 2 to 10 (from 7 players on, the deck has more copies of each character)")
    variants_note = gettext_lazy("Coup only. Leave all unchecked for the classic game.")
    resign_note = gettext_lazy("Your face-down cards are turned face up and the game goes on without you.")

    def variant_choices(self) -> list:
        """(id, "Name — one line") for the create-game form, in the engine's order."""
        return [(variant, f"{VARIANT_NAMES[variant]} — {VARIANT_LINES[variant]}") for variant in VARIANTS]

    def variant_names(self, variants) -> list[str]:
        return [str(VARIANT_NAMES.get(variant, variant)) for variant in variants] or [_("Classic")]

    def rules_summary(self, variants=()) -> list[str]:
        """The short rules of the game in play: the base game, then one paragraph per variant."""
        return [base_rules(variants), *(str(VARIANT_RULES[v]) for v in VARIANTS if v in variants)]
