"""The Kobayakawa game state and the fold that builds it from events.

``apply`` is the only code that changes a state, one event at a time, and holds no
rules: every decision was taken when the event was made (see ``decisions.py`` and
``flow.py``). Replaying the same events always rebuilds the same state.

Medals are always somewhere: with a player (``medals``), bet in front of a player
this round (``bet``), in the ``centre``, or back in the ``box`` (the medals of a
player who resigned). Their sum never changes.
"""

from games.engine.decisions import Decision


class Player:
    __slots__ = (
        "name",
        "seat",
        "medals",
        "card",
        "drawn",
        "discards",
        "bet",
        "played",
        "answer",
        "shown",
        "out",
        "resigned",
    )

    def __init__(self, name: str, seat: int, medals: int):
        self.name = name
        self.seat = seat
        self.medals = medals  # medals held, not counting a bet on the table
        self.card: int | None = None  # the face-down card held this round
        self.drawn: int | None = None  # the card drawn in stage 1, until one of the two is discarded
        self.discards: list[int] = []  # face-up discards of this round, in order
        self.bet = 0  # medals bet this round, on the table in front of the player
        self.played = False  # stage 1 done this round (drew and discarded, or flipped)
        self.answer: str | None = None  # stage 2: "bet" or "pass", once answered
        self.shown = False  # the card was revealed at this round's showdown
        self.out = False  # no medals left, or resigned: no longer dealt in
        self.resigned = False


class KobayakawaState:
    __slots__ = (
        "players",
        "by_name",
        "deck",
        "pile",
        "centre",
        "box",
        "round",
        "last",
        "first",
        "order",
        "stage",
        "awaiting",
        "previous",
        "winners",
        "over",
        "seq",
    )

    def __init__(self):
        self.players: list[Player] = []
        self.by_name: dict[str, Player] = {}
        self.deck: list[int] = []  # top first
        self.pile: list[int] = []  # the Kobayakawa pile, bottom first: its top card is the Kobayakawa value
        self.centre = 0
        self.box = 0  # medals that left the game with a resigning player
        self.round = 0  # a replayed round keeps its number
        self.last = False  # this round is the last (the centre held exactly 2 when it began)
        self.first: str | None = None  # the round's first player
        self.order: list[str] = []  # the round's turn order, from its first player (players dealt in)
        self.stage: str | None = None  # "draw" (stage 1), "bet" (stage 2), None between rounds or once over
        self.awaiting: dict[str, Decision] = {}
        self.previous: dict | None = None  # what happened in the last finished (or replayed) round
        self.winners: list[str] = []
        self.over = False
        self.seq = 0  # events applied

    @property
    def kobayakawa(self):
        return self.pile[-1] if self.pile else None

    def in_game(self) -> list[Player]:
        """The players still in the game, in seat order."""
        return [p for p in self.players if not p.out]

    def in_order(self) -> list[Player]:
        """This round's players still in the game, in turn order from its first player."""
        by_name = self.by_name
        return [p for p in (by_name[name] for name in self.order) if not p.out]


def _plain(obj) -> dict:
    return {name: getattr(obj, name) for name in obj.__slots__}


def to_json(state: KobayakawaState) -> dict:
    """The whole state as JSON, for a snapshot cached beside the event log."""
    return {
        "players": [{**_plain(p), "discards": list(p.discards)} for p in state.players],
        "deck": list(state.deck),
        "pile": list(state.pile),
        "centre": state.centre,
        "box": state.box,
        "round": state.round,
        "last": state.last,
        "first": state.first,
        "order": list(state.order),
        "stage": state.stage,
        "awaiting": {name: [d.kind, d.id] for name, d in state.awaiting.items()},
        "previous": state.previous,
        "winners": list(state.winners),
        "over": state.over,
        "seq": state.seq,
    }


def from_json(data: dict) -> KobayakawaState:
    state = KobayakawaState()
    players = []
    for fields in data["players"]:
        player = Player(fields["name"], fields["seat"], fields["medals"])
        for name in Player.__slots__[3:]:
            value = fields[name]
            setattr(player, name, list(value) if isinstance(value, list) else value)
        players.append(player)
    _seat(state, players)
    for name in ("deck", "pile", "order", "winners"):
        setattr(state, name, list(data[name]))
    for name in ("centre", "box", "round", "last", "first", "stage", "over", "seq"):
        setattr(state, name, data[name])
    state.previous = _copy(data["previous"])
    state.awaiting = {name: Decision(kind, id) for name, (kind, id) in data["awaiting"].items()}
    return state


def _copy(value):
    """A deep copy of plain JSON (event data kept in the state)."""
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value


