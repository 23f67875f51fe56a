"""Kobayakawa (docs/rules.md §6) in words: the label of every answer, the prompts,
the history, the rules, a reply's vocabulary, and the tables its templates show.

The table: the Kobayakawa card (and the cards it covers), the deck as a count,
the medals in the centre, and each seat's medals, bet and face-up discards. The
viewer's own card (and the card they just drew) is the only card a page marks
with ``data-card``; another player's card appears, as ``data-revealed``, only
once the engine's view shows it (a showdown). Discards carry ``data-discard``
and the Kobayakawa card ``data-kobayakawa``: all public.
"""

import re
import unicodedata
from functools import cache

from django.conf import settings
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from games.kinds.kobayakawa.engine.decisions import DECISIONS
from games.kinds.kobayakawa.engine.rules import (
    BET,
    CARDS,
    LAST_ROUND_BET,
    LAST_ROUND_CENTRE,
    START_CENTRE,
    START_MEDALS,
)
from games.kinds.words import Reply, Story, last_action_told, tell


def medals(count) -> str:
    return ngettext("%(count)d medal", "%(count)d medals", count) % {"count": count}


class Labels:
    """What the labels of an answer need: the viewer's own view."""

    def __init__(self, view, viewer, names, variants=()):
        self.view = view
        self.viewer = viewer
        self.names = names
        self.me = next((p for p in view.get("players", []) if p["name"] == viewer), {})

    def name(self, player) -> str:
        return self.names.get(player, player or "?")


# ---- the decisions: a label per answer, by decision (engine/decisions.py) -------------


def _label_draw(option, ctx):
    return _("Draw the top card, then discard one of your two cards")


def _label_flip(option, ctx):
    return _("Flip the top card onto the Kobayakawa card (now %(card)s)") % {"card": ctx.view.get("kobayakawa")}


def _label_discard(option, ctx):
    mine = [c for c in (ctx.me.get("card"), ctx.me.get("drawn")) if isinstance(c, int)]
    others = [c for c in mine if c != option.get("card")]
    if others:
        return _("Discard %(card)s, keep %(kept)s") % {"card": option.get("card"), "kept": others[0]}
    return _("Discard %(card)s") % {"card": option.get("card")}


def _label_bet(option, ctx):
    return _("Bet %(medals)s") % {"medals": medals(option["medals"])}


def _label_pass(option, ctx):
    return _("Pass — keep your medals out of this round")


LABELS = {
    "turn": {"draw": _label_draw, "flip": _label_flip},
    "discard": {"discard": _label_discard},
    "bet": {"bet": _label_bet, "pass": _label_pass},
}
_STYLES = {"bet": "risky", "pass": "quiet"}


def decision_prompt(decision) -> str:
    return _(DECISIONS[decision].prompt) if decision in DECISIONS else str(decision)


def option_label(option, ctx: Labels, decision) -> str:
    act = option.get("act")
    label = LABELS.get(decision, {}).get(act)
    return label(option, ctx) if label else act or "?"


def option_style(option) -> str:
    return _STYLES.get(option.get("act"), "plain")


def waits_for(decision: str, view: dict, viewer: str, names: dict) -> str:
    return capfirst(decision_prompt(decision))


def history_lines(events, viewer, names):
    return history_continued(Story(viewer, names), events)


def history_continued(story: Story, events) -> list:
    """The sentences of ``events``, the log's next ones, for the story told so far."""
    return tell(events, story, TELLERS, "kobayakawa.round.started", MOVES)


def rules_summary(variants=()) -> list[str]:
    return [
        _(
            "Kobayakawa is played with cards numbered 1 to 15. Each player starts with 4 medals; 8 more lie in "
            "the centre. Each round every player is dealt one card face down and the next card is turned face "
            "up: the Kobayakawa card."
        ),
        _(
            "In turn order, each player either draws the top card, keeps one of their two cards and discards "
            "the other face up, or flips the top card onto the Kobayakawa card, replacing its value."
        ),
        _(
            "Then, in turn order, each player bets a medal or passes. The bettors show their cards; the bettor "
            "with the lowest card adds the Kobayakawa value to it. The highest total wins (a tie goes to the "
            "earlier player); a lone bettor wins without showing. The winner takes every bet and one medal "
            "from the centre. If nobody bets, the round is dealt again."
        ),
        _(
            "When only 2 medals are left in the centre, the round is the last: a bet costs 2 medals (or your "
            "only one) and the winner takes both. A player with no medals is out. Most medals at the end wins; "
            "equal most is a shared win."
        ),
    ]


