"""The pages an email's links open: one-click answers and unsubscribing.

An answer link works without signing in: its signed token names the game, the
seat, the decision version and the answer. GET only shows the situation and one
confirm button (mail scanners prefetch links, so GET never changes anything);
POST plays the answer. A forged, expired, used or stale link gets a page that
says so, with the game as it stands now; nothing changes.
"""

from django.contrib.auth import get_user_model
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from accounts.models import EmailMode, profile_of

from . import pages, services
from .kinds import KINDS
from .models import Seat
from .selectors import table_for
from .tokens import BadToken, read_answer_token, read_unsubscribe_token


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
    seat = Seat.objects.select_related("game", "user").filter(pk=signed["s"], game_id=signed["g"]).first()
    if seat is None:
        return render(request, "games/answer.html", {"error": _("This game no longer exists.")}, status=404)
    table = table_for(seat.game, seat.user)
    command = _chosen(table["options"], signed)
    error = None
    done = False
    if command is None:
        error = _("This decision has already passed; here is the game as it stands now.")
    elif request.method == "POST":
        try:
            services.decision_submit(game=seat.game, user=seat.user, command=command, version=signed["v"])
            done = True
        except services.ServiceError as refused:
            error = refused.message
        seat.game.refresh_from_db()
        table = table_for(seat.game, seat.user)
    context = {**pages.table_context(table), "error": error, "done": done, "token": token}
    if error is None and not done:
        kind = next(e["decision"] for e in table["view"]["awaiting"] if e["player"] == seat.player)
        presenter = KINDS[seat.game.kind]
        ctx = presenter.labeler(table["view"], seat.player, table["names"], seat.game.variants)
        context.update(prompt=presenter.decision_prompt(kind), label=presenter.option_label(command, ctx, kind))
    return render(request, "games/answer.html", context, status=409 if error else 200)


def _chosen(options: list, signed: dict) -> dict | None:
    """The answer a link names, if the decision it was made for is still awaited."""
    index = signed["o"]
    if not options or options[0]["version"] != signed["v"] or not 0 <= index < len(options):
        return None
    return {key: value for key, value in options[index].items() if key != "version"}


@csrf_exempt  # RFC 8058: mail clients POST "List-Unsubscribe=One-Click" with no page in between
def unsubscribe(request, token):
    user_id = read_unsubscribe_token(token)
    user = get_user_model().objects.filter(pk=user_id).first() if user_id is not None else None
    if user is None:
        return render(request, "accounts/unsubscribe.html", {"error": True}, status=400)
    if request.method == "POST":
        profile = profile_of(user)
        profile.email_mode = EmailMode.NONE
        profile.save(update_fields=["email_mode"])
        if request.POST.get("List-Unsubscribe") == "One-Click":
            return HttpResponse(status=200)
        return render(request, "accounts/unsubscribe.html", {"done": True})
    return render(request, "accounts/unsubscribe.html", {"token": token})
