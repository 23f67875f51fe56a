"""What the game pages show, built from ``selectors.table_for``.

The views stay thin: they fetch, call a service, and hand the dicts built here to
the templates. Nothing here reads the engine state directly: only the viewer's
``view`` (engine ``view()``), their options and their history (``games.history``), so a
page can never show more than the engine let through for that viewer.
"""

import json

from django.core.cache import caches
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.timesince import timeuntil
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from accounts.bounces import bouncing_among, normalized
from games.kinds import KINDS
from games.kinds.words import Line
from games.models import Game, Invitation, Seat, SeatChange
from games.selectors import Table, away_of, display_name, gathering, seat_changes_since, seats_of, stand_in_name
from games.templatetags.clock import duration

HOUR = 3600


def table_context(table: Table, chosen_action: str | None = None) -> dict:
    """The template context of the game page (and its live partial): what every
    game shares here, the table itself from the game's kind (``games.kinds``).
    ``chosen_action`` is the action the viewer picked as the first of two steps."""
    game, names, game_kind = table.game, table.names, table.game_kind
    title = _("Game #%(number)s · %(game)s") % {"number": game.pk, "game": game_kind.name}
    context = {
        "page_title": title,
        "game": game,
        "seat": table.seat,
        "names": names,
        "game_name": game_kind.name,
        "variant_names": game_kind.about.variant_names(game.variants),
        "situation_template": game_kind.templates.situation,
        "table_template": game_kind.templates.table,
        "resign_note": game_kind.about.resign_note,
        "answer_template": game_kind.templates.answer,
        "time_left": time_left(game.deadline_at) if game.deadline_at else "",
        "away": away_of(table.seats, table.viewer) if game.status == Game.Status.ACTIVE else [],
    }
    if table.view is None:
        return context
    view, told = table.played()
    users = {s.player: s.user for s in table.seats}
    groups = option_groups(table, chosen_action)
    winners = table.winners
    context.update(game_kind.templates.table_context(view, table.viewer, names, game, users, table.awaiting))
    seats_to_pick = _seats_to_pick(groups, context.get("players", []))
    context.update(
        {
            "view": view,
            "waiting_for": [
                {"name": names.get(player, player), "prompt": game_kind.words.onlooker_prompt(decision)}
                for player, decision in table.awaiting.items()
            ],
            "decision": table.decision,
            "page_title": _("Your move · %(title)s") % {"title": title} if table.decision else title,
            "prompt": table.prompt,
            "option_groups": groups,
            "seats_to_pick": seats_to_pick,
            "chosen_action": chosen_action if table.decision and any(g.get("chosen") for g in groups) else "",
            "turns": turns(with_seat_changes(game, told.lines, told.start, table.seats)),
            "earlier_turns": told.earlier,
            "winner": ", ".join(names.get(w, w) for w in winners) if winners else None,
            "you_won": table.viewer is not None and table.viewer in winners,
        }
    )
    return context


def static_panels(game: Game) -> dict:
    """The game page's panels that are the same for every game of its kind, variants
    and language: the card reference and the rules, rendered from those three alone
    (no game state, no viewer, no request), so that each process renders them once
    and serves them to every viewer of every such game (``CACHES["fragments"]``)."""
    key = f"panels:{game.kind}:{','.join(game.variants)}:{get_language()}"
    panels = caches["fragments"].get_or_set(key, lambda: _static_panels(game.kind, game.variants))
    assert panels is not None, "what is cached is what _static_panels made, a dict"
    return panels


def _static_panels(kind: str, variants: list[str]) -> dict:
    game_kind = KINDS[kind]
    templates = game_kind.templates
    context = {"rules": game_kind.about.rules_summary(variants), **templates.static_context(variants)}
    return {
        "reference_panel": render_to_string(templates.reference, context) if templates.reference else "",
        "rules_panel": render_to_string("games/_rules.html", context),
    }


def time_left(deadline) -> str:
    """The time to a deadline: in words ("2 hours, 5 minutes") while an hour or more
    is left, then to the second ("4:05"), as the page's countdown shows it."""
    seconds = max(0, int((deadline - timezone.now()).total_seconds()))
    if seconds >= HOUR:
        return timeuntil(deadline)
    return f"{seconds // 60}:{seconds % 60:02d}"


def option_groups(table: Table, chosen: str | None = None) -> list[dict]:
    """The viewer's legal answers as buttons (label, style, and the form fields: the
    command as JSON and the decision version it answers), in two steps where an
    action has several answers (a Steal from each player): first the action, as a
    ``pick`` (a plain GET form naming it), then, once ``chosen`` names it, only its
    answers, grouped by target when a target has several (a named character).
    No buttons when the game awaits nothing of the viewer."""
    decision = table.decision
    if decision is None:
        return []
    words = table.game_kind.words
    groups: list[dict] = []
    for option in table.options:
        version = option.get("version")
        command = {key: value for key, value in option.items() if key != "version"}
        title = words.option_group(command, decision)
        if not groups or groups[-1]["title"] != title:
            groups.append({"title": title, "acts": set(), "buttons": []})
        groups[-1]["acts"].add(command["act"])
        groups[-1]["buttons"].append(
            {
                "label": table.label(command),
                "style": words.option_style(command),
                "command": json.dumps(command, sort_keys=True, separators=(",", ":")),
                "version": version,
                "target": command.get("target"),
            }
        )
    steps = {group["acts"].pop(): group for group in groups if _two_steps(group)}
    if chosen in steps:
        return _by_target(steps[chosen], table.names)
    for act, group in steps.items():
        targeted = any(button["target"] for button in group["buttons"])
        group["pick"] = {
            "act": act,
            "style": group["buttons"][0]["style"],
            "label": (_("%(action)s — next, choose the target") if targeted else _("%(action)s — next, choose how"))
            % {"action": group["title"]},
        }
    return groups


