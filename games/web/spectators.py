"""The spectators' pages: the public games being played, a game watched live, the
spectators' own chat, following a game or a player; and the moderation a signed-in
reader does from them (blocking a player, reporting a message).

Who sees what: a public game is listed and anyone may watch it; an unlisted one,
anyone with its link; a private one nobody but its players (the same 404 as for a
game that does not exist). A spectator reads ``table_for`` with no seat, the
engine's public view, so the page can never show a face-down card; a finished
game's table shows every hand, as for its players. A player who opens the
spectators' page of their own game is sent to their game's page: the spectators'
chat stays closed to them until the game is over.
"""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.models import ChatMessage, Game
from games.selectors import display_name, game_by_id, seat_of, seats_of, table_for
from games.selectors.chat import chat_messages, chat_newer_than
from games.selectors.moderation import blocked_by
from games.selectors.spectators import followed_players, follows_game, games_being_played, watchable_game
from games.services import gathering, moderation, spectators
from games.services.errors import ServiceError
from games.web import pages
from games.web.forms import SpectatorChatForm, VisibilityForm, number_in
from games.web.views import POLL_SECONDS, STOP_POLLING, clock_of, show_errors

SPECTATORS = ChatMessage.Audience.SPECTATORS


@require_GET
def watch_list(request):
    """The public games being played now."""
    return render(request, "spectators/watch_list.html", {"being_played": games_being_played()})


class _PlayerElsewhere(Exception):
    """A player of a game not over opened one of its spectators' addresses."""

    def __init__(self, game: Game):
        self.game = game


def _watchable(pk) -> Game:
    """The game ``pk``, if anyone may watch it (404 otherwise)."""
    game = watchable_game(pk)
    if game is None:
        raise Http404
    return game


def _watched(request, pk) -> tuple[Game, list]:
    """The game ``pk`` and its seats, if the reader may watch it (404 otherwise).
    Its players are sent to their own page until it is over (``_PlayerElsewhere``):
    the spectators' chat never reaches them while it runs."""
    game = _watchable(pk)
    seats = seats_of(game)
    if seat_of(game, request.user, seats) is not None and game.status != Game.Status.FINISHED:
        raise _PlayerElsewhere(game)
    return game, seats


def _players_sent_home(view):
    """``view``, with a player of the game sent to their own page, told why."""

    @wraps(view)
    def guarded(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except _PlayerElsewhere as elsewhere:
            url = reverse("game", args=[elsewhere.game.pk])
            if request.method == "POST":
                messages.error(request, _("You play this game: its spectators' chat opens to you once it is over."))
            if request.headers.get("HX-Request") == "true":
                response = HttpResponse(status=204)
                response["HX-Redirect"] = url
                return response
            return redirect(url)

    return guarded


@require_GET
@_players_sent_home
def watch(request, pk):
    """A game as its spectators see it: the public view, live."""
    game, seats = _watched(request, pk)
    context = _watch_context(request, game, seats)
    context.update(_chat_context(request, game, seats), **pages.static_panels(game))
    context.update(
        people=[{"id": seat.user_id, "name": display_name(seat.user)} for seat in seats if not seat.bot_level],
        following=follows_game(request.user, game),
        followed_players=followed_players(request.user),
        blocked=blocked_by(request.user) if request.user.is_authenticated else set(),
    )
    return render(request, "spectators/watch.html", context)


def _watch_context(request, game, seats) -> dict:
    """The live part of the spectators' page: the table in the public view, who is
    to act and by when, the latest turns as anyone not seated may know them."""
    context = {"game": game, "poll_seconds": POLL_SECONDS, "clock": clock_of(game)}
    if game.status in (Game.Status.GATHERING, Game.Status.CANCELLED):
        summary = pages.game_summary(game)
        return {**context, **summary, "variant_names": summary["variants"], "seats": pages.seats_context(game)}
    table = table_for(game, None, seats=seats)
    return {**pages.table_context(table), **context}


@require_GET
@_players_sent_home
def watch_live(request, pk):
    """The live part of the spectators' page, polled by htmx: 204 when nothing
    changed since ``since`` (the version shown), 286 (stop polling) once the game
    is over and shown so."""
    game, seats = _watched(request, pk)
    since = number_in(request.GET.get("since", ""))
    if since == game.version and request.GET.get("clock", "") == clock_of(game):
        return HttpResponse(status=STOP_POLLING if game.status not in _LIVE else 204)
    return render(request, "spectators/watch.html#live", _watch_context(request, game, seats))


_LIVE = (Game.Status.GATHERING, Game.Status.ACTIVE)


def _chat_context(request, game, seats, form=None) -> dict:
    """Both chats as a spectator reads them: the players' table talk and their own."""
    reader = request.user
    table = chat_messages(game, seats, reader=reader)
    spectating = chat_messages(game, seats, audience=SPECTATORS, reader=reader)
    return {
        "table_chat": table,
        "spectator_chat": spectating,
        "chat_last": f"{table[-1]['id'] if table else 0}-{spectating[-1]['id'] if spectating else 0}",
        "chat_form": form,
        "chat_open": game.status in _LIVE,
    }


@_players_sent_home
def watch_chat(request, pk):
    """GET: both chats, polled (204 when nothing is newer than ``after``).
    POST: say something to the other spectators (signed in)."""
    game, seats = _watched(request, pk)
    form = None
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('account_login')}?next={reverse('game_watch', args=[game.pk])}")
        form = SpectatorChatForm(request.POST)
        if form.is_valid():
            try:
                spectators.spectator_chat_post(game=game, user=request.user, text=form.cleaned_data["text"])
            except ServiceError as error:
                form.add_error("text", error.message)
            else:
                form = None
        if request.headers.get("HX-Request") != "true":
            if form is not None:
                show_errors(request, form.errors.get("text", []))
            return redirect(reverse("game_watch", args=[game.pk]) + "#spectator-chat")
    else:
        table_after, _dash, spectators_after = request.GET.get("after", "").partition("-")
        after = (number_in(table_after), number_in(spectators_after))
        if None not in after and not _chat_newer(request, game, after):
            return HttpResponse(status=204)
    return render(request, "spectators/_chats.html", {"game": game, **_chat_context(request, game, seats, form)})


