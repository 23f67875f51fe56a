"""Players and games for the service and web tests (plain helpers; the fixtures
that use them are in tests/conftest.py)."""

import random
import threading
from datetime import timedelta

import pyotp
from allauth.account.models import EmailAddress
from allauth.mfa.totp.internal.auth import TOTP
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.utils import timezone

from accounts.models import Profile, profile_of
from games.chain import events_chain
from games.engine.seats import seat_position
from games.kinds import KINDS
from games.kinds.coup.models import preferences_of
from games.models import Event, Game, Seat
from games.selectors import game_state
from games.services import bots, gathering, play

PASSWORD = "correct-horse-battery-9"


def make_player(name: str, language: str = "en"):
    """A user called ``name`` (display name), with a verified ``<name>@example.com``."""
    email = f"{name.lower()}@example.com"
    user = get_user_model().objects.create_user(username=name.lower(), email=email, password=PASSWORD)
    EmailAddress.objects.create(user=user, email=email, verified=True, primary=True)
    profile = profile_of(user)
    profile.display_name = name
    profile.language = language
    profile.save()
    return user


def make_staff(user) -> str:
    """Make ``user`` staff (a superuser) with the second factor the admin asks of staff
    outside DEBUG (coupsite/admin.py): an authenticator app, whose secret is returned."""
    get_user_model().objects.filter(pk=user.pk).update(is_staff=True, is_superuser=True)
    user.refresh_from_db()
    secret = pyotp.random_base32()
    TOTP.activate(user, secret)
    return secret


def gathering_game(host, *others, seats=None, variants=(), first=Game.First.HOST, **options):
    game = gathering.game_create(
        host=host,
        variants=list(variants),
        seat_count=seats or 1 + len(others),
        turn_seconds=options.pop("turn_seconds", 86400),
        response_seconds=options.pop("response_seconds", 28800),
        first=first,
        **options,
    )
    for user in others:
        gathering.seat_join(game=game, user=user, join_token=game.join_token)
    return game


def started_game(host, *others, **options):
    return gathering.game_start(game=gathering_game(host, *others, **options), by=host)


def expired_copies(model, count: int) -> list[int]:
    """``count`` copies of ``model`` (a game in play: its row, seats and log,
    bulk-inserted a thousand at a time), each awaiting the same decisions, its
    deadline a minute past. Returns their ids, in order."""
    seats = list(model.seats.all())
    events = list(model.events.order_by("seq"))
    past = timezone.now() - timedelta(minutes=1)
    ids = []
    for first in range(0, count, 1000):
        with transaction.atomic():
            games = Game.objects.bulk_create(
                Game(
                    kind=model.kind,
                    options=model.options,
                    seat_count=model.seat_count,
                    status=model.status,
                    host_id=model.host_id,
                    turn_seconds=model.turn_seconds,
                    response_seconds=model.response_seconds,
                    reminders=model.reminders,
                    version=model.version,
                    deadline_at=past,
                    deadline_seconds=model.deadline_seconds,
                    snapshot=model.snapshot,
                    started_at=model.started_at,
                )
                for _ in range(min(1000, count - first))
            )
            Seat.objects.bulk_create(
                Seat(game=game, user_id=seat.user_id, position=seat.position) for game in games for seat in seats
            )
            rows = []
            for game in games:
                copied = [Event(game=game, seq=event.seq, type=event.type, payload=event.payload) for event in events]
                events_chain(game, copied)  # each copy is a log of its own
                rows += copied
            Event.objects.bulk_create(rows)
            Game.objects.bulk_update(games, ["log_hash"])
        ids += [game.pk for game in games]
    return ids


def awaited(game) -> dict:
    """Engine player name → (decision, version) for the decisions ``game`` waits for."""
    game.refresh_from_db()
    return {name: (decision, version) for name, decision, version in KINDS[game.kind].rules.awaiting(game_state(game))}


