"""Reading games for pages, emails and tests (no writes here)."""

from dataclasses import dataclass, field
from datetime import timedelta
from functools import cached_property
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models.expressions import RawSQL

from accounts.models import display_name_of, profile_of, stand_in_label
from games import history
from games.engine.common import PUBLIC, GameState
from games.history import History
from games.kinds import KINDS
from games.models import Event, Game, Seat, SeatChange

if TYPE_CHECKING:
    from games.kinds.base import GameKind


class GameUnreadable(Exception):
    """The stored state of a game cannot be read (a damaged snapshot or log). Its
    pages say that the game needs attention (``games.web.middleware``)."""

    def __init__(self, game_id: int):
        super().__init__(f"game {game_id} cannot be read")
        self.game_id = game_id


def game_by_id(pk: int) -> Game | None:
    return Game.objects.filter(pk=pk).first()


def seat_in_game(game_id: int, **named: int) -> Seat | None:
    """The seat of the game ``game_id`` that ``named`` names (``pk=`` or ``position=``),
    with its game and its player's account and profile: what an email's link or reply
    address names."""
    return Seat.objects.select_related("game", "user__profile").filter(game_id=game_id, **named).first()


def events_of(game: Game) -> list[tuple[int, dict]]:
    """``(seq, payload)`` of every stored event of ``game``, in order."""
    return list(Event.objects.filter(game=game).order_by("seq").values_list("seq", "payload"))


def event_time(game: Game, seq: int):
    """When event ``seq`` of ``game`` was stored (None when there is none)."""
    return Event.objects.filter(game=game, seq=seq).values_list("created_at", flat=True).first()


def seat_changes_since(game: Game, start: int) -> list[tuple[int, int, str]]:
    """``(seat id, version, change)`` of every ``SeatChange`` of ``game`` from
    ``version`` ``start`` on, in order."""
    changes = game.seat_changes.filter(version__gte=start).order_by("version", "pk")
    return list(changes.values_list("seat_id", "version", "change"))


def game_state(game: Game) -> GameState:
    """The engine state of ``game``: its cached snapshot, or a replay of its log.
    Raises ``GameUnreadable`` (from the engine's error) when they cannot be read."""
    rules = KINDS[game.kind].rules
    snapshot = game.snapshot
    payloads: list[dict] = []
    if snapshot is None:
        payloads = list(Event.objects.filter(game=game).order_by("seq").values_list("payload", flat=True))
    try:
        return rules.load(snapshot) if snapshot is not None else rules.replay(payloads)
    except Exception as error:  # the engine trusts what it stored: anything it raises here means damage
        raise GameUnreadable(game.pk) from error


def seats_of(game: Game) -> list[Seat]:
    """Every seat of ``game`` with its player's account and profile, in one query:
    all a page needs of the players, read once and passed along. Each carries the
    version of its latest change (``last_change``: a bot taking it over, its
    player back; None if none ever), so that a history with no change in it
    needs no query for them (``games.web.pages.with_seat_changes``)."""
    # ``Seat`` declares ``last_change``, which Django lets an annotation set (it is no
    # field), but django-stubs' plugin refuses any annotation named as a model
    # attribute (typeddjango/django-stubs#2818).
    seats = game.seats.select_related("user", "user__profile")
    return list(seats.annotate(last_change=LAST_SEAT_CHANGE))  # type: ignore[no-redef]


# Written out rather than built from querysets (a Subquery): compiling one costs
# more than the poll that reads the seats every few seconds would otherwise spend.
LAST_SEAT_CHANGE = RawSQL(
    f'SELECT MAX("version") FROM "{SeatChange._meta.db_table}" WHERE "seat_id" = "{Seat._meta.db_table}"."id"', ()
)


def is_practice(game: Game) -> bool:
    """Whether ``game`` is a practice game: one person against bots alone (started
    as one, or a waiting room its host filled with bots)."""
    return game.seats.exclude(user__profile__bot_level__gt="").count() == 1


