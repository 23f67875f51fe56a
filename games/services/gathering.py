"""Gathering players: a new game, invitations (by address, or to accounts for a
rematch), joining by link, leaving, cancelling, starting, and the rematch."""

import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.bounces import failure_of
from accounts.mail import address_opt_out, mail_refused
from accounts.models import BOT_NAMES, AddressOptOut, MailFailure, profile_of
from accounts.services import bot_account
from games.engine.seats import seat_players
from games.kinds import DEFAULT_KIND, KINDS
from games.models import Game, Invitation, OpenGame, Seat
from games.selectors import seat_of
from games.selectors.gathering import open_game_of
from games.services import notifications
from games.services.errors import ServiceError, engine_call
from games.services.holidays import holiday_stand_ins
from games.services.play import DEFAULT_TAKEOVER, events_append
from games.services.preferences import preferences_events

# Invitations are emails from our domain to addresses someone typed: enough to
# fill any game (and replace a few who decline), not enough to send spam.
INVITATIONS_PER_GAME = 20
INVITATIONS_PER_DAY = 30
# After how many deadlines missed in a row a bot may take an absent player's seat (0: never).
TAKEOVER_CHOICES = (0, 1, 2, 3)


def game_creation_check(*, host) -> None:
    """Refuse a person a new game once they created ``GAMES_CREATED_PER_HOUR`` in the
    last hour: asked by the pages a person creates games from (a rematch, the
    benchmarks and the tests create games freely)."""
    created = Game.objects.filter(host=host, created_at__gt=timezone.now() - timedelta(hours=1)).count()
    if created >= settings.GAMES_CREATED_PER_HOUR:
        raise ServiceError(
            _("You created %(count)d games in the last hour, the most one may: try again a little later.")
            % {"count": created}
        )


def game_create(
    *,
    host,
    variants: list,
    seat_count: int,
    turn_seconds: int,
    response_seconds: int,
    reminders: bool = True,
    first: str = Game.First.RANDOM,
    kind: str = DEFAULT_KIND,
    kind_options: dict | None = None,
    first_user=None,
    takeover: int = DEFAULT_TAKEOVER,
    rated: bool = False,
    visibility: str = Game.Visibility.PRIVATE,
) -> Game:
    """A new game gathering players, ``host`` in the first seat. ``first`` says who
    starts; ``Game.First.PLAYER`` names ``first_user`` (a rematch's previous winner).
    ``kind_options`` are the kind's own choices from the create form (its
    ``create_fields``), stored with the game's options for its setup to read.
    ``takeover``: after how many deadlines missed in a row a bot plays for the
    absent player (0: never). ``rated``: the game moves its people's ratings when
    it ends, if at least two people play it (``ratings/services.py``). ``visibility``:
    who may watch it (``Game.Visibility``)."""
    game_kind = KINDS.get(kind)
    if game_kind is None:
        raise ServiceError(_("Unknown game."))
    engine_call(lambda: game_kind.rules.check_config(seat_players(seat_count), variants))
    if first not in Game.First.values or (first == Game.First.PLAYER) != (first_user is not None):
        raise ServiceError(_("Choose who starts."))
    if turn_seconds <= 0 or response_seconds <= 0:
        raise ServiceError(_("Choose a time control."))
    if takeover not in TAKEOVER_CHOICES:
        raise ServiceError(_("Choose when a bot plays for an absent player."))
    if visibility not in Game.Visibility.values:
        raise ServiceError(_("Choose who may watch the game."))
    with transaction.atomic():
        game = Game.objects.create(
            kind=kind,
            visibility=visibility,
            host=host,
            seat_count=seat_count,
            options={
                "variants": sorted(variants),
                "first": first,
                "takeover": takeover,
                "rated": rated,
                **{
                    name: value
                    for name, value in (kind_options or {}).items()
                    if name in game_kind.forms.create_fields()
                },
                **({"first_user": first_user.pk} if first_user is not None else {}),
            },
            turn_seconds=turn_seconds,
            response_seconds=response_seconds,
            reminders=reminders,
        )
        Seat.objects.create(game=game, user=host, position=0)
    return game


