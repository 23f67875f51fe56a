"""After the game and between games: replays with every hand shown, rematches where
the previous winner starts, and the preferences a player keeps (time zone, and the
sections each game kind adds to the profile page)."""

import html
import re
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from accounts.forms import ProfileForm
from accounts.models import EmailMode, Profile, profile_of
from games.kinds import KINDS
from games.mail import emails
from games.models import Event, Game, Invitation
from games.selectors import game_state
from games.services import gathering, play
from games.services.errors import ServiceError
from games.web import replays
from tests.players import play_to_the_end, profile_form_data
from tests.web.conftest import awaited, gathering_game, make_player, player_of, started_game

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
    play_to_the_end(game, seed)
    return game


def hands_on(html: str) -> dict:
    """Engine player → the face-down cards the replay shows for them."""
    found = re.findall(r'data-player="(p\d+)">.*?data-hand="([^"]*)"', html, re.S)
    return {player: sorted(card for card in cards.split(",") if card) for player, cards in found}


def replay_part(html: str) -> str:
    return html[html.index('<div id="replay"') : html.index("</main>")]


def step_links(html: str) -> dict:
    return {rel: int(step) for rel, step in re.findall(r'rel="(prev|next)" href="\?step=(\d+)"', html)}


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
    while "Turn 1 — Ana." not in re.search(r'class="banner replay__line">(.*?)</p>', html).group(1):
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
        host=ana,
        variants=[],
        seat_count=2,
        turn_seconds=60,
        response_seconds=60,
        first=Game.First.PLAYER,
        first_user=dora,
    )
    gathering.seat_join(game=game, user=ben, join_token=game.join_token)
    game = gathering.game_start(game=game, by=ana)
    assert game_state(game).turn.name in ("p1", "p2")


# ---- the profile form -------------------------------------------------------------------


def test_the_profile_edits_time_zone_email_mode_and_each_kinds_preferences(client, ana):
    html = html_of(client, ana, reverse("profile"))
    for name in ("time_zone", "email_mode"):
        assert f'name="{name}"' in html
    for form in filter(None, (kind.forms.preferences_form(ana) for kind in KINDS.values())):
        assert all(f'name="{field.html_name}"' in html or f'name="{field.html_name}_0"' in html for field in form)
    response = as_user(client, ana).post(reverse("profile"), profile_form_data(ana, time_zone="America/Sao_Paulo"))
    assert response.status_code == 302
    assert Profile.objects.get(user=ana).time_zone == "America/Sao_Paulo"


def test_the_profile_turns_the_emails_of_practice_games_on_and_off(client, ana):
    assert 'name="practice_emails"' in html_of(client, ana, reverse("profile"))
    assert not Profile.objects.get(user=ana).practice_emails  # off until asked for
    as_user(client, ana).post(reverse("profile"), profile_form_data(ana, practice_emails="on"))
    assert Profile.objects.get(user=ana).practice_emails
    as_user(client, ana).post(reverse("profile"), profile_form_data(ana))
    assert not Profile.objects.get(user=ana).practice_emails


def test_the_profile_chooses_the_hour_of_the_daily_digest(client, ana):
    assert Profile.objects.get(user=ana).digest_hour == 8  # the morning, unless chosen
    html = html_of(client, ana, reverse("profile"))
    assert 'name="digest_hour"' in html and "Daily digest at" in html and ">06:00<" in html
    as_user(client, ana).post(reverse("profile"), profile_form_data(ana, digest_hour="6"))
    assert Profile.objects.get(user=ana).digest_hour == 6
    as_user(client, ana).post(reverse("profile"), profile_form_data(ana))  # left out: kept
    assert Profile.objects.get(user=ana).digest_hour == 6
    for wrong in ("24", "-1", "seven"):
        form = ProfileForm(profile_form_data(ana, digest_hour=wrong), instance=profile_of(ana))
        assert not form.is_valid() and "digest_hour" in form.errors


def test_the_digest_hour_is_labelled_in_the_players_language(client, ana):
    profile = profile_of(ana)
    profile.language = "es"
    profile.save()
    assert "Resumen diario a las" in html_of(client, ana, reverse("profile"))


