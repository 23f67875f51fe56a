"""The ``treason`` level of classic Coup: ``coupml.rule_ai.RuleAI``, coupml's port
of the AI of the online game *treason*, seated through an adapter.

The adapter writes the game as coupml describes it (``Coup.get_state``) from the
seat's knowledge alone: its own cards, every other hand as that many
``"hidden"`` cards, the face-up cards, the coins, and each player's *trace* (the
characters they claimed, revealed or lost a challenge on, and their exchanges)
read from the public history. coupml splits the response window in two (first
challenges, then blocks), so a response asks the AI whether to challenge, then
whether to block. Needs the ``bench`` extra (``pip install -e '.[bench]'``).
"""

from typing import Any

from games.kinds.coup.engine.cards import VARIANTS

try:
    from coupml import constants as C
    from coupml.rule_ai import RuleAI
except ImportError as missing:
    raise ImportError("the treason bot needs the coupml package: pip install -e '.[bench]'") from missing

MASKED = "hidden"  # how coupml's own view writes another player's face-down card


class NumpyLikeRandom:
    """The three calls ``RuleAI`` makes of numpy's ``RandomState``, on a ``random.Random``."""

    def __init__(self, rng):
        self._rng = rng

    def rand(self) -> float:
        return self._rng.random()

    def choice(self, items):
        return self._rng.choice(list(items))

    def shuffle(self, items: list) -> None:
        self._rng.shuffle(items)


class Player:
    level = "treason"

    @staticmethod
    def check_game(players: int, variants) -> None:
        """Refuse (``ValueError``) a game other than classic Coup."""
        if set(variants) & set(VARIANTS) or players > 6:
            raise ValueError("The treason bot plays classic Coup only (no variants, at most 6 players).")

    def choose(self, knowledge, rng, budget) -> dict:
        state = knowledge.state
        self.check_game(len(state.players), state.variants)
        options = knowledge.options()
        seat = knowledge.seat
        kind = knowledge.decision
        ask = _asker(knowledge, NumpyLikeRandom(rng))
        if kind == "turn":
            return _turn_option(options, ask(C.START_OF_TURN), state)
        if kind in ("respond", "block"):
            return _response(state, options, ask, kind)
        if kind == "challenged":
            revealed = _role(ask(C.PROVE_CHALLENGE))
            prove = next((o for o in options if o["act"] == "prove"), None)
            if prove is not None and revealed == prove["claim"]:
                return prove
            return next(o for o in options if o["act"] == "concede")
        if kind == "lose":
            card = _role(ask(C.DIRECT_ATTACK))
            return next(o for o in options if o["card"] == card)
        if kind == "keep":
            kept = sorted(ask(C.CHOOSE_NEW_ROLES)[len(C.KEEP) + 1 :].split(","))
            return next(o for o in options if o["cards"] == kept)
        raise ValueError(f"The treason bot cannot answer a {kind} decision for {seat}.")


def _role(answer: str) -> str:
    return answer.split(":", 1)[1]


def _response(state, options, ask, kind):
    """coupml asks for challenges first, then for blocks."""
    allow = next(o for o in options if o["act"] == "allow")
    challenge = next((o for o in options if o["act"] == "challenge"), None)
    blocks = {o["as"]: o for o in options if o["act"] == "block"}
    if challenge is not None:
        phase = C.AWAITING_BLOCK_CHALLENGE if state.action.blocker is not None else C.AWAITING_CHALLENGE
        if ask(phase) == C.CHALLENGE:
            return challenge
    if blocks:
        answer = ask(C.AWAITING_BLOCK)
        if answer.startswith(C.BLOCK + ":"):
            return blocks.get(_role(answer), allow)
    return allow


def _turn_option(options, answer: str, state):
    act, _, target = answer.partition(":")
    name = state.players[int(target)].name if target else None
    return next(o for o in options if o["act"] == act and o.get("target") == name)


def _asker(knowledge, np_random):
    """``ask(phase)``: RuleAI's answer in that phase of the game the seat sees."""
    state, seat = knowledge.state, knowledge.seat
    index = {p.name: i for i, p in enumerate(state.players)}
    traces = _traces(knowledge.history, state)
    players = [
        {
            "cash": p.coins,
            "hidden": list(p.hand) if p.name == seat else [MASKED] * len(p.hand),
            "revealed": list(p.revealed),
            "trace": traces[p.name],
        }
        for p in state.players
    ]
    me = state.by_name[seat]
    game: dict[str, Any] = {"whose_turn": index[state.turn.name], "player_to_act": index[seat]}
    action = state.action
    if action is not None:
        game["action"] = action.kind
        if action.target is not None:
            game["target_player"] = index[action.target]
        if action.blocker is not None:
            game["blocked_with"] = action.block_card
            game["blocking_player"] = index[action.blocker]
    if me.drawn:
        game["drawn_roles"] = list(me.drawn)

    def ask(phase: str) -> str:
        return RuleAI({"game": {**game, "phase": phase}, "players": players}, np_random).get_action()

    return ask


def _traces(history, state) -> dict[str, list[tuple[str, str | None]]]:
    """Each player's trace as coupml keeps it, from the public history."""
    traces: dict[str, list[tuple[str, str | None]]] = {p.name: [] for p in state.players}
    claim_of: dict[str, str] = {}  # who claimed what in the action being resolved
    for type, fields in history:
        player = fields.get("player")
        if type == "coup.action.declared":
            claim_of = {}
            claim = state.rulebook.claims.get(fields["action"])
            if claim is not None:
                claim_of[player] = claim
                traces[player].append(("claim", claim))
        elif type == "coup.blocked":
            claim_of[player] = fields["card"]
            traces[player].append(("claim", fields["card"]))
        elif type == "coup.claim.conceded" and player in claim_of:
            traces[player].append(("lost_challenge", claim_of[player]))
        elif type in ("coup.influence.lost",):
            traces[player].append(("reveal", fields["card"]))
        elif type == "coup.claim.proved":
            traces[player] += [("reveal", card) for card in fields["cards"]]
        elif type == "coup.exchange.kept":
            traces[player].append(("exchange", None))
    return traces
