"""Deleting an account (``accounts.leaving``): the person goes, everywhere the site
keeps anything; every other player's games, replays and statistics stay whole."""

from datetime import timedelta

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.bounces import mail_failed, sent_email_recorded
from accounts.export import data_export_request
from accounts.leaving import AccountGone, account_delete
from accounts.models import DataExport, Holiday, MailFailure, profile_of
from coupsite.mailbox import BACKEND, maildir_path, stored_messages
from games import tasks
from games.mail import emails
from games.models import ChatMessage, Event, Follow, Game, Invitation, SeatChange, SeatResult
from games.services import gathering, play
from ratings.models import Rating, RatingChange
from tests.players import awaited, gathering_game, make_player, started_game
from tests.traces import database_traces, mail_traces, redis_traces
from tests.web.test_accounts import sign_up

NAME = "Zephyrine Quoll"
ADDRESS = "zephyrine.quoll@example.org"
NEEDLES = [NAME, ADDRESS, "zephyrine"]


def leaving_player():
    user = make_player("Zephyrine")
    user.email = ADDRESS
    user.username = "zephyrine"
    user.save()
    EmailAddress.objects.filter(user=user).update(email=ADDRESS)
    EmailAddress.objects.create(user=user, email="zq.second@example.net", verified=True)
    profile = profile_of(user)
    profile.display_name = NAME
    profile.save()
    return user


@pytest.fixture
def players(transactional_db):
    return leaving_player(), make_player("Bob"), make_player("Cid")


def test_the_deleted_person_leaves_no_trace_and_the_others_games_stay_whole(players, smtp):
    zephyrine, bob, cid = players
    finished = started_game(zephyrine, bob, rated=True)
    play.game_resign(game=finished, user=bob)
    with_stand_ins = started_game(bob, zephyrine, cid)  # the default: stand-in bots after two missed deadlines
    resigned = started_game(cid, zephyrine, bob, takeover=0)
    hosted = gathering_game(zephyrine, seats=3)
    joined = gathering_game(bob, zephyrine, seats=3)
    ChatMessage.objects.create(game=with_stand_ins, user=zephyrine, text=f"I am {NAME}, write to {ADDRESS}")
    ChatMessage.objects.create(game=with_stand_ins, user=bob, text="Good luck everyone")
    gathering.invitation_send(game=joined, by=bob, email=ADDRESS.upper())
    invited_elsewhere = gathering_game(cid, seats=2)
    gathering.invitation_send(game=invited_elsewhere, by=cid, email="zq.second@example.net")
    mail_failed(address=ADDRESS, kind=MailFailure.Kind.SOFT)
    sent_email_recorded(ADDRESS)
    Follow.objects.create(user=zephyrine, followed=bob)
    Follow.objects.create(user=cid, followed=zephyrine)
    today = timezone.now().date()
    Holiday.objects.create(
        user=zephyrine,
        first_day=today + timedelta(days=10),
        last_day=today + timedelta(days=12),
        starts_at=timezone.now() + timedelta(days=10),
        ends_at=timezone.now() + timedelta(days=13),
    )
    her_browser, bobs_browser = Client(), Client()
    her_browser.force_login(zephyrine)
    bobs_browser.force_login(bob)
    for game in (finished, with_stand_ins, resigned):  # the stories cached with her name
        assert NAME in bobs_browser.get(reverse("game", args=[game.pk])).content.decode()
    assert Rating.objects.filter(user=zephyrine).exists()
    data_export_request(user=zephyrine)  # built at once (tasks run eagerly here): a zip naming her
    assert DataExport.objects.filter(user=zephyrine, ready_at__isnull=False).exists()
    assert database_traces(NEEDLES)[0] and redis_traces(NEEDLES)[0]  # the search finds what is there
    smtp.clear()

    former_name = account_delete(user=zephyrine)

    assert former_name.startswith("Former player ")
    number = int(former_name.rsplit(" ", 1)[1])
    assert 1000 <= number <= 9999
    former = get_user_model().objects.get(profile__former_number=number)
    assert not former.is_active and not former.has_usable_password() and former.email == ""
    assert former.pk != zephyrine.pk
    # The games she played are whole, her seats under the new name.
    finished.refresh_from_db()
    assert finished.winner == former and finished.host == former
    assert SeatResult.objects.filter(game=finished, user=former, place=1).exists()
    assert RatingChange.objects.filter(game=finished, user=former).exists()
    assert not Rating.objects.filter(user=former).exists()
    assert Rating.objects.filter(user=bob).exists()
    resigned.refresh_from_db()
    seat = with_stand_ins.seats.get(user=former)
    assert seat.stand_in and SeatChange.objects.filter(seat=seat, change=SeatChange.Change.LEFT).exists()
    assert Game.objects.get(pk=hosted.pk).status == Game.Status.CANCELLED
    assert not joined.seats.filter(user=former).exists()
    assert not Invitation.objects.filter(email__iexact=ADDRESS).exists()
    assert ChatMessage.objects.filter(game=with_stand_ins).count() == 1
    assert not DataExport.objects.exists()
    # Her browser is signed out; every other page names her seat by its new name.
    assert her_browser.get(reverse("profile")).status_code == 302
    for game in (finished, with_stand_ins, resigned):
        page = bobs_browser.get(reverse("game", args=[game.pk])).content.decode()
        assert former_name in page
    assert bobs_browser.get(reverse("player", args=[former.pk])).status_code == 404
    # The games go on, and their emails name nobody.
    resigned.refresh_from_db()
    assert resigned.status == Game.Status.ACTIVE  # two players left
    play.game_resign(game=resigned, user=bob)
    assert smtp.wait_for(to=cid.email, subject_contains="")

    db_found, columns = database_traces(NEEDLES)
    cache_found, keys = redis_traces(NEEDLES)
    mail_found = mail_traces(smtp.messages, NEEDLES)
    print(
        f"\nDeletion scan: {columns} text-like columns of every table, {keys} Redis keys, "
        f"{len(smtp.messages)} emails sent after it: {len(db_found) + len(cache_found) + len(mail_found)} traces"
    )
    assert db_found == [] and cache_found == [] and mail_found == []
    # The log was never rewritten: it never named her.
    assert Event.objects.filter(game=finished).count() == finished.version


