"""Words for the table: card and action names, decision prompts, the label of every
legal answer (with its consequence), and the rules summary of each variant.

Everything here is translated at call time (gettext), so call it inside a request
or under ``translation.override``. Sentences keep their placeholders named so a
translator may reorder them; card names stand alone ("claims Duke") or after a
colon, so no language needs an article that agrees with the card's gender.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import ngettext
from django.utils.translation import pgettext_lazy

from games.engine.coup.cards import (
    CARD_NAMES,
    CHARACTERS,
    CONVERT_COST,
    COSTS,
    VARIANTS,
    Table,
    characters_in_play,
)
from games.engine.coup.flow import DECISION_PROMPTS

# ---- names -----------------------------------------------------------------------------


def card_name(card) -> str:
    """The translated name of a character id ("duke" → "Duke" / "Duque")."""
    return _(CARD_NAMES[card]) if card in CARD_NAMES else str(card)


def card_list(cards) -> str:
    """"Duke, Captain" — card names joined for a sentence."""
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


# The engine's prompts, except where a page can say more than an error message needs.
PAGE_PROMPTS = {"respond": gettext_lazy("respond to the claim: let it pass or oppose it")}


def decision_prompt(kind) -> str:
    """"choose your action", translated."""
    if kind in PAGE_PROMPTS:
        return str(PAGE_PROMPTS[kind])
    return _(DECISION_PROMPTS[kind]) if kind in DECISION_PROMPTS else str(kind)


def coins(amount) -> str:
    return ngettext("%(count)d coin", "%(count)d coins", amount) % {"count": amount}


# ---- the labels of legal answers ----------------------------------------------------


class Context:
    """What labels need to know about the table, read from the viewer's ``view``."""

    def __init__(self, view: dict, viewer: str, names: dict, variants=()):
        self.view = view
        self.viewer = viewer
        self.names = names
        self.table = Table(frozenset(variants))
        self.players = {p["name"]: p for p in view.get("players", [])}
        self.pending = view.get("pending") or {}
        self.inheritance = view.get("inheritance")

    def name(self, player) -> str:
        return self.names.get(player, player or "?")

    def me(self) -> dict:
        return self.players.get(self.viewer, {})

    def hand_size(self) -> int:
        hand = self.me().get("hand", [])
        return len(hand) if isinstance(hand, list) else int(hand)


def option_label(option: dict, ctx: Context, decision: str) -> str:
    """The words on the button for ``option``, e.g. "Steal from Ben — take 2 coins
    (claims Captain)"."""
    act = option.get("act")
    handler = _TURN_LABELS.get(act) if decision == "turn" else _ANSWER_LABELS.get(act)
    if handler is None:
        return act or "?"
    return handler(option, ctx)


def _claims(card) -> str:
    return _("claims %(card)s") % {"card": card_name(card)}


def _label_income(option, ctx):
    return _("Income — take 1 coin")


def _label_foreign_aid(option, ctx):
    blocker = ctx.table.blockers["foreign_aid"][0]
    return _("Foreign Aid — take 2 coins (%(card)s can block)") % {"card": card_name(blocker)}


def _label_tax(option, ctx):
    return _("Tax — take 3 coins (%(claim)s)") % {"claim": _claims("duke")}


def _label_exchange(option, ctx):
    card = ctx.table.claims["exchange"]
    if card == "inquisitor":
        return _("Exchange — draw 1 card from the court deck, then return 1 (%(claim)s)") % {"claim": _claims(card)}
    return _("Exchange — draw 2 cards from the court deck, then return 2 (%(claim)s)") % {"claim": _claims(card)}


def _label_embezzle(option, ctx):
    return _("Embezzle — take the %(coins)s of the treasury reserve (claims you hold no %(card)s)") % {
        "coins": coins(ctx.view.get("reserve", 0)),
        "card": card_name(ctx.table.embezzle_forbidden),
    }


def _label_convert(option, ctx):
    target = option.get("target")
    if target is None or target == ctx.viewer:
        return _("Change your faction — pay %(coins)s to the treasury reserve") % {"coins": coins(CONVERT_COST[True])}
    return _("Convert %(player)s to the other faction — pay %(coins)s to the treasury reserve") % {
        "player": ctx.name(target),
        "coins": coins(CONVERT_COST[False]),
    }


def _label_patronage(option, ctx):
    return _("Patronage — take 3 coins, keep 2 and give 1 to %(player)s (%(claim)s)") % {
        "player": ctx.name(option.get("target")),
        "claim": _claims("patron"),
    }


def _label_coup(option, ctx):
    params = {"player": ctx.name(option.get("target")), "coins": coins(COSTS["coup"])}
    if "name" in option:
        params["card"] = card_name(option["name"])
        return (
            _(
                "Coup against %(player)s naming %(card)s — pay %(coins)s; %(player)s shows every card "
                "and loses that one if it is there"
            )
            % params
        )
    return _("Coup against %(player)s — pay %(coins)s; %(player)s loses an influence") % params


