"""Starting a Coup game: the deal, the coins, the factions."""

from games.engine.errors import IllegalMove
from games.engine.errors import gettext_noop as _
from games.engine.events import Event
from games.kinds.coup.engine.cards import (
    FACTIONS,
    LOYALIST,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPPOSITE_FACTION,
    START_COINS,
    TWO_PLAYER_FIRST_COINS,
    VARIANTS,
    rulebook_for,
)


def check_config(players: list, variants) -> None:
    """A game a host may create: ``check_table``, and Declared Assassination only
    together with Declared Coup (docs/rules.md §1.2: the host enables it "too").
    A scenario file may script Declared Assassination alone (docs/scenarios.md),
    so ``setup_events`` checks the table only."""
    check_table(players, variants)
    if "declared_assassination" in variants and "declared_coup" not in variants:
        raise IllegalMove(_("Declared Assassination is played together with Declared Coup."))


def check_table(players: list, variants) -> None:
    """What every Coup game needs: 2 to 10 different players, known variants, and
    exactly two players for the two-player draft."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise IllegalMove(_("Coup is played by {low} to {high} players."), low=MIN_PLAYERS, high=MAX_PLAYERS)
    if len(set(players)) != len(players):
        raise IllegalMove(_("Every player needs a different name."))
    unknown = set(variants) - set(VARIANTS)
    if unknown:
        raise IllegalMove(_("Unknown variant: {variant}."), variant=", ".join(sorted(unknown)))
    if rulebook_for(frozenset(variants)).draft and len(players) != 2:
        raise IllegalMove(_("The two-player draft needs exactly 2 players."))


def setup_events(
    players: list,
    variants,
    first: str,
    dealer,
    *,
    deal: dict | None = None,
    court: list | None = None,
    coins: dict | None = None,
    factions: dict | None = None,
    first_faction: str = LOYALIST,
) -> list[Event]:
    """The events that start a game. ``deal`` and ``court`` fix the cards (scenario
    files); otherwise the dealer shuffles the deck."""
    variants = sorted(set(variants))
    check_table(players, variants)
    if first not in players:
        raise IllegalMove(_("The first player must be one of the players."))
    rulebook = rulebook_for(frozenset(variants))
    if deal is None:
        deal, court = _deal(players, rulebook, dealer)
    assert court is not None, "a deal is fixed with its court"
    start_coins = {name: START_COINS for name in players}
    if len(players) == 2:
        start_coins[first] = TWO_PLAYER_FIRST_COINS
    start_coins.update(coins or {})
    data = {"players": list(players), "variants": variants, "first": first, "coins": start_coins}
    if rulebook.factions:
        data["factions"] = factions or _alternating(players, first, first_faction)
    events = [Event("coup.game.started", data)]
    events += [Event("coup.hand.dealt", {"player": name}, {"cards": list(deal[name])}, (name,)) for name in players]
    events.append(Event("coup.court.shuffled", {}, {"court": list(court)}))
    if rulebook.draft:
        events.append(Event("coup.draft.started", {}))
    else:
        events.append(Event("coup.turn.started", {"player": first}))
    return events


def _deal(players, rulebook, dealer):
    """Each player's cards and the court: in the draft a set of every character
    each, and another set for the court."""
    if rulebook.draft:
        one_set = list(rulebook.characters)
        return {name: sorted(one_set) for name in players}, dealer.shuffle(one_set)
    deck = dealer.shuffle(rulebook.deck(len(players)))
    size = rulebook.deal_size
    deal = {name: deck[size * i : size * (i + 1)] for i, name in enumerate(players)}
    return deal, deck[size * len(players) :]


def _alternating(players, first, first_faction):
    if first_faction not in FACTIONS:
        raise IllegalMove(_("Unknown faction: {faction}."), faction=first_faction)
    start = players.index(first)
    factions = {}
    faction = first_faction
    for i in range(len(players)):
        factions[players[(start + i) % len(players)]] = faction
        faction = OPPOSITE_FACTION[faction]
    return factions
