"""The story of a game in plain sentences, as one viewer may know it.

``CoupHistory().lines(events, viewer, names)`` reads the event log in order and tells each
event as ``viewer`` may see it: the event's public part for everyone, its secret
part (a card drawn, the cards kept in an exchange, a card shown in an examination)
only when ``event.visible_to(viewer)`` includes it. A sentence never uses anything
else: it is built from the fields that the viewer's copy of the event holds, plus
what earlier events made public (the variants, the action being resolved).

"Ana claimed the Duke to take 3 coins. Ben challenged Ana's Duke. Ana showed the
Duke, shuffled it into the court deck and drew a new card. Ben lost an influence:
Captain."

Bookkeeping events (``coup.awaited``, ``coup.court.shuffled``) and a player's private
standing answers (``coup.standing.set``) produce no sentence of their own. A
concession is told with the event after it: with the loss it cost at once, as one
sentence ("Ben did not prove the Duke and lost an influence: Captain.").
"""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.kinds.coup.engine.actions import ACTIONS, ANYONE
from games.kinds.coup.engine.cards import OPPOSITE_FACTION, rulebook_for
from games.kinds.coup.words.names import action_name, card_list, card_name, coins, faction_name
from games.kinds.words import History, Story, clock_answered, last_action_told

SILENT = frozenset(("coup.awaited", "coup.court.shuffled", "coup.standing.set"))
# The events that record a player's own answer. A card lost, drawn or dealt, or
# an elimination, is news to its player even when it follows their answer.
MOVES = frozenset(
    (
        "coup.draft.kept",
        "coup.action.declared",
        "coup.allowed",
        "coup.challenged",
        "coup.claim.proved",
        "coup.claim.conceded",
        "coup.blocked",
        "coup.exchange.kept",
        "coup.card.shown",
        "coup.examine.given_back",
        "coup.examine.forced",
        "coup.inheritance.claimed",
        "coup.inheritance.declined",
        "coup.player.resigned",
    )
)


class CoupStory(Story):
    """What the history of a Coup game has told so far: enough to word the next event."""

    def __init__(self, viewer, names, stand_ins=None):
        super().__init__(viewer, names, stand_ins)
        self.rulebook = rulebook_for(frozenset())
        self.variants: frozenset[str] = frozenset()
        self.action = None  # the public fields of the action being resolved
        self.factions = {}
        self.out = set()
        self.cost = None  # (player, coins) an action just paid into the treasury, told with it
        self.challenged_on = None  # what the challenge being resolved is about: "action", "block", "inheritance"
        self.conceded = None  # the fields of a concession not told yet (``_after_concession``)
        self.gain = None  # (player, coins) an action that nothing can stop takes, told with it
        self.turns = 0  # the turns told so far

    def claim_of(self, action) -> str | None:
        return self.rulebook.claims.get(action)


# ---- one teller per event type -----------------------------------------------------------


def _started(story, data):
    story.variants = frozenset(data.get("variants", ()))
    story.rulebook = rulebook_for(story.variants)
    story.factions = dict(data.get("factions") or {})
    players = [story.name(p) for p in data.get("players", [])]
    text = _("The game began with %(players)s. %(first)s plays first.") % {
        "players": ", ".join(players),
        "first": story.name(data.get("first")),
    }
    if story.factions:
        sides = ", ".join(
            f"{story.name(p)}: {faction_name(story.factions[p])}"
            for p in data.get("players", [])
            if p in story.factions
        )
        text += " " + _("Factions — %(sides)s.") % {"sides": sides}
    return text


def _hand_dealt(story, data):
    player = data["player"]
    if "cards" in data and story.you(player):
        return _("You were dealt: %(cards)s.") % {"cards": card_list(data["cards"])}
    return _("%(player)s received face-down cards.") % {"player": story.name(player)}


def _draft_started(story, data):
    return _("The draft began: each player keeps one card of their set and sets the others aside, unseen.")


