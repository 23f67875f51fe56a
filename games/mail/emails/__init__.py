"""The emails the service sends, one function each: registered as the Celery task
the services queue by name (``sending.email_task``), it takes ids, reads what it
tells, and sends. An email ``<name>`` is rendered from templates/emails/
<name>-subject.txt, <name>-body.txt and <name>-body.html in its reader's language
(``sending.Email``, which says what every email carries).

Every email about a game joins the game's thread, and its subject starts with what
it is ("Your move: ...", "News: ...", "Game over: ..."). A decision email offers
one signed link per legal answer and a Reply-To address that plays a written answer.

Adding an email takes its function here, decorated with ``email_task``, its three
templates, and the call that queues it by its name, ``games.tasks.<function>``
(``services/notifications.py``).
"""

from dataclasses import dataclass, field
from smtplib import SMTPException

from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from accounts.deletion_code import DELETION_CODE_MINUTES
from accounts.export import EXPORT_KEPT, export_token
from accounts.models import DataExport, EmailMode, Profile, profile_of
from accounts.selectors import account_of_address
from games import history
from games.engine.seats import seat_player
from games.history import History
from games.kinds import KINDS
from games.mail.emails.sending import Batch, Email, SharedTableBlocks, Unsent, absolute, email_task
from games.mail.tokens import answer_token, reply_address
from games.models import Event, Game, Invitation, Seat, SeatChange
from games.selectors import (
    Table,
    away_of,
    display_name,
    game_state,
    is_practice,
    own_names,
    player_names,
    seats_of,
    stand_in_name,
    stand_ins_of,
    table_for,
)
from games.selectors.results import final_order
from games.selectors.spectators import followers_of_result
from games.services.notifications import held_until, seat_notified, seats_notified
from games.services.play import DEFAULT_TAKEOVER
from outbox import services as outbox

# A game whose turns are shorter than this is played live, its page open, not at
# one's own pace: its invitation says so.
LIVE_UNDER = 3600


def _game_context(game: Game, names: dict | None = None) -> dict:
    """What every email about ``game`` says of it; ``names`` (``player_names``) when
    they are already read."""
    game_kind = KINDS[game.kind]
    situation_txt, situation_html = game_kind.templates.email_situation
    table_txt, table_html = game_kind.templates.email_table
    return {
        "game": game,
        "game_name": game_kind.name,
        "players": list((player_names(game) if names is None else names).values()),
        "game_url": absolute(reverse("game", args=[game.pk])),
        "situation_txt": situation_txt,
        "situation_html": situation_html,
        "table_txt": table_txt,
        "table_html": table_html,
    }


def _seat_context(seat: Seat, table: Table, *, others_only: bool = False) -> dict:
    """The email context of ``seat``'s player, from their ``table`` (``table_for``).
    Its news is what happened since the player's last email (with ``others_only``,
    what the other players and the game did: a decision email's "since your last
    move"); ``news_earlier`` when some of it is older than the latest turns."""
    view, told = table.played()
    reader = seat.player
    return {
        **_game_context(seat.game, table.names),
        "name": table.names[reader],
        "news": [line.text for line in told.since(seat.notified_version) if not (others_only and line.actor == reader)],
        "news_earlier": told.misses(seat.notified_version),
        "deadline": seat.game.deadline_at,
        "away": away_of(table.seats, reader),
        **table.game_kind.templates.email_context(view, reader, table.names),
    }


# ---- invitations -------------------------------------------------------------------------


@email_task
def send_invitation(invitation_id: int) -> None:
    """An invitation, to the address the host typed, or to the account a rematch
    invites (its address is never shown to anyone), in the invitee's language: their
    account's, when the typed address is one's, else the host's. It tells the game
    as the waiting room does: its variants, its seats and its time to answer."""
    invitation = Invitation.objects.select_related("game", "invited_by", "user__profile").get(pk=invitation_id)
    game = invitation.game
    game_kind = KINDS[game.kind]
    invited = invitation.invited_account
    reader = invited or account_of_address(invitation.email)
    language = profile_of(reader or invitation.invited_by).language
    with translation.override(language):
        context = {
            "inviter": display_name(invitation.invited_by),
            "game": game,
            "link": absolute(reverse("invitation", args=[invitation.token])),
            "game_name": game_kind.name,
            "variants": [str(name) for name in game_kind.about.variant_names(game.variants)],
            "taken": game.seats.count(),
            "live": game.turn_seconds < LIVE_UNDER,
        }
    Email("invitation", invited.email if invited is not None else invitation.email, context, language).send()


