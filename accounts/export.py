"""A player's data, to take away: one zip holding ``data.json`` and ``README.md``,
the description of its fields (``templates/accounts/export-readme.txt``).

A zip rather than the JSON alone: the README travels with the data it explains,
readable without any program, and years of games compress to a tenth of their
size (``benchmarks/data_export.py`` measures it).

It is built by a worker (``games.tasks.build_data_export``), since a long-time
player's thousand games take seconds to tell; kept as one row until
``EXPORT_KEPT`` after it was asked for; offered through a signed link that
expires then, and that only its owner may follow; and announced by email once ready.

Hidden information: each game's events are given as the player's own seat saw
them (``Event.visible_to``: the secret part of an event only when their seat
was told it), and the table at the end is the engine's view for their seat
(``Rules.view``), never the omniscient one, so no other seat's face-down card
nor the court's order is in the file, finished game or not.
"""

import io
import json
import zipfile
from dataclasses import dataclass
from datetime import date, timedelta

from allauth.account.models import EmailAddress
from django.core import signing
from django.db import transaction
from django.db.models import Model
from django.template.loader import render_to_string
from django.utils import timezone, translation

from accounts.models import DataExport, Holiday, profile_of
from games.engine.events import Event as EngineEvent
from games.kinds import KINDS
from games.models import Block, ChatMessage, Follow, Seat, SeatResult
from games.selectors import display_name, own_names, seats_of, stand_ins_of
from games.selectors.results import statistics
from games.services import notifications
from ratings.models import Rating, RatingChange

EXPORT_KEPT = timedelta(days=7)
EXPORT_SALT = "accounts.data-export"
EXPORT_FORMAT = 1


def data_export_request(*, user) -> DataExport:
    """``user`` asks for their data: a new export, built by a worker after the
    commit. Exports past their time (anyone's) are deleted meanwhile."""
    with transaction.atomic():
        data_exports_forget()
        export = DataExport.objects.create(user=user)
        notifications.data_export_requested(export)
    return export


def data_exports_forget() -> int:
    """Delete the exports past their time, whose links no longer open: a copy of
    someone's data is kept no longer than it can be downloaded. Their count."""
    deleted, _by_model = DataExport.objects.filter(requested_at__lt=timezone.now() - EXPORT_KEPT).delete()
    return deleted


def data_export_build(*, export_id: int) -> bool:
    """Build the zip of export ``export_id``; False when it is gone (its owner left)
    or built already (a task delivered twice)."""
    export = DataExport.objects.select_related("user__profile").filter(pk=export_id, ready_at=None).first()
    if export is None:
        return False
    archive = data_archive(export.user)
    with transaction.atomic():
        built = DataExport.objects.filter(pk=export_id, ready_at=None).update(archive=archive, ready_at=timezone.now())
        if built:
            notifications.data_export_ready(export)
    return bool(built)


def data_archive(user) -> bytes:
    """The zip of ``user``'s data, its texts in their language."""
    with translation.override(profile_of(user).language):
        data = player_data(user)
        readme = render_to_string("accounts/export-readme.txt", {"format": EXPORT_FORMAT})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("data.json", json.dumps(data, ensure_ascii=False, indent=1, default=str))
        archive.writestr("README.md", readme)
    return buffer.getvalue()


def player_data(user) -> dict:
    """Everything ``user`` may take away (the README's fields)."""
    profile = profile_of(user)
    return {
        "format": EXPORT_FORMAT,
        "exported_at": timezone.now().isoformat(),
        "profile": {
            "email": user.email,
            "addresses": [
                {"email": address.email, "verified": address.verified, "primary": address.primary}
                for address in EmailAddress.objects.filter(user=user).order_by("pk")
            ],
            "display_name": profile.display_name,
            "name_shown": profile.name,
            "joined_at": user.date_joined.isoformat(),
            "last_sign_in": user.last_login.isoformat() if user.last_login else None,
            "language": profile.language,
            "time_zone": profile.time_zone,
            "email_mode": profile.email_mode,
            "practice_emails": profile.practice_emails,
            "digest_hour": profile.digest_hour,
            "quiet_nights": {"on": profile.quiet_nights, "from": profile.quiet_from, "until": profile.quiet_until},
            "holidays": [
                {"first_day": h.first_day.isoformat(), "last_day": h.last_day.isoformat(), "status": h.status}
                for h in Holiday.objects.filter(user=user)
            ],
            "follows": [
                {"game": follow.game_id} if follow.game_id else {"player": display_name(follow.followed)}
                for follow in Follow.objects.filter(user=user).select_related("followed__profile")
            ],
            "blocked": [display_name(block.blocked) for block in Block.objects.filter(blocker=user)],
        },
        "games": [_game_data(seat) for seat in _seats(user)],
        "chat": [
            {
                "game": message.game_id,
                "audience": message.audience,
                "at": message.created_at.isoformat(),
                "text": message.text,
                "hidden_by_staff": message.hidden_at is not None,
            }
            for message in ChatMessage.objects.filter(user=user).order_by("created_at", "pk")
        ],
        "statistics": _plain(statistics(user)),
        "ratings": [
            {"game": rating.kind, "rating": rating.shown, "rated_games": rating.games}
            for rating in Rating.objects.filter(user=user).order_by("kind")
        ],
        "rating_changes": [
            {
                "game": c.game_id,
                "kind": c.kind,
                "at": c.finished_at.isoformat(),
                "before": c.shown_before,
                "after": c.shown_after,
            }
            for c in RatingChange.objects.filter(user=user).order_by("id")
        ],
    }