def test_the_profile_refuses_unknown_zones(ana):
    form = ProfileForm(profile_form_data(ana, time_zone="Mars/Olympus_Mons"), instance=profile_of(ana))
    assert not form.is_valid() and "time_zone" in form.errors


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
    assert tokyo != rendered(game.deadline_at, "UTC") and tokyo in html and "(Tokyo time)" in html
    assert timezone.get_current_timezone_name() == "UTC"  # nothing leaks to the next request


def test_the_decision_email_gives_the_deadline_in_the_recipients_time_zone(
    ana, ben, django_capture_on_commit_callbacks
):
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


@pytest.mark.parametrize(
    ("language", "zone", "named"),
    [
        ("en", "Europe/Madrid", "(Madrid time)"),
        ("es", "Europe/Lisbon", "(hora de Lisboa)"),
        ("pt-br", "Europe/Madrid", "(horário de Madri)"),
    ],
)
def test_every_deadline_names_its_zone_in_the_readers_language(
    client, ana, ben, language, zone, named, django_capture_on_commit_callbacks
):
    profile = profile_of(ana)
    profile.language, profile.time_zone = language, zone
    profile.save()
    with django_capture_on_commit_callbacks(execute=True):
        game = started_game(ana, ben)  # Ana moves first
    game.refresh_from_db()
    with translation.override(language):
        deadline = f"{rendered(game.deadline_at, zone)} {named}"
    [asked] = [m for m in mail.outbox if m.to == [ana.email]]
    assert deadline in asked.body and html.escape(deadline) in asked.alternatives[0].content
    profile.email_mode = EmailMode.DIGEST
    profile.save()
    mail.outbox.clear()
    assert emails.send_digest(ana.pk)
    [digest] = mail.outbox
    assert deadline in digest.body
    for url in (reverse("game", args=[game.pk]), reverse("home")):
        assert html.escape(deadline) in html_of(client, ana, url)


def test_make_player_still_has_default_preferences(db):
    eli = make_player("Eli")
    assert profile_of(eli).time_zone == "UTC"
    assert not any(any(kind.forms.player_preferences(eli).values()) for kind in KINDS.values())


def test_the_replay_and_the_preferences_speak_the_players_language(client, ana, ben):
    profile = profile_of(ana)
    profile.language = "es"
    profile.save()
    game = finished_by_resignations(ana, ben)
    assert "Paso 1 de" in html_of(client, ana, reverse("game_replay", args=[game.pk]))
    html = html_of(client, ana, reverse("profile"))
    assert "Zona horaria" in html and "Respuestas fijas" in html


def test_the_zone_offer_refuses_an_unknown_zone_and_an_outside_return_address(client, ana):
    offer = reverse("time_zone_offer")
    response = as_user(client, ana).post(
        offer, {"answer": "use", "time_zone": "Mars/Olympus_Mons", "next": "https://evil.example/"}, follow=True
    )
    assert response.status_code == 200 and response.redirect_chain[-1][0] == reverse("home")
    assert "Your browser gave a time zone we do not know" in response.content.decode()
    assert Profile.objects.get(user=ana).time_zone == "UTC"
    assert client.get(offer).status_code == 405
    client.logout()
    assert client.post(offer, {"answer": "use", "time_zone": "Europe/Madrid"}).status_code == 302
    assert Profile.objects.get(user=ana).time_zone == "UTC"  # only a signed-in player answers for themselves


@pytest.mark.parametrize("back", ["profile", "a\x00b", "/games/\x00", "//evil.example/"])
def test_the_zone_offer_sends_home_from_a_return_address_that_is_no_path_of_the_site(client, ana, back):
    """A URL name, a control character or a scheme-relative address is not followed."""
    response = as_user(client, ana).post(reverse("time_zone_offer"), {"answer": "decline", "next": back})
    assert response.status_code == 302 and response["Location"] == reverse("home")


def test_the_zone_offer_is_made_only_to_a_player_still_on_utc_who_did_not_decline(client, ana):
    assert "data-zone-offer" in html_of(client, ana, reverse("home"))
    as_user(client, ana).post(reverse("time_zone_offer"), {"answer": "decline", "next": reverse("profile")})
    assert "data-zone-offer" not in html_of(client, ana, reverse("home"))
    profile = profile_of(ana)
    profile.time_zone_offer_declined = False
    profile.time_zone = "Europe/Madrid"
    profile.save()
    assert "data-zone-offer" not in html_of(client, ana, reverse("home"))