# ---- what the game does ------------------------------------------------------------------


@dataclass
class UpdateEmails:
    """The emails some new events call for, by seat id."""

    decisions: list[tuple[int, int]] = field(default_factory=list)  # (seat id, decision version)
    started: list[int] = field(default_factory=list)
    eliminated: list[int] = field(default_factory=list)
    finished: list[int] = field(default_factory=list)


def emails_for_update(game: Game, before: int, after: int) -> UpdateEmails:
    """The emails that events ``before``..``after`` of ``game`` call for: a decision
    email to each player newly awaited (``send_decision``), and news of the start,
    an elimination or the end (``send_started``, ``send_eliminated``, ``send_finished``).
    A practice game (``is_practice``) calls only for the news of its end, unless
    its player asked for its emails (``Profile.practice_emails``).

    It reads the state now (the snapshot, not a replay of the log) and only the new
    events. When more was played since, the decisions those events asked for that
    are still awaited get their email here, and the later events' own update sends
    the rest (and the end of the game), so no email goes twice."""
    rules = KINDS[game.kind].rules
    state = game_state(game)
    asked = {player: version for player, _decision, version in rules.awaiting(state) if before <= version < after}
    outs = Event.objects.filter(game=game, seq__gte=before, seq__lt=after, type__in=rules.out_events)
    eliminated = {payload["data"]["player"] for payload in outs.values_list("payload", flat=True)}
    finished = rules.is_over(state) and game.version <= after
    found = UpdateEmails()
    # Only the columns read (no account or profile objects built); an account with
    # no profile yet has the profile's defaults.
    seats = list(
        Seat.objects.filter(game=game).values_list(
            "pk",
            "position",
            "stand_in",
            "user__profile__email_mode",
            "user__profile__practice_emails",
            "user__profile__away_until",
        )
    )
    practice = is_practice(game)
    for seat_id, position, stand_in, mode, practice_emails, away_until in seats:
        player = seat_player(position)
        mode = mode or Profile._meta.get_field("email_mode").default
        if mode == EmailMode.NONE:
            continue
        if finished:
            found.finished.append(seat_id)
        elif practice and not practice_emails:
            continue  # a practice game is played on its page: only its end is written, unless asked
        elif player in eliminated:
            found.eliminated.append(seat_id)
        elif player in asked and mode == EmailMode.EVERY and not stand_in:
            if away_until is None:  # else asked on their return (``send_decision_after_holiday``)
                found.decisions.append((seat_id, asked[player]))
        elif before == 0:
            found.started.append(seat_id)
    return found


def awaited_seat_ids(game: Game) -> list[int]:
    """The seats whose player the game waits for now."""
    awaited = {player for player, _decision, _version in KINDS[game.kind].rules.awaiting(game_state(game))}
    return [seat.pk for seat in game.seats.all() if seat.player in awaited]


@email_task
def send_decision(seat_id: int, decision_version: int) -> None:
    """Ask a player for a decision, with one link per legal answer (a player who had
    the game's page open, later). Sends nothing if the decision has passed by the
    time the email would leave."""
    _ask_alone(seat_id, decision_version, reminder=False)


@email_task
def send_reminder(seat_id: int, version: int) -> None:
    """Remind a player of the decision the game waits for from them, if it still does."""
    seat = Seat.objects.select_related("game").get(pk=seat_id)
    awaited = {p: v for p, _decision, v in KINDS[seat.game.kind].rules.awaiting(game_state(seat.game))}
    if seat.player in awaited:
        _ask_alone(seat_id, awaited[seat.player], reminder=True)


@email_task
def send_decision_after_holiday(seat_id: int, version: int) -> None:
    """Ask a player back from holiday for the decision of ``version``, which no
    email asked them while they were away, if they want decision emails and it is
    still awaited (``_ask``)."""
    seat = Seat.objects.select_related("game", "user__profile").get(pk=seat_id)
    profile = profile_of(seat.user)
    if profile.email_mode != EmailMode.EVERY or (is_practice(seat.game) and not profile.practice_emails):
        return
    _ask_alone(seat_id, version, reminder=False)


