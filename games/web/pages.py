"""What the game pages show, built from ``selectors.table_for``.

The views stay thin: they fetch, call a service, and hand the dicts built here to
the templates. Nothing here reads the engine state directly: only the viewer's
``view`` (engine ``view()``), their options and their copy of the event log, so a
page can never show more than the engine let through for that viewer.
"""

import json

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import bot_label
from games.kinds import KINDS
from games.kinds.words import Line
from games.models import Game, SeatChange
from games.selectors import display_name


def table_context(table: dict) -> dict:
    """The template context of the game page (and its live partial): what every
    game shares here, the table itself from the game's kind (``games.kinds``)."""
    game = table["game"]
    view = table["view"]
    seat = table["seat"]
    names = table["names"]
    viewer = seat.player if seat else None
    presenter = KINDS[game.kind]
    context = {
        "game": game,
        "seat": seat,
        "names": names,
        "game_name": presenter.name,
        "variants": presenter.variants(game.variants),
        "rules": presenter.rules_summary(game.variants),
        "situation_template": presenter.situation_template,
        "table_template": presenter.table_template,
        "resign_note": presenter.resign_note,
        "answer_template": presenter.answer_template,
        "reference_template": presenter.reference_template,
        **presenter.static_context(game.variants),
    }
    if view is None:
        return context
    awaiting = {entry["player"]: entry["decision"] for entry in view.get("awaiting", [])}
    users = {s.player: s.user for s in table["seats"]}
    decision = awaiting.get(viewer) if viewer else None
    winners = view.get("winner")
    winners = winners if isinstance(winners, list) else [winners] if winners else []
    ctx = presenter.labeler(view, viewer, names, game.variants)
    context.update(presenter.table(view, viewer, names, game, users, awaiting))
    context.update(
        {
            "view": view,
            "waiting_for": [
                {"name": names.get(player, player), "prompt": presenter.decision_prompt(kind), "you": player == viewer}
                for player, kind in awaiting.items()
            ],
            "decision": decision,
            "prompt": presenter.decision_prompt(decision) if decision else "",
            "option_groups": option_groups(presenter, table["options"], ctx, decision) if decision else [],
            "turns": turns(history_lines(game, presenter, table["events"], viewer, names)),
            "winner": ", ".join(names.get(w, w) for w in winners) if winners else None,
            "you_won": viewer is not None and viewer in winners,
        }
    )
    return context


def option_groups(presenter, options: list, ctx, decision: str) -> list[dict]:
    """The viewer's legal answers as buttons: label, style, and the form fields
    (the command as JSON and the decision version it answers)."""
    groups: list[dict] = []
    for option in options:
        version = option.get("version")
        command = {key: value for key, value in option.items() if key != "version"}
        title = presenter.option_group(command, decision)
        if not groups or groups[-1]["title"] != title:
            groups.append({"title": title, "buttons": []})
        groups[-1]["buttons"].append(
            {
                "label": presenter.option_label(command, ctx, decision),
                "style": presenter.option_style(command),
                "command": json.dumps(command, sort_keys=True, separators=(",", ":")),
                "version": version,
            }
        )
    return groups


def turns(lines: list[Line]) -> list[dict]:
    """The history grouped by turn, the latest turn first (sentences in order)."""
    grouped: list[dict] = [{"lines": []}]
    for line in lines:
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


def invitations_shown(game: Game, viewer) -> list[dict]:
    """The game's invitations as ``viewer`` may see them: a rematch's invited
    accounts by their display names; an address only to the host who typed it.
    No player ever learns another's address here."""
    shown = []
    for invitation in game.invitations.select_related("user__profile").order_by("created_at"):
        invited = invitation.invited_account
        if invited is not None:
            who = display_name(invited)
        elif invitation.invited_by_id == viewer.pk:
            who = invitation.email
        else:
            continue
        shown.append({"who": who, "status": invitation.get_status_display()})
    return shown


def game_summary(game: Game) -> dict:
    """What a game is, for the dashboard, the join page and the waiting room."""
    presenter = KINDS[game.kind]
    return {
        "game": game,
        "game_name": presenter.name,
        "rules": presenter.rules_summary(game.variants),
        "host": display_name(game.host),
        "variants": presenter.variant_names(game.variants),
        "taken": game.seats.count(),
        "turn": _duration(game.turn_seconds),
        "response": _duration(game.response_seconds),
    }


def _duration(seconds: int) -> str:
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



def history_lines(game: Game, presenter, events: list, viewer, names: dict) -> list[Line]:
    """The kind's sentences of ``events`` with, at their place, the bots taking
    seats over for absent players and those players coming back. A change made at
    version V came after event V - 1 and before event V: its line carries seq V and
    goes before that event's first sentence."""
    merged = []
    changes = _seat_change_lines(game)
    for line in presenter.history_lines(events, viewer, names):
        while changes and changes[0].seq <= line.seq:
            merged.append(changes.pop(0))
        merged.append(line)
    return merged + changes


def _seat_change_lines(game: Game) -> list[Line]:
    words = {"bot": bot_label(settings.BOT_STAND_IN_LEVEL)}
    sentences = {
        SeatChange.Change.MISSED: _("%(name)s missed their deadlines: %(bot)s plays for them."),
        SeatChange.Change.ASKED: _("%(name)s asked %(bot)s to play for them."),
        SeatChange.Change.BACK: _("%(name)s is back."),
    }
    return [
        Line(
            seq=change.version,
            text=sentences[change.change] % {**words, "name": display_name(change.seat.user)},
            kind="seat.changed",
        )
        for change in game.seat_changes.select_related("seat__user__profile")
    ]
