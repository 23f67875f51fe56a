"""Kobayakawa (docs/rules.md §6): the rules, pure Python.

Decisions where the rules and the scenario format are silent:

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

from itertools import groupby

from games.engine.common import Rules
from games.engine.dealer import LiveDealer
from games.kinds.kobayakawa.engine.flow import Flow
from games.kinds.kobayakawa.engine.rules import MAX_PLAYERS, MIN_PLAYERS
from games.kinds.kobayakawa.engine.scenario import read_scenario
from games.kinds.kobayakawa.engine.setup import check_config, setup_events
from games.kinds.kobayakawa.engine.state import KobayakawaState, from_json, to_json
from games.kinds.kobayakawa.engine.view import shown


def _shy(rng, options):
    """Bet rarely, so that many rounds are dealt again: long games, for timing replays."""
    if options[0]["act"] == "bet":
        return options[0] if rng.random() < 0.02 else options[1]
    return rng.choice(options)


class KobayakawaRules(Rules[KobayakawaState]):
    kind = "kobayakawa"
    min_players, max_players = MIN_PLAYERS, MAX_PLAYERS
    out_events = frozenset({"kobayakawa.player.out"})
    Flow = Flow
    State = KobayakawaState
    check_config = staticmethod(check_config)
    dump = staticmethod(to_json)
    load = staticmethod(from_json)
    shown = staticmethod(shown)
    read_scenario = staticmethod(read_scenario)
    long_game = (MAX_PLAYERS, _shy)

    def setup(self, *, players, first, variants=(), options=None, dealer=None) -> list:
        return setup_events(players, first, dealer or LiveDealer(), variants)

    @staticmethod
    def winners(state: KobayakawaState) -> list[str]:
        return list(state.winners)

    @staticmethod
    def standings(state: KobayakawaState) -> list[list[str]]:
        """The winners, then everyone else by the medals they ended with, most
        first; equal medals share a place (a player who resigned has none left)."""
        winners = list(state.winners)
        rest = sorted((p for p in state.players if p.name not in winners), key=lambda p: -p.medals)
        tied = ([p.name for p in group] for _medals, group in groupby(rest, key=lambda p: p.medals))
        return ([winners] if winners else []) + list(tied)


RULES = KobayakawaRules()