@email_task
def send_decisions(game_id: int, decisions: list) -> None:
    """Ask players of one game for their decisions (``[seat id, decision version]``
    each): the decision emails of one update, in one task that reads the game once
    (``_ask``). When the mail server fails midway, its retry sends those not sent."""
    _ask(game_id, decisions, reminder=False)


def _ask_alone(seat_id: int, decision_version: int, *, reminder: bool) -> None:
    game_id = Seat.objects.values_list("game_id", flat=True).get(pk=seat_id)
    try:
        _ask(game_id, [(seat_id, decision_version)], reminder=reminder)
    except Unsent as unsent:
        error = unsent.__cause__
        assert error is not None, "a batch fails from the mail server's error"
        raise error from None  # one email: retried whole, like any other


def _ask(game_id: int, decisions: list, *, reminder: bool) -> None:
    """Ask players of one game for their decisions (``(seat id, decision version)``
    each), one email each, every one exactly what that seat's email alone would be.

    What the emails share is read once: the game, its seats with their players'
    profiles, its state (the snapshot parsed once), which addresses refuse all
    email (``Batch``), and the readers' histories (``history.latest_of``, once per
    language); the public table block is rendered once per language
    (``SharedTableBlocks``). Each email is then built from its reader's own table
    (``table_for``: their view, answers and history), so it holds only what that
    player may see. A player whose decision has passed by the time their email
    would leave gets none. The players emailed are marked notified in one update,
    also when the mail server fails midway; then ``Unsent`` names, as
    ``send_decisions``' arguments, the emails still to send."""
    game = Game.objects.get(pk=game_id)
    seats = seats_of(game)
    by_id = {seat.pk: seat for seat in seats}
    asked = [(by_id[seat_id], version) for seat_id, version in decisions if seat_id in by_id]
    if not asked:
        return
    state = game_state(game)
    table_blocks = SharedTableBlocks(KINDS[game.kind].templates)
    histories: dict[int, History] = {}  # by seat id: each reader's history, in their language
    for language in {profile_of(seat.user).language for seat, _version in asked}:
        readers = [seat for seat, _version in asked if profile_of(seat.user).language == language]
        with translation.override(language):
            players = [seat.player for seat in readers]
            told = history.latest_of(game, players, own_names(seats), stand_ins=stand_ins_of(game, seats))
        histories.update((seat.pk, told[seat.player]) for seat in readers)
    notified, done = [], 0
    try:
        with Batch(seat.user.email for seat, _version in asked) as batch:
            for seat, version in asked:
                with translation.override(profile_of(seat.user).language):
                    table = table_for(game, seat.user, seats=seats, state=state, told=histories[seat.pk])
                    email = _decision_email(seat, version, table, reminder=reminder, table_blocks=table_blocks)
                if email is not None:
                    batch.send(email)
                    notified.append(seat.pk)
                done += 1
    except (SMTPException, OSError) as error:
        raise Unsent(game_id, [[seat.pk, version] for seat, version in asked[done:]]) from error
    finally:
        seats_notified(seat_ids=notified, version=game.version)


def _decision_email(
    seat: Seat, decision_version: int, table: Table, *, reminder: bool, table_blocks: SharedTableBlocks
) -> Email | None:
    """The email asking ``seat``'s player for the decision of ``decision_version``,
    from their ``table``, in the active language; None when that decision is no
    longer awaited."""
    if table.version != decision_version:
        return None
    context = {
        **_seat_context(seat, table, others_only=True),
        "reminder": reminder,
        "prompt": table.prompt,
        "waits_for": table.waits_for,
        "buttons": [
            {
                "label": table.label(option),
                "url": absolute(reverse("answer", args=[answer_token(seat, decision_version, index)])),
            }
            for index, option in enumerate(table.options)
        ],
        "reply_words": [table.reply_word(option) for option in table.options],
    }
    context.update(table_blocks.rendered(context))
    language = profile_of(seat.user).language
    return Email("decision", seat.user, context, language, thread=seat.game, reply_to=reply_address(seat))


