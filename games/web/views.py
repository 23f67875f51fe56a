"""The game pages. Thin: read through ``selectors``, write through ``services``,
present through ``pages``.

Who sees what: a game is visible to its seated players only (404 for anyone else,
so a game's existence is not revealed); a gathering game is also visible through
its shareable join link and through an invitation's link. A refused action (a
``ServiceError``: a stale click, an illegal move, a full game) becomes a message
above the current state, never an error page.
"""

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms.utils import ErrorList
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.models import profile_of
from games import history
from games.kinds import KINDS
from games.models import ChatMessage, Game, Invitation
from games.selectors import (
    dashboard,
    display_name,
    game_by_id,
    own_names,
    results,
    seat_of,
    seats_of,
    stand_ins_of,
    table_for,
)
from games.selectors.chat import chat_messages, chat_newer_than
from games.selectors.dashboard import games_waiting_count
from games.selectors.gathering import (
    game_by_join_token,
    invitation_by_token,
    open_game_of,
    rematch_invitation,
    seats_taken,
)
from games.selectors.spectators import HOME_LISTED, games_being_played
from games.services import bots, clock, gathering, lobby, opinions, play, presence
from games.services.attention import game_attention_mark
from games.services.errors import NotSeated, ServiceError
from games.web import pages, replays
from games.web.forms import (
    BotSeatForm,
    ChatForm,
    GameCreateForm,
    InviteForm,
    PracticeForm,
    bot_level_choices,
    number_in,
)
from ratings.selectors import rating_history

POLL_SECONDS = 4  # how often an open game page asks whether anything changed
STOP_POLLING = 286  # htmx: swap this answer, then stop polling
# A command is a few short fields ({"act": "steal", "target": "p2"}): anything
# longer is not one, and is refused before it is parsed.
COMMAND_MAX_LENGTH = 1000


def home(request):
    """The signed-in player's dashboard; a game of theirs that cannot be read is
    marked for an operator as it is listed apart."""
    context = {}
    if request.user.is_authenticated:
        context = dashboard.home(request.user)
        for row in context["attention"]:
            game_attention_mark(game_id=row["game"].pk, during="reading", error=row["error"])
    context["being_played"] = games_being_played(HOME_LISTED)
    return render(request, "home.html", context)


@login_required
@require_GET
def past_games(request):
    """The player's finished games, newest first: ?page=&game=&variant=&opponent=."""
    params = request.GET
    context = results.past_games(
        request.user,
        game=params.get("game", ""),
        variant=params.get("variant", ""),
        opponent=number_in(params.get("opponent", "")),
        page=params.get("page"),
    )
    return render(request, "games/dashboard_past.html", context)


@login_required
@require_GET
def stats(request):
    """The player's statistics, from the results stored when each game ended, and
    their rating's history."""
    context = {**results.statistics(request.user), "rating_history": rating_history(request.user)}
    return render(request, "games/stats.html", context)


@login_required
def game_create(request):
    if request.method == "POST":
        form = GameCreateForm(request.POST)
        if form.is_valid():
            terms = form.open_terms()
            try:
                gathering.game_creation_check(host=request.user)
                if terms is None:
                    game = gathering.game_create(host=request.user, **form.service_arguments())
                else:
                    game = lobby.open_game_create(host=request.user, terms=terms, **form.service_arguments())
            except ServiceError as error:
                form.add_error(None, error.message)
            else:
                if terms is None:
                    messages.success(request, _("Your game is ready: invite your friends."))
                else:
                    messages.success(request, _("Your game is open in the lobby: it starts as soon as it is full."))
                return redirect("game", pk=game.pk)
    else:
        form = GameCreateForm(initial={"language": profile_of(request.user).language})
    return render(request, "games/create.html", {"form": form, "practice_form": PracticeForm()})


@login_required
@require_POST
def practice(request):
    """One click: a game against bots, started."""
    form = PracticeForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            show_errors(request, errors)
        return redirect("game_create")
    data = form.cleaned_data
    try:
        gathering.game_creation_check(host=request.user)
        game = bots.practice_start(
            host=request.user, kind=data["kind"], seat_count=data["seat_count"], level=data["level"]
        )
    except ServiceError as error:
        messages.error(request, error.message)
        return redirect("game_create")
    return _to_game(game)


