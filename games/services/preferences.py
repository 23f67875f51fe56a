"""A player's standing preferences for each game kind (the kind keeps them and
edits them on the profile page: ``Forms.player_preferences``), given to the
engine of every game of theirs in play, where a preference may answer an awaited
decision at once."""

from django.db import transaction

from games.kinds import KINDS
from games.models import Game, Seat
from games.selectors import game_state
from games.services.attention import game_isolated
from games.services.errors import engine_call
from games.services.play import events_append_keeping_clock


def preferences_give(*, user) -> int:
    """Give ``user``'s preferences, as stored now, to the engine of each of their
    games in play, which answers at once any decision of theirs they cover.
    Returns how many games got them; a game that fails is set aside for attention."""
    games = Game.objects.filter(seats__user=user, status=Game.Status.ACTIVE)
    return sum(bool(game_isolated(game, "standing answers", _give, user=user)) for game in games)


def _give(*, game: Game, user) -> bool:
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.status != Game.Status.ACTIVE:
            return False
        seat = game.seats.select_related("user").get(user=user)
        state = game_state(game)
        awaited = KINDS[game.kind].rules.awaiting(state)
        events = preferences_events(game, state, seat, changed=True)
        if events:
            events_append_keeping_clock(game, state, events, awaited=awaited)
        return bool(events)


def preferences_events(game: Game, state, seat: Seat, *, changed: bool) -> list:
    """The events that give ``seat``'s preferences for the game's kind to its
    engine, already applied to ``state``. At the start only a player who has some
    set needs them; a change (``changed``) is given even when it clears them."""
    game_kind = KINDS[game.kind]
    preferences = game_kind.forms.player_preferences(seat.user)
    if not preferences or not (changed or any(preferences.values())):
        return []
    return engine_call(lambda: game_kind.rules.set_preferences(state, seat.player, preferences), game)