def _draft_kept(story, data):
    player = data["player"]
    if "card" in data and story.you(player):
        return _("You kept %(card)s and set aside %(aside)s.") % {
            "card": card_name(data["card"]),
            "aside": card_list(data.get("aside", [])),
        }
    return _("%(player)s kept one card and set the others aside.") % {"player": story.name(player)}


def _turn_started(story, data):
    story.action = None
    story.turns += 1
    player = data["player"]
    # Numbered, so that one's past turns read apart from one another and from the
    # one under way, by email as on the page; a turn one's bot played is its own.
    if story.you(player) and story.name(player) == story.player_name(player):
        return _("Turn %(number)d — you.") % {"number": story.turns}
    return _("Turn %(number)d — %(player)s.") % {"number": story.turns, "player": story.name(player)}


def _declared(story, data):
    story.action = dict(data)
    actor = data["player"]
    act = data["action"]
    cost = _paid_into_treasury(act)
    story.cost = (actor, cost) if cost else None  # told here, so the payment's own line is left out
    action = ACTIONS.get(act)
    story.gain = None
    if action is None:
        return _("%(player)s chose %(action)s.") % {"player": story.name(actor), "action": action_name(act)}
    if action.gain and not action.claimed_by and not action.blocked_by:
        story.gain = (actor, action.gain)  # nothing can stop it (Income): told here too
    card = story.rulebook.disclaims.get(act) or story.claim_of(act)  # the character claimed, or disclaimed
    params = {
        "player": story.name(actor),
        "target": story.name(data.get(action.target_key)),
        "card": card_name(card) if card else "",
        "coins": coins(data.get("takes", 0) if action.takes_reserve else action.cost),
    }
    template = action.told
    if "name" in data:
        template = action.told_named
        params["named"] = card_name(data["name"])
    elif action.aim == ANYONE and data.get("target") in (None, actor):
        template = action.told_own
    elif action.takes_reserve and not data.get("takes"):
        template = action.told_empty_reserve
    return _(template) % params


def _coins_moved(story, data):
    amount, source, dest = data["amount"], data["from"], data["to"]
    if story.cost is not None:
        paid, story.cost = story.cost, None
        if paid == (source, amount) and dest == "treasury":
            return ""  # the declaration already said so
    if story.gain is not None:
        gained, story.gain = story.gain, None
        if gained == (dest, amount) and source == "treasury":
            return ""  # the declaration already said so
    params = {"coins": coins(amount)}
    places = ("treasury", "reserve", "estate")
    if source not in places:
        params["player"] = story.name(source)
    if dest not in places:
        params["target"] = story.name(dest)
    if source == "treasury" and dest not in places:
        action = story.action or {}
        if action.get("player") == dest and _paid_into_treasury(action.get("action")) == amount:
            return _("%(target)s got the %(coins)s back.") % params  # a failed action's refund
        return _("%(target)s took %(coins)s from the treasury.") % params
    if source == "reserve" and dest not in places:
        return _("%(target)s took %(coins)s from the treasury reserve.") % params
    if source == "estate" and dest not in places:
        return _("%(target)s inherited %(coins)s.") % params
    if source not in places and dest not in places:
        return _("%(target)s took %(coins)s from %(player)s.") % params
    if source not in places and dest == "reserve":
        return _("%(player)s put %(coins)s on the treasury reserve.") % params
    if source not in places and dest == "treasury":
        if source in story.out:
            return _("%(player)s's %(coins)s went back to the treasury.") % params
        return _("%(player)s paid %(coins)s to the treasury.") % params
    if dest == "treasury":
        return _("%(coins)s went back to the treasury.") % params
    return ""


def _paid_into_treasury(act) -> int:
    """What declaring ``act`` pays into the treasury (a failed action's refund gives it back)."""
    action = ACTIONS.get(act)
    return action.cost if action is not None and action.pays_into == "treasury" else 0


def _allowed(story, data):
    return _("%(player)s let it pass.") % {"player": story.name(data["player"])}


