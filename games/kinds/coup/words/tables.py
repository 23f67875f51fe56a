"""What Coup's templates show: the game page's table, a replay's table, an email's
table, built from the viewer's ``view`` (the omniscient one for a replay).

The viewer's own face-down cards are the only cards a page marks with
``data-card``; everything else a template shows comes from the view, so a page
can never show more than the engine let through for that viewer.
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.kinds.base import Templates
from games.kinds.coup.engine.cards import FORCED_COUP_COINS
from games.kinds.coup.words import rules
from games.kinds.coup.words.decisions import Context, CoupWords, pending_effect
from games.kinds.coup.words.names import action_name, card_name, coins, faction_name

WORDS = CoupWords()


class CoupTemplates(Templates):
    folder = "coup"
    reference = "coup/_characters.html"
    stylesheet = "coup/cards.css"

    def table_context(self, view, viewer, names, game, users, awaiting) -> dict:
        """Every seat (the viewer's own hand as ``me``), the action being resolved,
        a card shown in an examination and an open inheritance."""
        players = []
        me = None
        for entry in view["players"]:
            own = entry["name"] == viewer
            hand = entry["hand"]
            drawn = entry.get("drawn", [])
            row = {
                "player": entry["name"],
                "name": names.get(entry["name"], entry["name"]),
                "you": own,
                "host": users.get(entry["name"]) is not None and users[entry["name"]].pk == game.host_id,
                "coins": entry["coins"],
                "coins_label": coins(entry["coins"]),
                "hidden_count": len(hand) if isinstance(hand, list) else hand,
                "drawn_count": len(drawn) if isinstance(drawn, list) else drawn,
                "revealed": entry["revealed"],
                "alive": entry["alive"],
                "faction": entry.get("faction"),
                "faction_name": faction_name(entry.get("faction")) if entry.get("faction") else "",
                "turn": view.get("turn") == entry["name"],
                "winner": view.get("winner") == entry["name"],
                "deciding": _deciding(awaiting, entry["name"], viewer),
            }
            # Once the game is over every hand is face up, the viewer's own seat too:
            # every reader of the table sees the same seats (the view then lists them all).
            over = bool(view.get("winner"))
            row["face_up"] = list(hand) if isinstance(hand, list) and (over or not own) else []
            row["backs"] = range(0 if row["face_up"] else row["hidden_count"])
            # How the seat stands, on the button of an answer aimed at it.
            row["summary"] = "{} · {}".format(row["coins_label"], face_down(row["hidden_count"]))
            players.append(row)
            if own:
                # The viewer's own face-down cards: the only cards a page marks with data-card.
                me = {**row, "hand": list(hand), "drawn": list(drawn) if isinstance(drawn, list) else []}
        ctx = Context(view, viewer, names, game.variants)
        return {
            "players": players,
            "me": me,
            "playing": bool(me and me["alive"]),
            "factions": any(p["faction"] for p in players),
            "reserve": view.get("reserve", 0),
            "court_count": view["court"] if isinstance(view.get("court"), int) else len(view.get("court", [])),
            # The claim on the table, until the game ends.
            "pending": pending_summary(view, ctx) if not view.get("winner") else "",
            "answers": _answers(view, names),
            "forced_coup": _forced_coup(me, awaiting.get(viewer)),
            "decision_note": _decision_note(view, viewer, names, me, awaiting.get(viewer)),
            "shown": _shown(view, viewer, names),
            "inheritance": _inheritance(view, names),
        }

    def replay_context(self, game, view, viewer, names) -> dict:
        """The live table of the omniscient view, with every seat's face-down cards,
        the court deck in order, and the action being resolved, in words."""
        awaiting = {entry["player"]: entry["decision"] for entry in view.get("awaiting", [])}
        live = self.table_context(view, viewer, names, game, {}, awaiting)
        for row, entry in zip(live["players"], view["players"], strict=True):
            row["hand"] = list(entry["hand"])
            row["drawn"] = list(entry.get("drawn", []))
        ctx = Context(view, viewer, names, game.variants)
        return {
            **{key: live[key] for key in ("players", "court_count", "factions", "reserve")},
            "court": list(view.get("court", [])),
            "aside": list(view.get("aside", [])),
            "pending": pending_summary(view, ctx),
        }

    def email_context(self, view, viewer, names) -> dict:
        me = next(p for p in view["players"] if p["name"] == viewer)
        return {
            "hand": [card_name(card) for card in me["hand"]] if isinstance(me["hand"], list) else [],
            "revealed": [card_name(card) for card in me["revealed"]],
            "coins": me["coins"],
            "table": [
                {
                    "name": names.get(p["name"], p["name"]),
                    "coins": p["coins"],
                    "hidden": p["hand"] if isinstance(p["hand"], int) else len(p["hand"]),
                    "revealed": [card_name(card) for card in p["revealed"]],
                    "alive": p["alive"],
                }
                for p in view["players"]
            ],
        }

    def static_context(self, variants) -> dict:
        return {"characters": rules.characters(variants), "reference": rules.reference(variants)}


def _deciding(awaiting: dict, player: str, viewer) -> str:
    """What ``player``'s seat says it is asked: to the reader in the second person,
    of anyone else in neutral words."""
    if player not in awaiting:
        return ""
    prompt = WORDS.decision_prompt if player == viewer else WORDS.onlooker_prompt
    return prompt(awaiting[player])


def pending_summary(view: dict, ctx: Context) -> str:
    """The action being resolved, in words: "Ana claims the Duke: Tax, 3 coins. Ben
    blocks as Contessa. Carla challenges Ben."."""
    pending = view.get("pending")
    if not pending:
        return ""
    action = pending.get("action")
    params = {
        "player": ctx.name(pending.get("player")),
        "action": action_name(action),
        "effect": pending_effect(ctx),
    }
    claim = ctx.rulebook.claims.get(action)
    if claim:
        params["card"] = card_name(claim)
        text = _("%(player)s claims the %(card)s for %(action)s: %(effect)s.") % params
    elif action in ctx.rulebook.disclaims:
        params["card"] = card_name(ctx.rulebook.disclaims[action])
        text = _("%(player)s claims to hold no %(card)s for %(action)s: %(effect)s.") % params
    else:
        text = _("%(player)s chose %(action)s: %(effect)s.") % params
    if pending.get("blocker"):
        text += " " + _("%(player)s blocks as %(card)s.") % {
            "player": ctx.name(pending["blocker"]),
            "card": card_name(pending.get("block_card")),
        }
    if pending.get("challenger"):
        text += " " + _("%(player)s challenges %(claimant)s.") % {
            "player": ctx.name(pending["challenger"]),
            "claimant": ctx.name(pending.get("challenged")),
        }
    return text


def _answers(view: dict, names: dict) -> dict | None:
    """Who has let the claim on the table pass and who is still to answer it, while
    the other players are asked whether to challenge or block."""
    pending = view.get("pending")
    asked = {entry["player"]: entry["decision"] for entry in view.get("awaiting", [])}
    if not pending or view.get("winner") or not set(asked.values()) & {"respond", "block"}:
        return None
    claimant = pending.get("blocker") or pending.get("player")
    others = [p["name"] for p in view["players"] if p["alive"] and p["name"] != claimant]
    return {
        "passed": [names.get(p, p) for p in others if p not in asked],
        "waiting": [names.get(p, p) for p in others if p in asked],
    }


def face_down(count: int) -> str:
    return ngettext("%(hidden)s face-down card", "%(hidden)s face-down cards", count) % {"hidden": count}


def _decision_note(view: dict, viewer, names: dict, me: dict | None, decision: str | None) -> str:
    """The coins that matter to the reader's decision, beside it: theirs, and those
    of the player the action on the table aims at when that is someone else (what
    a Steal would take, whether an Assassination's target could strike back)."""
    if me is None or decision is None:
        return ""
    note = _("You have %(coins)s.") % {"coins": coins(me["coins"])}
    target = (view.get("pending") or {}).get("target")
    if target and target != viewer:
        held = next(entry["coins"] for entry in view["players"] if entry["name"] == target)
        note += " " + _("%(player)s has %(coins)s.") % {"player": names.get(target, target), "coins": coins(held)}
    return note


def _forced_coup(me: dict | None, decision: str | None) -> str:
    """Why a player with 10 coins or more is offered only a Coup."""
    if me is None or decision != "turn" or me["coins"] < FORCED_COUP_COINS:
        return ""
    return _("You have %(coins)s: with %(forced)s or more, the rules allow only a Coup.") % {
        "coins": coins(me["coins"]),
        "forced": coins(FORCED_COUP_COINS),
    }


def _shown(view, viewer, names):
    """The card shown in an examination, for the two players who may see it."""
    pending = view.get("pending") or {}
    if "shown" not in pending or viewer is None:
        return None
    return {
        "card": pending["shown"],
        "by": names.get(pending.get("target"), pending.get("target")),
        "to": names.get(pending.get("player"), pending.get("player")),
        "you_showed": viewer == pending.get("target"),
    }


def _inheritance(view, names):
    estate = view.get("inheritance")
    if not estate:
        return None
    return {
        "player": names.get(estate["player"], estate["player"]),
        "coins": estate["coins"],
        "claimants": [names.get(c, c) for c in estate["claimants"]],
    }
