"""After the game and between games: replays with every hand shown, rematches where
the previous winner starts, and the preferences a player keeps (time zone, standing
answers that the engine gives at once)."""

import random
import re
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from accounts.forms import ProfileForm
from accounts.models import Profile, profile_of
from games.web import replays
from games.services import gathering, play
from games.models import Event, Game, Invitation
from games.selectors import game_state
from games.services.errors import ServiceError
from tests.players import play_randomly
from tests.web.conftest import answer, awaited, gathering_game, make_player, player_of, started_game

pytestmark = pytest.mark.django_db


def as_user(client, user):
    client.force_login(user)
    return client


def html_of(client, user, url, **params) -> str:
    response = as_user(client, user).get(url, params)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def finished_by_resignations(host, *others):
    """A game that ``host`` won: everyone else resigned."""
    game = started_game(host, *others)
    for user in others:
        play.game_resign(game=game, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.winner_id == host.pk
    return game


def played_to_the_end(game, seed: int = 7):
    for _game in play_randomly(game, random.Random(seed)):
        pass
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def hands_on(html: str) -> dict:
    """Engine player → the face-down cards the replay shows for them."""
    found = re.findall(r'data-player="(p\d+)">.*?data-hand="([^"]*)"', html, re.S)
    return {player: sorted(card for card in cards.split(",") if card) for player, cards in found}


def replay_part(html: str) -> str:
    return html[html.index('<div id="replay"') : html.index("</main>")]


def step_links(html: str) -> dict:
    return {rel: int(step) for rel, step in re.findall(r'rel="(prev|next)" href="\?step=(\d+)"', html)}


def profile_form_data(user, **changes) -> dict:
    profile = Profile.objects.get(user=user)
    cards = (list(profile.lose_first) + ["", "", ""])[:3]
    data = {
        "display_name": profile.display_name,
        "language": profile.language,
        "time_zone": profile.time_zone,
        "email_mode": profile.email_mode,
        "lose_first_0": cards[0],
        "lose_first_1": cards[1],
        "lose_first_2": cards[2],
    }
    if profile.always_prove:
        data["always_prove"] = "on"
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


# ---- replays ---------------------------------------------------------------------------


def test_a_replay_steps_forward_and_back_showing_every_hand(client, game, ana, ben, cai):
    game = played_to_the_end(game)
    url = reverse("game_replay", args=[game.pk])
    dealt = {
        e["data"]["player"]: sorted(e["secret"]["cards"])
        for e in Event.objects.filter(game=game, type="coup.hand.dealt").values_list("payload", flat=True)
    }

    first = html_of(client, ben, url)
    assert "Step 1 of" in first and "The game began with Ana, Ben, Cai." in first
    assert step_links(first) == {"next": 2}

    # Forward to the first turn: every hand as dealt, Ana's and Cai's too, on Ben's replay.
    number = 1
    html = first
    while "Ana&#x27;s turn." not in re.search(r'class="banner replay__line">(.*?)</p>', html).group(1):
        number = step_links(html)["next"]
        html = html_of(client, ben, url, step=number)
    assert hands_on(html) == dealt
    forward = html

    # One step on, then back again: the same table.
    later = html_of(client, ben, url, step=step_links(forward)["next"])
    assert step_links(later)["prev"] == number
    assert replay_part(html_of(client, ben, url, step=step_links(later)["prev"])) == replay_part(forward)

    # The last step: the winner, and the hands the game ended with.
    last = html_of(client, ben, url, step=10_000)
    state = game_state(game)
    assert "next" not in step_links(last) and "won the game!" in last
    assert hands_on(last) == {p.name: sorted(p.hand) for p in state.players}
    assert 'data-card="' not in last  # no card is marked as the viewer's hidden one


def test_a_replay_step_for_htmx_is_the_partial_and_bad_steps_are_kept_in_range(client, ana, ben):
    game = finished_by_resignations(ana, ben)
    url = reverse("game_replay", args=[game.pk])
    partial = as_user(client, ana).get(url, {"step": "2"}, headers={"HX-Request": "true"}).content.decode()
    assert partial.lstrip().startswith('<div id="replay"') and "<html" not in partial
    assert 'data-step="1"' in html_of(client, ana, url, step="nonsense")
    assert 'data-step="1"' in html_of(client, ana, url, step="-4")


def test_a_replay_is_for_the_players_of_a_finished_game_only(client, ana, ben, cai, dora):
    active = started_game(ana, ben, cai)
    url = reverse("game_replay", args=[active.pk])
    assert as_user(client, ana).get(url).status_code == 404  # it would show every hand
    assert reverse("game_replay", args=[active.pk]) not in html_of(client, ana, reverse("game", args=[active.pk]))
    with pytest.raises(replays.ReplayRefused):
        replays.replay_context(active, active.seats.first(), 1)

    finished = finished_by_resignations(ana, ben)
    url = reverse("game_replay", args=[finished.pk])
    assert as_user(client, dora).get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # sign in first
    assert as_user(client, ben).get(url).status_code == 200


def test_a_finished_game_links_its_replay_and_offers_a_rematch(client, ana, ben):
    game = finished_by_resignations(ana, ben)
    html = html_of(client, ben, reverse("game", args=[game.pk]))
    assert reverse("game_replay", args=[game.pk]) in html
    assert reverse("game_rematch", args=[game.pk]) in html and "Rematch: invite the same players" in html
    live = html_of(client, ben, reverse("game_live", args=[game.pk]), since="none")
    assert reverse("game_replay", args=[game.pk]) in live


def test_the_resign_button_is_on_an_active_game(client, game, ben):
    html = html_of(client, ben, reverse("game", args=[game.pk]))
    assert reverse("game_resign", args=[game.pk]) in html


# ---- rematch ---------------------------------------------------------------------------


def test_a_rematch_invites_the_same_players_with_the_same_options(
    client, ana, ben, cai, django_capture_on_commit_callbacks
):
    first = gathering_game(ana, ben, cai, variants=["inquisitor", "factions"])
    first.reminders = False
    first.save(update_fields=["reminders"])
    first = gathering.game_start(game=first, by=ana)
    for user in (ana, cai):
        play.game_resign(game=first, user=user)
    first.refresh_from_db()
    assert first.winner_id == ben.pk
    mail.outbox.clear()

    with django_capture_on_commit_callbacks(execute=True):
        response = as_user(client, cai).post(reverse("game_rematch", args=[first.pk]))
    rematch = Game.objects.get(options__rematch_of=first.pk)
    assert response.status_code == 302 and response.url == reverse("game", args=[rematch.pk])
    assert rematch.status == Game.Status.GATHERING and rematch.host_id == cai.pk
    assert (rematch.kind, rematch.variants, rematch.seat_count) == (first.kind, first.variants, first.seat_count)
    assert (rematch.turn_seconds, rematch.response_seconds, rematch.reminders) == (
        first.turn_seconds,
        first.response_seconds,
        False,
    )
    assert rematch.options["first"] == Game.First.PLAYER and rematch.options["first_user"] == ben.pk
    # The previous players are invited by account (nobody typed, nor sees, an
    # address), and each is emailed at their own.
    invited = Invitation.objects.filter(game=rematch, status=Invitation.Status.PENDING)
    assert sorted(i.user.username for i in invited) == ["ana", "ben"]
    assert {i.email for i in invited} == {""}
    assert sorted(m.to[0] for m in mail.outbox) == ["ana@example.com", "ben@example.com"]

    # Asking again gives the same rematch: Ana is sent to her invitation.
    response = as_user(client, ana).post(reverse("game_rematch", args=[first.pk]))
    assert Game.objects.filter(options__rematch_of=first.pk).count() == 1
    assert response.url == reverse("invitation", args=[invited.get(user=ana).token])
    assert "Go to the rematch" in html_of(client, ana, reverse("game", args=[first.pk]))


def test_a_rematch_shows_no_players_address_and_each_answers_their_own_invitation(client, ana, ben, cai):
    first = finished_by_resignations(cai, ana, ben)
    rematch = gathering.game_rematch(game=first, by=ana)
    gathering.seat_join(game=rematch, user=cai, join_token=rematch.join_token)
    for user in (ana, cai):  # the host, and a player who took a seat
        page = html_of(client, user, reverse("game", args=[rematch.pk]))
        assert "Ben — Pending" in page
        assert not any(player.email in page for player in (ana, ben, cai))
    for user in (ana, ben, cai):
        home = html_of(client, user, reverse("home"))
        assert not any(player.email in home for player in (ana, ben, cai) if player != user)
    ben_invitation = rematch.invitations.get(user=ben)
    with pytest.raises(ServiceError):  # a forwarded link gives nobody else Ben's seat
        gathering.invitation_respond(token=ben_invitation.token, user=cai, accept=False)
    assert reverse("invitation", args=[ben_invitation.token]) not in html_of(client, cai, reverse("home"))
    assert reverse("invitation", args=[ben_invitation.token]) in html_of(client, ben, reverse("home"))
    gathering.invitation_respond(token=ben_invitation.token, user=ben, accept=True)
    assert rematch.seats.filter(user=ben).exists()


def test_the_previous_winner_starts_the_rematch(ana, ben, cai, monkeypatch):
    first = finished_by_resignations(cai, ana, ben)  # Cai wins; Ana asks for the rematch
    monkeypatch.setattr(gathering.secrets, "choice", lambda seq: seq[0])  # chance would pick the host
    rematch = gathering.game_rematch(game=first, by=ana)
    for invitation in rematch.invitations.all():
        gathering.invitation_respond(token=invitation.token, user=invitation.user, accept=True)
    rematch = gathering.game_start(game=rematch, by=ana)
    cai_plays = player_of(rematch, cai)
    assert cai_plays != "p1"  # not the host's seat, nor chance's pick: the winner rule chose Cai
    assert game_state(rematch).turn.name == cai_plays
    assert awaited(rematch) == {cai_plays: ("turn", awaited(rematch)[cai_plays][1])}


def test_a_rematch_needs_a_finished_game_and_one_of_its_players(ana, ben, cai, dora):
    active = started_game(ana, ben)
    with pytest.raises(ServiceError):
        gathering.game_rematch(game=active, by=ana)
    finished = finished_by_resignations(ana, ben)
    with pytest.raises(ServiceError):
        gathering.game_rematch(game=finished, by=dora)


def test_a_chosen_first_player_must_be_named(ana, ben):
    arguments = {"host": ana, "variants": [], "seat_count": 2, "turn_seconds": 60, "response_seconds": 60}
    with pytest.raises(ServiceError):
        gathering.game_create(**arguments, first=Game.First.PLAYER)
    with pytest.raises(ServiceError):
        gathering.game_create(**arguments, first=Game.First.RANDOM, first_user=ben)
    with pytest.raises(ServiceError):
        gathering.game_create(**arguments, first="somebody")


def test_a_chosen_first_player_who_took_no_seat_leaves_the_start_to_chance(ana, ben, dora):
    game = gathering.game_create(
        host=ana, variants=[], seat_count=2, turn_seconds=60, response_seconds=60, first=Game.First.PLAYER,
        first_user=dora,
    )
    gathering.seat_join(game=game, user=ben, join_token=game.join_token)
    game = gathering.game_start(game=game, by=ana)
    assert game_state(game).turn.name in ("p1", "p2")


# ---- standing answers ------------------------------------------------------------------


def prefer(user, *, prove=False, lose_first=()):
    profile = profile_of(user)
    profile.always_prove = prove
    profile.lose_first = list(lose_first)
    profile.save()


def test_standing_answers_reach_the_engine_at_the_start(ana, ben, cai):
    prefer(ana, prove=True)
    game = started_game(ana, ben, cai)
    stored = [p for p in Event.objects.filter(game=game).values_list("payload", flat=True) if p["type"] == "coup.standing.set"]
    assert [(p["data"]["player"], p["secret"]) for p in stored] == [("p1", {"prove": True, "lose_first": []})]

    answer(game, ana, {"act": "tax"})
    answer(game, ben, {"act": "challenge"})
    assert "p1" not in awaited(game) or awaited(game)["p1"][0] != "challenged"  # Ana was not asked
    types = [p["type"] for p in Event.objects.filter(game=game).order_by("seq").values_list("payload", flat=True)]
    after = types[types.index("coup.challenged") + 1]
    assert after in ("coup.claim.proved", "coup.claim.conceded")


def test_the_card_given_up_first_is_lost_at_once_in_either_branch(ana, ben, cai):
    every = ["duke", "assassin", "captain", "ambassador", "contessa"]
    prefer(ana, prove=True, lose_first=every)
    game = started_game(ana, ben, cai)
    hand = list(game_state(game).by_name["p1"].hand)
    answer(game, ana, {"act": "tax"})
    answer(game, ben, {"act": "challenge"})
    ana_state = game_state(game).by_name["p1"]
    if "duke" in hand:  # proved: Ben loses
        assert awaited(game)["p2"][0] == "lose"
    else:  # conceded, and the first listed card she held was given up at once
        assert ana_state.revealed == [next(card for card in every if card in hand)]
    assert "p1" not in awaited(game)


def test_standing_answers_saved_mid_game_answer_the_awaited_decision(
    client, game, ana, ben, django_capture_on_commit_callbacks
):
    answer(game, ana, {"act": "tax"})
    answer(game, ben, {"act": "challenge"})
    assert awaited(game)["p1"][0] == "challenged"

    with django_capture_on_commit_callbacks(execute=True):
        response = as_user(client, ana).post(reverse("profile"), profile_form_data(ana, always_prove="on"))
    assert response.status_code == 302
    assert Profile.objects.get(user=ana).always_prove is True
    assert awaited(game).get("p1", ("",))[0] != "challenged"
    types = [p["type"] for p in Event.objects.filter(game=game).order_by("seq").values_list("payload", flat=True)]
    assert types[types.index("coup.standing.set") + 1] in ("coup.claim.proved", "coup.claim.conceded")


def test_a_preference_that_answers_nothing_keeps_the_clock(client, game, ana, ben, cai, django_capture_on_commit_callbacks):
    before = Game.objects.get(pk=game.pk)
    with django_capture_on_commit_callbacks(execute=True):
        as_user(client, cai).post(reverse("profile"), profile_form_data(cai, lose_first_0="duke"))
    after = Game.objects.get(pk=game.pk)
    assert after.version == before.version + 1  # the engine has it
    assert after.deadline_at == before.deadline_at and awaited(after) == awaited(before)
    # Saving the same preferences again changes nothing.
    with django_capture_on_commit_callbacks(execute=True):
        as_user(client, cai).post(reverse("profile"), profile_form_data(cai))
    assert Game.objects.get(pk=game.pk).version == after.version


def test_cards_outside_the_deck_are_left_out_of_the_order(ana, ben):
    prefer(ana, lose_first=["inquisitor", "duke"])
    game = started_game(ana, ben)  # classic: no Inquisitor
    [stored] = [p for p in Event.objects.filter(game=game).values_list("payload", flat=True) if p["type"] == "coup.standing.set"]
    assert stored["secret"]["lose_first"] == ["duke"]


def test_standing_answers_stay_private(client, ana, ben):
    prefer(ana, prove=True, lose_first=["captain"])
    game = started_game(ana, ben)
    html = html_of(client, ben, reverse("game", args=[game.pk]))
    assert "standing" not in html.lower()


# ---- the profile form -------------------------------------------------------------------


def test_the_profile_edits_time_zone_email_mode_and_standing_answers(client, ana):
    html = html_of(client, ana, reverse("profile"))
    for name in ("time_zone", "email_mode", "always_prove", "lose_first_0", "lose_first_2"):
        assert f'name="{name}"' in html
    response = as_user(client, ana).post(
        reverse("profile"),
        profile_form_data(ana, time_zone="America/Sao_Paulo", always_prove="on", lose_first_0="contessa", lose_first_1="duke"),
    )
    assert response.status_code == 302
    profile = Profile.objects.get(user=ana)
    assert (profile.time_zone, profile.always_prove, profile.lose_first) == ("America/Sao_Paulo", True, ["contessa", "duke"])


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"time_zone": "Mars/Olympus_Mons"}, "time_zone"),
        ({"lose_first_0": "duke", "lose_first_1": "duke"}, "lose_first"),
        ({"lose_first_0": "joker"}, "lose_first"),
    ],
)
def test_the_profile_refuses_unknown_zones_and_muddled_card_orders(ana, changes, field):
    form = ProfileForm(profile_form_data(ana, **changes), instance=profile_of(ana))
    assert not form.is_valid() and field in form.errors