def _label_assassinate(option, ctx):
    params = {
        "player": ctx.name(option.get("target")),
        "coins": coins(COSTS["assassinate"]),
        "claim": _claims("assassin"),
    }
    if "name" in option:
        params["card"] = card_name(option["name"])
        return (
            _(
                "Assassinate %(player)s naming %(card)s — pay %(coins)s; %(player)s shows every card "
                "and loses that one if it is there (%(claim)s)"
            )
            % params
        )
    return _("Assassinate %(player)s — pay %(coins)s; %(player)s loses an influence (%(claim)s)") % params


def _label_steal(option, ctx):
    target = option.get("target")
    available = ctx.players.get(target, {}).get("coins", 2)
    return _("Steal from %(player)s — take %(coins)s (%(claim)s)") % {
        "player": ctx.name(target),
        "coins": coins(min(2, available)),
        "claim": _claims("captain"),
    }


def _label_examine(option, ctx):
    return _("Examine %(player)s — see one of their cards, maybe make them swap it (%(claim)s)") % {
        "player": ctx.name(option.get("target")),
        "claim": _claims("inquisitor"),
    }


_TURN_LABELS = {
    "income": _label_income,
    "foreign_aid": _label_foreign_aid,
    "tax": _label_tax,
    "exchange": _label_exchange,
    "embezzle": _label_embezzle,
    "convert": _label_convert,
    "patronage": _label_patronage,
    "coup": _label_coup,
    "assassinate": _label_assassinate,
    "steal": _label_steal,
    "examine": _label_examine,
}


def pending_effect(ctx: Context) -> str:
    """What the pending action does if nobody stops it, e.g. "Ana takes 3 coins"."""
    pending = ctx.pending
    action = pending.get("action")
    actor = ctx.name(pending.get("player"))
    target = ctx.name(pending.get("target"))
    if action == "income":
        return _("%(player)s takes 1 coin") % {"player": actor}
    if action == "foreign_aid":
        return _("%(player)s takes 2 coins") % {"player": actor}
    if action == "tax":
        return _("%(player)s takes 3 coins") % {"player": actor}
    if action == "steal":
        available = ctx.players.get(pending.get("target"), {}).get("coins", 2)
        return _("%(player)s takes %(coins)s from %(target)s") % {
            "player": actor,
            "coins": coins(min(2, available)),
            "target": target,
        }
    if action in ("coup", "assassinate"):
        if "name" in pending:
            return _("%(target)s shows every card and loses %(card)s if it is there") % {
                "target": target,
                "card": card_name(pending["name"]),
            }
        return _("%(target)s loses an influence") % {"target": target}
    if action == "exchange":
        return _("%(player)s exchanges cards with the court deck") % {"player": actor}
    if action == "examine":
        return _("%(player)s sees one of %(target)s's cards") % {"player": actor, "target": target}
    if action == "patronage":
        return _("%(player)s takes 2 coins and %(target)s 1") % {
            "player": actor,
            "target": ctx.name(pending.get("beneficiary")),
        }
    if action == "embezzle":
        return _("%(player)s keeps the coins of the treasury reserve") % {"player": actor}
    if action == "convert":
        return _("%(target)s changes faction") % {"target": target}
    return action_name(action)


def _label_allow(option, ctx):
    if ctx.inheritance is not None:
        return _("Allow the Lawyer claims")
    pending = ctx.pending
    if pending.get("blocker"):
        return _("Allow the block — %(player)s's %(action)s fails") % {
            "player": ctx.name(pending.get("player")),
            "action": action_name(pending.get("action")),
        }
    return _("Allow — %(effect)s") % {"effect": pending_effect(ctx)}


def _label_challenge(option, ctx):
    if ctx.inheritance is not None:
        return _("Challenge %(player)s's Lawyer claim — whoever is wrong loses an influence") % {
            "player": ctx.name(option.get("target"))
        }
    pending = ctx.pending
    if pending.get("blocker"):
        return _("Challenge %(player)s's %(card)s — whoever is wrong loses an influence") % {
            "player": ctx.name(pending["blocker"]),
            "card": card_name(pending.get("block_card")),
        }
    action = pending.get("action")
    if action == "embezzle":
        return _("Challenge %(player)s: you say they hold a %(card)s — whoever is wrong loses an influence") % {
            "player": ctx.name(pending.get("player")),
            "card": card_name(ctx.table.embezzle_forbidden),
        }
    return _("Challenge %(player)s's %(card)s — whoever is wrong loses an influence") % {
        "player": ctx.name(pending.get("player")),
        "card": card_name(ctx.table.claims.get(action)),
    }


def _label_block(option, ctx):
    pending = ctx.pending
    return _("Block as %(card)s — %(player)s's %(action)s fails unless your claim is challenged") % {
        "card": card_name(option.get("as")),
        "player": ctx.name(pending.get("player")),
        "action": action_name(pending.get("action")),
    }