def _challenged(story, data):
    params = {"player": story.name(data["player"]), "claimant": story.name(data["claimant"])}
    on = story.challenged_on = data.get("on")
    if on == "inheritance":
        return _("%(player)s challenged %(claimant)s's Lawyer claim.") % params
    action = story.action or {}
    if on == "block":
        params["card"] = card_name(action.get("block_card"))
        return _("%(player)s challenged %(claimant)s's %(card)s.") % params
    if action.get("action") in story.rulebook.disclaims:
        params["card"] = card_name(story.rulebook.disclaims[action["action"]])
        return _("%(player)s challenged %(claimant)s, saying they hold a %(card)s.") % params
    params["card"] = card_name(story.claim_of(action.get("action")))
    return _("%(player)s challenged %(claimant)s's %(card)s.") % params


def _proved(story, data):
    cards = data.get("cards", [])
    params = {"player": story.name(data["player"]), "cards": card_list(cards)}
    action = story.action or {}
    if action.get("action") in story.rulebook.disclaims and not action.get("block_card"):
        params["card"] = card_name(story.rulebook.disclaims[action["action"]])
        return _("%(player)s revealed %(cards)s — no %(card)s — and shuffled them into the court deck.") % params
    return _("%(player)s showed the %(cards)s and shuffled it into the court deck.") % params


def _conceded(story, data):
    story.conceded = dict(data)  # told with the event that follows it
    return ""


def _after_concession(kind, teller):
    """``teller``, told after the concession the event follows, if any. A loss of
    the conceding player that follows at once (answered "concede and lose your
    Captain", or their last card) is told with it in one sentence; once the game
    waits for them to choose the card, the concession is told alone. Told from the
    events alone, the same whichever part of the log a story is continued with."""

    def told(story, data):
        conceded = story.conceded
        if conceded is None:
            return teller(story, data)
        story.conceded = None
        player = conceded["player"]
        joined = kind == "coup.influence.lost" and data["player"] == player
        if joined:
            text = _conceded_losing(story, player, data["card"])
        else:
            text = _("%(player)s conceded the challenge.") % {"player": story.name(player)}
        if conceded.get("timed_out"):
            text = clock_answered(text, conceded, story)
        parts = [text, _claim_lost_told(story, player) if conceded.get("claim_lost") else ""]
        if not joined:
            parts.append(teller(story, data))
        return " ".join(part for part in parts if part)

    return told


def _conceded_losing(story, player, card):
    """A concession and the influence it cost, in one sentence that does not tell
    whether the player could have proved ("did not", never "could not")."""
    params = {"player": story.name(player), "lost": card_name(card)}
    action = story.action or {}
    if story.challenged_on == "inheritance":
        params["card"] = card_name("lawyer")
    elif story.challenged_on == "block":
        params["card"] = card_name(action.get("block_card"))
    elif action.get("action") in story.rulebook.disclaims:
        if story.you(player):
            return _("You did not reveal your cards and lost an influence: %(lost)s.") % params
        return _("%(player)s did not reveal their cards and lost an influence: %(lost)s.") % params
    else:
        params["card"] = card_name(story.claim_of(action.get("action")))
    if story.you(player):
        return _("You did not prove the %(card)s and lost an influence: %(lost)s.") % params
    return _("%(player)s did not prove the %(card)s and lost an influence: %(lost)s.") % params


def _card_drawn(story, data):
    player = data["player"]
    if "card" in data and story.you(player):
        return _("You drew a new card: %(card)s.") % {"card": card_name(data["card"])}
    return _("%(player)s drew a new card from the court deck.") % {"player": story.name(player)}


def _card_returned(story, data):
    player = data["player"]
    if "card" in data:
        if story.you(player):
            return _("You returned the %(card)s to the court deck.") % {"card": card_name(data["card"])}
        return _("%(player)s returned the %(card)s to the court deck.") % {
            "player": story.name(player),
            "card": card_name(data["card"]),
        }
    return _("%(player)s returned the card they showed to the court deck.") % {"player": story.name(player)}