def reference() -> dict:
    """The card reference always at hand on the table: the cards, what each answer
    does and costs, how a round is scored, and the medals. Rules only: the same
    for every viewer."""
    low, high = CARDS[0], CARDS[-1]
    # A showdown worked through: the lowest card plus the Kobayakawa card beats both higher cards.
    lowest, middle, highest, kobayakawa = 3, 9, 12, 10
    return {
        "cards": [
            _("%(count)d cards, numbered %(low)d to %(high)d, one of each.")
            % {"count": len(CARDS), "low": low, "high": high},
            _("Your card: face down, only you see it. Discards: face up, in front of whoever discarded them."),
            _(
                "The Kobayakawa card: face up in the centre. At the showdown its value goes to the bettor with the "
                "lowest card."
            ),
        ],
        "turn": [
            {
                "term": _("Draw"),
                "text": _(
                    "Take the top card, then keep one of your two cards and discard the other face up: everyone "
                    "sees the card you let go."
                ),
            },
            {
                "term": _("Flip"),
                "text": _(
                    "Turn the top card face up onto the Kobayakawa card: its number becomes the Kobayakawa value. "
                    "Your own card does not change."
                ),
            },
        ],
        "bets": [
            {
                "term": _("Bet"),
                "text": _(
                    "Costs %(bet)s; in the last round %(last)s, or your only medal. Only bettors can win the round."
                )
                % {"bet": medals(BET), "last": medals(LAST_ROUND_BET)},
            },
            {"term": _("Pass"), "text": _("Costs nothing; you sit the showdown out.")},
        ],
        "scoring": [
            _("Every bettor shows their card. A lone bettor wins without showing it."),
            _("The bettor with the lowest card adds the Kobayakawa value to it."),
            _("The highest total wins; a tie goes to the earlier player in turn order."),
            _(
                "The winner takes back their bet, takes every other bet, and takes %(centre)s from the centre (in "
                "the last round, both)."
            )
            % {"centre": medals(1)},
            _("If nobody bets, the round is dealt again with the same first player; the centre keeps its medals."),
        ],
        "example": _(
            "Example: the bettors hold %(lowest)d, %(middle)d and %(highest)d and the Kobayakawa card is "
            "%(kobayakawa)d. The %(lowest)d becomes %(total)d and beats %(highest)d: its holder wins."
        )
        % {
            "lowest": lowest,
            "middle": middle,
            "highest": highest,
            "kobayakawa": kobayakawa,
            "total": lowest + kobayakawa,
        },
        "medals": [
            _("At the start: %(each)s each, %(centre)s in the centre.")
            % {"each": medals(START_MEDALS), "centre": medals(START_CENTRE)},
            _("When %(centre)s remain in the centre, the round is the last.") % {"centre": medals(LAST_ROUND_CENTRE)},
            _("A player left with no medals is out."),
            _("After the last round, the most medals wins; equal most is a shared win."),
        ],
    }


# ---- the tables ----------------------------------------------------------------------------


def table(view, viewer, names, game, users, awaiting) -> dict:
    winners = _winners(view)
    players = []
    me = None
    for entry in view["players"]:
        own = entry["name"] == viewer
        row = {
            "player": entry["name"],
            "name": names.get(entry["name"], entry["name"]),
            "you": own,
            "medals": entry["medals"],
            "bet": entry["bet"],
            "discards": list(entry["discards"]),
            # Another player's card once shown, or once the game is over (every card is
            # then face up); the viewer's own is in ``me``.
            "shown_card": entry["card"] if (entry["shown"] or winners) and not own else None,
            # A face-down card in front of another player still in the round.
            "back": not own and not entry["shown"] and not entry["out"] and bool(view.get("stage")),
            "answer": entry["answer"],
            "out": entry["out"],
            "resigned": entry["resigned"],
            "first": view.get("first") == entry["name"],
            "winner": entry["name"] in winners,
            "deciding": decision_prompt(awaiting[entry["name"]]) if entry["name"] in awaiting else "",
        }
        players.append(row)
        if own:
            me = {
                **row,
                "card": entry["card"],
                "drawn": entry.get("drawn"),
            }
    return {
        "players": players,
        "me": me,
        "playing": bool(me and not me["out"]),
        "kobayakawa": view.get("kobayakawa"),
        "covered": list(view.get("covered", [])),
        "centre": view.get("centre", 0),
        "deck_count": view["deck"] if isinstance(view.get("deck"), int) else len(view.get("deck", [])),
        "round": view.get("round"),
        "last_round": view.get("last_round"),
        "previous": _previous(view.get("previous"), names),
    }


def replay_table(game, view, viewer, names) -> dict:
    """Every seat with its card shown (the game is over), the deck in order."""
    awaiting = {entry["player"]: entry["decision"] for entry in view.get("awaiting", [])}
    shown = table(view, viewer, names, game, {}, awaiting)
    for row, entry in zip(shown["players"], view["players"], strict=True):
        row["card"] = entry["card"]
        row["drawn"] = entry.get("drawn")
    shown["deck"] = list(view["deck"]) if isinstance(view.get("deck"), list) else []
    return shown


