"""Coup's decisions in words: for each kind of decision (``engine/decisions.py``
declares its rules), the label of every answer, the page's prompt and what the
dashboard says the game waits for.

A label says what the answer does, with its consequence as the engine's option
carries it ("Steal from Ben — take 1 coin (claims Captain)"): the words read the
viewer's ``view`` and the option, and work no rule out again. Translated at call
time, so call them inside a request or under ``translation.override``. Sentences
keep their placeholders named so a translator may reorder them.
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.kinds.coup.engine.actions import ACTIONS, ANYONE
from games.kinds.coup.engine.cards import rulebook_for
from games.kinds.coup.engine.decisions import DECISIONS
from games.kinds.coup.words.names import action_name, card_list, card_name, coins
from games.kinds.words import Words


class Context:
    """What labels need to know about the game, read from the viewer's ``view``
    and the rulebook of its variants."""

    def __init__(self, view: dict, viewer: str, names: dict, variants=()):
        self.view = view
        self.viewer = viewer
        self.names = names
        self.rulebook = rulebook_for(frozenset(variants))
        self.pending = view.get("pending") or {}
        self.inheritance = view.get("inheritance")

    def name(self, player) -> str:
        return self.names.get(player, player or "?")


@dataclass(frozen=True)
class DecisionWords:
    """The words of one kind of decision: a label per act (a function of the option
    and the ``Context``), what the dashboard says it waits for (a function of the
    ``Context``), and the page's prompt when it says more than the engine's."""

    labels: dict
    waits_for: Callable
    prompt: object = None
    onlooker_prompt: object = None  # said of another player, when the prompt speaks to the player
    grouped: bool = False  # the options are grouped under their action's name (a turn)


def _claims(card) -> str:
    return _("claims %(card)s") % {"card": card_name(card)}


# ---- turn ----------------------------------------------------------------------------------


def _label_turn(option, ctx):
    """A turn action's button, from its record: the form the option calls for
    (naming a character, aimed at oneself, drawing one card), filled with the
    target, the claim, the character named, disclaimed or first to block, and
    the coins the option moves (taken, or paid)."""
    act = option["act"]
    action = ACTIONS[act]
    rulebook = ctx.rulebook
    target = option.get("target")
    template = action.label
    cost: int | None = action.cost
    if "name" in option:
        template = action.label_named
    elif action.aim == ANYONE and target in (None, ctx.viewer):
        template, cost = action.label_own, action.own_cost
    elif option.get("draws") == 1:
        template = action.label_drawing_one
    elif action.takes_reserve and not ctx.view.get("reserve"):
        template = action.label_empty_reserve
    params = {"player": ctx.name(target)}
    if act in rulebook.claims:
        params["claim"] = _claims(rulebook.claims[act])
    card = option.get("name") or rulebook.disclaims.get(act) or next(iter(rulebook.blockers.get(act, ())), None)
    if card is not None:
        params["card"] = card_name(card)
    if "coins" in option:
        params["coins"] = coins(option["coins"])
    elif action.takes_reserve:
        params["coins"] = coins(ctx.view.get("reserve", 0))
    else:
        params["coins"] = coins(cost)
    return _(template) % params


def _waits_for_turn(ctx):
    return _("Choose an action")


def pending_effect(ctx: Context) -> str:
    """What the pending action does if nobody stops it, e.g. "Ana takes 3 coins"."""
    pending = ctx.pending
    act = pending.get("action")
    if act not in ACTIONS:
        return action_name(act)
    action = ACTIONS[act]
    params = {"player": ctx.name(pending.get("player")), "target": ctx.name(pending.get(action.target_key))}
    template = action.unopposed
    if "coins" in pending:
        params["coins"] = coins(pending["coins"])
    if "name" in pending:
        template = action.unopposed_named
        params["card"] = card_name(pending["name"])
    return _(template) % params


# ---- respond, block, challenged, and the rest ------------------------------------------


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
    if action in ctx.rulebook.disclaims:
        return _("Challenge %(player)s: you say they hold a %(card)s — whoever is wrong loses an influence") % {
            "player": ctx.name(pending.get("player")),
            "card": card_name(ctx.rulebook.disclaims[action]),
        }
    return _("Challenge %(player)s's %(card)s — whoever is wrong loses an influence") % {
        "player": ctx.name(pending.get("player")),
        "card": card_name(ctx.rulebook.claims.get(action)),
    }


def _label_block(option, ctx):
    pending = ctx.pending
    return _("Block as %(card)s — %(player)s's %(action)s fails unless your claim is challenged") % {
        "card": card_name(option.get("as")),
        "player": ctx.name(pending.get("player")),
        "action": action_name(pending.get("action")),
    }


def _label_prove(option, ctx):
    if "disclaims" in option:
        return _("Show your cards: no %(card)s — the challenger loses an influence; you draw new cards") % {
            "card": card_name(option["disclaims"])
        }
    return _("Show your %(card)s — the challenger loses an influence; you draw a new card") % {
        "card": card_name(option["claim"])
    }


def _label_concede(option, ctx):
    if "lose" in option:  # the concession with the card it costs, as one answer
        return _label_concede_losing(option["lose"], ctx)
    if ctx.inheritance is not None:
        return _("Concede — lose an influence and your claim to the inheritance")
    if ctx.pending.get("blocker") == ctx.viewer:
        return _("Concede — lose an influence; your block fails")
    return _("Concede — lose an influence; your %(action)s fails") % {"action": action_name(ctx.pending.get("action"))}


def _label_concede_losing(card, ctx):
    params = {"card": card_name(card)}
    if ctx.inheritance is not None:
        return _("Concede and lose your %(card)s — and your claim to the inheritance") % params
    if ctx.pending.get("blocker") == ctx.viewer:
        return _("Concede and lose your %(card)s — your block fails") % params
    params["action"] = action_name(ctx.pending.get("action"))
    return _("Concede and lose your %(card)s — your %(action)s fails") % params


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
    return _("Force %(player)s to swap it for a card from the court deck") % {
        "player": ctx.name(ctx.pending.get("target"))
    }


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


def _waits_for_respond(ctx):
    pending, estate = ctx.pending, ctx.inheritance
    if estate and not pending:
        return _("Respond to the Lawyer claims on %(player)s's coins") % {"player": ctx.name(estate["player"])}
    if pending.get("blocker"):
        return _("Respond to %(player)s's block as %(card)s") % {
            "player": ctx.name(pending["blocker"]),
            "card": card_name(pending.get("block_card")),
        }
    if pending:
        return _("Respond to %(player)s's %(action)s") % {
            "player": ctx.name(pending.get("player")),
            "action": action_name(pending.get("action")),
        }
    return ""


def _waits_for_block(ctx):
    pending = ctx.pending
    if not pending:
        return ""
    return _("Decide whether to block %(player)s's %(action)s") % {
        "player": ctx.name(pending.get("player")),
        "action": action_name(pending.get("action")),
    }


def _waits_for_challenged(ctx):
    pending = ctx.pending
    if pending.get("challenger") and pending.get("challenged") == ctx.viewer:
        return _("Prove your claim to %(player)s or concede") % {"player": ctx.name(pending["challenger"])}
    return _("Prove your claim or concede")


def _waits_for_lose(ctx):
    return _("Choose a card to lose")


def _waits_for_keep(ctx):
    return _("Choose the cards to keep")


def _waits_for_show(ctx):
    if not ctx.pending:
        return ""
    return _("Show a card to %(player)s") % {"player": ctx.name(ctx.pending.get("player"))}


def _waits_for_examine(ctx):
    if not ctx.pending:
        return ""
    return _("Give the card back to %(player)s or make them swap it") % {"player": ctx.name(ctx.pending.get("target"))}


def _waits_for_inheritance(ctx):
    if not ctx.inheritance:
        return ""
    return _("Claim %(player)s's coins as Lawyer, or decline") % {"player": ctx.name(ctx.inheritance["player"])}


def _waits_for_draft(ctx):
    return _("Choose the card to keep")


WORDS = {
    "turn": DecisionWords(
        labels=dict.fromkeys(ACTIONS, _label_turn),
        waits_for=_waits_for_turn,
        onlooker_prompt=gettext_lazy("choose an action"),
        grouped=True,
    ),
    "respond": DecisionWords(
        labels={"allow": _label_allow, "challenge": _label_challenge, "block": _label_block},
        waits_for=_waits_for_respond,
        # The engine's prompt, where a page can say more than an error message needs.
        # Not "the claim": Foreign Aid claims no character and is answered here too.
        prompt=gettext_lazy("respond: let it pass or oppose it"),
    ),
    "block": DecisionWords(labels={"allow": _label_allow, "block": _label_block}, waits_for=_waits_for_block),
    "challenged": DecisionWords(
        labels={"prove": _label_prove, "concede": _label_concede}, waits_for=_waits_for_challenged
    ),
    "lose": DecisionWords(labels={"lose": _label_lose}, waits_for=_waits_for_lose),
    "keep": DecisionWords(labels={"keep": _label_keep}, waits_for=_waits_for_keep),
    "show": DecisionWords(labels={"show": _label_show}, waits_for=_waits_for_show),
    "examine": DecisionWords(
        labels={"give_back": _label_give_back, "force_exchange": _label_force_exchange}, waits_for=_waits_for_examine
    ),
    "inheritance": DecisionWords(
        labels={"claim_inheritance": _label_claim_inheritance, "decline": _label_decline},
        waits_for=_waits_for_inheritance,
    ),
    "draft": DecisionWords(labels={"draft_keep": _label_draft_keep}, waits_for=_waits_for_draft),
}


# ---- what the kind offers the platform -------------------------------------------------

# How a button looks: the answers that cost or risk something stand out (a turn
# action's style is on its record).
_STYLES = {
    "challenge": "risky",
    "block": "risky",
    "concede": "quiet",
    "allow": "quiet",
    "decline": "quiet",
    "give_back": "quiet",
    "lose": "risky",
    **{act: action.style for act, action in ACTIONS.items()},
}


class CoupWords(Words):
    def decision_prompt(self, decision) -> str:
        """ "choose your action", translated."""
        words = WORDS.get(decision)
        if words is not None and words.prompt is not None:
            return str(words.prompt)
        return _(DECISIONS[decision].prompt) if decision in DECISIONS else str(decision)

    def onlooker_prompt(self, decision) -> str:
        """What a decision asks, said of another player: "choose an action"."""
        words = WORDS.get(decision)
        if words is not None and words.onlooker_prompt is not None:
            return str(words.onlooker_prompt)
        return self.decision_prompt(decision)

    def labeler(self, view: dict, viewer: str, names: dict, variants) -> Context:
        return Context(view, viewer, names, variants)

    def option_label(self, option: dict, labeler: Context, decision: str) -> str:
        """The words on the button for ``option``, e.g. "Steal from Ben — take 2 coins
        (claims Captain)"."""
        act = option.get("act")
        label = WORDS[decision].labels.get(act) if decision in WORDS else None
        if label is None:
            return act or "?"
        return label(option, labeler)

    def waits_for(self, decision: str, view: dict, viewer: str, names: dict) -> str:
        """What the game waits for from ``viewer``, as a button would say it: "Respond
        to Ben's Tax", "Choose a card to lose". Built from the viewer's own ``view``."""
        text = WORDS[decision].waits_for(Context(view, viewer, names)) if decision in WORDS else ""
        return text or capfirst(self.decision_prompt(decision))

    def option_style(self, option: dict) -> str:
        return _STYLES.get(option["act"], "plain")

    def option_group(self, option: dict, decision: str) -> str:
        """Options of a turn are grouped under their action name; other decisions have one group."""
        if decision in WORDS and WORDS[decision].grouped:
            return action_name(option.get("act"))
        return ""