def _seat(state, players):
    state.players = players
    state.by_name = {p.name: p for p in players}


# ---- the fold: one function per event type -----------------------------------------


def _started(state, data, secret):
    _seat(state, [Player(name, seat, data["medals"][name]) for seat, name in enumerate(data["players"])])
    state.centre = data["centre"]
    state.first = data["first"]


def _round_started(state, data, secret):
    for p in state.players:
        p.card = p.drawn = None
        p.discards = []
        p.bet = 0
        p.played = p.shown = False
        p.answer = None
    state.round = data["round"]
    state.first = data["first"]
    state.last = data["last"]
    state.order = list(data["order"])
    state.deck = []
    state.pile = []
    state.stage = "draw"
    state.awaiting = {}


def _deck_shuffled(state, data, secret):
    state.deck = list(secret["deck"])


def _take_top(state, card):
    top = state.deck.pop(0)
    assert top == card, "the recorded card is not the top of the deck"
    return top


def _card_dealt(state, data, secret):
    state.by_name[data["player"]].card = _take_top(state, secret["card"])


def _kobayakawa_turned(state, data, secret):
    state.pile = [_take_top(state, data["card"])]


def _awaited(state, data, secret):
    kind = data["decision"]
    state.awaiting = {data["player"]: Decision(kind, state.seq)}
    state.stage = "bet" if kind == "bet" else "draw"


def _card_drawn(state, data, secret):
    state.by_name[data["player"]].drawn = _take_top(state, secret["card"])
    state.awaiting = {}


def _card_discarded(state, data, secret):
    player = state.by_name[data["player"]]
    card = data["card"]
    if card != player.drawn:
        player.card = player.drawn
    player.drawn = None
    player.discards.append(card)
    player.played = True
    state.awaiting.pop(player.name, None)


def _card_flipped(state, data, secret):
    state.pile.append(_take_top(state, data["card"]))
    player = state.by_name[data["player"]]
    player.played = True
    state.awaiting.pop(player.name, None)


def _bet_placed(state, data, secret):
    player = state.by_name[data["player"]]
    player.medals -= data["medals"]
    player.bet += data["medals"]
    player.answer = "bet"
    state.awaiting.pop(player.name, None)


def _bet_passed(state, data, secret):
    player = state.by_name[data["player"]]
    player.answer = "pass"
    state.awaiting.pop(player.name, None)


def _cards_revealed(state, data, secret):
    for name in data["cards"]:
        state.by_name[name].shown = True


def _round_won(state, data, secret):
    pot = sum(p.bet for p in state.players)
    assert pot == data["pot"], "the recorded pot is not the medals bet"
    for p in state.players:
        p.bet = 0
    state.by_name[data["player"]].medals += pot + data["centre"]
    state.centre -= data["centre"]
    state.previous = _copy(data)
    state.stage = None
    state.awaiting = {}


def _round_replayed(state, data, secret):
    state.previous = _copy(data)
    state.stage = None
    state.awaiting = {}


def _player_out(state, data, secret):
    state.by_name[data["player"]].out = True


def _resigned(state, data, secret):
    player = state.by_name[data["player"]]
    state.box += player.medals + player.bet
    player.medals = player.bet = 0
    player.out = player.resigned = True
    state.awaiting.pop(player.name, None)


def _bets_returned(state, data, secret):
    for p in state.players:
        p.medals += p.bet
        p.bet = 0


def _game_ended(state, data, secret):
    state.winners = list(data["winners"])
    state.over = True
    state.stage = None
    state.awaiting = {}


APPLY = {
    "kobayakawa.game.started": _started,
    "kobayakawa.round.started": _round_started,
    "kobayakawa.deck.shuffled": _deck_shuffled,
    "kobayakawa.card.dealt": _card_dealt,
    "kobayakawa.kobayakawa.turned": _kobayakawa_turned,
    "kobayakawa.awaited": _awaited,
    "kobayakawa.card.drawn": _card_drawn,
    "kobayakawa.card.discarded": _card_discarded,
    "kobayakawa.card.flipped": _card_flipped,
    "kobayakawa.bet.placed": _bet_placed,
    "kobayakawa.bet.passed": _bet_passed,
    "kobayakawa.cards.revealed": _cards_revealed,
    "kobayakawa.round.won": _round_won,
    "kobayakawa.round.replayed": _round_replayed,
    "kobayakawa.player.out": _player_out,
    "kobayakawa.player.resigned": _resigned,
    "kobayakawa.bets.returned": _bets_returned,
    "kobayakawa.game.ended": _game_ended,
}