def invitation_send(*, game: Game, by, email: str) -> Invitation:
    """The host invites ``email`` to their gathering game, within the limits:
    ``INVITATIONS_PER_GAME`` per game, ``INVITATIONS_PER_DAY`` addresses per host
    in any 24 hours, never an address invited already or that asked for none."""
    email = email.strip()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)  # counts the game's invitations once
        get_user_model().objects.select_for_update().get(pk=by.pk)  # and the host's of the day
        if game.host_id != by.pk:
            raise ServiceError(_("Only the host can invite players."))
        if game.status != Game.Status.GATHERING:
            raise ServiceError(_("This game is no longer gathering players."))
        failure = failure_of(email)
        if failure is not None and failure.kind != MailFailure.Kind.COMPLAINT:
            raise ServiceError(
                _("Mail to %(email)s bounces, so we cannot invite it: check the address, or share the game's link.")
                % {"email": email}
            )
        if mail_refused(email, invitation=True):  # an opt-out, or a complaint
            raise ServiceError(_("%(email)s asked not to receive invitations.") % {"email": email})
        if game.invitations.filter(email__iexact=email, status=Invitation.Status.PENDING).exists():
            raise ServiceError(_("%(email)s is already invited to this game.") % {"email": email})
        _check_invitation_limits(game, by)
        invitation = Invitation.objects.create(game=game, email=email, invited_by=by)
    notifications.invitation_created(invitation)
    return invitation


def _check_invitation_limits(game: Game, by) -> None:
    """Refuse one more invitation to a typed address when the game, or the host
    over the last 24 hours, has sent as many as allowed."""
    if game.invitations.count() >= INVITATIONS_PER_GAME:
        raise ServiceError(
            _("This game has sent %(count)d invitations, the most one game may send. Share its link instead.")
            % {"count": INVITATIONS_PER_GAME}
        )
    since = timezone.now() - timedelta(days=1)
    if Invitation.objects.filter(invited_by=by, created_at__gte=since).exclude(email="").count() >= INVITATIONS_PER_DAY:
        raise ServiceError(
            _("You have sent %(count)d invitations in the last 24 hours, the most we allow. Try again tomorrow.")
            % {"count": INVITATIONS_PER_DAY}
        )


def _invitation_to_account(*, game: Game, by, user) -> Invitation:
    """Invite ``user``'s account (a rematch): they accept or decline like any
    invitation, and nobody sees the address it is emailed to."""
    invitation = Invitation.objects.create(game=game, email="", user=user, invited_by=by)
    notifications.invitation_created(invitation)
    return invitation


def invitation_respond(*, token: str, user, accept: bool) -> Seat | None:
    """Accept (take a seat; needs an account) or decline an invitation. Its link
    was sent to the address, so declining needs no account: whoever holds it may
    decline, and the address is then never invited again. A rematch's invitation
    is answered by the account it invites only."""
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().filter(token=token).first()
        if invitation is None:
            raise ServiceError(_("This invitation link is not valid."))
        if invitation.status != Invitation.Status.PENDING:
            raise ServiceError(_("This invitation has already been answered."))
        invited = invitation.invited_account
        if invited is not None and (user is None or user.pk != invited.pk):
            raise ServiceError(_("This invitation is for another player."))
        if accept and user is None:
            raise ServiceError(_("Sign in or create an account to accept."))
        invitation.status = Invitation.Status.ACCEPTED if accept else Invitation.Status.DECLINED
        invitation.user = user
        invitation.responded_at = timezone.now()
        invitation.save(update_fields=["status", "user", "responded_at"])
        if not accept and invited is None:
            # Whoever declines for an address speaks for it: nobody invites it again.
            address_opt_out(address=invitation.email, scope=AddressOptOut.Scope.INVITATIONS)
        return take_seat(invitation.game, user) if accept else None