def test_her_mail_in_the_sites_maildir_goes_with_her(players, settings, tmp_path):
    """Without an SMTP server the site keeps its mail in a Maildir (the embedded default)."""
    zephyrine, bob, _cid = players
    settings.MAILERS = {"default": {"BACKEND": BACKEND, "OPTIONS": {"file_path": str(tmp_path)}}}
    folder = maildir_path()
    assert folder == tmp_path.resolve()
    send_mail("Your move", "Hello", "site@example.com", [ADDRESS])
    send_mail("Your move", "Hello", "site@example.com", ["zq.second@example.net"])
    send_mail("Your move", "Hello", "site@example.com", [bob.email])

    def holding(address: str) -> int:
        return sum(address in message.to for message in stored_messages(folder, limit=100_000))

    assert holding(ADDRESS) and holding("zq.second@example.net") and holding(bob.email)
    account_delete(user=zephyrine)
    assert holding(ADDRESS) == holding("zq.second@example.net") == 0
    assert holding(bob.email)  # another's mail stays


def test_deleting_twice_is_refused_without_harm(players):
    zephyrine, bob, _cid = players
    game = started_game(zephyrine, bob, takeover=0)
    account_delete(user=zephyrine)
    with pytest.raises(AccountGone):
        account_delete(user=zephyrine)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED


def test_the_address_can_sign_up_again_as_a_new_person(players, client, smtp):
    zephyrine, _bob, _cid = players
    account_delete(user=zephyrine)
    response = sign_up(client, email=ADDRESS, name="Zed")
    assert response.status_code == 302
    newcomer = get_user_model().objects.get(email=ADDRESS)
    assert newcomer.pk != zephyrine.pk and profile_of(newcomer).display_name == "Zed"
    assert smtp.wait_for(to=ADDRESS)


def test_an_email_queued_for_her_before_the_deletion_goes_nowhere(players, smtp):
    zephyrine, bob, _cid = players
    game = started_game(zephyrine, bob)
    seat = game.seats.get(user=zephyrine)
    version = awaited(game)["p1"][1]
    account_delete(user=zephyrine)
    smtp.clear()
    emails.send_decision(seat.pk, version)
    emails.send_started(seat.pk)
    assert smtp.messages == []


def test_exports_past_their_time_are_deleted_each_night_though_nobody_asks_again(db, settings):
    ana, ben = make_player("Ana"), make_player("Ben")
    old, fresh = data_export_request(user=ana), data_export_request(user=ben)
    DataExport.objects.filter(pk=old.pk).update(requested_at=timezone.now() - timedelta(days=7, minutes=1))
    assert tasks.forget_data_exports.delay().get() == 1
    assert list(DataExport.objects.values_list("pk", flat=True)) == [fresh.pk]
    assert "games.tasks.forget_data_exports" in {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
