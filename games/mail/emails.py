"""One function per email, rendered from templates/emails/<name>-subject.txt,
<name>-body.txt and <name>-body.html, in the recipient's language.

Every email about a game carries the game's thread headers (so a mail client
that threads by References files them together), a subject that starts with
what it is ("Your move: ...", "News: ...", "Game over: ..."), a text and an HTML part, and List-Unsubscribe headers
(RFC 8058 one-click): an account's unsubscribe, or for an invitation, which may
reach someone with no account, a link that stops all email to the address. No
email goes to an address that asked for none (``accounts.mail.mail_refused``).
A decision email offers one signed link per legal answer and a Reply-To address
that plays a written answer.
"""

import email.policy
import json
import logging
from dataclasses import dataclass, field
from email.headerregistry import HeaderRegistry, UnstructuredHeader
from email.utils import make_msgid
from smtplib import SMTPException

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, mailers
from django.template import Context
from django.template.loader import get_template, render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from accounts.mail import mail_refused, normalized, refusing_all
from accounts.models import EmailMode, Profile, bot_label, profile_of
from games import history
from games.engine.seats import seat_player
from games.kinds import KINDS
from games.mail.tokens import answer_token, reply_address, stop_token, unsubscribe_token
from games.models import Event, Game, Invitation, Seat
from games.selectors import display_name, game_state, player_names, seats_of, table_for
from games.services.notifications import seat_notified, seats_notified

log = logging.getLogger(__name__)


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def _domain() -> str:
    return settings.REPLY_ADDRESS.rsplit("@", 1)[-1]


def thread_id(game: Game) -> str:
    """The Message-ID every email about ``game`` refers to, so they thread together."""
    return f"<game-{game.pk}@{_domain()}>"


def _send(
    name: str,
    to: str,
    context: dict,
    *,
    language=None,
    game=None,
    user=None,
    reply_to=None,
    auto_submitted="auto-generated",
    refused: bool | None = None,
    tables: "SharedTables | None" = None,
    mailer=None,
) -> None:
    """Send the email ``name`` to ``to``: about ``user``'s account and games, or
    (``user`` None) an invitation to an address that may have no account.
    ``refused``: whether the address asked for no such email, when a batch read it
    already (``accounts.mail.refusing_all``); ``tables``: the table blocks a batch
    of emails shares; ``mailer``: the batch's open connection to the mail server."""
    if mail_refused(to, invitation=user is None) if refused is None else refused:
        log.info("Did not send %s: the address asked for no such email", name)
        return
    if user is not None and profile_of(user).bot_level:
        return  # a bot's account has no address and reads no email
    # Dates in the recipient's time zone (their profile's; UTC for an invitation's
    # address, which may have no account).
    zone = profile_of(user).time_zone if user is not None else None
    with translation.override(language or settings.LANGUAGE_CODE), timezone.override(zone):
        context = {**context, "site_url": settings.SITE_URL}
        if user is not None:
            context["unsubscribe_url"] = absolute(reverse("unsubscribe", args=[unsubscribe_token(user)]))
            context["preferences_url"] = absolute(reverse("profile"))
        else:
            context["unsubscribe_url"] = absolute(reverse("stop_mail", args=[stop_token(to)]))
        if tables is not None:
            context.update(tables.rendered(context))
        subject = " ".join(_render_text(f"emails/{name}-subject.txt", context).split())
        text = _render_text(f"emails/{name}-body.txt", context)
        html = render_to_string(f"emails/{name}-body.html", context)
    # Auto-Submitted (RFC 3834) keeps vacation responders from answering us.
    headers = {"Message-ID": make_msgid(domain=_domain()), "Auto-Submitted": auto_submitted}
    if game is not None:
        headers["In-Reply-To"] = headers["References"] = thread_id(game)
    headers["List-Unsubscribe"] = f"<{context['unsubscribe_url']}>"
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message = _Email(subject, text, to=[to], headers=headers, reply_to=[reply_to] if reply_to else None)
    message.attach_alternative(html, "text/html")
    if mailer is None:
        message.send()
    else:
        mailer.send_messages([message])


