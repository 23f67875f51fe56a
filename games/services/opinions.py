"""Second opinions: on a finished game's replay, a player asks what the strong bot
would have done at one of their own decisions.

The asking (``second_opinion_ask``) is checked and queued in the request: only
once the game is over (before, an answer would be advice during play), only for
a decision the asker's own seat had to make (another seat's, or a number that is
no decision, is refused and nothing is computed), and at most
``SECOND_OPINIONS_PER_DAY`` in any 24 hours per player (each keeps a worker busy
for a second or two). A decision already weighed, for anyone who asked, is shown
again at no cost and counts against no limit. The weighing
(``second_opinion_give``) runs in a Celery worker, never in a request: from the
seat's knowledge at that moment only (``games.bots.opinions``), with a seed and a
count of imagined deals fixed, so the answer is the same each time it is worked out.
"""

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.bots.opinions import SeatDecision, seat_decisions, weigh_decision
from games.engine.events import Event as EngineEvent
from games.kinds import KINDS
from games.models import Game, Seat, SecondOpinion
from games.selectors import events_of
from games.services import notifications
from games.services.errors import NotSeated, ServiceError

LIMIT_PERIOD = timedelta(hours=24)


def decisions_of(game: Game, seat: Seat) -> tuple[list[tuple[int, EngineEvent]], dict[int, SeatDecision]]:
    """``game``'s stored events (``(seq, event)``) and ``seat``'s decisions in it, by version."""
    stored = [(seq, EngineEvent.from_json(payload)) for seq, payload in events_of(game)]
    rules = KINDS[game.kind].rules
    return stored, seat_decisions(rules, [event for _seq, event in stored], seat.player)


def seat_decision(game: Game, seat: Seat, version: int) -> SeatDecision:
    """``seat``'s decision ``version`` of ``game``. Raises ``ServiceError`` while the
    game is not over, or when ``version`` is no decision of that seat's."""
    if game.status != Game.Status.FINISHED:
        raise ServiceError(_("A second opinion is given only once the game is over."))
    _stored, decisions = decisions_of(game, seat)
    if version not in decisions:
        raise ServiceError(_("That is not one of your decisions in this game."))
    return decisions[version]


def second_opinion_ask(*, game: Game, user, version: int) -> SecondOpinion:
    """``user`` asks for the strong bot's opinion on their decision ``version`` of
    ``game``: the opinion, already weighed or queued for a worker. Raises
    ``NotSeated`` when ``user`` did not play ``game``, ``ServiceError`` when the
    game is not over, the decision is not theirs, or they reached the daily limit."""
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        raise NotSeated(_("You have no seat at this game."))
    seat_decision(game, seat, version)
    known = SecondOpinion.objects.filter(game=game, seat=seat, version=version).first()
    if known is not None:
        return known
    with transaction.atomic():
        # Two asks at once by the same player: the second counts the first.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        _check_limit(user)
        try:
            with transaction.atomic():
                opinion = SecondOpinion.objects.create(game=game, seat=seat, version=version, asked_by=user)
        except IntegrityError:  # asked a moment ago (another tab): that one is queued
            return SecondOpinion.objects.get(game=game, seat=seat, version=version)
        notifications.second_opinion_asked(opinion)
    return opinion


def _check_limit(user) -> None:
    limit = settings.SECOND_OPINIONS_PER_DAY
    recent = SecondOpinion.objects.filter(asked_by=user, asked_at__gte=timezone.now() - LIMIT_PERIOD).count()
    if recent >= limit:
        raise ServiceError(
            ngettext(
                "You have asked for %(limit)d second opinion in the last 24 hours, the most allowed; "
                "please ask again later.",
                "You have asked for %(limit)d second opinions in the last 24 hours, the most allowed; "
                "please ask again later.",
                limit,
            )
            % {"limit": limit}
        )


def second_opinion_give(*, opinion_id: int) -> bool:
    """Weigh the queued opinion ``opinion_id``: False, changing nothing, when it is
    gone or already weighed (a duplicate or redelivered task)."""
    opinion = SecondOpinion.objects.select_related("game", "seat").filter(pk=opinion_id).first()
    if opinion is None or opinion.weighed is not None:
        return False
    game, seat = opinion.game, opinion.seat
    game_kind = KINDS[game.kind]
    stored, decisions = decisions_of(game, seat)
    decision = decisions[opinion.version]
    knowledge = game_kind.bots.knowledge(seat.player)
    knowledge.observe_events(event for _seq, event in stored[: decision.upto])
    worlds = settings.SECOND_OPINION_WORLDS
    weighed, choice = weigh_decision(
        game_kind.bots.bot("strong"), knowledge, decision.view, opinion_seed(opinion), worlds
    )
    return bool(
        SecondOpinion.objects.filter(pk=opinion.pk, weighed__isnull=True).update(
            weighed=[
                {"option": option, "score": score, "chosen": index == choice}
                for index, (option, score) in enumerate(weighed)
            ],
            worlds=worlds,
            weighed_at=timezone.now(),
        )
    )


def opinion_seed(opinion: SecondOpinion) -> str:
    """The dice of an opinion: the same decision is always weighed alike."""
    return f"second-opinion:{opinion.game_id}:{opinion.seat.player}:{opinion.version}"
