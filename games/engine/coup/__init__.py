"""Coup and its variants, on the engine's common game interface."""

from ..dealer import LiveDealer
from .flow import DECISION_PROMPTS, Flow, default_answer
from .options import options
from .setup import check_config, setup_events
from .state import CoupState, apply, from_json, to_json
from .view import view


class CoupGame:
    """The interface every game of the engine offers (see ``games.engine``)."""

    kind = "coup"
    decision_prompts = DECISION_PROMPTS

    @staticmethod
    def setup(dealer=None, **config):
        return setup_events(dealer=dealer or LiveDealer(), **config)

    check_config = staticmethod(check_config)  # players and variants fit together?

    @staticmethod
    def new_state() -> CoupState:
        return CoupState()

    apply = staticmethod(apply)
    dump = staticmethod(to_json)  # a state as JSON, e.g. a snapshot cached beside the log
    load = staticmethod(from_json)
    options = staticmethod(options)
    view = staticmethod(view)

    @staticmethod
    def play(state: CoupState, player: str, command: dict, dealer=None) -> list:
        """``player`` answers with ``command``; returns its events, already applied
        to ``state``. Raises ``IllegalMove`` and leaves ``state`` unchanged if the
        rules forbid it."""
        return Flow(state, dealer or LiveDealer()).command(player, command)

    @staticmethod
    def resign(state: CoupState, player: str, dealer=None) -> list:
        return Flow(state, dealer or LiveDealer()).resign(player)

    @staticmethod
    def set_standing_answers(state: CoupState, player: str, *, prove: bool, lose_first: list, dealer=None) -> list:
        return Flow(state, dealer or LiveDealer()).set_standing_answers(player, prove, lose_first)

    @staticmethod
    def timeout(state: CoupState, dealer=None) -> list:
        return Flow(state, dealer or LiveDealer()).timeout()

    @staticmethod
    def default_answer(state: CoupState, player: str, dealer=None) -> dict:
        return default_answer(state, player, dealer or LiveDealer())

    @staticmethod
    def awaiting(state: CoupState) -> list:
        """``(player, decision, version)`` for every decision awaited, in seat order."""
        return [(p.name, state.awaiting[p.name].kind, state.awaiting[p.name].id) for p in state.players if p.name in state.awaiting]

    @staticmethod
    def is_over(state: CoupState) -> bool:
        return state.winner is not None

    @staticmethod
    def winners(state: CoupState) -> list[str]:
        """The winner, as a list like every game's (empty while the game goes on)."""
        return [state.winner] if state.winner is not None else []


COUP = CoupGame()