def _seated_game(request, pk):
    """The game and the user's seat; 404 unless the user has a seat at it."""
    game, _seats, seat = _seated_table(request, pk)
    return game, seat


def _seated_table(request, pk):
    """The game, its seats (``seats_of``: read once for the whole page) and the
    user's seat; 404 unless the user has a seat at it."""
    game = game_by_id(pk)
    if game is None:
        raise Http404
    seats = seats_of(game)
    seat = seat_of(game, request.user, seats)
    if seat is None:
        raise Http404
    return game, seats, seat


def _to_game(game):
    return redirect("game", pk=game.pk)


def _is_htmx(request) -> bool:
    return request.headers.get("HX-Request") == "true"


@login_required
def game(request, pk):
    game, seats, seat = _seated_table(request, pk)
    presence.seat_seen(seat=seat)  # the waiting room too: the start is news the page shows
    if game.status in (Game.Status.GATHERING, Game.Status.CANCELLED):
        return render(request, "games/waiting.html", _waiting_context(request, game, seat))
    table = table_for(game, request.user, seats=seats)
    context = pages.table_context(table, chosen_action=request.GET.get("action"))
    context.update(_chat_context(game, seats=seats), **pages.static_panels(game))
    context.update(poll_seconds=POLL_SECONDS, clock=clock_of(game), **_after_game(game))
    context["games_waiting"] = games_waiting_count(request.user, table)  # the tab's title: this game is read
    return render(request, "games/game.html", context)


def _after_game(game) -> dict:
    """A finished game's page shows the final order (first place first) and offers
    its replay and a rematch (or the rematch made)."""
    if game.status != Game.Status.FINISHED:
        return {}
    return {
        "finished": True,
        "replayable": replays.replayable(game),
        "rematch": gathering.rematch_of(game),
        "final_order": results.final_order(game),
    }


@login_required
@require_GET
def game_live(request, pk):
    """The live part of the game page (table, hand, decisions, history), polled by
    htmx: 204 when nothing changed since ``since`` (the version the page shows)."""
    game, seats, seat = _seated_table(request, pk)
    presence.seat_seen(seat=seat)
    if game.status == Game.Status.GATHERING or "seats" in request.GET:
        return _seats(request, game, seat)
    since = number_in(request.GET.get("since", ""))
    if since == game.version and request.GET.get("clock", "") == clock_of(game):
        finished = game.status != Game.Status.ACTIVE
        return _counting_games_waiting(request, HttpResponse(status=STOP_POLLING if finished else 204))
    return _live(request, game, seats)


def _counting_games_waiting(request, response: HttpResponse, seen=None) -> HttpResponse:
    """A poll's answer, and a move's, carries the count of games waiting for the
    player, even when nothing changed here: another game's move changes it, and
    the tab's title shows it (the ``gamesWaiting`` event, ``static/js/site.js``).
    ``seen``: the table the answer shows, whose awaited players count as read."""
    response["HX-Trigger"] = json.dumps({"gamesWaiting": games_waiting_count(request.user, seen)})
    return response


def clock_of(game) -> str:
    """The clock as the page shows it: a pause or more time changes it without a new event."""
    if game.paused_remaining is not None:
        return "paused"
    if game.clock_held:
        return "held"
    return str(int(game.deadline_at.timestamp())) if game.deadline_at else "none"


def _live(request, game, seats, state=None, appended=()):
    """The live part of the game page, from the game's ``seats`` and, when the
    caller holds them, its engine ``state`` and the events it just ``appended``;
    for a game with no table (gathering players, or cancelled), the whole page
    again, with any message."""
    if game.status in (Game.Status.GATHERING, Game.Status.CANCELLED):
        return _reload_page()
    table = table_for(game, request.user, seats=seats, state=state, appended=appended)
    context = pages.table_context(table, chosen_action=request.GET.get("action"))
    # The page's controls come along, out of band: they change as the game ends.
    context.update(poll_seconds=POLL_SECONDS, clock=clock_of(game), swap_controls=True, **_after_game(game))
    return _counting_games_waiting(request, render(request, "games/game.html#live", context), table)