def email_context(view, viewer, names) -> dict:
    me = next(p for p in view["players"] if p["name"] == viewer)
    return {
        "card": me["card"],
        "drawn": me.get("drawn"),
        "medals": me["medals"],
        "kobayakawa": view.get("kobayakawa"),
        "centre": view.get("centre", 0),
        "last_round": view.get("last_round"),
        "table": [
            {
                "name": names.get(p["name"], p["name"]),
                "medals": p["medals"],
                "bet": p["bet"],
                "discards": [str(card) for card in p["discards"]],
                "out": p["out"],
            }
            for p in view["players"]
        ],
    }


def _winners(view) -> list:
    winner = view.get("winner")
    return winner if isinstance(winner, list) else [winner] if winner else []


def _previous(previous, names) -> str:
    """The outcome of the last settled round, in words."""
    if not previous:
        return ""
    if previous.get("replayed"):
        return _("Nobody bet in round %(round)s: it was dealt again.") % {"round": previous.get("round")}
    return _("%(player)s won round %(round)s and took %(medals)s.") % {
        "player": names.get(previous.get("player"), previous.get("player")),
        "round": previous.get("round"),
        "medals": medals(previous.get("pot", 0) + previous.get("centre", 0)),
    }


def last_action(payload, names: dict, viewer: str) -> str:
    if not payload:
        return ""
    data = payload.get("data", {})
    player = _("You") if data.get("player") == viewer else names.get(data.get("player"), "?")
    kind = payload.get("type")
    if kind == "kobayakawa.card.discarded":
        told = _("%(player)s: discarded %(card)s") % {"player": player, "card": data.get("card")}
    elif kind == "kobayakawa.card.flipped":
        told = _("%(player)s: flipped %(card)s") % {"player": player, "card": data.get("card")}
    elif kind == "kobayakawa.bet.placed":
        told = _("%(player)s: bet") % {"player": player}
    else:
        told = _("%(player)s: passed") % {"player": player}
    return last_action_told(told, data)


# ---- replies -------------------------------------------------------------------------------------

ACT_WORDS = {
    "draw": "draw take robar robo tomar tomo comprar compro pegar pego",
    "flip": "flip turn voltear volteo girar giro virar viro",
    "discard": "discard descartar descarto",
    "bet": "bet apostar apuesto aposto",
    "pass": "pass paso pasar passo passar",
}
ACT_OF_WORD = {word: act for act, words in ACT_WORDS.items() for word in words.split()}
# How an email writes each act in a reply, in the reader's language; every
# language's word is understood in any reply (``_acts_of_word``).
REPLY_WORDS = {
    "draw": pgettext_lazy("reply word", "draw"),
    "flip": pgettext_lazy("reply word", "flip"),
    "discard": pgettext_lazy("reply word", "discard"),
    "bet": pgettext_lazy("reply word", "bet"),
    "pass": pgettext_lazy("reply word", "pass"),
}
FILLER = set("i a the my card la el mi carta o a minha um uma un una please por favor".split())


def _normalize(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(char for char in text if not unicodedata.combining(char)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


@cache
def _acts_of_word() -> dict[str, str]:
    """``ACT_OF_WORD`` with the reply words of every language of the site."""
    found = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            found.update({_normalize(str(word)): act for act, word in REPLY_WORDS.items()})
    return found | ACT_OF_WORD


def reply_word(option: dict, names: dict) -> str:
    """How to write ``option`` in a reply, in the active language: "draw", "apostar", "discard 7"."""
    word = str(REPLY_WORDS[option["act"]])
    if "card" in option:
        return f"{word} {option['card']}"
    return word


def read_reply(line: str, table: dict, variants) -> Reply:
    options = table["options"]
    words = _normalize(line).split()
    acts, numbers, unknown = [], [], []
    acts_of_word = _acts_of_word()
    for word in words:
        if word.isdigit():
            numbers.append(int(word))
        elif word in acts_of_word:
            acts.append(acts_of_word[word])
        elif word not in FILLER:
            unknown.append(word)
    understood = " ".join(acts + [str(n) for n in numbers])
    if unknown:
        words = ", ".join(f"“{word}”" for word in unknown)
        return Reply(None, "not-understood", _("We did not understand: %(words)s.") % {"words": words}, understood)
    if len(set(acts)) > 1 or len(numbers) > 1:
        return Reply(None, "several-answers", _("Your answer names more than one move: write only one."), understood)
    if not acts and not numbers:
        return Reply(None, "not-understood", _("We found no answer in your reply."), understood)
    act = acts[0] if acts else "discard"
    fits = [o for o in options if o["act"] == act and (not numbers or o.get("card") == numbers[0])]
    if len(fits) > 1:
        answers = " / ".join(reply_word(o, table["names"]) for o in fits)
        problem = _("That could mean more than one answer: %(answers)s.") % {"answers": answers}
        return Reply(None, "ambiguous", problem, understood, fits)
    if not fits:
        return Reply(None, "not-legal", _("That is not one of your answers now."), understood)
    return Reply(fits[0], understood=understood)


# ---- the history: one teller per event type ------------------------------------------------


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