# ---- time zones -------------------------------------------------------------------------


def rendered(moment, zone: str) -> str:
    return date_format(timezone.localtime(moment, ZoneInfo(zone)), "DATETIME_FORMAT")


def test_the_deadline_on_the_page_follows_the_players_time_zone(client, game, ana):
    game.refresh_from_db()
    url = reverse("game", args=[game.pk])
    assert rendered(game.deadline_at, "UTC") in html_of(client, ana, url)
    profile = profile_of(ana)
    profile.time_zone = "Asia/Tokyo"
    profile.save()
    html = html_of(client, ana, url)
    tokyo = rendered(game.deadline_at, "Asia/Tokyo")
    assert tokyo != rendered(game.deadline_at, "UTC") and tokyo in html and "JST" in html
    assert timezone.get_current_timezone_name() == "UTC"  # nothing leaks to the next request


def test_the_decision_email_gives_the_deadline_in_the_recipients_time_zone(ana, ben, django_capture_on_commit_callbacks):
    profile = profile_of(ana)
    profile.time_zone = "America/Sao_Paulo"
    profile.save()
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(ana, ben)
    game.refresh_from_db()
    [to_ana] = [m for m in mail.outbox if m.to == ["ana@example.com"]]
    assert rendered(game.deadline_at, "America/Sao_Paulo") in to_ana.body
    assert rendered(game.deadline_at, "UTC") not in to_ana.body and " UTC" not in to_ana.body


def test_a_player_without_a_preference_still_reads_utc(ben, cai, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(ben, cai)
    game.refresh_from_db()
    [to_ben] = [m for m in mail.outbox if m.to == ["ben@example.com"]]
    assert f"{rendered(game.deadline_at, 'UTC')} UTC" in to_ben.body


def test_make_player_still_has_default_preferences(db):
    profile = profile_of(make_player("Eli"))
    assert (profile.time_zone, profile.always_prove, profile.lose_first) == ("UTC", False, [])


def test_the_replay_and_the_preferences_speak_the_players_language(client, ana, ben):
    profile = profile_of(ana)
    profile.language = "es"
    profile.save()
    game = finished_by_resignations(ana, ben)
    assert "Paso 1 de" in html_of(client, ana, reverse("game_replay", args=[game.pk]))
    html = html_of(client, ana, reverse("profile"))
    assert "Zona horaria" in html and "Respuestas fijas" in html
