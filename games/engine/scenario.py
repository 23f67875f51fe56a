"""Scenario files: set up a game with a fixed deal, play steps, report the state.

The format is specified in docs/scenarios.md, for every game. ``run`` raises
``MalformedScenario`` when the file cannot be read as a scenario at all; a step
the rules forbid is reported in the result (``"ok": false``), never raised.

Each game reads its own files (``read_scenario`` of its rules, in
``games/kinds/<kind>/engine/scenario.py``) with the helpers below; this module
plays them.
"""

from games.engine.errors import IllegalMove
from games.kinds import KIND_NAMES, rules_of


class MalformedScenario(ValueError):
    """The input is not a scenario: the message says which part and why."""


class Scenario:
    """A scenario as its game read it: the players, a call that makes the
    starting events, the steps, and the dealer that decides every draw."""

    __slots__ = ("players", "start", "steps", "dealer")

    def __init__(self, players: list, start, steps: list, dealer):
        self.players = players
        self.start = start
        self.steps = steps
        self.dealer = dealer


def run(data, view: str | None = None, with_events: bool = False) -> dict:
    """Play a scenario and return the output object docs/scenarios.md describes:
    the omniscient state, or with ``view`` what that player may see."""
    rules = _rules(data)
    scenario = rules.read_scenario(data)
    if view is not None and view not in scenario.players:
        raise MalformedScenario(f"--view names {view!r}, who is not a player in this scenario")
    try:
        events = scenario.start()
    except IllegalMove as error:  # each game's checks should leave none, but never a traceback
        raise MalformedScenario(str(error)) from None
    state = rules.replay(events)
    dealer = scenario.dealer
    rejected = None
    for index, step in enumerate(scenario.steps):
        try:
            if step["act"] == "timeout":
                events += rules.timeout(state, dealer)
            else:
                events += rules.play(state, step["player"], step, dealer)
        except IllegalMove as error:
            rejected = {"step": index, "error": str(error)}
            break
    shown = rules.omniscient_view(state) if view is None else rules.view(state, view)
    output = {"ok": rejected is None, "rejected": rejected, "state": shown}
    if with_events:
        output["events"] = [
            {"type": e.type, "data": e.visible_to(view) if view is not None else {**e.data, **(e.secret or {})}}
            for e in events
        ]
    return output


def _rules(data):
    """The rules of the game a scenario names."""
    if not isinstance(data, dict):
        raise MalformedScenario("a scenario is a JSON object")
    game = data.get("game")
    if game not in KIND_NAMES:
        expected = " or ".join(repr(name) for name in KIND_NAMES)
        raise MalformedScenario(f"unknown game {game!r}: expected {expected}")
    return rules_of(game)


# ---- what every game's reader shares ------------------------------------------------------


def check_fields(data: dict, allowed: set, required: set) -> None:
    unknown = set(data) - allowed
    if unknown:
        raise MalformedScenario(f"unknown field {sorted(unknown)[0]!r}")
    missing = required - set(data)
    if missing:
        raise MalformedScenario(f"missing field {sorted(missing)[0]!r}")


def list_of(value, field, kind):
    if not isinstance(value, list) or not all(isinstance(item, kind) for item in value):
        raise MalformedScenario(f"{field!r} must be a list of {'objects' if kind is dict else 'strings'}")
    return value


def check_players(data: dict, low: int, high: int) -> list:
    """The ``players`` field: ``low`` to ``high`` different names."""
    players = list_of(data["players"], "players", str)
    if not low <= len(players) <= high or len(set(players)) != len(players):
        raise MalformedScenario(f"'players' must name {low} to {high} different players")
    return players


def check_player(name, players, where):
    if name not in players:
        raise MalformedScenario(f"{where} names {name!r}, who is not a player in this scenario")


def per_player(value, players, field, valid):
    """An object keyed by player whose values pass ``valid``."""
    if not isinstance(value, dict):
        raise MalformedScenario(f"{field!r} must be an object keyed by player")
    for name, item in value.items():
        check_player(name, players, f"{field!r}")
        if not valid(item):
            raise MalformedScenario(f"invalid {field} value {item!r} for {name!r}")
    return value


def check_step_fields(index, step, players, fields: dict, also_required: dict) -> str | None:
    """Check what every game's steps share: the act, the player, the fields the act
    takes (``fields``: act → (required, optional); ``also_required``: act → more
    required fields). Returns the act, or None for a timeout."""
    where = f"step {index}"
    if "act" not in step:
        raise MalformedScenario(f"{where}: missing field 'act'")
    act = step["act"]
    if act == "timeout":
        if set(step) != {"act"}:
            raise MalformedScenario(f"{where}: a timeout step takes no other field")
        return None
    if act not in fields:
        raise MalformedScenario(f"{where}: unknown act {act!r}")
    if "player" not in step:
        raise MalformedScenario(f"{where}: missing field 'player'")
    check_player(step["player"], players, where)
    required, optional = fields[act]
    required = required + also_required.get(act, ())
    for field in required:
        if field not in step:
            raise MalformedScenario(f"{where}: {act!r} needs the field {field!r}")
    extra = set(step) - {"player", "act", *required, *optional}
    if extra:
        raise MalformedScenario(f"{where}: {act!r} does not take the field {sorted(extra)[0]!r}")
    return act