def seat_of(game: Game, user, seats: list[Seat] | None = None) -> Seat | None:
    """``user``'s seat at ``game``: among ``seats`` when they are already read."""
    if user is None or not user.is_authenticated:
        return None
    return next((seat for seat in (game.seats.all() if seats is None else seats) if seat.user_id == user.pk), None)


def display_name(user) -> str:
    return display_name_of(user, profile=getattr(user, "profile", None))


def player_names(game: Game, seats: list[Seat] | None = None) -> dict:
    """Engine player name → the name shown at the table now, for every seat of
    ``game`` (``seats`` when they are already read): a seat a bot plays while its
    player is away is named as that bot ("Ana's bot (easy)")."""
    return {
        seat.player: stand_in_name(seat) if seat.stand_in else display_name(seat.user)
        for seat in (seats_of(game) if seats is None else seats)
    }


def own_names(seats: list[Seat]) -> dict:
    """Engine player name → the name of the seat's own player (no stand-in): the
    names a history starts from (``stand_ins_of`` says who played for whom when)."""
    return {seat.player: display_name(seat.user) for seat in seats}


def stand_ins_of(game: Game, seats: list[Seat]) -> dict:
    """Player → ``(first, end, name)`` of each time a bot played for them
    (``games.kinds.words.Story``): ``stand_in_periods`` with the bot's name. No
    query when no seat ever changed hands (``seats`` as ``seats_of`` reads them)."""
    if all(seat.last_change is None for seat in seats):
        return {}
    names = {seat.player: stand_in_name(seat) for seat in seats}
    periods = stand_in_periods(game, seats)
    return {player: [(first, end, names[player]) for first, end in held] for player, held in periods.items()}


def stand_in_periods(game: Game, seats: list[Seat]) -> dict[str, list[tuple[int, int | None]]]:
    """Player → ``(first, end)`` of each time a bot played for them, from the seat
    changes of ``game``: from the version the bot took over up to the one its
    player came back at (None while it still plays)."""
    players = {seat.pk: seat.player for seat in seats}
    periods: dict[str, list[tuple[int, int | None]]] = {}
    for seat_id, version, change in seat_changes_since(game, 0):
        held = periods.setdefault(players[seat_id], [])
        if change == SeatChange.Change.BACK:
            if held and held[-1][1] is None:
                held[-1] = (held[-1][0], version)
        elif not held or held[-1][1] is not None:
            held.append((version, None))
    return periods


def away_of(seats: list[Seat], viewer: str | None = None) -> list[dict]:
    """The players of ``seats`` (with their profiles) away on holiday, but the
    ``viewer``'s own: each one's ``name`` and ``until``, the last moment they are
    away (its day, in the reader's zone, is the last day they are away there)."""
    return [
        {"name": display_name(seat.user), "until": until - timedelta(microseconds=1)}
        for seat in seats
        if seat.player != viewer and (until := profile_of(seat.user).away_until) is not None
    ]


def stand_in_name(seat: Seat) -> str:
    """The name of the bot that plays, or played, for ``seat``'s player while they
    are away ("Ana's bot (easy)"): at the level it plays now, else the site's."""
    return stand_in_label(display_name(seat.user), seat.stand_in or settings.BOT_STAND_IN_LEVEL)