def _challenged_claim(ctx):
    """The character the viewer is challenged about (``None``: Embezzlement)."""
    if ctx.inheritance is not None:
        return "lawyer"
    pending = ctx.pending
    if pending.get("blocker") == ctx.viewer:
        return pending.get("block_card")
    if pending.get("action") == "embezzle":
        return None
    return ctx.table.claims.get(pending.get("action"))


def _label_prove(option, ctx):
    claim = _challenged_claim(ctx)
    if claim is None:
        return _(
            "Reveal your cards: no %(card)s — the challenger loses an influence; you draw new cards"
        ) % {"card": card_name(ctx.table.embezzle_forbidden)}
    return _("Show your %(card)s — the challenger loses an influence; you draw a new card") % {
        "card": card_name(claim)
    }


def _label_concede(option, ctx):
    if ctx.inheritance is not None:
        return _("Concede — lose an influence and your claim to the inheritance")
    if ctx.pending.get("blocker") == ctx.viewer:
        return _("Concede — lose an influence; your block fails")
    return _("Concede — lose an influence; your %(action)s fails") % {
        "action": action_name(ctx.pending.get("action"))
    }


def _label_lose(option, ctx):
    return _("Lose your %(card)s — turn it face up") % {"card": card_name(option.get("card"))}


def _label_keep(option, ctx):
    return _("Keep %(cards)s — return the others to the court deck") % {"cards": card_list(option.get("cards", []))}


def _label_show(option, ctx):
    return _("Show your %(card)s to %(player)s") % {
        "card": card_name(option.get("card")),
        "player": ctx.name(ctx.pending.get("player")),
    }


def _label_give_back(option, ctx):
    return _("Give the card back to %(player)s") % {"player": ctx.name(ctx.pending.get("target"))}


def _label_force_exchange(option, ctx):
    return _("Make %(player)s swap it for a card from the court deck") % {"player": ctx.name(ctx.pending.get("target"))}


def _label_claim_inheritance(option, ctx):
    estate = ctx.inheritance or {}
    return _("Claim the Lawyer — share the %(coins)s of %(player)s (can be challenged)") % {
        "coins": coins(estate.get("coins", 0)),
        "player": ctx.name(estate.get("player")),
    }


def _label_decline(option, ctx):
    return _("Decline the inheritance")


def _label_draft_keep(option, ctx):
    return _("Keep %(card)s — set the other cards aside, unseen") % {"card": card_name(option.get("card"))}


_ANSWER_LABELS = {
    "allow": _label_allow,
    "challenge": _label_challenge,
    "block": _label_block,
    "prove": _label_prove,
    "concede": _label_concede,
    "lose": _label_lose,
    "keep": _label_keep,
    "show": _label_show,
    "give_back": _label_give_back,
    "force_exchange": _label_force_exchange,
    "claim_inheritance": _label_claim_inheritance,
    "decline": _label_decline,
    "draft_keep": _label_draft_keep,
}

# How a button looks: the answers that cost or risk something stand out.
_STYLES = {
    "challenge": "risky",
    "block": "risky",
    "coup": "attack",
    "assassinate": "attack",
    "concede": "quiet",
    "allow": "quiet",
    "decline": "quiet",
    "give_back": "quiet",
    "lose": "risky",
}


def option_style(option: dict) -> str:
    return _STYLES.get(option.get("act"), "plain")


def option_group(option: dict, decision: str) -> str:
    """Options of a turn are grouped under their action name; other decisions have one group."""
    if decision == "turn":
        return action_name(option.get("act"))
    return ""


# ---- the rules summary of the variants ---------------------------------------------------

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


def variant_choices() -> list:
    """(id, "Name — one line") for the create-game form, in the engine's order."""
    return [(variant, f"{VARIANT_NAMES[variant]} — {VARIANT_LINES[variant]}") for variant in VARIANTS]


def variant_name(variant) -> str:
    return str(VARIANT_NAMES.get(variant, variant))


def base_rules(variants=()) -> str:
    """The base game in a short paragraph, with the characters actually in play."""
    cards = characters_in_play(variants)
    return _(
        "Each player starts with 2 face-down cards (influences) and 2 coins. On your turn take one action: "
        "Income (1 coin), Foreign Aid (2 coins, can be blocked), a Coup (7 coins: a player loses an influence; "
        "with 10 coins you must), or claim a character: %(cards)s. You may claim a character you do not hold. "
        "Anyone may challenge a claim: whoever is wrong loses an influence. The last player with an influence wins."
    ) % {"cards": card_list(cards)}


def rules_summary(variants=()) -> list[str]:
    """The short rules of the game in play: the base game, then one paragraph per variant."""
    return [base_rules(variants), *(str(VARIANT_RULES[v]) for v in VARIANTS if v in variants)]


def characters(variants=()) -> list[dict]:
    """The characters in play with their names and abilities, for the card gallery."""
    return [{"id": c, "name": card_name(c), "ability": card_ability(c)} for c in characters_in_play(variants)]


ALL_CHARACTERS = CHARACTERS