def _plain(value):
    """The statistics page's figures as plain JSON: names and numbers, never the
    accounts the page links to (another player's account holds their login)."""
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items() if not isinstance(item, Model)}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value if not isinstance(item, Model)]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, date):
        return value.isoformat()
    return str(value)  # a translated text, read in the player's language


def _seats(user) -> list[Seat]:
    seats = Seat.objects.filter(user=user).select_related("game", "result")
    return list(seats.order_by("game__created_at", "game_id"))


def _game_data(seat: Seat) -> dict:
    game = seat.game
    rules = KINDS[game.kind].rules
    seats = seats_of(game)
    stored = list(game.events.order_by("seq").values_list("seq", "payload", "created_at"))
    events = [EngineEvent.from_json(payload) for _seq, payload, _at in stored]
    result = getattr(seat, "result", None)
    data = {
        "id": game.pk,
        "game": game.kind,
        "variants": game.variants,
        "status": game.status,
        "created_at": game.created_at.isoformat(),
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "your_seat": seat.player,
        "players": {other.player: display_name(other.user) for other in seats},
        "result": _result_data(result) if result else None,
        "history": [],
        "events": [
            {"seq": seq, "at": at.isoformat(), "type": event.type, **event.visible_to(seat.player)}
            for (seq, _payload, at), event in zip(stored, events, strict=True)
        ],
        "your_view": None,
    }
    if events:
        state = rules.replay(events)
        data["your_view"] = rules.view(state, seat.player)
        # Told from the events read above, as ``history.full`` tells them from the log.
        logged = [{**payload, "seq": seq} for seq, payload, _at in stored]
        told = KINDS[game.kind].history.lines(logged, seat.player, own_names(seats), stand_ins_of(game, seats))
        data["history"] = [line.text for line in told]
    return data


def _result_data(result: SeatResult) -> dict:
    return {
        "place": result.place,
        "players": result.players,
        "moves": result.moves,
        "moves_by_a_stand_in": result.stand_in_moves,
        "deadlines_missed": result.deadlines_missed,
        "abandoned": result.abandoned,
        "counters": result.counters,
    }


# ---- the link -----------------------------------------------------------------------------


def export_token(export: DataExport) -> str:
    return signing.dumps({"e": export.pk, "u": export.user_id}, salt=EXPORT_SALT)


@dataclass(frozen=True)
class ExportLink:
    """What a download link gives its reader: the zip and its file name, or why
    not (``problem``: "expired", "not yours", "invalid", "not ready")."""

    archive: bytes = b""
    filename: str = ""
    problem: str = ""


def export_link_read(token: str, reader) -> ExportLink:
    """The zip ``token`` names, if ``reader`` owns it and it is still kept."""
    try:
        signed = signing.loads(token, salt=EXPORT_SALT, max_age=EXPORT_KEPT)
    except signing.SignatureExpired:
        return ExportLink(problem="expired")
    except signing.BadSignature:
        return ExportLink(problem="invalid")
    if signed["u"] != reader.pk:
        return ExportLink(problem="not yours")
    export = DataExport.objects.filter(pk=signed["e"], user=reader).first()
    if export is None:
        return ExportLink(problem="expired")
    if export.ready_at is None or export.archive is None:
        return ExportLink(problem="not ready")
    filename = f"coup-by-email-data-{export.ready_at:%Y-%m-%d}.zip"
    return ExportLink(archive=bytes(export.archive), filename=filename)