@login_required
@require_POST
def decide(request, pk):
    """A seated player answers their decision with one of the options shown. The
    live part answering an htmx click shows the table as the move left it, from
    what the move already holds; a refused answer shows the game as it stands.
    The game is read once, under the move's lock: anyone without a seat at it
    gets the same 404 as for a game that does not exist, whatever they sent."""
    try:
        version = int(request.POST.get("version", ""))
        command = _command(request.POST.get("command", ""))
    except ValueError:
        refusal = _("That answer could not be read; here is the game as it stands now.")
    else:
        try:
            played = play.decision_submit(game=pk, user=request.user, command=command, version=version)
        except NotSeated:
            raise Http404 from None
        except ServiceError as error:
            refusal = error.message
        else:
            if not _is_htmx(request):
                return _to_game(played.game)
            return _live(request, played.game, played.seats, played.state, played.appended)
    game, seats, _seat = _seated_table(request, pk)
    messages.error(request, refusal)
    return _live(request, game, seats) if _is_htmx(request) else _to_game(game)


def _command(text: str) -> dict:
    """The command a decision form sends, as JSON; ValueError when it is not one.
    Its length is checked first: JSON nested deeper than the parser's recursion
    limit raises RecursionError, and no command comes near it."""
    if len(text) > COMMAND_MAX_LENGTH:
        raise ValueError("too long for a command")
    command = json.loads(text)
    if not isinstance(command, dict) or not isinstance(command.get("act"), str):
        raise ValueError("not a command")
    return command


@login_required
@require_POST
def resign(request, pk):
    return _act(
        request, pk, lambda game: play.game_resign(game=game, user=request.user), _("You resigned from the game.")
    )


def _act(request, pk, call, done: str | None = None, then: str | None = None):
    """Call a service for a seated player's game: a refusal becomes a message above
    the game; success says ``done`` and goes to ``then`` (a URL name) or the game."""
    game, seat = _seated_game(request, pk)
    try:
        call(game)
    except ServiceError as error:
        messages.error(request, error.message)
        return _to_game(game)
    if done:
        messages.info(request, done)
    return redirect(then) if then else _to_game(game)


@login_required
@require_POST
def pause(request, pk):
    return _act(request, pk, lambda game: clock.game_pause(game=game, by=request.user), _("The clock is paused."))


@login_required
@require_POST
def resume(request, pk):
    return _act(request, pk, lambda game: clock.game_resume(game=game, by=request.user), _("The clock runs again."))


@login_required
@require_POST
def extend(request, pk):
    return _act(
        request,
        pk,
        lambda game: clock.time_extend(game=game, user=request.user),
        _("You have more time for this decision."),
    )


@login_required
@require_POST
def stand_in(request, pk):
    return _act(
        request,
        pk,
        lambda game: bots.stand_in_ask(game=game, user=request.user),
        _("A bot plays for you until you are back."),
    )


@login_required
@require_POST
def back(request, pk):
    return _act(
        request,
        pk,
        lambda game: bots.stand_in_end(game=game, user=request.user),
        _("Welcome back: you play your seat again."),
    )


# ---- after the game ---------------------------------------------------------------------


@login_required
@require_GET
def replay(request, pk):
    """A finished game step by step, every hand shown: for its players only, and
    never while the game is in play (404, as for anyone not seated)."""
    game, seat = _seated_game(request, pk)
    if not replays.replayable(game):
        raise Http404
    context = replays.replay_context(game, seat, request.GET.get("step"))
    # The spectators' words, kept from the players while the game ran.
    context["spectator_chat"] = chat_messages(game, audience=ChatMessage.Audience.SPECTATORS, reader=request.user)
    template = "games/replay.html#step" if _is_htmx(request) else "games/replay.html"
    return render(request, template, context)


@login_required
@require_http_methods(["GET", "POST"])
def second_opinion(request, pk, version):
    """The strong bot's opinion on one of the user's decisions in a finished game:
    POST asks for it (a worker weighs it), GET shows it as it stands (the replay
    asks again every second while it waits). Before the game is over, or for a
    decision that is not the user's, the answer is the reason it is refused."""
    game, seat = _seated_game(request, pk)
    try:
        if request.method == "POST":
            opinions.second_opinion_ask(game=game, user=request.user, version=version)
        context = replays.second_opinion_context(game, seat, version)
    except ServiceError as error:
        if not _is_htmx(request):
            messages.error(request, error.message)
            return _back_to_replay(request, game)
        context = {"game": game, "version": version, "refused": error.message}
    if not _is_htmx(request):
        return _back_to_replay(request, game)
    return render(request, "games/_second_opinion.html", context)


