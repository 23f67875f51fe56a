"""The lobby's pages: the open games (anyone may look, signed in or not), joining
one in a click, play now, and an open game's host filling its empty seats with
bots. A refused join or a limit reached becomes a message above the lobby."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.kinds import KINDS
from games.models import Game
from games.selectors import display_name
from games.selectors.lobby import lobby_page
from games.services import lobby
from games.services.errors import ServiceError
from games.templatetags.clock import duration
from games.web.forms import TIME_CONTROL_CHOICES, TIME_CONTROLS, BotSeatForm, LobbyFilterForm, PlayNowForm, number_in
from games.web.views import show_errors
from ratings.selectors import finish_rate

TIME_CONTROL_NAMES = {TIME_CONTROLS[key]: name for key, name in TIME_CONTROL_CHOICES}


@require_GET
def lobby_list(request):
    """The open games with seats left, filtered by ?kind=&seat_count=&time_control=&language=."""
    form = LobbyFilterForm(request.GET)
    reader = request.user if request.user.is_authenticated else None
    page, games = lobby_page(form.filters(), page=request.GET.get("page"), reader=reader)
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "form": form,
        "page": page,
        "rows": [_row(open_game) for open_game in games],
        "query": query.urlencode(),
        "play_now_form": PlayNowForm(),
    }
    return render(request, "games/lobby.html", context)


def _row(open_game) -> dict:
    """What the lobby shows of an open game."""
    game = open_game.game
    game_kind = KINDS[game.kind]
    times = (game.turn_seconds, game.response_seconds)
    return {
        "game": game,
        "name": game_kind.name,
        "variants": game_kind.about.variant_names(game.variants),
        "host": display_name(game.host),
        "host_url": reverse("player", args=[game.host_id]),
        "host_finish_rate": finish_rate(open_game.host_joined, open_game.host_abandoned),
        "taken": open_game.taken,
        "seated": open_game.seated,
        "time": TIME_CONTROL_NAMES.get(times)
        or _("%(turn)s per turn, %(response)s per response")
        % {"turn": duration(game.turn_seconds), "response": duration(game.response_seconds)},
        "language": dict(settings.LANGUAGES).get(open_game.language, open_game.language),
        "rated": bool(game.options.get("rated")),
        "min_rating": open_game.min_rating,
        "min_finish_rate": open_game.min_finish_rate,
    }


def _back_to_lobby(request):
    """The lobby page the form was posted from (its filters kept), else the lobby."""
    query = request.POST.get("query", "")
    return redirect(f"{reverse('lobby')}?{query}" if query else reverse("lobby"))


@login_required
@require_POST
def lobby_join(request):
    """Take a seat at an open game: one click from the lobby."""
    game_id = number_in(request.POST.get("game", ""))
    try:
        seat = lobby.open_game_join(game_id=game_id, user=request.user)
    except ServiceError as error:
        messages.error(request, error.message)
        return _back_to_lobby(request)
    messages.success(request, _("You have a seat at this game."))
    return redirect("game", pk=seat.game_id)


@login_required
@require_POST
def play_now(request):
    """A seat at the fullest open game of the kind and size asked, or a new one."""
    form = PlayNowForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            show_errors(request, errors)
        return _back_to_lobby(request)
    try:
        game = lobby.play_now(user=request.user, **form.cleaned_data)
    except ServiceError as error:
        messages.error(request, error.message)
        return _back_to_lobby(request)
    if game.host_id == request.user.pk and game.status == Game.Status.GATHERING:
        messages.success(request, _("No table was waiting: you opened one. It starts as soon as it is full."))
    else:
        messages.success(request, _("You have a seat at this game."))
    return redirect("game", pk=game.pk)


@login_required
@require_POST
def fill_with_bots(request, pk):
    """The host of an open game seats bots in its empty seats, which starts it."""
    form = BotSeatForm(request.POST)
    level = form.cleaned_data["level"] if form.is_valid() else ""
    game = Game.objects.filter(pk=pk, host=request.user, open_game__isnull=False).first()
    if game is None:
        messages.error(request, _("Only the host of an open game waiting for players can fill it with bots."))
        return redirect("game", pk=pk)
    try:
        lobby.open_game_fill_with_bots(game=game, by=request.user, level=level)
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("game", pk=pk)
