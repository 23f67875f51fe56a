"""One email of every kind the service sends, for the checks that hold for all of them
(plain text without HTML entities, HTML readable on a phone)."""

from accounts.models import EmailMode, profile_of
from games.mail import emails
from games.services import gathering, play
from tests.players import awaited, make_player, started_game

# Names a template would escape in HTML: the text parts must show them as typed.
AWKWARD_NAMES = ("Ana O'Neil", 'Ben "Duke" & Co', "Cai <3")


def every_email(smtp) -> dict:
    """Send one email of each kind to players whose names carry quotes, an ampersand
    and an angle bracket; return them by kind (the captured messages)."""
    ana, ben, cai = (make_player(name.split()[0]) for name in AWKWARD_NAMES)
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
    play.decision_submit(game=game, user=ana, command={"act": "steal", "target": "p2"}, version=awaited(game)["p1"][1])
    ben_seat, cai_seat = game.seats.get(user=ben), game.seats.get(user=cai)
    capture("decision", lambda: emails.send_decision(ben_seat.pk, awaited(game)["p2"][1]))
    capture("reminder", lambda: emails.send_reminder(ben_seat.pk, game.version))
    capture("started", lambda: emails.send_started(cai_seat.pk))
    capture("reply-unclear", lambda: emails.send_reply_unclear(ben_seat.pk, line="can't & won't", problem="?"))
    capture("extension", lambda: emails.announce_extension(game.pk, ben_seat.pk))
    profile = profile_of(ben)
    profile.email_mode = EmailMode.DIGEST
    profile.save()
    capture("digest", lambda: emails.send_digest(ben.pk))
    profile.email_mode = EmailMode.EVERY
    profile.save()
    play.game_resign(game=game, user=cai)
    capture("eliminated", lambda: emails.send_eliminated(cai_seat.pk))
    play.game_resign(game=game, user=ben)
    capture("finished", lambda: emails.send_finished(cai_seat.pk))
    return sent