class _OneLineHeader(UnstructuredHeader):
    """A header written out as it is, on one line (RFC 5322 allows 998 characters)."""

    def fold(self, *, policy) -> str:
        return f"{self.name}: {self}{policy.linesep}"


class _Headers(HeaderRegistry):
    """The header classes of our emails.

    Python's email policies take a header they do not know for free text, and
    write a word too long to fold at a space (one ``<url>`` of about 100
    characters) as RFC 2047 encoded words: no mail client reads a URL out of
    those, so one-click unsubscribe (RFC 8058) would quietly fail everywhere.

    Each class is made once: the standard registry makes a new class at every
    look-up, two per header set, which was a sixth of building a message."""

    def __init__(self):
        super().__init__()
        self.map_to_type("list-unsubscribe", _OneLineHeader)
        self._made = {}

    def __getitem__(self, name):
        key = name.lower()
        if key not in self._made:
            self._made[key] = super().__getitem__(key)
        return self._made[key]


_HEADERS = _Headers()


class _Email(EmailMultiAlternatives):
    """An email built with our header classes (``_Headers``)."""

    def message(self, *, policy=email.policy.default):
        return super().message(policy=policy.clone(header_factory=_HEADERS))


class _Rendered:
    """A block rendered already, which ``{% include %}`` takes as it is."""

    def __init__(self, text: str):
        self.text = text

    def render(self, _context) -> str:
        return self.text


class SharedTables:
    """The table block of a batch of emails about one game, rendered once for each
    distinct input: the context values the kind's block reads
    (``Templates.email_table_reads``: the public table, the same for every reader of
    one game version) and the language. It is rendered from those values alone, so
    a reader is never shown a block built from anything private to another."""

    def __init__(self, templates):
        self.templates = templates
        self.blocks = {}

    def rendered(self, context: dict) -> dict:
        """The context's ``table_txt`` and ``table_html``, rendered."""
        read = {key: context[key] for key in self.templates.email_table_reads}
        key = (translation.get_language(), json.dumps(read, sort_keys=True, default=str))
        if key not in self.blocks:
            text_template, html_template = self.templates.email_table
            self.blocks[key] = {
                "table_txt": _Rendered(_render_text(text_template, read)),
                "table_html": _Rendered(render_to_string(html_template, read)),
            }
        return self.blocks[key]


def _render_text(template: str, context: dict) -> str:
    """A subject or a plain-text part: rendered without HTML escaping (its includes
    too), so a name reads "Ana's" there, not "Ana&#x27;s"."""
    return get_template(template).template.render(Context(context, autoescape=False))


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


# ---- invitations -------------------------------------------------------------------------


def send_invitation(invitation_id: int) -> None:
    """An invitation, to the address the host typed, or to the account a rematch
    invites (in its own language; its address is never shown to anyone)."""
    invitation = Invitation.objects.select_related("game", "invited_by", "user__profile").get(pk=invitation_id)
    inviter = invitation.invited_by
    invited = invitation.invited_account
    context = {
        "inviter": display_name(inviter),
        "game": invitation.game,
        "link": absolute(reverse("invitation", args=[invitation.token])),
        "game_name": KINDS[invitation.game.kind].name,
    }
    to = invited.email if invited is not None else invitation.email
    _send("invitation", to, context, language=profile_of(invited or inviter).language)


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
    # no profile yet has the profile's default mode.
    seats = Seat.objects.filter(game=game).values_list("pk", "position", "stand_in", "user__profile__email_mode")
    for seat_id, position, stand_in, mode in seats:
        player = seat_player(position)
        mode = mode or Profile._meta.get_field("email_mode").default
        if mode == EmailMode.NONE:
            continue
        if finished:
            found.finished.append(seat_id)
        elif player in eliminated:
            found.eliminated.append(seat_id)
        elif player in asked and mode == EmailMode.EVERY and not stand_in:
            found.decisions.append((seat_id, asked[player]))
        elif before == 0:
            found.started.append(seat_id)
    return found


def awaited_seat_ids(game: Game) -> list[int]:
    """The seats whose player the game waits for now."""
    awaited = {player for player, _decision, _version in KINDS[game.kind].rules.awaiting(game_state(game))}
    return [seat.pk for seat in game.seats.all() if seat.player in awaited]


