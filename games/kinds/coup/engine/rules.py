"""Coup's rules that several decisions, the flow and the view read: who may
target or block whom, what a challenge is about, what a Steal takes.

Each rule is worked out here and only here; the options carry what it decides
(the coins of a Steal, the claim a proof shows) so the words never work it out
again.
"""

from games.kinds.coup.engine.characters import LAWYER
from games.kinds.coup.engine.state import CoupState


def faction_forbids(state: CoupState, actor, other) -> bool:
    """True when the faction rule forbids ``actor`` to target ``other``: same
    faction, while some player still in the game is of the other one."""
    if actor.faction is None or actor.faction != other.faction:
        return False
    return any(p.faction != actor.faction for p in state.players if p.alive)


def blockers_of(state: CoupState, action) -> list:
    """The players who may block ``action`` (by claiming the right character):
    its target, or everyone else (of the other faction, when that rule applies)
    when it aims at nobody."""
    if action.kind not in state.rulebook.blockers:
        return []
    if action.target is None:
        actor = state.by_name[action.actor]
        if actor.faction is None:  # no faction rule to check: spare a call per player
            return state.after(actor)
        return [p for p in state.after(actor) if not faction_forbids(state, p, actor)]
    target = state.by_name[action.target]
    return [target] if target.alive else []


def stolen(target, most: int) -> int:
    """The coins a Steal that takes up to ``most`` takes from ``target``: as many
    as they have, if fewer."""
    coins = target.coins
    return coins if coins < most else most


def challenged_claim(state: CoupState) -> str | None:
    """The character the current challenge is about (``None`` for an action that
    claims *not* to hold a character: Embezzlement)."""
    challenge = state.challenge
    assert challenge is not None, "asked only while a challenge is open"
    if challenge.on == "inheritance":
        return LAWYER
    action = state.action
    assert action is not None, "a challenge outside an inheritance is of an action or its block"
    if challenge.on == "block":
        return action.block_card
    return state.rulebook.claims.get(action.kind)


def can_prove(state: CoupState, player, claim: str | None) -> bool:
    """Whether ``player`` can prove ``claim``, the current challenge's (``challenged_claim``)."""
    if claim is None:
        return disclaimed(state) not in player.hand
    return claim in player.hand


def disclaimed(state: CoupState) -> str:
    """The character the challenged action claims *not* to hold, when
    ``challenged_claim`` is ``None`` (Embezzlement: the Duke)."""
    action = state.action
    assert action is not None, "only an action claims not to hold a character"
    return state.rulebook.disclaims[action.kind]


def open_inheritance_claims(state: CoupState, player) -> list[str]:
    """The Lawyer claims ``player`` may still challenge: another player's, standing
    (the claimant still in the game), and not yet proved against a challenge."""
    estate = state.estate
    assert estate is not None, "asked only during an inheritance"
    return [
        name
        for name in estate.claimants
        if name != player.name and name not in estate.proved and state.by_name[name].alive
    ]
