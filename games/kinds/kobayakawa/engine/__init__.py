"""Kobayakawa (RULES.md §6), on the engine's common game interface.

Decisions where RULES.md and SCENARIOS.md are silent:

- Turn order is seat order from the round's first player; players who are out
  are not dealt and never asked. Stage 1 and the bets are asked one player at a
  time, in that order, so each player sees what the earlier ones did.
- "Players with no medals are out" is checked once a round is settled.
- The last round is the one that begins with 2 medals (or, never in a normal
  game, fewer) in the centre; its winner takes all of them. Setup refuses a centre
  of fewer than 2, so an overridden centre still reaches exactly 2.
- A replayed round (nobody bet) is dealt again from a fresh shuffle, with the same
  number and first player; the Kobayakawa pile and the discards start over.
- Resigning: the player leaves the game for good. Their medals, including a bet
  already placed this round, go back to the box (``box`` in the state: out of
  play, the centre is untouched so the number of rounds does not change); their
  card leaves the round unseen; they can no longer win. If fewer than two players
  are left in, the game ends at once and bets of the unfinished round go back to
  their owners.
- The game also ends, after a round, when fewer than two players have medals.
  Winners: most medals among the players who did not resign (``winners`` lists
  them, in seat order; the scenario output's ``winner`` is a name, or a list for
  a shared win).
- After a showdown, the bettors' cards stay visible to everyone until the next
  deal; the round's outcome stays in ``previous`` (cards only when shown).
"""

from ..common import Game
from .flow import DECISION_PROMPTS, Flow
from .options import options
from .setup import check_config, setup_events
from .state import KobayakawaState, from_json, to_json
from .view import view


class KobayakawaGame(Game):
    kind = "kobayakawa"
    decision_prompts = DECISION_PROMPTS
    Flow = Flow
    State = KobayakawaState
    setup_events = staticmethod(setup_events)
    check_config = staticmethod(check_config)
    dump = staticmethod(to_json)
    load = staticmethod(from_json)
    options = staticmethod(options)
    view = staticmethod(view)

    @staticmethod
    def winners(state: KobayakawaState) -> list[str]:
        """Everyone sharing the win (empty while the game goes on)."""
        return list(state.winners)


KOBAYAKAWA = KobayakawaGame()