def seat_join(*, game: Game, user, join_token: str) -> Seat:
    if not secrets.compare_digest(join_token, game.join_token):
        raise ServiceError(_("This invitation link is not valid."))
    with transaction.atomic():
        return take_seat(game, user)


def take_seat(game: Game, user) -> Seat:
    """``user`` takes the first free seat of ``game`` (in the caller's
    transaction); an open game that this fills starts by itself."""
    game = Game.objects.select_for_update().get(pk=game.pk)
    if game.status != Game.Status.GATHERING:
        raise ServiceError(_("This game is no longer gathering players."))
    taken = set(game.seats.values_list("position", flat=True))
    if game.seats.filter(user=user).exists():
        raise ServiceError(_("You already have a seat at this game."))
    free = [position for position in range(game.seat_count) if position not in taken]
    if not free:
        raise ServiceError(_("This game is full."))
    seat = Seat.objects.create(game=game, user=user, position=free[0])
    if len(free) == 1 and open_game_of(game) is not None:
        _game_begin(game)
    return seat


def bot_take_seat(game: Game, level: str, name: str = "") -> Seat:
    """A new bot of ``level`` takes a seat at ``game`` (gathering), named ``name``
    (a rematch keeps its bots' names) unless someone at the table has it already,
    else with a name of ``BOT_NAMES`` nobody there has: players tell bots apart by
    them."""
    taken = {profile_of(seat.user).display_name.casefold() for seat in game.seats.select_related("user__profile")}
    if not name or name.casefold() in taken:
        free = [bot_name for bot_name in BOT_NAMES if bot_name.casefold() not in taken]
        name = secrets.choice(free or BOT_NAMES)
    return take_seat(game, bot_account(level, name))


def seat_leave(*, game: Game, user) -> None:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.GATHERING:
            raise ServiceError(_("The game has started; resign instead."))
        if game.host_id == user.pk:
            raise ServiceError(_("The host cannot leave; cancel the game instead."))
        deleted, _rows = game.seats.filter(user=user).delete()
        if not deleted:
            raise ServiceError(_("You have no seat at this game."))


def game_cancel(*, game: Game, by) -> None:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.host_id != by.pk:
            raise ServiceError(_("Only the host can cancel the game."))
        if game.status != Game.Status.GATHERING:
            raise ServiceError(_("Only a game that has not started can be cancelled."))
        game_cancel_unstarted(game)


def game_cancel_unstarted(game: Game) -> None:
    """Cancel ``game`` (locked, gathering), out of the lobby if it was in it."""
    game.status = Game.Status.CANCELLED
    game.save(update_fields=["status"])
    OpenGame.objects.filter(game=game).delete()


def game_start(*, game: Game, by) -> Game:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.host_id != by.pk:
            raise ServiceError(_("Only the host can start the game."))
        if game.status != Game.Status.GATHERING:
            raise ServiceError(_("This game has already started."))
        taken = game.seats.count()
        if taken != game.seat_count:
            if open_game_of(game) is None:
                raise ServiceError(_("Wait until every seat is taken."))
            _shrink_to(game, taken)
        _game_begin(game)
    return game


def _shrink_to(game: Game, taken: int) -> None:
    """An open game its host starts before it fills: its table becomes the
    seats taken, if its game and variants may be played with that many."""
    rules = KINDS[game.kind].rules
    if taken < rules.min_players:
        raise ServiceError(_("This game needs at least %(count)d players to start.") % {"count": rules.min_players})
    engine_call(lambda: rules.check_config(seat_players(taken), game.variants))
    game.seat_count = taken


def _game_begin(game: Game) -> None:
    """Deal and start ``game`` (locked, gathering, every seat taken): its players
    are emailed as the log's update calls for."""
    with transaction.atomic():
        seats = list(game.seats.select_related("user__profile"))
        players = [seat.player for seat in seats]
        first = _first_player(game, seats)
        rules = KINDS[game.kind].rules
        events = engine_call(
            lambda: rules.setup(
                players=players,
                variants=game.variants,
                first=first,
                options=game.options,
            )
        )
        state = rules.replay(events)
        for seat in seats:
            events += preferences_events(game, state, seat, changed=False)
        game.status = Game.Status.ACTIVE
        game.started_at = timezone.now()
        OpenGame.objects.filter(game=game).delete()  # out of the lobby
        holiday_stand_ins(game, seats)
        events_append(game, state, events, changed=("status", "started_at", "seat_count"), seats=seats)