def _chat_newer(request, game, after: tuple) -> bool:
    table_after, spectators_after = after
    return chat_newer_than(game, table_after, reader=request.user) or chat_newer_than(
        game, spectators_after, audience=SPECTATORS, reader=request.user
    )


# ---- following, blocking, reporting ------------------------------------------------------


def _back(request, fallback: str):
    """Back to the page the form was on (a path of this site), else ``fallback``."""
    target = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}) and target.startswith("/"):
        return redirect(target)
    return redirect(fallback)


def _done(request, call, done: str, fallback: str):
    """Call a service; say ``done``, or why it refused; go back where the form was."""
    try:
        call()
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)
    return _back(request, fallback)


@login_required
@require_POST
def follow_game(request, pk):
    game = _watchable(pk)
    follow = request.POST.get("follow") != "0"
    return _done(
        request,
        lambda: spectators.game_follow(game=game, user=request.user, follow=follow),
        _("You follow this game: its result will be emailed to you.")
        if follow
        else _("You no longer follow this game."),
        reverse("game_watch", args=[game.pk]),
    )


@login_required
@require_POST
def follow_player(request, user_id):
    follow = request.POST.get("follow") != "0"
    return _done(
        request,
        lambda: spectators.player_follow(user=request.user, followed_id=user_id, follow=follow),
        _("You follow this player: the result of each public game they finish will be emailed to you.")
        if follow
        else _("You no longer follow this player."),
        reverse("home"),
    )


@login_required
@require_POST
def block(request, user_id):
    blocking = request.POST.get("block") != "0"
    return _done(
        request,
        lambda: moderation.block_set(user=request.user, blocked_id=user_id, block=blocking),
        _("Blocked: neither of you reads the other's chat, and you share no open game.")
        if blocking
        else _("Unblocked."),
        reverse("home"),
    )


@login_required
@require_POST
def report(request, message_id):
    return _done(
        request,
        lambda: moderation.chat_report(user=request.user, message_id=message_id),
        _("Reported: staff will read the message."),
        reverse("home"),
    )


@login_required
@require_POST
def visibility(request, pk):
    """The host changes who may watch a game gathering players."""
    game = _hosted(request, pk)
    form = VisibilityForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose who may watch the game."))
        return redirect("game", pk=game.pk)
    return _done(
        request,
        lambda: gathering.visibility_change(game=game, by=request.user, visibility=form.cleaned_data["visibility"]),
        _("Saved: %(who)s") % {"who": Game.Visibility(form.cleaned_data["visibility"]).label},
        reverse("game", args=[game.pk]),
    )


def _hosted(request, pk) -> Game:
    """A game the user is seated at (404 otherwise, as for one that does not exist)."""
    game = game_by_id(pk)
    if game is None or seat_of(game, request.user) is None:
        raise Http404
    return game