def _seat_context(
    seat: Seat,
    *,
    others_only: bool = False,
    seats: list[Seat] | None = None,
    state=None,
    told=None,
) -> tuple[dict, dict]:
    """The table as this seat's player sees it, and the email context built from it.
    Its news is what happened since the player's last email (with ``others_only``,
    what the other players and the game did: a decision email's "since your last
    move"); ``news_earlier`` when some of it is older than the latest turns.
    ``seats``, ``state`` and ``told``: as for ``table_for``, when a batch read them."""
    game = seat.game
    table = table_for(game, seat.user, seats=seats, state=state, told=told)
    told, reader = table.history, seat.player
    context = {
        **_game_context(game, table.names),
        "name": table.names[reader],
        "news": [line.text for line in told.since(seat.notified_version) if not (others_only and line.actor == reader)],
        "news_earlier": told.misses(seat.notified_version),
        "deadline": game.deadline_at,
        **table.game_kind.templates.email_context(table.view, reader, table.names),
    }
    return table, context


class DecisionsUnsent(Exception):
    """The mail server failed (the exception's cause) before these decision
    emails left: ``decisions``, ``[seat id, decision version]`` each, are the ones
    to try again (those before them were sent, and are not sent twice)."""

    def __init__(self, decisions: list):
        super().__init__(f"{len(decisions)} decision emails not sent")
        self.decisions = decisions


def send_decision(seat_id: int, decision_version: int, *, reminder: bool = False) -> None:
    """Ask a player for a decision, with one link per legal answer. Sends nothing
    if the decision has passed by the time the email would leave."""
    game_id = Seat.objects.values_list("game_id", flat=True).get(pk=seat_id)
    try:
        send_decisions(game_id, [(seat_id, decision_version)], reminder=reminder)
    except DecisionsUnsent as unsent:
        raise unsent.__cause__ from None  # one email: retried whole, like any other


def send_decisions(game_id: int, decisions: list, *, reminder: bool = False) -> None:
    """Ask players of one game for their decisions (``(seat id, decision version)``
    each), one email each, every one exactly what ``send_decision`` sends that seat.

    What the emails share is read once: the game, its seats with their players'
    profiles, its state (the snapshot parsed once), which addresses refuse all
    email, and the readers' histories (``history.latest_of``, once per language);
    the public table block is rendered once per language (``SharedTables``). Each
    email is then built from its reader's own table (``table_for``: their view,
    answers and history), so it holds only what that player may see. A player
    whose decision has passed by the time their email would leave gets none.
    The players emailed are marked notified in one update, also when the mail server
    fails midway; then ``DecisionsUnsent`` names the emails still to send."""
    game = Game.objects.get(pk=game_id)
    seats = seats_of(game)
    by_id = {seat.pk: seat for seat in seats}
    asked = [(by_id[seat_id], version) for seat_id, version in decisions if seat_id in by_id]
    if not asked:
        return
    state = game_state(game)
    refusing = refusing_all(seat.user.email for seat, _version in asked)
    tables = SharedTables(KINDS[game.kind].templates)
    histories = {}  # by seat id: each reader's history, in their language
    for language in {profile_of(seat.user).language for seat, _version in asked}:
        readers = [seat for seat, _version in asked if profile_of(seat.user).language == language]
        with translation.override(language):
            told = history.latest_of(game, [seat.player for seat in readers], player_names(game, seats))
        histories.update((seat.pk, told[seat.player]) for seat in readers)
    notified, done = [], 0
    try:
        with mailers.default as mailer:  # one connection to the mail server for them all
            for seat, version in asked:
                if _ask(
                    seat,
                    version,
                    seats=seats,
                    state=state,
                    told=histories[seat.pk],
                    reminder=reminder,
                    refused=normalized(seat.user.email) in refusing,
                    tables=tables,
                    mailer=mailer,
                ):
                    notified.append(seat.pk)
                done += 1
    except (SMTPException, OSError) as error:
        raise DecisionsUnsent([[seat.pk, version] for seat, version in asked[done:]]) from error
    finally:
        seats_notified(seat_ids=notified, version=game.version)


