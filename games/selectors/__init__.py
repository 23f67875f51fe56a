"""Reading games for pages, emails and tests (no writes here)."""

from django.db.models.expressions import RawSQL
from django.utils.translation import gettext as _

from accounts.models import bot_label, display_name_of
from games import history
from games.engine.common import PUBLIC
from games.kinds import KINDS
from games.models import Event, Game, Seat, SeatChange


class GameUnreadable(Exception):
    """The stored state of a game cannot be read (a damaged snapshot or log). Its
    pages say that the game needs attention (``games.web.middleware``)."""

    def __init__(self, game_id: int):
        super().__init__(f"game {game_id} cannot be read")
        self.game_id = game_id


def game_state(game: Game):
    """The engine state of ``game``: its cached snapshot, or a replay of its log.
    Raises ``GameUnreadable`` (from the engine's error) when they cannot be read."""
    game_kind = KINDS[game.kind]
    payloads = None
    if game.snapshot is None:
        payloads = list(Event.objects.filter(game=game).order_by("seq").values_list("payload", flat=True))
    try:
        return game_kind.load(game.snapshot) if payloads is None else game_kind.replay(payloads)
    except Exception as error:  # the engine trusts what it stored: anything it raises here means damage
        raise GameUnreadable(game.pk) from error


def seats_of(game: Game) -> list[Seat]:
    """Every seat of ``game`` with its player's account and profile, in one query:
    all a page needs of the players, read once and passed along. Each carries the
    version of its latest change (``last_change``: a bot taking it over, its
    player back; None if none ever), so that a history with no change in it
    needs no query for them (``games.web.pages.with_seat_changes``)."""
    return list(game.seats.select_related("user", "user__profile").annotate(last_change=LAST_SEAT_CHANGE))


# Written out rather than built from querysets (a Subquery): compiling one costs
# more than the poll that reads the seats every few seconds would otherwise spend.
LAST_SEAT_CHANGE = RawSQL(
    f'SELECT MAX("version") FROM "{SeatChange._meta.db_table}" WHERE "seat_id" = "{Seat._meta.db_table}"."id"', ()
)


def seat_of(game: Game, user, seats: list[Seat] | None = None) -> Seat | None:
    """``user``'s seat at ``game``: among ``seats`` when they are already read."""
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in (game.seats.all() if seats is None else seats) if seat.user_id == user.pk), None)


def display_name(user) -> str:
    return display_name_of(user, profile=getattr(user, "profile", None))


def player_names(game: Game, seats: list[Seat] | None = None) -> dict:
    """Engine player name → display name, for every seat of ``game`` (``seats`` when
    they are already read); a seat a bot plays while its player is away says so."""
    return {
        seat.player: (
            _("%(name)s, played by %(bot)s") % {"name": display_name(seat.user), "bot": bot_label(seat.stand_in)}
            if seat.stand_in
            else display_name(seat.user)
        )
        for seat in (seats_of(game) if seats is None else seats)
    }


def table_for(game: Game, user, *, seats: list[Seat] | None = None, state=None, told=None, appended=()) -> dict:
    """Everything ``user`` may see of ``game``: the engine view for their seat (the
    public view when they have none; every hand once the game is finished), their legal answers with the decision
    version, and the history of its latest turns as they may know it (``games.history``).
    ``seats`` (from ``seats_of``), ``state`` (the engine state of the game as it
    is) and ``told`` (the user's ``history.latest``) are read here unless the
    caller already holds them; ``appended``: the events the caller just appended
    (a move's answer), which the history then needs not read back."""
    seats = seats_of(game) if seats is None else seats
    seat = seat_of(game, user, seats)
    viewer = seat.player if seat else PUBLIC
    table = {"game": game, "seat": seat, "seats": seats, "names": player_names(game, seats)}
    if game.status in (Game.Status.GATHERING, Game.Status.CANCELLED):
        return {**table, "view": None, "options": [], "history": None}
    engine = KINDS[game.kind]
    state = game_state(game) if state is None else state
    versions = {name: version for name, _kind, version in engine.awaiting(state)}
    options = []
    if seat is not None and seat.player in versions:
        options = [{**option, "version": versions[seat.player]} for option in engine.options(state, seat.player)]
    if told is None:
        told = history.latest(game, seat.player if seat else None, table["names"], appended)
    # Once a game is finished nothing in it is secret any more (as in its replay):
    # every hand is turned face up for everyone.
    finished = game.status == Game.Status.FINISHED
    view = engine.omniscient_view(state) if finished else engine.view(state, viewer)
    return {**table, "view": view, "options": options, "history": told}