def _two_steps(group: dict) -> bool:
    """A titled group of one action's several answers is chosen in two steps."""
    return bool(group["title"]) and len(group["acts"]) == 1 and len(group["buttons"]) > 1


def _by_target(group: dict, names: dict) -> list[dict]:
    """The second step: the chosen action's answers, under each target's name when
    a target has several (Declared Coup names a character too)."""
    targets = [button["target"] for button in group["buttons"]]
    if len(set(targets)) == len(targets):
        return [{**group, "chosen": True}]
    by_target: dict = {}
    for button in group["buttons"]:
        by_target.setdefault(button["target"], []).append(button)
    return [
        {"title": f"{group['title']} · {names.get(target, target)}", "buttons": buttons, "chosen": True}
        for target, buttons in by_target.items()
    ]


def _seats_to_pick(groups: list[dict], seats: list[dict]) -> bool:
    """Once a targeted action is chosen (the second step), its answers and the seats
    of the table meet: each target's button tells how their seat stands (``seat``,
    its coins and cards), and a seat that one answer aims at is itself a button
    for it (``pick``: the form it submits, the answer's words). Whether any is."""
    chosen = [button for group in groups if group.get("chosen") for button in group["buttons"] if button["target"]]
    by_player = {seat["player"]: seat for seat in seats}
    aimed = [button["target"] for button in chosen]
    for button in chosen:
        button["seat"] = by_player.get(button["target"])
        if aimed.count(button["target"]) == 1 and button["seat"] is not None:
            button["form"] = f"answer-{button['target']}"
            button["seat"]["pick"] = {"form": button["form"], "label": button["label"]}
    return any("form" in button for button in chosen)


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
    taken = {seat.position: seat for seat in seats_of(game)}
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
    accounts by their display names; an address only to the host who typed it,
    with ``bounced`` when mail to it bounces (so the invitation never arrived)
    and the invitation still waits. No player ever learns another's address here,
    nor anything of an address beyond whether the host's invitation reached it."""
    invitations = gathering.invitations_of(game)
    typed = [i.email for i in invitations if i.email and i.invited_by_id == viewer.pk]
    bouncing = bouncing_among(typed) if typed else set()
    shown = []
    for invitation in invitations:
        invited = invitation.invited_account
        bounced = False
        if invited is not None:
            who = display_name(invited)
        elif invitation.invited_by_id == viewer.pk:
            who = invitation.email
            pending = invitation.status == Invitation.Status.PENDING
            bounced = pending and normalized(invitation.email) in bouncing
        else:
            continue
        shown.append({"who": who, "status": invitation.get_status_display(), "bounced": bounced})
    return shown


def game_summary(game: Game) -> dict:
    """What a game is, for the dashboard, the join page and the waiting room."""
    game_kind = KINDS[game.kind]
    return {
        "game": game,
        "game_name": game_kind.name,
        "rules": game_kind.about.rules_summary(game.variants),
        "host": display_name(game.host),
        "variants": game_kind.about.variant_names(game.variants),
        "taken": gathering.seats_taken(game),
        "turn": duration(game.turn_seconds),
        "response": duration(game.response_seconds),
    }


def with_seat_changes(game: Game, lines: list[Line], start: int = 0, seats: list[Seat] | None = None) -> list[Line]:
    """``lines`` (a kind's sentences, of the events from ``start`` on) with, at their
    place, the bots taking seats over for absent players and those players coming
    back. A change made at version V came after event V - 1 and before event V: its
    line carries seq V and goes before that event's first sentence. ``seats``: the
    game's seats as ``seats_of`` reads them, when the caller already read them."""
    merged = []
    changes = _seat_change_lines(game, start, seats_of(game) if seats is None else seats)
    for line in lines:
        while changes and changes[0].seq <= line.seq:
            merged.append(changes.pop(0))
        merged.append(line)
    return merged + changes


def _seat_change_lines(game: Game, start: int, seats: list[Seat]) -> list[Line]:
    if all(seat.last_change is None or seat.last_change < start for seat in seats):
        return []  # none of them changed since ``start``
    sentences: dict[str, str] = {
        SeatChange.Change.MISSED: _("%(name)s missed their deadlines: %(bot)s plays for them."),
        SeatChange.Change.ASKED: _("%(name)s asked for a bot: %(bot)s plays for them."),
        SeatChange.Change.AWAY: _("%(name)s is away on holiday: %(bot)s plays for them."),
        SeatChange.Change.BACK: _("%(name)s is back."),
        SeatChange.Change.LEFT: _("%(name)s left the site: %(bot)s plays for them to the end."),
    }
    # The changes alone (no join): their players are among the seats already read.
    by_id = {seat.pk: seat for seat in seats}
    lines = []
    for seat_id, version, change in seat_changes_since(game, start):
        seat = by_id[seat_id]
        words = {"name": display_name(seat.user), "bot": stand_in_name(seat)}
        lines.append(Line(seq=version, text=sentences[change] % words, kind="seat.changed"))
    return lines
