"""What Kobayakawa's templates show: the game page's table, a replay's table and an
email's table, built from the viewer's ``view`` (the omniscient one for a replay).

The table: the Kobayakawa card (and the cards it covers), the deck as a count,
the medals in the centre, and each seat's medals, bet and face-up discards. The
viewer's own card (and the card they just drew) is the only card a page marks
with ``data-card``; another player's card appears, as ``data-revealed``, only
once the engine's view shows it (a showdown). Discards carry ``data-discard``
and the Kobayakawa card ``data-kobayakawa``: all public.
"""

from django.utils.translation import gettext as _

from games.kinds.base import Templates
from games.kinds.kobayakawa.words import rules
from games.kinds.kobayakawa.words.decisions import KobayakawaWords
from games.kinds.kobayakawa.words.names import medals

WORDS = KobayakawaWords()


class KobayakawaTemplates(Templates):
    folder = "kobayakawa"
    reference = "kobayakawa/_reference.html"
    email_table_reads = ("table", "centre")

    def table_context(self, view, viewer, names, game, users, awaiting) -> dict:
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
                "deciding": WORDS.decision_prompt(awaiting[entry["name"]]) if entry["name"] in awaiting else "",
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

    def replay_context(self, game, view, viewer, names) -> dict:
        """The live table of the omniscient view, every seat with its card shown,
        the deck in order."""
        awaiting = {entry["player"]: entry["decision"] for entry in view.get("awaiting", [])}
        live = self.table_context(view, viewer, names, game, {}, awaiting)
        for row, entry in zip(live["players"], view["players"], strict=True):
            row["card"] = entry["card"]
            row["drawn"] = entry.get("drawn")
        live["me"] = None  # a replay shows every seat alike
        live["deck"] = list(view["deck"]) if isinstance(view.get("deck"), list) else []
        return live

    def email_context(self, view, viewer, names) -> dict:
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

    def static_context(self, variants) -> dict:
        return {"reference": rules.reference()}


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
