"""Coup and its variants (docs/rules.md §1–§5): the rules, pure Python.

``characters.py`` holds a record per character and ``actions.py`` one per turn
action (its cost, claim, target, blockers, effect and words); ``cards.py`` the
rulebook each combination of variants makes of them (the deck, the actions in
play, their claims and blockers); ``state.py`` the state and the fold; ``rules.py`` the rules several parts
read; ``decisions.py`` each decision (its options, its answer, its default);
``flow.py`` what happens between answers; ``setup.py`` the deal; ``view.py`` what
each player may see; ``scenario.py`` the scenario files of Coup.
"""

from games.engine.common import Rules
from games.engine.dealer import LiveDealer
from games.kinds.coup.engine.cards import LOYALIST, MAX_PLAYERS, MIN_PLAYERS, VARIANTS
from games.kinds.coup.engine.flow import Flow
from games.kinds.coup.engine.scenario import read_scenario
from games.kinds.coup.engine.setup import check_config, setup_events
from games.kinds.coup.engine.state import CoupState, from_json, to_json
from games.kinds.coup.engine.view import shown


def _patient(rng, options):
    """Allow every claim and attack only when forced: long games, for timing replays."""
    calm = [o for o in options if o["act"] in ("allow", "income", "foreign_aid", "tax", "exchange", "keep", "lose")]
    return rng.choice(calm or options)


class CoupRules(Rules[CoupState]):
    kind = "coup"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    variants = VARIANTS
    out_events = frozenset({"coup.player.eliminated"})
    Flow = Flow
    State = CoupState
    check_config = staticmethod(check_config)
    dump = staticmethod(to_json)
    load = staticmethod(from_json)
    shown = staticmethod(shown)
    read_scenario = staticmethod(read_scenario)
    long_game = (MAX_PLAYERS, _patient)

    def setup(self, *, players, first, variants=(), options=None, dealer=None) -> list:
        first_faction = (options or {}).get("first_faction", LOYALIST)
        return setup_events(players, variants, first, dealer or LiveDealer(), first_faction=first_faction)

    def set_preferences(self, state: CoupState, player: str, preferences: dict, dealer=None) -> list:
        """Coup's preferences are standing answers: ``always_prove`` and ``lose_first``."""
        flow = Flow(state, dealer or LiveDealer())
        return flow.set_standing_answers(player, preferences["always_prove"], preferences["lose_first"])

    @staticmethod
    def winners(state: CoupState) -> list[str]:
        return [state.winner] if state.winner is not None else []

    @staticmethod
    def standings(state: CoupState) -> list[list[str]]:
        """The players still in (once the game is over, the winner alone), then the
        reverse order of elimination: the last player knocked out is second."""
        alive = [p.name for p in state.players if p.alive]
        out = sorted((p for p in state.players if not p.alive), key=lambda p: -p.out_order)
        return ([alive] if alive else []) + [[p.name] for p in out]


RULES = CoupRules()