def _back_to_replay(request, game):
    """The replay at the step the form was sent from (the game's page before its end)."""
    if not replays.replayable(game):
        return _to_game(game)
    step = replays.step_number(request.POST.get("step"), count=10**9)
    return redirect(f"{reverse('game_replay', args=[game.pk])}?step={step}")


@login_required
@require_GET
def game_history(request, pk):
    """Every turn of a game so far, as its player may know them (the game page shows
    only the latest): told from the start on each request, for a page read rarely."""
    game, seats, seat = _seated_table(request, pk)
    if game.status in (Game.Status.GATHERING, Game.Status.CANCELLED):
        return _to_game(game)
    lines = history.full(game, seat.player, own_names(seats), stand_ins_of(game, seats))
    context = {
        "game": game,
        "game_name": KINDS[game.kind].name,
        "turns": pages.turns(pages.with_seat_changes(game, lines, seats=seats)),
    }
    return render(request, "games/history.html", context)


@login_required
@require_POST
def rematch(request, pk):
    """Ask for a rematch of a finished game: the same players are invited to a new
    game with the same options (or, when someone asked first, to theirs)."""
    game, seat = _seated_game(request, pk)
    try:
        new = gathering.game_rematch(game=game, by=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
        return _to_game(game)
    if seat_of(new, request.user) is not None:
        if new.host_id == request.user.pk:
            messages.success(request, _("Rematch! The other players are invited; start when every seat is taken."))
        return _to_game(new)
    invited = rematch_invitation(new, request.user)
    if invited is not None:
        return redirect("invitation", token=invited.token)
    return redirect("join", token=new.join_token)


# ---- table talk ---------------------------------------------------------------------


def _chat_context(game, form=None, seats=None) -> dict:
    """The table talk's latest messages (``seats``: the page's ``seats_of``)."""
    chat = chat_messages(game, seats)
    return {
        "chat": chat,
        "chat_last": chat[-1]["id"] if chat else 0,
        "chat_form": form,  # its errors, when a message posted was refused
        "game": game,
        "poll_seconds": POLL_SECONDS,
    }


@login_required
def chat(request, pk):
    """GET: the table talk partial (204 when nothing is newer than ``after``).
    POST: say something at the table."""
    game, seat = _seated_game(request, pk)
    form = None
    if request.method == "POST":
        form = ChatForm(request.POST)
        if form.is_valid():
            try:
                play.chat_post(game=game, user=request.user, text=form.cleaned_data["text"])
            except ServiceError as error:
                form.add_error("text", error.message)
            else:
                form = None
        if not _is_htmx(request):
            if form is not None:
                show_errors(request, form.errors.get("text", []))
            return redirect(reverse("game", args=[game.pk]) + "#chat")
    else:
        after = number_in(request.GET.get("after", ""))
        if after is not None and not chat_newer_than(game, after):
            return HttpResponse(status=204)
    return render(request, "games/_chat_messages.html", _chat_context(game, form))


# ---- gathering players ---------------------------------------------------------------


def _waiting_context(request, game, seat, invite_form=None) -> dict:
    open_game = open_game_of(game)
    taken = seats_taken(game)
    return {
        **pages.game_summary(game),
        "seat": seat,
        "seats": pages.seats_context(game),
        "is_host": game.host_id == request.user.pk,
        "full": taken == game.seat_count,
        "open_game": open_game,
        # An open game starts once full, or earlier when its host starts it with enough players.
        "can_start": taken == game.seat_count
        or (open_game is not None and taken >= KINDS[game.kind].rules.min_players),
        "join_url": request.build_absolute_uri(reverse("join", args=[game.join_token])),
        "invite_form": invite_form or InviteForm(),
        "invitations": pages.invitations_shown(game, request.user),
        "poll_seconds": POLL_SECONDS,
        "bot_levels": bot_level_choices(),
        "visibility_choices": Game.Visibility.choices,
    }


def show_errors(request, errors: ErrorList | list[str]) -> None:
    """A form field's errors (its ``ErrorList``, or none) as messages on the next page."""
    for message in errors:
        # Reading an ErrorList gives each error's message (ErrorList.__getitem__); its
        # stubs type the items as what it stores, a ValidationError or a message.
        messages.error(request, message)  # type: ignore[arg-type]


def _reload_page():
    """htmx: load the whole page again (what it shows has changed shape)."""
    response = HttpResponse(status=204)
    response["HX-Refresh"] = "true"
    return response


def _seats(request, game, seat):
    """The waiting room's seat list, polled; a started game reloads the page."""
    if game.status != Game.Status.GATHERING:
        return _reload_page()
    seats = pages.seats_context(game)
    if number_in(request.GET.get("seats", "")) == sum(1 for s in seats if s["name"]):
        return _counting_games_waiting(request, HttpResponse(status=204))
    return _counting_games_waiting(
        request, render(request, "games/waiting.html#seats", _waiting_context(request, game, seat))
    )


@login_required
@require_POST
def invite(request, pk):
    game, seat = _seated_game(request, pk)
    form = InviteForm(request.POST)
    if form.is_valid():
        try:
            gathering.invitation_send(game=game, by=request.user, email=form.cleaned_data["email"])
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Invitation sent to %(email)s.") % {"email": form.cleaned_data["email"]})
            return _to_game(game)
    else:
        show_errors(request, form.errors.get("email", []))
    return _to_game(game)


@login_required
@require_POST
def start(request, pk):
    return _act(request, pk, lambda game: gathering.game_start(game=game, by=request.user))


@login_required
@require_POST
def seat_bot(request, pk):
    form = BotSeatForm(request.POST)
    level = form.cleaned_data["level"] if form.is_valid() else ""
    return _act(request, pk, lambda game: bots.bot_seat(game=game, by=request.user, level=level))


@login_required
@require_POST
def leave(request, pk):
    return _act(
        request, pk, lambda game: gathering.seat_leave(game=game, user=request.user), _("You left the game."), "home"
    )


@login_required
@require_POST
def cancel(request, pk):
    return _act(
        request, pk, lambda game: gathering.game_cancel(game=game, by=request.user), _("The game is cancelled."), "home"
    )


def join(request, token):
    """The shareable link: see the game and take a free seat."""
    game = game_by_join_token(token)
    if game is None:
        raise Http404
    seat = seat_of(game, request.user)
    if seat is not None:
        return _to_game(game)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('account_login')}?next={request.path}")
        try:
            gathering.seat_join(game=game, user=request.user, join_token=token)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("You have a seat at this game."))
            return _to_game(game)
    context = {**pages.game_summary(game), "seats": pages.seats_context(game), "action": request.path}
    context["open"] = game.status == Game.Status.GATHERING and context["taken"] < game.seat_count
    return render(request, "games/join.html", context)