def _ask(
    seat: Seat,
    decision_version: int,
    *,
    seats: list[Seat],
    state,
    told,
    reminder: bool,
    refused: bool,
    tables: SharedTables,
    mailer,
) -> bool:
    """``send_decisions``' email to one seat; False (nothing sent) when the
    decision of ``decision_version`` is no longer awaited."""
    game = seat.game
    language = profile_of(seat.user).language
    with translation.override(language):
        table, context = _seat_context(seat, others_only=True, seats=seats, state=state, told=told)
        if table.version != decision_version:
            return False
        context.update(
            reminder=reminder,
            prompt=table.prompt,
            waits_for=table.waits_for,
            buttons=[
                {
                    "label": table.label(option),
                    "url": absolute(reverse("answer", args=[answer_token(seat, decision_version, index)])),
                }
                for index, option in enumerate(table.options)
            ],
            reply_words=[table.reply_word(option) for option in table.options],
        )
    _send(
        "decision",
        seat.user.email,
        context,
        language=language,
        game=game,
        user=seat.user,
        reply_to=reply_address(seat),
        refused=refused,
        tables=tables,
        mailer=mailer,
    )
    return True


def send_reminder(seat_id: int, version: int) -> None:
    seat = Seat.objects.select_related("game").get(pk=seat_id)
    awaited = {p: v for p, _decision, v in KINDS[seat.game.kind].rules.awaiting(game_state(seat.game))}
    if seat.player in awaited:
        send_decision(seat_id, awaited[seat.player], reminder=True)


def _news(name: str, seat_id: int) -> None:
    seat = Seat.objects.select_related("game", "user__profile").get(pk=seat_id)
    language = profile_of(seat.user).language
    with translation.override(language):
        _table, context = _seat_context(seat)
        if seat.game.winner_id:
            context["winner"] = display_name(seat.game.winner)
    _send(
        name, seat.user.email, context, language=language, game=seat.game, user=seat.user, reply_to=reply_address(seat)
    )
    seat_notified(seat=seat, version=seat.game.version)


def send_started(seat_id: int) -> None:
    _news("started", seat_id)


def send_eliminated(seat_id: int) -> None:
    _news("eliminated", seat_id)


def send_finished(seat_id: int) -> None:
    _news("finished", seat_id)


def send_stand_in(seat_id: int, news: str) -> None:
    """Tell a player that a bot plays for them until they are back (``news``
    "began"), or that it answered a decision of theirs for the first time ("played")."""
    seat = Seat.objects.select_related("game", "user__profile").get(pk=seat_id)
    profile = profile_of(seat.user)
    if profile.email_mode == EmailMode.NONE or not seat.stand_in:
        return
    context = {**_game_context(seat.game), "news": news, "level": bot_label(seat.stand_in)}
    _send("stand-in", seat.user.email, context, language=profile.language, game=seat.game, user=seat.user)


def send_extension(game_id: int, seat_id: int) -> None:
    """Tell the table that a player took their extra time."""
    asker = Seat.objects.select_related("user").get(pk=seat_id)
    game = Game.objects.get(pk=game_id)
    for seat in game.seats.select_related("user__profile"):
        profile = profile_of(seat.user)
        if profile.email_mode == EmailMode.NONE:
            continue
        context = {**_game_context(game), "asker": display_name(asker.user), "deadline": game.deadline_at}
        _send("extension", seat.user.email, context, language=profile.language, game=game, user=seat.user)


def send_digest(user_id: int) -> bool:
    """The daily digest: one email listing the games waiting for a player who chose
    it (each game's number, players, the decision awaited, its deadline and a link).
    Sends nothing, and returns False, when the player chose other emails or no game
    waits for them."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.select_related("profile").get(pk=user_id)
    profile = profile_of(user)
    if profile.email_mode != EmailMode.DIGEST:
        return False
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
    _send("digest", user.email, context, language=profile.language, user=user)
    return True


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
    _send(
        "reply-unclear",
        seat.user.email,
        context,
        language=language,
        game=game,
        user=seat.user,
        reply_to=reply_address(seat),
        auto_submitted="auto-replied",
    )
