"""One email of every kind the service sends, for the checks that hold for all of them
(plain text without HTML entities, HTML readable on a phone, subjects that read right)."""

from accounts.models import DataExport, EmailMode, profile_of
from games.mail import emails
from games.models import SeatChange
from games.services import bots, gathering, play
from tests.players import awaited, make_player, started_game

# Names a template would escape in HTML: the text parts must show them as typed. Long,
# and with letters beyond ASCII, as real names are: a subject naming them is folded
# over several lines of its header, and must read back as it was written.
AWKWARD_NAMES = ("Ana O'Neil Peñalver-Sánchez", 'Ben "Duke" & Co. de Araújo Lima', "Cai <3 Çağlar Øvergård-Lindqvist")


def every_email(smtp, language: str = "en") -> dict:
    """Send one email of each kind to players whose names carry quotes, an ampersand
    and an angle bracket, who read ``language``; return them by kind (the captured
    messages). Each kind of decision email that words its subject differently, and
    each reason a bot plays for a player, is a kind of its own."""
    ana, ben, cai = (make_player(name.split()[0], language) for name in AWKWARD_NAMES)
    for user, name in zip((ana, ben, cai), AWKWARD_NAMES, strict=True):
        profile = profile_of(user)
        profile.display_name = name
        profile.save()
    sent = {}

    def capture(kind, send):
        smtp.clear()
        send()
        [sent[kind]] = smtp.messages[-1:]

    waiting = gathering.game_create(host=ana, variants=[], seat_count=3, turn_seconds=86400, response_seconds=28800)
    capture(
        "invitation",
        lambda: (
            gathering.invitation_send(game=waiting, by=ana, email="dora@example.com"),
            emails.send_invitation(waiting.invitations.get().pk),
        ),
    )
    game = started_game(ana, ben, cai)
    ana_seat, ben_seat, cai_seat = (game.seats.get(user=user) for user in (ana, ben, cai))
    capture("turn", lambda: emails.send_decision(ana_seat.pk, awaited(game)["p1"][1]))
    play.decision_submit(game=game, user=ana, command={"act": "steal", "target": "p2"}, version=awaited(game)["p1"][1])
    capture("decision", lambda: emails.send_decision(ben_seat.pk, awaited(game)["p2"][1]))
    capture("reminder", lambda: emails.send_reminder(ben_seat.pk, game.version))
    profile = profile_of(ben)
    profile.email_mode = EmailMode.DIGEST
    profile.save()
    capture("digest", lambda: emails.send_digest(ben.pk))
    profile.email_mode = EmailMode.EVERY
    profile.save()
    play.decision_submit(game=game, user=cai, command={"act": "challenge"}, version=awaited(game)["p3"][1])
    capture("challenged", lambda: emails.send_decision(ana_seat.pk, awaited(game)["p1"][1]))
    capture("started", lambda: emails.send_started(cai_seat.pk))
    capture("reply-unclear", lambda: emails.send_reply_unclear(ben_seat.pk, line="can't & won't", problem="?"))
    capture("extension", lambda: emails.announce_extension(game.pk, ben_seat.pk))
    bots.stand_in_ask(game=game, user=cai)
    capture("stand-in asked", lambda: emails.send_stand_in(cai_seat.pk, "began"))
    capture("stand-in played", lambda: emails.send_stand_in(cai_seat.pk, "played"))
    ben_seat.refresh_from_db()
    play.stand_in_begin(game, ben_seat, SeatChange.Change.MISSED)
    capture("stand-in missed", lambda: emails.send_stand_in(ben_seat.pk, "began"))
    play.game_resign(game=game, user=cai)
    capture("eliminated", lambda: emails.send_eliminated(cai_seat.pk))
    play.game_resign(game=game, user=ben)
    capture("finished", lambda: emails.send_finished(cai_seat.pk))
    capture("mail-test", lambda: emails.send_mail_test(ana.pk))
    capture("data-export", lambda: emails.send_data_export_ready(DataExport.objects.create(user=ana).pk))
    capture("deletion-code", lambda: emails.send_deletion_code(ana.pk, "042917"))
    return sent
