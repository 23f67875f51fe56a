"""The pages an email's links open: one-click answers and unsubscribing.

An answer link works without signing in: its signed token names the game, the
seat, the decision version and the answer. GET only shows the situation and one
confirm button (mail scanners prefetch links, so GET never changes anything);
POST plays the answer.

Emails are forwarded, shared and read over shoulders, so a link shows the seat's
cards only while its own decision is awaited (the answer needs them). A passed,
used or stale link says so and links to the game, which asks its player to sign
in; the page after an answer confirms it as the table saw it, which names no
face-down card either. A forged or expired link changes nothing.
"""

from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from accounts.mail import address_opt_in, address_opt_out, address_scope
from accounts.models import AddressOptOut, profile_of
from accounts.selectors import account_by_id
from accounts.services import profile_emails_stop
from games.kinds import KINDS
from games.mail.tokens import BadToken, read_answer_token, read_stop_token, read_unsubscribe_token
from games.models import Game
from games.selectors import Table, seat_in_game, table_for
from games.services import play
from games.services.errors import DecisionPassed, ServiceError
from games.web import pages


def answer(request, token):
    try:
        signed = read_answer_token(token)
    except BadToken as error:
        message = (
            _("This link has expired. Open the game to see where it stands.")
            if error.expired
            else _("This link is not valid. Open the game from your latest email or from the site.")
        )
        return render(request, "games/answer.html", {"error": message}, status=400)
    seat = seat_in_game(signed["g"], pk=signed["s"])
    if seat is None:
        return render(request, "games/answer.html", {"error": _("This game no longer exists.")}, status=404)
    game = seat.game
    if profile_of(seat.user).former_number is not None:
        # Emailed before its player deleted their account: it shows and plays nothing.
        return _passed(request, game, _("This seat's player deleted their account: nobody may play it for them."))
    table = table_for(game, seat.user)
    command = _chosen(table, signed)
    if command is None:
        return _passed(request, game)
    if request.method == "POST":
        before = game.version
        try:
            play.decision_submit(game=game, user=seat.user, command=command, version=signed["v"])
        except DecisionPassed:
            return _passed(request, game)
        except ServiceError as refused:
            return _passed(request, game, refused.message)
        context = {"game": game, "game_name": KINDS[game.kind].name, "done": True}
        return render(request, "games/answer.html", {**context, "played": _told_since(game, before)})
    context = {**pages.table_context(table), "token": token, "label": table.label(command)}
    return render(request, "games/answer.html", context)


def _passed(request, game: Game, message: str | None = None):
    """The page of a link that can no longer answer: what happened and a link to
    the game, nothing of the table (the game page asks its player to sign in)."""
    context = {
        "game": game,
        "game_name": KINDS[game.kind].name,
        "error": message or _("This decision has already passed. Open the game to see where it stands."),
    }
    return render(request, "games/answer.html", context, status=409)


def _told_since(game: Game, version: int) -> list[str]:
    """What the table saw happen from ``version`` on (the answer just played and
    what it caused), as told to someone not seated: no face-down card."""
    game.refresh_from_db()
    _view, told = table_for(game, None).played()
    return [line.text for line in told.since(version)]


def _chosen(table: Table, signed: dict) -> dict | None:
    """The answer a link names, if the decision it was made for is still awaited."""
    index = signed["o"]
    if table.version != signed["v"] or not 0 <= index < len(table.options):
        return None
    return {key: value for key, value in table.options[index].items() if key != "version"}


@csrf_exempt  # RFC 8058: mail clients POST "List-Unsubscribe=One-Click" with no page in between
def unsubscribe(request, token):
    user_id = read_unsubscribe_token(token)
    user = account_by_id(user_id) if user_id is not None else None
    if user is None:
        return render(request, "accounts/unsubscribe.html", {"error": True}, status=400)
    if request.method == "POST":
        profile_emails_stop(user=user)
        if request.POST.get("List-Unsubscribe") == "One-Click":
            return HttpResponse(status=200)
        return render(request, "accounts/unsubscribe.html", {"done": True})
    return render(request, "accounts/unsubscribe.html", {"token": token})


@csrf_exempt  # RFC 8058, as above: the one-click POST of an invitation's List-Unsubscribe
def stop_mail(request, token):
    """The link in an invitation, for someone who may have no account: stop all
    email to the address it was sent to (one click from the mail client, or the
    page's button), or allow it again."""
    address = read_stop_token(token)
    if address is None:
        return render(request, "accounts/stop_mail.html", {"error": True}, status=400)
    if request.method == "POST":
        if request.POST.get("List-Unsubscribe") == "One-Click":
            address_opt_out(address=address, scope=AddressOptOut.Scope.ALL)
            return HttpResponse(status=200)
        if request.POST.get("mail") == "allow":
            address_opt_in(address=address)
        else:
            address_opt_out(address=address, scope=AddressOptOut.Scope.ALL)
    context = {"address": address, "scope": address_scope(address), "changed": request.method == "POST"}
    return render(request, "accounts/stop_mail.html", context)