@dataclass
class Table:
    """Everything one user may see of a game (``table_for``), and the questions about
    it that pages, emails and replies ask. ``view`` is the engine's view for the
    user's seat (the public view without a seat; every hand once the game is
    finished; None while it gathers players), ``options`` the seat's legal answers
    as a person is offered them (``Rules.offered``: two decisions in a row as one),
    each with the decision ``version`` it answers, ``history`` the latest turns as
    the user may know them (``games.history.History``)."""

    game: Game
    seat: Seat | None
    seats: list[Seat]
    names: dict
    view: dict | None = None
    options: list[dict] = field(default_factory=list)
    history: History | None = None

    @cached_property
    def game_kind(self) -> "GameKind":
        return KINDS[self.game.kind]

    @property
    def viewer(self) -> str | None:
        """The user's player name in the game, or None without a seat."""
        return self.seat.player if self.seat else None

    @cached_property
    def awaiting(self) -> dict[str, str]:
        """Player → the decision the game awaits of them, as the view shows it."""
        return {entry["player"]: entry["decision"] for entry in (self.view or {}).get("awaiting", [])}

    @property
    def decision(self) -> str | None:
        """The decision the game awaits of the user, if any."""
        return self.awaiting.get(self.viewer) if self.viewer else None

    @property
    def version(self) -> int | None:
        """The version of the decision the user's options answer."""
        return self.options[0]["version"] if self.options else None

    @property
    def winners(self) -> list[str]:
        winner = (self.view or {}).get("winner")
        return winner if isinstance(winner, list) else [winner] if winner else []

    @property
    def prompt(self) -> str:
        """What the user's decision asks ("choose your action"); "" when none."""
        return self.game_kind.words.decision_prompt(self.decision) if self.decision else ""

    @property
    def waits_for(self) -> str:
        """What the game waits for from the user, as a button says it ("Respond to Ben's Tax")."""
        decision, view, viewer = self._asked()
        return self.game_kind.words.waits_for(decision, view, viewer, self.names)

    @cached_property
    def _labeler(self):
        _decision, view, viewer = self._asked()
        return self.game_kind.words.labeler(view, viewer, self.names, self.game.variants)

    def label(self, option: dict) -> str:
        """The words on the button of one of the user's ``options``."""
        decision, _view, _viewer = self._asked()
        return self.game_kind.words.option_label(option, self._labeler, decision)

    def _asked(self) -> tuple[str, dict, str]:
        """The user's decision, the view and their player name: what the words of
        their ``options`` read, which only a seat the game awaits has."""
        decision, view, viewer = self.decision, self.view, self.viewer
        assert decision is not None and view is not None and viewer is not None, "the game awaits nothing of the user"
        return decision, view, viewer

    def played(self) -> tuple[dict, History]:
        """The view and the history, which every table has but that of a game still
        gathering its players, or cancelled then (``table_for`` leaves them None)."""
        view, told = self.view, self.history
        assert view is not None and told is not None, "the game was never played"
        return view, told

    def reply_word(self, option: dict) -> str:
        """How to write one of the user's ``options`` in a reply by email."""
        return self.game_kind.replies.word(option, self.names)


def table_for(game: Game, user, *, seats: list[Seat] | None = None, state=None, told=None, appended=()) -> Table:
    """Everything ``user`` may see of ``game`` (a ``Table``): the engine view for their
    seat (the public view when they have none; every hand once the game is
    finished), their legal answers with the decision version, and the history of
    its latest turns as they may know it (``games.history``). ``seats`` (from
    ``seats_of``), ``state`` (the engine state of the game as it is) and ``told``
    (the user's ``history.latest``) are read here unless the caller already holds
    them; ``appended``: the events the caller just appended (a move's answer),
    which the history then needs not read back."""
    seats = seats_of(game) if seats is None else seats
    seat = seat_of(game, user, seats)
    table = Table(game, seat, seats, player_names(game, seats))
    if game.status in (Game.Status.GATHERING, Game.Status.CANCELLED):
        return table
    rules = table.game_kind.rules
    state = game_state(game) if state is None else state
    versions = {name: version for name, _decision, version in rules.awaiting(state)}
    if seat is not None and seat.player in versions:
        table.options = [{**option, "version": versions[seat.player]} for option in rules.offered(state, seat.player)]
    if told is None:
        told = history.latest(game, table.viewer, own_names(seats), appended, stand_ins_of(game, seats))
    table.history = told
    # Once a game is finished nothing in it is secret any more (as in its replay):
    # every hand is turned face up for everyone.
    finished = game.status == Game.Status.FINISHED
    table.view = rules.omniscient_view(state) if finished else rules.view(state, table.viewer or PUBLIC)
    return table