def play_to_the_end(game, seed) -> Game:
    """``game`` played to its end with random answers (``play_randomly``, seeded by
    ``seed``), refreshed."""
    for _game in play_randomly(game, random.Random(seed)):
        pass
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def play_randomly(game, rng: random.Random, decisions: int = 10_000):
    """Answer ``game``'s awaited decisions at random through the services until it
    ends, yielding the game after each answer."""
    users = {seat.player: seat.user for seat in game.seats.all()}
    rules = KINDS[game.kind].rules
    for _ in range(decisions):
        game.refresh_from_db()
        if game.status != Game.Status.ACTIVE:
            return
        state = game_state(game)
        player, _kind, version = rng.choice(rules.awaiting(state))
        command = rng.choice(rules.options(state, player))
        play.decision_submit(game=game, user=users[player], command=command, version=version)
        game.refresh_from_db()
        yield game


def profile_form_data(user, **changes) -> dict:
    """What the profile page posts for ``user`` as things stand (each kind's
    preferences section included), with ``changes``; a change to None leaves a field out."""
    profile = Profile.objects.get(user=user)
    preferences = preferences_of(user)
    cards = (list(preferences.lose_first) + ["", "", ""])[:3]
    data = {
        "display_name": profile.display_name,
        "language": profile.language,
        "time_zone": profile.time_zone,
        "email_mode": profile.email_mode,
        "lose_first_0": cards[0],
        "lose_first_1": cards[1],
        "lose_first_2": cards[2],
    }
    if preferences.always_prove:
        data["always_prove"] = "on"
    if profile.quiet_nights:
        data["quiet_nights"] = "on"
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def blocked_foreign_aid(game, events: int):
    """Play ``game`` (Coup, started, nobody having moved) on for at least ``events``
    more events, to the start of a turn, stored as the services store them (the log
    and its snapshot): every turn a Foreign Aid blocked by a Duke claim that everyone
    lets stand, so the game never ends and nobody's hand or coins change. A long
    game, cheaply."""
    rules = KINDS[game.kind].rules
    state = game_state(game)
    new = []
    while len(new) < events or rules.awaiting(state)[0][1] != "turn":
        player, _kind, _version = rules.awaiting(state)[0]
        options = rules.options(state, player)
        command = next(
            (option for option in options if option["act"] == "foreign_aid" or option.get("as") == "duke"),
            {"act": "allow"},
        )
        new += rules.play(state, player, command)
    rows = [
        Event(game=game, seq=game.version + index, type=event.type, payload=event.to_json())
        for index, event in enumerate(new)
    ]
    events_chain(game, rows)
    Event.objects.bulk_create(rows)
    game.version += len(new)
    game.snapshot = rules.dump(state)
    game.save(update_fields=["version", "log_hash", "snapshot"])
    return game


def coup_deals(monkeypatch, hands: dict) -> None:
    """Classic Coup games started from now on deal ``hands`` (engine name → its two
    cards), the rest of the deck going to the court in a fixed order: a hand the
    test needs, with everything else played as in any game."""
    from games.kinds.coup.engine import setup

    def dealt(players, rulebook, dealer):
        court = rulebook.deck(len(players))
        for card in (card for name in players for card in hands[name]):
            court.remove(card)
        return {name: list(hands[name]) for name in players}, court

    monkeypatch.setattr(setup, "_deal", dealt)


def until_turn_of(game, player: str) -> None:
    """Answer every decision of ``game`` before ``player``'s next turn: a bot's
    (its own seat's, or a stand-in's) by the bot, as the worker would, a person's
    by letting it pass (else its first option)."""
    rules = KINDS[game.kind].rules
    while True:
        waiting = awaited(game)
        if waiting.get(player, ("",))[0] == "turn" or game.status != Game.Status.ACTIVE:
            return
        who, (_decision, version) = next(iter(waiting.items()))
        seat = game.seats.select_related("user__profile").get(position=seat_position(who))
        if seat.bot_level:
            bots.bot_answer(game=game, seat_id=seat.pk, version=version)
            continue
        options = rules.options(game_state(game), who)
        allow = next((option for option in options if option["act"] == "allow"), options[0])
        play.decision_submit(game=game, user=seat.user, command=allow, version=version)


def race(*calls):
    """Run ``calls`` at the same moment, each on its own thread and connection;
    returns what each returned or raised."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as error:  # the outcome under test
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results
