"""The second opinions a seat asked for on its decisions (``games.services.opinions``)."""

from games.models import Game, Seat, SecondOpinion


def second_opinions_of(game: Game, seat: Seat, versions) -> dict[int, SecondOpinion]:
    """``seat``'s second opinions on its decisions of ``versions``, by version (asked ones only)."""
    return {
        opinion.version: opinion
        for opinion in SecondOpinion.objects.filter(game=game, seat=seat, version__in=list(versions))
    }
