"""Coup's standing answers: kept per player by the Coup kind, edited on the profile
page, and given by the engine at once, in both branches (docs/rules.md §1)."""

import pytest
from django.urls import reverse

from accounts.models import Profile
from games.kinds.coup.forms import StandingAnswersForm
from games.kinds.coup.models import CoupPreferences, preferences_of
from games.models import Event, Game
from games.selectors import game_state
from tests.players import profile_form_data
from tests.web.conftest import answer, awaited, started_game
from tests.web.test_replays_rematch_preferences import as_user, html_of

pytestmark = pytest.mark.django_db


def prefer(user, *, prove=False, lose_first=()):
    CoupPreferences.objects.update_or_create(
        user=user, defaults={"always_prove": prove, "lose_first": list(lose_first)}
    )


def test_standing_answers_reach_the_engine_at_the_start(ana, ben, cai):
    prefer(ana, prove=True)
    game = started_game(ana, ben, cai)
    stored = [
        p for p in Event.objects.filter(game=game).values_list("payload", flat=True) if p["type"] == "coup.standing.set"
    ]
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
    assert CoupPreferences.objects.get(user=ana).always_prove is True
    assert awaited(game).get("p1", ("",))[0] != "challenged"
    types = [p["type"] for p in Event.objects.filter(game=game).order_by("seq").values_list("payload", flat=True)]
    assert types[types.index("coup.standing.set") + 1] in ("coup.claim.proved", "coup.claim.conceded")


def test_a_preference_that_answers_nothing_keeps_the_clock(
    client, game, ana, ben, cai, django_capture_on_commit_callbacks
):
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
    [stored] = [
        p for p in Event.objects.filter(game=game).values_list("payload", flat=True) if p["type"] == "coup.standing.set"
    ]
    assert stored["secret"]["lose_first"] == ["duke"]


def test_standing_answers_stay_private(client, ana, ben):
    prefer(ana, prove=True, lose_first=["captain"])
    game = started_game(ana, ben)
    html = html_of(client, ben, reverse("game", args=[game.pk]))
    assert "standing" not in html.lower()


def test_the_profile_page_edits_the_standing_answers(client, ana):
    html = html_of(client, ana, reverse("profile"))
    for name in ("always_prove", "lose_first_0", "lose_first_2"):
        assert f'name="{name}"' in html
    assert "Standing answers" in html
    response = as_user(client, ana).post(
        reverse("profile"), profile_form_data(ana, always_prove="on", lose_first_0="contessa", lose_first_1="duke")
    )
    assert response.status_code == 302
    preferences = CoupPreferences.objects.get(user=ana)
    assert (preferences.always_prove, preferences.lose_first) == (True, ["contessa", "duke"])


@pytest.mark.parametrize("changes", [{"lose_first_0": "duke", "lose_first_1": "duke"}, {"lose_first_0": "joker"}])
def test_the_profile_refuses_muddled_card_orders(ana, changes):
    form = StandingAnswersForm(profile_form_data(ana, **changes), instance=preferences_of(ana))
    assert not form.is_valid() and "lose_first" in form.errors


def test_a_muddled_card_order_saves_nothing_else_of_the_profile(client, ana):
    data = profile_form_data(ana, time_zone="Asia/Tokyo", lose_first_0="duke", lose_first_1="duke")
    assert as_user(client, ana).post(reverse("profile"), data).status_code == 200
    assert Profile.objects.get(user=ana).time_zone == "UTC" and not CoupPreferences.objects.filter(user=ana).exists()
