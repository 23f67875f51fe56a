"""The Coup game state and the fold that builds it from events.

``apply`` is the only code that changes a state, one event at a time, and holds no
rules: every decision was taken when the event was made (see ``decisions.py`` and
``flow.py``). Replaying the same events always rebuilds the same state.
"""

from games.engine.decisions import Decision
from games.kinds.coup.engine.cards import OPPOSITE_FACTION, Rulebook, rulebook_for


class Player:
    __slots__ = ("name", "seat", "coins", "hand", "revealed", "alive", "faction", "drawn", "out_order")

    def __init__(self, name: str, seat: int, coins: int, faction: str | None):
        self.name = name
        self.seat = seat
        self.coins = coins
        self.hand: list[str] = []  # face-down cards, sorted
        self.revealed: list[str] = []  # face-up (lost) cards, sorted
        self.alive = True
        self.faction = faction
        self.drawn: list[str] = []  # cards drawn in an exchange, until kept
        self.out_order = 0  # 1 for the first player eliminated, 2 for the next...


class Action:
    """The turn action in progress, from its declaration until it has resolved."""

    __slots__ = ("kind", "actor", "target", "name", "beneficiary", "takes", "allowed", "blocker", "block_card", "shown")

    def __init__(self, kind, actor, target=None, name=None, beneficiary=None, takes=0):
        self.kind = kind
        self.actor = actor
        self.target = target
        self.name = name  # the character named in a Declared Coup or Assassination
        self.beneficiary = beneficiary  # who receives Patronage's third coin
        self.takes = takes  # what an Embezzlement took from the reserve
        self.allowed: set[str] = set()  # who allowed the action in its window
        self.blocker: str | None = None
        self.block_card: str | None = None
        self.shown: str | None = None  # the card an examined player showed


class Challenge:
    __slots__ = ("challenger", "claimant", "on")

    def __init__(self, challenger, claimant, on):
        self.challenger = challenger
        self.claimant = claimant
        self.on = on  # "action", "block" or "inheritance"


class Estate:
    """The coins of an eliminated player during a Lawyer inheritance."""

    __slots__ = ("deceased", "coins", "claimants", "proved", "suspended")

    def __init__(self, deceased, coins):
        self.deceased = deceased
        self.coins = coins
        self.claimants: list[str] = []
        # Claims proved against a challenge: settled, so never challenged again (docs/rules.md §1, §4.3).
        self.proved: list[str] = []
        self.suspended: list[str] = []  # players still to answer a window a challenge interrupted


_NO_VARIANTS = rulebook_for(frozenset())


