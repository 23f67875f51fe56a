import pytest
from games.models import SeatResult, Event
from tests.web.test_dashboard import play_scripted_game, dealt  # noqa
pytestmark = pytest.mark.django_db
def test_probe(dealt, ana, ben, cai):
    g = play_scripted_game(ana, ben, cai)
    for e in Event.objects.filter(game=g).order_by("seq"):
        print(e.seq, e.type, e.payload["data"])
    for r in SeatResult.objects.select_related("user"):
        print(r.user.username, r.place, r.moves, r.claims, r.claims_challenged, r.bluffs_caught, r.challenges_made, r.challenges_won)
    print(g.moves)
