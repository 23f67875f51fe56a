"""Migration 0018 links the logs written before it into their hash chains exactly as
appending links new events, so every game verifies after it."""

from games.models import Event, Game
from games.services import play
from games.services.verification import games_verify
from tests.players import awaited, make_player, started_game

BEFORE = [("games", "0017_spectators_and_moderation")]
AFTER = [("games", "0018_event_log_hash_chain")]


def test_the_migration_links_older_logs_as_appending_does(migrate):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben)
    play.decision_submit(game=game, user=ana, command={"act": "income"}, version=awaited(game)["p1"][1])
    appended = dict(Event.objects.filter(game=game).values_list("seq", "hash"))
    head = Game.objects.get(pk=game.pk).log_hash

    migrate(BEFORE)  # the hashes are gone, as before the chain existed
    migrate(AFTER)

    assert dict(Event.objects.filter(game=game).values_list("seq", "hash")) == appended
    assert Game.objects.get(pk=game.pk).log_hash == head
    assert games_verify() == (1, [])