def _influence_lost(story, data):
    player = data["player"]
    if story.you(player):
        return _("You lost an influence: %(card)s.") % {"card": card_name(data["card"])}
    return _("%(player)s lost an influence: %(card)s.") % {
        "player": story.name(player),
        "card": card_name(data["card"]),
    }


def _eliminated(story, data):
    player = data["player"]
    story.out.add(player)
    if story.you(player):
        return _("You are out of the game.")
    return _("%(player)s is out of the game.") % {"player": story.name(player)}


def _blocked(story, data):
    if story.action is not None:
        story.action["blocker"] = data["player"]
        story.action["block_card"] = data["card"]
    return _("%(player)s claimed the %(card)s to block.") % {
        "player": story.name(data["player"]),
        "card": card_name(data["card"]),
    }


def _failed(story, data):
    params = {"player": story.name(data["player"]), "action": action_name(data["action"])}
    if data.get("reason") == "blocked":
        return _("The block stands: %(player)s's %(action)s failed.") % params
    return _("%(player)s's %(action)s failed.") % params


def _exchange_drew(story, data):
    player = data["player"]
    if "cards" in data and story.you(player):
        return _("You drew from the court deck: %(cards)s.") % {"cards": card_list(data["cards"])}
    count = data.get("count", 0)
    return ngettext(
        "%(player)s drew %(count)d card from the court deck.",
        "%(player)s drew %(count)d cards from the court deck.",
        count,
    ) % {"player": story.name(player), "count": count}


def _exchange_kept(story, data):
    player = data["player"]
    if "kept" in data and story.you(player):
        return _("You kept %(kept)s and returned %(returned)s to the court deck.") % {
            "kept": card_list(data["kept"]),
            "returned": card_list(data.get("returned", [])) or "—",
        }
    return _("%(player)s chose the cards to keep and returned the others to the court deck.") % {
        "player": story.name(player)
    }


def _hand_revealed(story, data):
    return _("%(player)s revealed every face-down card: %(cards)s.") % {
        "player": story.name(data["player"]),
        "cards": card_list(data.get("cards", [])),
    }


def _card_shown(story, data):
    player, to = data["player"], data.get("to")
    if "card" in data:
        params = {"player": story.name(player), "to": story.name(to), "card": card_name(data["card"])}
        if story.you(player):
            return _("You showed the %(card)s to %(to)s.") % params
        if story.you(to):
            return _("%(player)s showed you the %(card)s.") % params
        return _("%(player)s showed the %(card)s to %(to)s.") % params
    return _("%(player)s showed one card to %(to)s in secret.") % {"player": story.name(player), "to": story.name(to)}


def _given_back(story, data):
    return _("%(player)s gave the card back to %(target)s.") % {
        "player": story.name(data["player"]),
        "target": story.name(data["target"]),
    }


def _forced(story, data):
    return _("%(player)s made %(target)s swap the card shown for one from the court deck.") % {
        "player": story.name(data["player"]),
        "target": story.name(data["target"]),
    }


def _converted(story, data):
    target = data["target"]
    if target in story.factions:
        story.factions[target] = OPPOSITE_FACTION[story.factions[target]]
    params = {"player": story.name(target), "faction": faction_name(story.factions.get(target))}
    if story.factions.get(target):
        return _("%(player)s is now %(faction)s.") % params
    return _("%(player)s changed faction.") % params


def _inheritance_opened(story, data):
    return _("%(player)s left %(coins)s: anyone still in the game may claim the Lawyer to inherit them.") % {
        "player": story.name(data["player"]),
        "coins": coins(data.get("coins", 0)),
    }


def _inheritance_claimed(story, data):
    return _("%(player)s claimed the Lawyer to inherit.") % {"player": story.name(data["player"])}


def _inheritance_declined(story, data):
    return _("%(player)s declined the inheritance.") % {"player": story.name(data["player"])}


def _claim_lost(story, data):
    if story.conceded is not None and story.conceded["player"] == data["player"]:
        story.conceded["claim_lost"] = True  # told after the concession (``_after_concession``)
        return ""
    return _claim_lost_told(story, data["player"])


