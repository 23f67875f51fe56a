"""Coup as the pages, emails and dashboard show it.

Coup's words live in ``games/labels.py`` (card and action names, decision
prompts, button labels, the rules of each variant) and ``games/history.py`` (the
story of a game); its reply vocabulary in ``games/presenters/coup_replies.py``.
This module builds Coup's table for the templates under ``templates/games/coup/``
and ``templates/emails/coup/``.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import history, labels
from games.engine.coup.cards import MAX_PLAYERS, MIN_PLAYERS


class CoupPresenter:
    kind = "coup"
    name = gettext_lazy("Coup")
    min_players, max_players, default_players = MIN_PLAYERS, MAX_PLAYERS, 4
    has_variants = True
    situation_template = "games/coup/_situation.html"
    table_template = "games/coup/_table.html"
    replay_template = "games/coup/_replay_table.html"
    answer_template = "games/coup/_answer.html"
    email_situation = ("emails/coup/_situation.txt", "emails/coup/_situation.html")
    email_table = ("emails/coup/_table.txt", "emails/coup/_table.html")
    resign_note = gettext_lazy("Your face-down cards are turned face up and the game goes on without you.")
    out_events = frozenset({"coup.player.eliminated"})  # the events that put a player out
    last_action_types = ("coup.action.declared",)  # the event that starts a turn's action

    # ---- words ---------------------------------------------------------------------------

    def decision_prompt(self, decision) -> str:
        return labels.decision_prompt(decision)

    def labeler(self, view, viewer, names, variants):
        return labels.Context(view, viewer, names, variants)

    def option_label(self, option, ctx, decision) -> str:
        return labels.option_label(option, ctx, decision)

    def option_style(self, option) -> str:
        return labels.option_style(option)

    def option_group(self, option, decision) -> str:
        return labels.option_group(option, decision)

    def history_lines(self, events, viewer, names):
        return history.lines(events, viewer, names)

    def rules_summary(self, variants=()) -> list[str]:
        return labels.rules_summary(variants)

    def variant_names(self, variants) -> list[str]:
        return [labels.variant_name(v) for v in variants] or [_("Classic")]

    def variants(self, variants) -> list[dict]:
        return [{"id": v, "name": labels.variant_name(v)} for v in variants]

    def static_context(self, variants) -> dict:
        return {"characters": labels.characters(variants)}

    # ---- the game page -------------------------------------------------------------------

    def table(self, view, viewer, names, game, users, awaiting) -> dict:
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
                "hidden_count": len(hand) if isinstance(hand, list) else hand,
                "drawn_count": len(drawn) if isinstance(drawn, list) else drawn,
                "revealed": entry["revealed"],
                "alive": entry["alive"],
                "faction": entry.get("faction"),
                "faction_name": labels.faction_name(entry.get("faction")) if entry.get("faction") else "",
                "turn": view.get("turn") == entry["name"],
                "winner": view.get("winner") == entry["name"],
                "deciding": labels.decision_prompt(awaiting[entry["name"]]) if entry["name"] in awaiting else "",
            }
            row["backs"] = range(row["hidden_count"])
            players.append(row)
            if own:
                # The viewer's own face-down cards: the only cards a page marks with data-card.
                me = {**row, "hand": list(hand), "drawn": list(drawn) if isinstance(drawn, list) else []}
        ctx = labels.Context(view, viewer, names, game.variants)
        return {
            "players": players,
            "me": me,
            "playing": bool(me and me["alive"]),
            "factions": any(p["faction"] for p in players),
            "reserve": view.get("reserve", 0),
            "court_count": view["court"] if isinstance(view.get("court"), int) else len(view.get("court", [])),
            "pending": pending_summary(view, ctx),
            "shown": _shown(view, viewer, names),
            "inheritance": _inheritance(view, names),
        }

    def replay_table(self, game, view, viewer, names) -> dict:
        """Every seat with its face-down cards shown, the court deck in order, and
        the action being resolved, in words."""
        awaiting = {entry["player"]: entry["decision"] for entry in view.get("awaiting", [])}
        players = [
            {
                "player": entry["name"],
                "name": names.get(entry["name"], entry["name"]),
                "you": entry["name"] == viewer,
                "coins": entry["coins"],
                "hand": list(entry["hand"]),
                "drawn": list(entry.get("drawn", [])),
                "revealed": list(entry["revealed"]),
                "alive": entry["alive"],
                "faction_name": labels.faction_name(entry["faction"]) if entry.get("faction") else "",
                "turn": view.get("turn") == entry["name"],
                "winner": view.get("winner") == entry["name"],
                "deciding": labels.decision_prompt(awaiting[entry["name"]]) if entry["name"] in awaiting else "",
            }
            for entry in view["players"]
        ]
        ctx = labels.Context(view, viewer, names, game.variants)
        return {
            "players": players,
            "court": list(view.get("court", [])),
            "aside": list(view.get("aside", [])),
            "pending": pending_summary(view, ctx),
        }

    # ---- emails --------------------------------------------------------------------------

    def email_context(self, view, viewer, names) -> dict:
        me = next(p for p in view["players"] if p["name"] == viewer)
        return {
            "hand": [labels.card_name(card) for card in me["hand"]] if isinstance(me["hand"], list) else [],
            "revealed": [labels.card_name(card) for card in me["revealed"]],
            "coins": me["coins"],
            "table": [
                {
                    "name": names.get(p["name"], p["name"]),
                    "coins": p["coins"],
                    "hidden": p["hand"] if isinstance(p["hand"], int) else len(p["hand"]),
                    "revealed": [labels.card_name(card) for card in p["revealed"]],
                    "alive": p["alive"],
                }
                for p in view["players"]
            ],
        }

    def reply_word(self, option: dict, names: dict) -> str:
        """How to write ``option`` in a reply: "steal ana", "block duke", "keep duke captain"."""
        words = [option["act"].replace("_", " ")]
        if "as" in option:
            words.append(option["as"])
        if "target" in option:
            words.append(names.get(option["target"], option["target"]).split()[0].lower())
        if "name" in option:
            words.append(option["name"])
        if "card" in option:
            words.append(option["card"])
        words.extend(option.get("cards", ()))
        return " ".join(words)

    def read_reply(self, line: str, table: dict, variants):
        from games.presenters import coup_replies

        return coup_replies.read_reply(self, line, table, variants)

    # ---- the dashboard -------------------------------------------------------------------

    def waits_for(self, decision: str, view: dict, viewer: str, names: dict) -> str:
        """What the game waits for from ``viewer``, as a button would say it: "Respond
        to Ben's Tax", "Choose a card to lose". Built from the viewer's own ``view``."""
        from django.utils.text import capfirst

        pending = view.get("pending") or {}
        estate = view.get("inheritance")

        def name(player):
            return names.get(player, player or "?")

        if decision == "turn":
            return _("Your turn: choose an action")
        if decision == "respond" and estate and not pending:
            return _("Respond to the Lawyer claims on %(player)s's coins") % {"player": name(estate["player"])}
        if decision == "respond" and pending.get("blocker"):
            return _("Respond to %(player)s's block as %(card)s") % {
                "player": name(pending["blocker"]),
                "card": labels.card_name(pending.get("block_card")),
            }
        if decision == "respond" and pending:
            return _("Respond to %(player)s's %(action)s") % {
                "player": name(pending.get("player")),
                "action": labels.action_name(pending.get("action")),
            }
        if decision == "block" and pending:
            return _("Decide whether to block %(player)s's %(action)s") % {
                "player": name(pending.get("player")),
                "action": labels.action_name(pending.get("action")),
            }
        if decision == "challenged":
            if pending.get("challenger") and pending.get("challenged") == viewer:
                return _("%(player)s challenges you: prove your claim or concede") % {"player": name(pending["challenger"])}
            return _("Prove your claim or concede")
        if decision == "lose":
            return _("Choose a card to lose")
        if decision == "keep":
            return _("Choose the cards to keep")
        if decision == "show" and pending:
            return _("Show a card to %(player)s") % {"player": name(pending.get("player"))}
        if decision == "examine" and pending:
            return _("Give the card back to %(player)s or make them swap it") % {"player": name(pending.get("target"))}
        if decision == "inheritance" and estate:
            return _("Claim %(player)s's coins as Lawyer, or decline") % {"player": name(estate["player"])}
        if decision == "draft":
            return _("Choose the card to keep")
        return capfirst(labels.decision_prompt(decision))

    def last_action(self, payload, names: dict, viewer: str) -> str:
        """"Ben: Steal from Ana", from a stored ``coup.action.declared`` event (its
        public ``data`` only; such events carry no secret part anyway)."""
        if not payload:
            return ""
        data = payload.get("data", {})
        action = labels.action_name(data.get("action"))
        player = _("You") if data.get("player") == viewer else names.get(data.get("player"), "?")
        target = data.get("target") or data.get("beneficiary")
        if target and target != data.get("player"):
            target_name = _("you") if target == viewer else names.get(target, "?")
            return _("%(player)s: %(action)s, on %(target)s") % {"player": player, "action": action, "target": target_name}
        return _("%(player)s: %(action)s") % {"player": player, "action": action}


def pending_summary(view: dict, ctx: labels.Context) -> str:
    """The action being resolved, in words: "Ana claims the Duke: Tax, 3 coins. Ben
    blocks as Contessa. Carla challenges Ben."."""
    pending = view.get("pending")
    if not pending:
        return ""
    action = pending.get("action")
    params = {
        "player": ctx.name(pending.get("player")),
        "action": labels.action_name(action),
        "effect": labels.pending_effect(ctx),
    }
    claim = ctx.table.claims.get(action)
    if claim:
        params["card"] = labels.card_name(claim)
        text = _("%(player)s claims the %(card)s for %(action)s: %(effect)s.") % params
    elif action == "embezzle":
        params["card"] = labels.card_name(ctx.table.embezzle_forbidden)
        text = _("%(player)s claims to hold no %(card)s for %(action)s: %(effect)s.") % params
    else:
        text = _("%(player)s chose %(action)s: %(effect)s.") % params
    if pending.get("blocker"):
        text += " " + _("%(player)s blocks as %(card)s.") % {
            "player": ctx.name(pending["blocker"]),
            "card": labels.card_name(pending.get("block_card")),
        }
    if pending.get("challenger"):
        text += " " + _("%(player)s challenges %(claimant)s.") % {
            "player": ctx.name(pending["challenger"]),
            "claimant": ctx.name(pending.get("challenged")),
        }
    return text


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


PRESENTER = CoupPresenter()