def _news(template: str, seat_id: int) -> None:
    seat = Seat.objects.select_related("game", "user__profile").get(pk=seat_id)
    language = profile_of(seat.user).language
    with translation.override(language):
        context = _seat_context(seat, table_for(seat.game, seat.user))
        if seat.game.winner_id:
            context["winner"] = display_name(seat.game.winner)
        if seat.game.status == Game.Status.FINISHED:  # a replay shows every hand: only once it is over
            context["replay_url"] = absolute(reverse("game_replay", args=[seat.game.pk]))
    Email(template, seat.user, context, language, thread=seat.game, reply_to=reply_address(seat)).send()
    seat_notified(seat=seat, version=seat.game.version)


@email_task
def send_started(seat_id: int) -> None:
    _news("started", seat_id)


@email_task
def send_eliminated(seat_id: int) -> None:
    _news("eliminated", seat_id)


@email_task
def send_finished(seat_id: int) -> None:
    _news("finished", seat_id)


@email_task
def send_followed_result(game_id: int, follower_id: int | None = None) -> None:
    """Tell each follower of a finished game, or of one of its players (a public
    game), its result: the final order and a link to watch it, no hand (their
    email preferences apply: none to a follower who wants no email). A follower
    in their quiet night is told at their morning, by this task for them alone
    (``follower_id``)."""
    game = Game.objects.select_related("winner__profile").get(pk=game_id)
    order = final_order(game)
    for follower in followers_of_result(game):
        if follower_id is not None and follower.pk != follower_id:
            continue
        profile = profile_of(follower)
        if profile.email_mode == EmailMode.NONE:
            continue
        morning = held_until(profile) if follower_id is None else None
        if morning is not None:
            outbox.send(send_followed_result.s(game_id, follower.pk), eta=morning)
            continue
        context = {
            **_game_context(game),
            "game_url": absolute(reverse("game_watch", args=[game.pk])),
            "winner": display_name(game.winner) if game.winner_id else "",
            "final_order": order,
        }
        Email("followed", follower, context, profile.language, thread=game).send()


@email_task
def send_stand_in(seat_id: int, news: str) -> None:
    """Tell a player that a bot plays for them until they are back (``news``
    "began"), and why: the deadlines they missed, or their own request (the seat's
    latest change); or that it answered a decision of theirs for the first time
    ("played"). A practice game tells it only to a player who asked for its emails."""
    seat = Seat.objects.select_related("game", "user__profile").get(pk=seat_id)
    profile = profile_of(seat.user)
    if profile.email_mode == EmailMode.NONE or not seat.stand_in:
        return
    if is_practice(seat.game) and not profile.practice_emails:
        return
    latest = seat.changes.order_by("-version", "-pk").values_list("change", flat=True).first()
    with translation.override(profile.language):  # the bot's name, in its reader's language
        bot = stand_in_name(seat)
    context = {
        **_game_context(seat.game),
        "news": news,
        "asked": latest == SeatChange.Change.ASKED,
        "missed": seat.game.options.get("takeover", DEFAULT_TAKEOVER),
        "bot": bot,
    }
    Email("stand-in", seat.user, context, profile.language, thread=seat.game).send()


@email_task
def announce_extension(game_id: int, seat_id: int, to: list[int] | None = None) -> None:
    """Tell the table that a player took their extra time: the players of the seats
    ``to`` (each quiet night's at its end), or all of them."""
    asker = Seat.objects.select_related("user").get(pk=seat_id)
    game = Game.objects.get(pk=game_id)
    told = game.seats.select_related("user__profile")
    for seat in told if to is None else told.filter(pk__in=to):
        profile = profile_of(seat.user)
        if profile.email_mode == EmailMode.NONE:
            continue
        context = {**_game_context(game), "asker": display_name(asker.user), "deadline": game.deadline_at}
        Email("extension", seat.user, context, profile.language, thread=game).send()


