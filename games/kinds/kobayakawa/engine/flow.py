"""How a Kobayakawa game moves forward between answers: the rounds.

Emitting applies each event at once (``state.py``), so the flow always reads the
current state. An answer is checked and played by its decision's handler
(``decisions.py``); after each one, ``advance`` asks the next player of the round
in turn order, or settles the round once everyone has bet or passed, deals the
next round, and ends the game.

Where things happen: a new deal in ``start_round``; the showdown and the medals
in ``settle``; players without medals in ``knock_out``; the end in ``end_game``.
"""

from games.engine.common import BaseFlow
from games.engine.errors import IllegalMove
from games.engine.errors import gettext_noop as _
from games.engine.events import Event
from games.kinds.kobayakawa.engine.decisions import DECISIONS
from games.kinds.kobayakawa.engine.rules import CARDS, LAST_ROUND_CENTRE, winners_of
from games.kinds.kobayakawa.engine.state import APPLY, KobayakawaState


class Flow(BaseFlow[KobayakawaState]):
    __slots__ = ()
    APPLY = APPLY
    DECISIONS = DECISIONS

    def start(self, players: list, first: str, medals: dict, centre: int) -> list[Event]:
        """The events that start a game: the players, their medals, the first deal."""
        self.emit(
            "kobayakawa.game.started",
            {"players": list(players), "first": first, "medals": dict(medals), "centre": centre},
        )
        self.knock_out()
        self.start_round(first, 1)
        return self.events

    def resign(self, name: str) -> list[Event]:
        """``name`` leaves the game for good: their medals, a bet of this round
        included, go back to the box, their card leaves the round unseen, and the
        round goes on without them. They can no longer win."""
        state = self.state
        player = state.by_name.get(name)
        if player is None:
            raise IllegalMove(_("There is no player called {player} in this game."), player=name)
        if state.over:
            raise IllegalMove(_("The game is over."))
        if player.out:
            raise IllegalMove(_("You are already out of the game."))
        was_awaited = name in state.awaiting
        self.emit("kobayakawa.player.resigned", {"player": name, "medals": player.medals + player.bet})
        if len(state.in_game()) < 2:
            self.end_game()
        elif was_awaited:
            self.advance()
        return self.events

    # ---- the round ---------------------------------------------------------------

    def start_round(self, first: str, number: int):
        """Shuffle all fifteen cards, deal one to each player still in the game in
        turn order from ``first``, turn up the Kobayakawa card, ask ``first``."""
        state = self.state
        players = state.players
        seat = state.by_name[first].seat
        rotation = players[seat:] + players[:seat]
        order = [p.name for p in rotation if not p.out]  # a first player who resigned: the next one in seat order
        self.emit(
            "kobayakawa.round.started",
            {"round": number, "first": order[0], "last": state.centre <= LAST_ROUND_CENTRE, "order": order},
        )
        deck = self.dealer.shuffle(list(CARDS))
        self.emit("kobayakawa.deck.shuffled", {}, {"deck": list(deck)}, ())
        for name in order:
            self.emit("kobayakawa.card.dealt", {"player": name}, {"card": state.deck[0]}, (name,))
        self.emit("kobayakawa.kobayakawa.turned", {"card": state.deck[0]})
        self.advance()

    def advance(self):
        """Ask the next player of the round, or settle it once everyone has bet or passed."""
        state = self.state
        order = state.in_order()
        if state.stage == "draw":
            for p in order:
                if not p.played:
                    self.await_(p, "turn")
                    return
        for p in order:
            if p.answer is None:
                self.await_(p, "bet")
                return
        self.settle()

    def await_(self, player, decision):
        self.emit("kobayakawa.awaited", {"player": player.name, "decision": decision})

    def settle(self):
        """The showdown: the lowest bettor adds the Kobayakawa value, the highest
        total wins (ties to the earlier player in turn order), the winner takes the
        bets and the centre's medal(s). Nobody bet: the round is dealt again."""
        state = self.state
        bettors = [p for p in state.in_order() if p.answer == "bet"]
        if not bettors:
            first = state.first
            assert first is not None, "a round is settled once it has started"
            self.emit(
                "kobayakawa.round.replayed",
                {"round": state.round, "player": None, "first": first, "replayed": True},
            )
            self.start_round(first, state.round)
            return
        kobayakawa = state.kobayakawa
        data = {
            "round": state.round,
            "player": None,
            "bettors": [p.name for p in bettors],
            "kobayakawa": kobayakawa,
            "pot": sum(p.bet for p in state.players),
            "centre": state.centre if state.last else 1,
        }
        if len(bettors) == 1:
            winner = bettors[0]  # a lone bettor wins without showing their card
        else:
            cards: dict[str, int] = {}
            for p in bettors:
                assert p.card is not None, "everyone dealt in holds a card"
                cards[p.name] = p.card
            self.emit("kobayakawa.cards.revealed", {"cards": cards})
            lowest = min(cards, key=cards.__getitem__)
            totals = {name: card + (kobayakawa if name == lowest else 0) for name, card in cards.items()}
            winner = bettors[0]
            for p in bettors[1:]:
                if totals[p.name] > totals[winner.name]:  # strictly: a tie stays with the earlier player
                    winner = p
            data.update(cards=cards, lowest=lowest, totals=totals)
        data["player"] = winner.name
        self.emit("kobayakawa.round.won", data)
        self.knock_out()
        if state.last or len(state.in_game()) < 2:
            self.end_game()
        else:
            self.start_round(winner.name, state.round + 1)

    def knock_out(self):
        """Players with no medals are out (docs/rules.md §6)."""
        for p in self.state.players:
            if not p.out and p.medals == 0:
                self.emit("kobayakawa.player.out", {"player": p.name})

    def end_game(self):
        """Medals bet in an unfinished round go back to their owners; most medals wins."""
        state = self.state
        if any(p.bet for p in state.players):
            self.emit("kobayakawa.bets.returned", {})
        self.emit("kobayakawa.game.ended", {"winners": winners_of(state)})
