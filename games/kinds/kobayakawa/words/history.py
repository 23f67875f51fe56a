"""The story of a Kobayakawa game in plain sentences, as one viewer may know it:
a teller per event type, from the fields of the event that viewer may see (the
card a player drew is told to that player only)."""

from django.utils.translation import gettext as _

from games.kinds.kobayakawa.words.names import medals
from games.kinds.words import History, last_action_told


def _started(story, data):
    return _("The game began with %(players)s: 4 medals each, %(centre)s in the centre.") % {
        "players": ", ".join(story.name(p) for p in data.get("players", [])),
        "centre": medals(data.get("centre", 0)),
    }


def _round_started(story, data):
    params = {"round": data.get("round"), "player": story.name(data.get("first"))}
    if data.get("last"):
        return _("Round %(round)s, the last one: %(player)s plays first.") % params
    return _("Round %(round)s: %(player)s plays first.") % params


def _dealt(story, data):
    if "card" in data and story.you(data["player"]):
        return _("You were dealt %(card)s.") % {"card": data["card"]}
    return ""


def _turned(story, data):
    return _("The Kobayakawa card is %(card)s.") % {"card": data.get("card")}


def _drawn(story, data):
    if "card" in data and story.you(data["player"]):
        return _("You drew %(card)s.") % {"card": data["card"]}
    return _("%(player)s drew a card.") % {"player": story.name(data["player"])}


def _discarded(story, data):
    return _("%(player)s discarded %(card)s.") % {"player": story.name(data["player"]), "card": data.get("card")}


def _flipped(story, data):
    return _("%(player)s flipped a new Kobayakawa card: %(card)s.") % {
        "player": story.name(data["player"]),
        "card": data.get("card"),
    }


def _bet(story, data):
    return _("%(player)s bet %(medals)s.") % {
        "player": story.name(data["player"]),
        "medals": medals(data.get("medals", 1)),
    }


def _passed(story, data):
    return _("%(player)s passed.") % {"player": story.name(data["player"])}


def _revealed(story, data):
    cards = data.get("cards", {})
    return _("The bettors showed their cards: %(cards)s.") % {
        "cards": ", ".join(f"{story.name(p)} {card}" for p, card in cards.items())
    }


def _won(story, data):
    text = ""
    if data.get("lowest"):
        text = (
            _("%(player)s had the lowest card and added the Kobayakawa %(card)s.")
            % {
                "player": story.name(data["lowest"]),
                "card": data.get("kobayakawa"),
            }
            + " "
        )
    return text + _("%(player)s won round %(round)s and took %(medals)s.") % {
        "player": story.name(data.get("player")),
        "round": data.get("round"),
        "medals": medals(data.get("pot", 0) + data.get("centre", 0)),
    }


def _replayed(story, data):
    return _("Nobody bet in round %(round)s: it was dealt again.") % {"round": data.get("round")}


def _out(story, data):
    if story.you(data["player"]):
        return _("You have no medals left: you are out of the game.")
    return _("%(player)s has no medals left and is out of the game.") % {"player": story.name(data["player"])}


def _resigned(story, data):
    if story.you(data["player"]):
        return _("You resigned.")
    return _("%(player)s resigned.") % {"player": story.name(data["player"])}


def _returned(story, data):
    return _("The bets of the unfinished round went back to their owners.")


def _ended(story, data):
    winners = data.get("winners", [])
    if len(winners) == 1:
        if story.you(winners[0]):
            return _("You won the game!")
        return _("%(player)s won the game!") % {"player": story.name(winners[0])}
    return _("%(players)s share the win!") % {"players": ", ".join(story.name(p) for p in winners)}


# The events that record a player's own answer (a card drawn is news to its player:
# they answer by discarding one).
MOVES = frozenset(
    (
        "kobayakawa.card.discarded",
        "kobayakawa.card.flipped",
        "kobayakawa.bet.placed",
        "kobayakawa.bet.passed",
        "kobayakawa.player.resigned",
    )
)

TELLERS = {
    "kobayakawa.game.started": _started,
    "kobayakawa.round.started": _round_started,
    "kobayakawa.card.dealt": _dealt,
    "kobayakawa.kobayakawa.turned": _turned,
    "kobayakawa.card.drawn": _drawn,
    "kobayakawa.card.discarded": _discarded,
    "kobayakawa.card.flipped": _flipped,
    "kobayakawa.bet.placed": _bet,
    "kobayakawa.bet.passed": _passed,
    "kobayakawa.cards.revealed": _revealed,
    "kobayakawa.round.won": _won,
    "kobayakawa.round.replayed": _replayed,
    "kobayakawa.player.out": _out,
    "kobayakawa.player.resigned": _resigned,
    "kobayakawa.bets.returned": _returned,
    "kobayakawa.game.ended": _ended,
}


# The dashboard's "last action": a player's move, in a few words.
LAST_ACTIONS = {
    "kobayakawa.card.discarded": lambda player, data: (
        _("%(player)s: discarded %(card)s") % {"player": player, "card": data.get("card")}
    ),
    "kobayakawa.card.flipped": lambda player, data: (
        _("%(player)s: flipped %(card)s") % {"player": player, "card": data.get("card")}
    ),
    "kobayakawa.bet.placed": lambda player, data: _("%(player)s: bet") % {"player": player},
    "kobayakawa.bet.passed": lambda player, data: _("%(player)s: passed") % {"player": player},
}


class KobayakawaHistory(History):
    tellers = TELLERS
    turn_event = "kobayakawa.round.started"
    moves = MOVES
    last_action_types = tuple(LAST_ACTIONS)

    def last_action(self, payload, names: dict, viewer: str) -> str:
        if not payload:
            return ""
        data = payload.get("data", {})
        player = _("You") if data.get("player") == viewer else names.get(data.get("player"), "?")
        return last_action_told(LAST_ACTIONS[payload["type"]](player, data), data)