@email_task
def send_digest(user_id: int) -> bool:
    """The daily digest: one email listing the games waiting for a player who chose
    it (each game's number, players, the decision awaited, its deadline and a link).
    Sends nothing, and returns False, when the player chose other emails or no game
    waits for them."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.select_related("profile").get(pk=user_id)
    profile = profile_of(user)
    if profile.email_mode != EmailMode.DIGEST or profile.away_until is not None:
        return False  # away on holiday: no list of games waiting
    seats = Seat.objects.filter(user=user, game__status=Game.Status.ACTIVE).select_related("game")
    with translation.override(profile.language):
        waiting = []
        for seat in seats.order_by("game__deadline_at", "game_id"):
            game_kind = KINDS[seat.game.kind]
            awaited = {
                player: decision for player, decision, _version in game_kind.rules.awaiting(game_state(seat.game))
            }
            if seat.player in awaited:
                waiting.append(
                    {
                        **_game_context(seat.game),
                        "waits_for": game_kind.words.decision_prompt(awaited[seat.player]),
                        "deadline": seat.game.deadline_at,
                        "paused": seat.game.paused_remaining is not None,
                    }
                )
    if not waiting:
        return False
    context = {"name": profile.name, "games": waiting, "home_url": absolute(reverse("home"))}
    Email("digest", user, context, profile.language).send()
    return True


@email_task
def send_reply_unclear(seat_id: int, *, line: str, problem: str, reading: str = "") -> None:
    """Tell a player that the reply they wrote (``line``, its first line) was not
    played: what we read, why (``problem``, already in their language), and the
    answers legal now, each as written in a reply and with its label."""
    seat = Seat.objects.select_related("game", "user__profile").get(pk=seat_id)
    game = seat.game
    language = profile_of(seat.user).language
    with translation.override(language):
        table = table_for(game, seat.user)
        context = {
            **_game_context(game),
            "name": table.names[seat.player],
            "line": line,
            "problem": problem,
            "reading": reading,
            "prompt": table.prompt,
            "answers": [{"word": table.reply_word(option), "label": table.label(option)} for option in table.options],
        }
    reply_to = reply_address(seat)
    Email(
        "reply-unclear", seat.user, context, language, thread=game, reply_to=reply_to, auto_submitted="auto-replied"
    ).send()


# ---- the address itself ------------------------------------------------------------------


@email_task
def send_mail_test(user_id: int) -> None:
    """The test email a player asked for from the banner that says mail to their
    address fails: if it arrives, their address works again."""
    user = get_user_model().objects.select_related("profile").get(pk=user_id)
    language = profile_of(user).language
    context = {"game_url": absolute(reverse("home")), "address": user.email}
    Email("mail-test", user, context, language).send()


# ---- leaving, and one's data ---------------------------------------------------------------


@email_task
def send_deletion_code(user_id: int, code: str) -> None:
    """The code a player without a password types to confirm deleting their account."""
    user = get_user_model().objects.select_related("profile").filter(pk=user_id, is_active=True).first()
    if user is None:
        return  # deleted meanwhile
    context = {"code": code, "minutes": DELETION_CODE_MINUTES, "delete_url": absolute(reverse("account_delete"))}
    Email("deletion-code", user, context, profile_of(user).language).send()


@email_task
def send_data_export_ready(export_id: int) -> None:
    """The link to a player's data, once a worker has built it."""
    export = DataExport.objects.select_related("user__profile").filter(pk=export_id).first()
    if export is None:
        return  # its owner deleted their account meanwhile
    context = {
        "download_url": absolute(reverse("data_export_download", args=[export_token(export)])),
        "days": EXPORT_KEPT.days,
    }
    Email("data-export", export.user, context, profile_of(export.user).language).send()


# ---- the lobby -----------------------------------------------------------------------------


@email_task
def send_open_game_unfilled(game_id: int) -> None:
    """Tell the host of an open game that did not fill in the time they chose that
    they may start it with bots in the empty seats, before it is cancelled."""
    game = Game.objects.select_related("host__profile").get(pk=game_id)
    if game.status != Game.Status.GATHERING:
        return
    profile = profile_of(game.host)
    context = {
        **_game_context(game),
        "name": profile.name,
        "taken": game.seats.count(),
        "hours": settings.LOBBY_BOTS_OFFER_HOURS,
    }
    Email("open-unfilled", game.host, context, profile.language, thread=game).send()


@email_task
def send_open_game_cancelled(game_id: int) -> None:
    """Tell each player of an open game that never filled that it is cancelled."""
    game = Game.objects.get(pk=game_id)
    for seat in game.seats.select_related("user__profile"):
        profile = profile_of(seat.user)
        context = {**_game_context(game), "name": profile.name, "lobby_url": absolute(reverse("lobby"))}
        Email("open-cancelled", seat.user, context, profile.language, thread=game).send()