class CoupState:
    __slots__ = (
        "players",
        "by_name",
        "variants",
        "rulebook",
        "court",
        "aside",
        "reserve",
        "turn",
        "first",
        "awaiting",
        "step",
        "action",
        "challenge",
        "estate",
        "winner",
        "over",
        "seq",
        "eliminated",
        "living",
        "standing",
        "clockwise",
    )

    def __init__(self):
        self.players: list[Player] = []
        self.by_name: dict[str, Player] = {}
        self.variants: frozenset[str] = frozenset()
        self.rulebook: Rulebook = _NO_VARIANTS  # always the rulebook of ``variants``
        self.court: list[str] = []  # top first
        self.aside: list[str] = []  # two-player draft: out of the game, unseen
        self.reserve = 0  # the factions' treasury reserve
        self.turn: Player | None = None
        self.first: str | None = None
        self.awaiting: dict[str, Decision] = {}
        self.step: str | None = None  # where the flow resumes once nobody is awaited
        self.action: Action | None = None
        self.challenge: Challenge | None = None
        self.estate: Estate | None = None
        self.winner: str | None = None
        self.over = False  # kept beside ``winner``: every playout step asks it
        self.seq = 0  # events applied
        self.eliminated = 0  # players eliminated so far
        self.living = 0  # players still in the game
        self.standing: dict[str, dict] = {}  # a player's standing answers (private to them)
        self.clockwise: list[tuple[Player, ...]] = []  # by seat: everyone else, clockwise from that seat

    def alive(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def after(self, player: Player) -> list[Player]:
        """Everyone else still in the game, clockwise from ``player``."""
        return [q for q in self.clockwise[player.seat] if q.alive]

    def seat_players(self, players: list[Player]) -> None:
        self.players = players
        self.by_name = {p.name: p for p in players}
        # The seating never changes, so each seat's clockwise order is worked out once.
        self.clockwise = [(*players[seat + 1 :], *players[:seat]) for seat in range(len(players))]


def _plain(obj) -> dict:
    return {name: getattr(obj, name) for name in obj.__slots__}


def to_json(state: CoupState) -> dict:
    """The whole state as JSON, for a snapshot cached beside the event log."""
    return {
        "players": [
            {**_plain(p), "hand": list(p.hand), "revealed": list(p.revealed), "drawn": list(p.drawn)}
            for p in state.players
        ],
        "variants": sorted(state.variants),
        "court": list(state.court),
        "aside": list(state.aside),
        "reserve": state.reserve,
        "turn": state.turn.name if state.turn else None,
        "first": state.first,
        "awaiting": {name: [d.kind, d.id] for name, d in state.awaiting.items()},
        "step": state.step,
        "action": state.action and {**_plain(state.action), "allowed": sorted(state.action.allowed)},
        "challenge": state.challenge and _plain(state.challenge),
        "estate": state.estate
        and {
            **_plain(state.estate),
            "claimants": list(state.estate.claimants),
            "proved": list(state.estate.proved),
            "suspended": list(state.estate.suspended),
        },
        "winner": state.winner,
        "seq": state.seq,
        "eliminated": state.eliminated,
        "living": state.living,
        "standing": {name: dict(answers) for name, answers in state.standing.items()},
    }


def from_json(data: dict) -> CoupState:
    state = CoupState()
    players = []
    for fields in data["players"]:
        player = Player(fields["name"], fields["seat"], fields["coins"], fields["faction"])
        for name in ("hand", "revealed", "alive", "drawn", "out_order"):
            setattr(player, name, fields[name] if not isinstance(fields[name], list) else list(fields[name]))
        players.append(player)
    state.seat_players(players)
    state.variants = frozenset(data["variants"])
    state.rulebook = rulebook_for(state.variants)
    state.court, state.aside = list(data["court"]), list(data["aside"])
    state.reserve, state.first, state.step = data["reserve"], data["first"], data["step"]
    state.turn = state.by_name[data["turn"]] if data["turn"] else None
    state.awaiting = {name: Decision(kind, id) for name, (kind, id) in data["awaiting"].items()}
    if data["action"]:
        action = Action(None, None)
        for name, value in data["action"].items():
            setattr(action, name, set(value) if name == "allowed" else value)
        state.action = action
    if data["challenge"]:
        state.challenge = Challenge(**data["challenge"])
    if data["estate"]:
        estate = Estate(None, 0)
        for name, value in data["estate"].items():
            setattr(estate, name, list(value) if isinstance(value, list) else value)
        state.estate = estate
    state.winner, state.seq, state.eliminated, state.living = (
        data["winner"],
        data["seq"],
        data["eliminated"],
        data["living"],
    )
    state.over = state.winner is not None
    state.standing = {name: dict(answers) for name, answers in data.get("standing", {}).items()}
    return state


def _started(state, data, secret):
    state.variants = frozenset(data["variants"])
    state.rulebook = rulebook_for(state.variants)
    factions = data.get("factions") or {}
    state.seat_players(
        [Player(name, seat, data["coins"][name], factions.get(name)) for seat, name in enumerate(data["players"])]
    )
    state.living = len(state.players)
    state.first = data["first"]


def _hand_dealt(state, data, secret):
    state.by_name[data["player"]].hand = sorted(secret["cards"])


def _court_shuffled(state, data, secret):
    state.court = list(secret["court"])


def _draft_started(state, data, secret):
    state.awaiting = {p.name: Decision("draft", state.seq) for p in state.players}


def _draft_kept(state, data, secret):
    player = state.by_name[data["player"]]
    player.hand = [secret["card"]]
    state.aside.extend(secret["aside"])
    state.aside.sort()
    del state.awaiting[player.name]


def _turn_started(state, data, secret):
    state.turn = state.by_name[data["player"]]
    state.action = None
    state.challenge = None
    state.step = None
    state.awaiting = {data["player"]: Decision("turn", state.seq)}


def _action_declared(state, data, secret):
    state.action = Action(
        data["action"],
        data["player"],
        data.get("target"),
        data.get("name"),
        data.get("beneficiary"),
        data.get("takes", 0),
    )
    state.awaiting = {}


def _coins_moved(state, data, secret):
    amount = data["amount"]
    source, dest = data["from"], data["to"]
    if source == "reserve":
        state.reserve -= amount
    elif source == "estate":
        state.estate.coins -= amount
    elif source != "treasury":
        state.by_name[source].coins -= amount
    if dest == "reserve":
        state.reserve += amount
    elif dest != "treasury":
        state.by_name[dest].coins += amount


def _awaited(state, data, secret):
    decision = Decision(data["decision"], state.seq)
    state.awaiting = {name: decision for name in data["players"]}
    state.step = data["then"]


def _allowed(state, data, secret):
    name = data["player"]
    del state.awaiting[name]
    if state.action is not None and state.action.blocker is None:
        state.action.allowed.add(name)


def _challenged(state, data, secret):
    challenger, claimant = data["player"], data["claimant"]
    state.challenge = Challenge(challenger, claimant, data["on"])
    if data["on"] == "inheritance":
        state.estate.suspended = [p for p in state.awaiting if p != challenger]
    state.awaiting = {claimant: Decision("challenged", state.seq)}


def _claim_proved(state, data, secret):
    player = state.by_name[data["player"]]
    for card in data["cards"]:
        player.hand.remove(card)
    state.court.extend(sorted(data["cards"]))
    state.awaiting.pop(player.name, None)
    if state.challenge.on == "inheritance":
        state.estate.proved.append(player.name)


def _answered(state, data, secret):
    state.awaiting.pop(data["player"], None)


def _card_drawn(state, data, secret):
    card = state.court.pop(0)
    assert card == secret["card"], "the recorded draw is not the top of the court"
    hand = state.by_name[data["player"]].hand
    hand.append(card)
    hand.sort()


def _card_returned(state, data, secret):
    card = secret["card"]
    state.by_name[data["player"]].hand.remove(card)
    state.court.append(card)


def _influence_lost(state, data, secret):
    player = state.by_name[data["player"]]
    player.hand.remove(data["card"])
    player.revealed.append(data["card"])
    player.revealed.sort()
    state.awaiting.pop(player.name, None)


def _eliminated(state, data, secret):
    player = state.by_name[data["player"]]
    player.alive = False
    state.eliminated += 1
    state.living -= 1
    player.out_order = state.eliminated


def _blocked(state, data, secret):
    state.action.blocker = data["player"]
    state.action.block_card = data["card"]
    state.awaiting = {}


def _exchange_drew(state, data, secret):
    cards = secret["cards"]
    assert state.court[: len(cards)] == cards, "the recorded draw is not the top of the court"
    del state.court[: len(cards)]
    state.by_name[data["player"]].drawn = list(cards)


def _exchange_kept(state, data, secret):
    player = state.by_name[data["player"]]
    player.hand = sorted(secret["kept"])
    player.drawn = []
    state.court.extend(sorted(secret["returned"]))
    state.awaiting.pop(player.name, None)


def _card_shown(state, data, secret):
    state.action.shown = secret["card"]
    state.awaiting.pop(data["player"], None)


def _faction_converted(state, data, secret):
    player = state.by_name[data["target"]]
    player.faction = OPPOSITE_FACTION[player.faction]


def _inheritance_opened(state, data, secret):
    deceased = state.by_name[data["player"]]
    state.estate = Estate(deceased.name, deceased.coins)
    deceased.coins = 0
    state.action = None


def _inheritance_claimed(state, data, secret):
    state.estate.claimants.append(data["player"])
    del state.awaiting[data["player"]]


def _claim_lost(state, data, secret):
    state.estate.claimants.remove(data["player"])


def _inheritance_settled(state, data, secret):
    for name, share in data["shares"].items():
        state.by_name[name].coins += share
    state.estate = None
    state.challenge = None


def _resigned(state, data, secret):
    state.awaiting.pop(data["player"], None)


def _standing_set(state, data, secret):
    state.standing[data["player"]] = {"prove": secret["prove"], "lose_first": list(secret["lose_first"])}


def _game_won(state, data, secret):
    state.winner = data["player"]
    state.over = True
    state.awaiting = {}
    state.step = None


def _nothing(state, data, secret):
    """Events that only tell the story (the history shows them)."""


APPLY = {
    "coup.game.started": _started,
    "coup.hand.dealt": _hand_dealt,
    "coup.court.shuffled": _court_shuffled,
    "coup.draft.started": _draft_started,
    "coup.draft.kept": _draft_kept,
    "coup.turn.started": _turn_started,
    "coup.action.declared": _action_declared,
    "coup.coins.moved": _coins_moved,
    "coup.awaited": _awaited,
    "coup.allowed": _allowed,
    "coup.challenged": _challenged,
    "coup.claim.proved": _claim_proved,
    "coup.claim.conceded": _answered,
    "coup.card.drawn": _card_drawn,
    "coup.card.returned": _card_returned,
    "coup.influence.lost": _influence_lost,
    "coup.player.eliminated": _eliminated,
    "coup.blocked": _blocked,
    "coup.action.failed": _nothing,
    "coup.exchange.drew": _exchange_drew,
    "coup.exchange.kept": _exchange_kept,
    "coup.hand.revealed": _nothing,
    "coup.card.shown": _card_shown,
    "coup.examine.given_back": _answered,
    "coup.examine.forced": _answered,
    "coup.faction.converted": _faction_converted,
    "coup.inheritance.opened": _inheritance_opened,
    "coup.inheritance.claimed": _inheritance_claimed,
    "coup.inheritance.declined": _answered,
    "coup.inheritance.claim_lost": _claim_lost,
    "coup.inheritance.settled": _inheritance_settled,
    "coup.player.resigned": _resigned,
    "coup.standing.set": _standing_set,
    "coup.game.won": _game_won,
}
