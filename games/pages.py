"""What the game pages show, built from ``selectors.table_for``.

The views stay thin: they fetch, call a service, and hand the dicts built here to
the templates. Nothing here reads the engine state directly: only the viewer's
``view`` (engine ``view()``), their options and their copy of the event log, so a
page can never show more than the engine let through for that viewer.
"""

import json

from django.utils.translation import gettext as _

from games import history, labels
from games.models import Game
from games.selectors import display_name


def table_context(table: dict) -> dict:
    """The template context of the game page (and its live partial)."""
    game = table["game"]
    view = table["view"]
    seat = table["seat"]
    names = table["names"]
    viewer = seat.player if seat else None
    variants = game.variants
    context = {
        "game": game,
        "seat": seat,
        "names": names,
        "variants": [{"id": v, "name": labels.variant_name(v)} for v in variants],
        "rules": labels.rules_summary(variants),
        "characters": labels.characters(variants),
    }
    if view is None:
        return context
    ctx = labels.Context(view, viewer, names, variants)
    awaiting = {entry["player"]: entry["decision"] for entry in view.get("awaiting", [])}
    users = {s.player: s.user for s in table["seats"]}
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
    decision = awaiting.get(viewer) if viewer else None
    context.update(
        {
            "view": view,
            "players": players,
            "me": me,
            "factions": any(p["faction"] for p in players),
            "reserve": view.get("reserve", 0),
            "court_count": view["court"] if isinstance(view.get("court"), int) else len(view.get("court", [])),
            "waiting_for": [
                {"name": names.get(player, player), "prompt": labels.decision_prompt(kind), "you": player == viewer}
                for player, kind in awaiting.items()
            ],
            "pending": pending_summary(view, ctx),
            "shown": _shown(view, viewer, names),
            "inheritance": _inheritance(view, names),
            "decision": decision,
            "prompt": labels.decision_prompt(decision) if decision else "",
            "option_groups": option_groups(table["options"], ctx, decision) if decision else [],
            "turns": turns(table["events"], viewer, names),
            "winner": names.get(view.get("winner")) if view.get("winner") else None,
            "you_won": viewer is not None and view.get("winner") == viewer,
        }
    )
    return context


def option_groups(options: list, ctx: labels.Context, decision: str) -> list[dict]:
    """The viewer's legal answers as buttons: label, style, and the form fields
    (the command as JSON and the decision version it answers)."""
    groups: list[dict] = []
    for option in options:
        version = option.get("version")
        command = {key: value for key, value in option.items() if key != "version"}
        title = labels.option_group(command, decision)
        if not groups or groups[-1]["title"] != title:
            groups.append({"title": title, "buttons": []})
        groups[-1]["buttons"].append(
            {
                "label": labels.option_label(command, ctx, decision),
                "style": labels.option_style(command),
                "command": json.dumps(command, sort_keys=True, separators=(",", ":")),
                "version": version,
            }
        )
    return groups


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


def turns(events: list, viewer, names: dict) -> list[dict]:
    """The history grouped by turn, the latest turn first (sentences in order)."""
    grouped: list[dict] = [{"lines": []}]
    for line in history.lines(events, viewer, names):
        if line.turn and grouped[-1]["lines"]:
            grouped.append({"lines": []})
        grouped[-1]["lines"].append(line)
    grouped = [group for group in grouped if group["lines"]]
    grouped.reverse()
    return grouped


# ---- the waiting room and the dashboard ------------------------------------------------


def seats_context(game: Game) -> list[dict]:
    """Every seat of a gathering game, the empty ones too."""
    taken = {seat.position: seat for seat in game.seats.select_related("user", "user__profile")}
    return [
        {
            "position": position + 1,
            "name": display_name(taken[position].user) if position in taken else "",
            "host": position in taken and taken[position].user_id == game.host_id,
            "user_id": taken[position].user_id if position in taken else None,
        }
        for position in range(game.seat_count)
    ]


def game_summary(game: Game) -> dict:
    """What a game is, for the dashboard, the join page and the waiting room."""
    return {
        "game": game,
        "host": display_name(game.host),
        "variants": [labels.variant_name(v) for v in game.variants] or [_("Classic")],
        "taken": game.seats.count(),
        "turn": _duration(game.turn_seconds),
        "response": _duration(game.response_seconds),
    }


def _duration(seconds: int) -> str:
    from django.utils.translation import ngettext

    if seconds % 86400 == 0:
        days = seconds // 86400
        return ngettext("%(count)d day", "%(count)d days", days) % {"count": days}
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("%(count)d hour", "%(count)d hours", hours) % {"count": hours}
    if seconds % 60 == 0:
        minutes = seconds // 60
        return ngettext("%(count)d minute", "%(count)d minutes", minutes) % {"count": minutes}
    return ngettext("%(count)d second", "%(count)d seconds", seconds) % {"count": seconds}


def dashboard(user) -> dict:
    """The signed-in player's home page: see ``games/dashboard.py``."""
    from games import dashboard

    return dashboard.home(user)