def invitation(request, token):
    """An emailed invitation: accept (take a seat) or decline."""
    found = invitation_by_token(token)
    if found is None:
        raise Http404
    game = found.game
    if seat_of(game, request.user) is not None:
        return _to_game(game)
    if request.method == "POST":
        accept = request.POST.get("answer") == "accept"
        if accept and not request.user.is_authenticated:
            return redirect(f"{reverse('account_login')}?next={request.path}")
        user = request.user if request.user.is_authenticated else None
        try:
            gathering.invitation_respond(token=token, user=user, accept=accept)
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            if accept:
                messages.success(request, _("You have a seat at this game."))
                return _to_game(game)
            if found.invited_account is None:
                messages.info(request, _("You declined the invitation. Nobody can invite this address again."))
            else:
                messages.info(request, _("You declined the invitation."))
            return redirect("home")
    context = {
        **pages.game_summary(game),
        "seats": pages.seats_context(game),
        "invitation": found,
        "by": display_name(found.invited_by),
        "action": request.path,
    }
    context["open"] = (
        game.status == Game.Status.GATHERING
        and found.status == Invitation.Status.PENDING
        and context["taken"] < game.seat_count
    )
    return render(request, "games/invitation.html", context)


# ---- errors --------------------------------------------------------------------------


def bad_request(request, exception=None):
    return render(request, "400.html", status=400)


def not_found(request, exception=None):
    return render(request, "404.html", status=404)


def server_error(request):
    # No context processors that touch the database: the error may be the database.
    from django.template import loader

    return HttpResponse(loader.get_template("500.html").render({}), status=500)