def _first_player(game: Game, seats: list) -> str:
    """Who starts: the host (seat 0), the chosen player (a rematch's previous
    winner), else someone at random (also when the chosen player took no seat)."""
    first = game.options.get("first")
    if first == Game.First.HOST:
        return seats[0].player
    if first == Game.First.PLAYER:
        chosen = next((seat for seat in seats if seat.user_id == game.options.get("first_user")), None)
        if chosen is not None:
            return chosen.player
    return secrets.choice([seat.player for seat in seats])


def game_rematch(*, game: Game, by) -> Game:
    """A new game for the players of the finished ``game``, with the same kind,
    variants, seats and time controls: ``by`` hosts it and invites the others'
    accounts (never showing an address), a fresh bot of the same level takes each
    bot's seat, and the previous winner (or the bot in its place) starts
    (docs/rules.md §1). Asked again (by anyone), it returns the rematch already made rather than
    a second one."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)  # one rematch, even when two ask at once
        if seat_of(game, by) is None:
            raise ServiceError(_("Only players of this game can ask for a rematch."))
        if game.status != Game.Status.FINISHED:
            raise ServiceError(_("A rematch can be asked for once the game is over."))
        existing = rematch_of(game)
        if existing is not None:
            return existing
        winner = game.seats.filter(user_id=game.winner_id).select_related("user").first() if game.winner_id else None
        rematch = game_create(
            host=by,
            kind=game.kind,
            variants=game.variants,
            seat_count=game.seat_count,
            turn_seconds=game.turn_seconds,
            response_seconds=game.response_seconds,
            reminders=game.reminders,
            visibility=game.visibility,
            first=Game.First.PLAYER if winner else Game.First.RANDOM,
            first_user=winner.user if winner else None,
            kind_options={
                name: game.options[name] for name in KINDS[game.kind].forms.create_fields() if name in game.options
            },
            takeover=game.options.get("takeover", DEFAULT_TAKEOVER),
            rated=bool(game.options.get("rated")),
        )
        rematch.options["rematch_of"] = game.pk
        for seat in game.seats.select_related("user__profile").exclude(user=by).order_by("position"):
            if profile_of(seat.user).former_number is not None:
                continue  # they deleted their account: nobody to invite
            level = profile_of(seat.user).bot_level  # a bot's own seat, not an absentee's stand-in
            if not level:
                _invitation_to_account(game=rematch, by=by, user=seat.user)
                continue
            bot = bot_take_seat(rematch, level, profile_of(seat.user).display_name).user
            if seat == winner:
                rematch.options["first_user"] = bot.pk
        rematch.save(update_fields=["options"])
    return rematch


def rematch_of(game: Game) -> Game | None:
    """The rematch made after ``game`` (a cancelled one does not count)."""
    return Game.objects.filter(options__rematch_of=game.pk).exclude(status=Game.Status.CANCELLED).order_by("pk").first()


def visibility_change(*, game: Game, by, visibility: str) -> None:
    """The host makes ``game`` public, unlisted or private while it gathers players."""
    if game.host_id != by.pk:
        raise ServiceError(_("Only the host chooses who may watch the game."))
    if visibility not in Game.Visibility.values:
        raise ServiceError(_("Choose who may watch the game."))
    with transaction.atomic():
        locked = Game.objects.select_for_update().get(pk=game.pk)
        if locked.status != Game.Status.GATHERING:
            raise ServiceError(_("Who may watch is chosen before the game starts."))
        locked.visibility = visibility
        locked.save(update_fields=["visibility"])
    game.visibility = visibility