def _claim_lost_told(story, player) -> str:
    return _("%(player)s's Lawyer claim no longer counts.") % {"player": story.name(player)}


def _inheritance_settled(story, data):
    shares = {p: n for p, n in (data.get("shares") or {}).items() if n}
    params = {"player": story.name(data["player"]), "coins": coins(data.get("treasury", 0))}
    if not shares:
        return _("Nobody inherited from %(player)s: %(coins)s went to the treasury.") % params
    params["shares"] = ", ".join(f"{story.name(p)} {coins(n)}" for p, n in shares.items())
    if data.get("treasury"):
        return _("%(player)s's coins were shared: %(shares)s; %(coins)s to the treasury.") % params
    return _("%(player)s's coins were shared: %(shares)s.") % params


def _resigned(story, data):
    player = data["player"]
    if story.you(player):
        return _("You resigned.")
    return _("%(player)s resigned.") % {"player": story.name(player)}


def _won(story, data):
    player = data["player"]
    if story.you(player):
        return _("You won the game!")
    return _("%(player)s won the game!") % {"player": story.name(player)}


def _silent(story, data):
    return ""


TELLERS = {
    "coup.game.started": _started,
    "coup.hand.dealt": _hand_dealt,
    "coup.draft.started": _draft_started,
    "coup.draft.kept": _draft_kept,
    "coup.turn.started": _turn_started,
    "coup.action.declared": _declared,
    "coup.coins.moved": _coins_moved,
    "coup.allowed": _allowed,
    "coup.challenged": _challenged,
    "coup.claim.proved": _proved,
    "coup.claim.conceded": _conceded,
    "coup.card.drawn": _card_drawn,
    "coup.card.returned": _card_returned,
    "coup.influence.lost": _influence_lost,
    "coup.player.eliminated": _eliminated,
    "coup.blocked": _blocked,
    "coup.action.failed": _failed,
    "coup.exchange.drew": _exchange_drew,
    "coup.exchange.kept": _exchange_kept,
    "coup.hand.revealed": _hand_revealed,
    "coup.card.shown": _card_shown,
    "coup.examine.given_back": _given_back,
    "coup.examine.forced": _forced,
    "coup.faction.converted": _converted,
    "coup.inheritance.opened": _inheritance_opened,
    "coup.inheritance.claimed": _inheritance_claimed,
    "coup.inheritance.declined": _inheritance_declined,
    "coup.inheritance.claim_lost": _claim_lost,
    "coup.inheritance.settled": _inheritance_settled,
    "coup.player.resigned": _resigned,
    "coup.game.won": _won,
    **{kind: _silent for kind in SILENT},
}
# Every teller but those of the concession itself and of the lost Lawyer claim that
# may come between it and its loss tells a concession waiting to be told first.
TELLERS = {
    kind: teller if kind in ("coup.claim.conceded", "coup.inheritance.claim_lost") else _after_concession(kind, teller)
    for kind, teller in TELLERS.items()
}


class CoupHistory(History):
    story_type = CoupStory
    tellers = TELLERS
    turn_event = "coup.turn.started"
    moves = MOVES
    last_action_types = ("coup.action.declared",)

    def last_action(self, payload, names: dict, viewer: str) -> str:
        """ "Ben: Steal from Ana", from a stored ``coup.action.declared`` event (its
        public ``data`` only; such events carry no secret part anyway)."""
        if not payload:
            return ""
        data = payload.get("data", {})
        action = action_name(data.get("action"))
        player = _("You") if data.get("player") == viewer else names.get(data.get("player"), "?")
        target = data.get("target") or data.get("beneficiary")
        if target and target != data.get("player"):
            target_name = _("you") if target == viewer else names.get(target, "?")
            told = _("%(player)s: %(action)s, on %(target)s") % {
                "player": player,
                "action": action,
                "target": target_name,
            }
        else:
            told = _("%(player)s: %(action)s") % {"player": player, "action": action}
        return last_action_told(told, data)
