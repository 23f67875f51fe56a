"""Coup and its variants, on the engine's common game interface."""

from ..common import Game
from ..dealer import LiveDealer
from .flow import DECISION_PROMPTS, Flow
from .options import options
from .setup import check_config, setup_events
from .state import CoupState, from_json, to_json
from .view import view


class CoupGame(Game):
    kind = "coup"
    decision_prompts = DECISION_PROMPTS
    Flow = Flow
    State = CoupState
    setup_events = staticmethod(setup_events)
    check_config = staticmethod(check_config)  # players and variants fit together?
    dump = staticmethod(to_json)  # a state as JSON, e.g. a snapshot cached beside the log
    load = staticmethod(from_json)
    options = staticmethod(options)
    view = staticmethod(view)

    def set_standing_answers(self, state: CoupState, player: str, *, prove: bool, lose_first: list, dealer=None) -> list:
        return Flow(state, dealer or LiveDealer()).set_standing_answers(player, prove, lose_first)

    @staticmethod
    def winners(state: CoupState) -> list[str]:
        """The winner, as a list like every game's (empty while the game goes on)."""
        return [state.winner] if state.winner is not None else []


COUP = CoupGame()
