"""Holidays in the emails (real SMTP): the other players' emails say who is away
and until which day, in the reader's language and time zone; no decision email
reaches the player while away, and one does on their return."""

from datetime import timedelta

from django.utils import timezone

from accounts.models import Profile
from games.services import holidays, play
from tests.players import awaited, make_player, started_game

INCOME = {"act": "income"}


def test_the_others_read_who_is_away_and_the_player_away_is_asked_only_on_return(
    db, smtp, django_capture_on_commit_callbacks
):
    ana, ben, cai = make_player("Ana"), make_player("Bento", "pt-br"), make_player("Cai")
    Profile.objects.filter(user=ben).update(time_zone="Asia/Tokyo")  # a day ahead of Cai's return in UTC
    game = started_game(ana, ben, cai, takeover=0)  # Ana, then Bento, then Cai
    today = timezone.now().date()  # Cai's zone is UTC
    last = today + timedelta(days=2)
    with django_capture_on_commit_callbacks(execute=True):
        holiday = holidays.holiday_plan(user=cai, first_day=today, last_day=last)
        play.decision_submit(game=game, user=ana, command=INCOME, version=awaited(game)["p1"][1])
    [asked] = [mail for mail in smtp.to("bento@example.com") if mail.subject.startswith("Sua vez")]
    # His last day away, as Tokyo sees it: the day after his last day in UTC.
    months = ["Janeiro", "Fevereiro", "Março", "Abril", "Maio", "Junho", "Julho", "Agosto", "Setembro"]
    months += ["Outubro", "Novembro", "Dezembro"]  # as Django's Brazilian dates write them
    tokyo_day = last + timedelta(days=1)
    said = f"Cai está fora até {tokyo_day.day} de {months[tokyo_day.month - 1]}."
    assert said in asked.text and said in asked.html

    with django_capture_on_commit_callbacks(execute=True):
        play.decision_submit(game=game, user=ben, command=INCOME, version=awaited(game)["p2"][1])
    assert awaited(game)["p3"][0] == "turn"
    assert not smtp.to("cai@example.com")  # his turn, but he is away
    game.refresh_from_db()
    assert game.clock_held and game.deadline_at is None

    with django_capture_on_commit_callbacks(execute=True):
        holidays.holiday_end(user=cai, holiday_id=holiday.pk)
    [back] = smtp.to("cai@example.com")
    assert back.subject.startswith("Your move")
    assert "Answer before:" in back.text  # the clock runs again


def test_a_player_away_with_a_stand_in_is_named_in_the_others_emails_in_english(
    db, smtp, django_capture_on_commit_callbacks
):
    ana, ben = make_player("Ana"), make_player("Ben")
    game = started_game(ana, ben)  # stand-in bots: Ben's plays while he is away
    today = timezone.now().date()
    holidays.holiday_plan(user=ben, first_day=today, last_day=today)
    with django_capture_on_commit_callbacks(execute=True):
        play.decision_submit(game=game, user=ana, command=INCOME, version=awaited(game)["p1"][1])
    assert not smtp.to("ben@example.com")
    assert "p1" in awaited(game)  # his bot played his turn: Ana is asked again
    [asked] = [mail for mail in smtp.to("ana@example.com") if mail.subject.startswith("Your move")]
    assert f"Ben is away until {today.day} {today.strftime('%B')}." in asked.text
    assert "Answer before:" in asked.text  # the bot answers for him: the clock runs
