"""Deleting one's account: the person goes, their games stay whole.

What goes: the account itself with everything hanging off it (profile, email
addresses, preferences, holidays, follows, blocks, chat lines, reports, ratings,
rating history, data exports), every session signed in to it or holding one of
its addresses (a half-finished sign-in by code), the invitations to its
addresses, the suppression marks and sent-email records of its addresses
(``MailFailure``, ``SentEmail``, ``AddressOptOut``), the admin's log entries
about it, the cached stories of its games, which name it, and the mail to or from
its addresses in the site's own Maildir (the embedded default's).

What stays: its seats, the games it hosted and won, and the results of its
finished games, moved to a new account that nobody can sign in to and that is
named "Former player 4821" on every page, email and replay from then on, so
that every other player's games, replays and statistics stay whole. The event
log is not touched: it names seats by position only ("p1"), never a person
(``tests/services/test_leaving.py`` checks it on every table). The number is
drawn at random among the unused ones, not taken from the account's id: the id
was in the person's player page's address and in links others saw, so a name
built from it would tie the former player's seats back to them, and it would
tell the order people signed up in.

A game that had not started is cancelled if they hosted it, else their seat is
freed. A game in play is resigned for them, unless its host chose stand-in bots
(``takeover``), where a bot plays the seat to the end, as it would for a player
on holiday. Ratings and leaderboards drop them: a former player's account
never gets a ``Rating`` (``ratings.services``).

The address is free afterwards: it may sign up again as a new person.
"""

import json
import secrets

from allauth.account.models import EmailAddress
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Q

from accounts.bounces import normalized
from accounts.models import AddressOptOut, EmailMode, MailFailure, Profile, SentEmail
from coupsite.mailbox import messages_forget
from games import history
from games.kinds import KINDS
from games.models import Game, Invitation, Seat, SeatChange, SeatResult
from games.selectors import game_state, seats_of
from games.services import notifications
from games.services.errors import ServiceError
from games.services.gathering import game_cancel_unstarted
from games.services.holidays import stands_in_for_absent
from games.services.play import game_resign, stand_in_begin
from ratings.models import RatingChange

# The digits of a former player's number; more once most numbers of that length are taken.
FORMER_NUMBER_DIGITS = 4
FORMER_NUMBER_DRAWS = 20


class AccountGone(Exception):
    """The account was deleted already (a second click, a stale confirmation)."""


def account_delete(*, user) -> str:
    """Delete ``user``'s account (see the module); returns the name their seats
    keep. Raises ``AccountGone`` when it was deleted already."""
    User = get_user_model()
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=user.pk, is_active=True).first()
        if user is None or Profile.objects.filter(user=user, former_number__isnull=False).exists():
            raise AccountGone
        addresses = _addresses_of(user)
        former = _former_account()
        game_ids = list(Seat.objects.filter(user=user).values_list("game_id", flat=True))
        _games_left(user)
        Seat.objects.filter(user=user).update(user=former)
        Game.objects.filter(host=user).update(host=former)
        Game.objects.filter(winner=user).update(winner=former)
        for game in Game.objects.filter(pk__in=game_ids, options__first_user=user.pk):
            game.options["first_user"] = former.pk  # a rematch's first player, by account
            game.save(update_fields=["options"])
        SeatResult.objects.filter(user=user).update(user=former)
        # Kept so that recomputing the ratings (``manage.py rerate``) moves every
        # other player's as it did; the former player's account gets no rating.
        RatingChange.objects.filter(user=user).update(user=former)
        _traces_of_addresses_removed(addresses)
        Invitation.objects.filter(user=user).delete()
        _sessions_ended(user.pk, addresses)
        LogEntry.objects.filter(content_type=ContentType.objects.get_for_model(User), object_id=str(user.pk)).delete()
        user.delete()
        transaction.on_commit(lambda: history.forget(game_ids))
        transaction.on_commit(lambda: messages_forget(addresses))
    return former.profile.name


def _addresses_of(user) -> set[str]:
    listed = EmailAddress.objects.filter(user=user).values_list("email", flat=True)
    return {normalized(address) for address in [user.email, *listed] if address}


def _former_account():
    """A new account for the seats of a person who left: no address, no usable
    password, inactive (allauth refuses it), never written to."""
    number = _unused_former_number()
    user = get_user_model().objects.create(username=f"former-{number}", email="", is_active=False)
    user.set_unusable_password()
    user.save(update_fields=["password"])
    Profile.objects.update_or_create(user=user, defaults={"former_number": number, "email_mode": EmailMode.NONE})
    user.refresh_from_db()
    return user


def _unused_former_number() -> int:
    digits = FORMER_NUMBER_DIGITS
    while True:
        for _draw in range(FORMER_NUMBER_DRAWS):
            number = 10 ** (digits - 1) + secrets.randbelow(9 * 10 ** (digits - 1))
            if not Profile.objects.filter(former_number=number).exists():
                return number
        digits += 1


def _games_left(user) -> None:
    """``user`` leaves every game not yet over: a gathering one they host is
    cancelled, another gathering one loses their seat; in a game in play a bot
    plays their seat to the end where the host chose stand-ins, else they resign."""
    seated = Game.objects.filter(seats__user=user, status__in=[Game.Status.GATHERING, Game.Status.ACTIVE])
    for game in Game.objects.select_for_update().filter(pk__in=seated.values("pk")).order_by("pk"):
        if game.status == Game.Status.GATHERING:
            if game.host_id == user.pk:
                game_cancel_unstarted(game)
            else:
                game.seats.filter(user=user).delete()
        elif stands_in_for_absent(game):
            _bot_plays_to_the_end(game, user)
        else:
            try:
                game_resign(game=game, user=user)
            except ServiceError:
                pass  # out of the game already: nothing to resign


def _bot_plays_to_the_end(game: Game, user) -> None:
    """A stand-in bot takes ``user``'s seat at ``game`` (locked) for good (already
    standing in, it now does so for this reason), and answers at once if the
    seat is awaited."""
    seat = next(seat for seat in seats_of(game) if seat.user_id == user.pk)
    stand_in_begin(game, seat, SeatChange.Change.LEFT)
    awaited = {name: version for name, _decision, version in KINDS[game.kind].rules.awaiting(game_state(game))}
    if seat.player in awaited:
        notifications.bot_called(game, seat, awaited[seat.player])


def _traces_of_addresses_removed(addresses: set[str]) -> None:
    """The invitations to ``addresses`` (whoever sent them, whatever their answer)
    and the marks the mail system keeps on them."""
    if not addresses:
        return
    typed = Q()
    for address in addresses:
        typed |= Q(email__iexact=address)
    Invitation.objects.filter(typed).delete()
    for model in (MailFailure, SentEmail, AddressOptOut):
        model.objects.filter(address__in=addresses).delete()


def _sessions_ended(user_id: int, addresses: set[str]) -> None:
    """Delete every session signed in as ``user_id``, and every one that holds one
    of ``addresses`` (a sign-in by code begun and left). Sessions are stored
    encoded, so each is read: deleting an account is rare, and this is its only scan."""
    ended = []
    for session in Session.objects.iterator(chunk_size=1000):
        data = session.get_decoded()
        held = json.dumps(data, default=str).lower()
        if str(data.get("_auth_user_id")) == str(user_id) or any(address in held for address in addresses):
            ended.append(session.session_key)
    Session.objects.filter(session_key__in=ended).delete()
