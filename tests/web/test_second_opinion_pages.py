"""The second opinion's pages: the replay offers it only on the viewer's own
decisions; asking before the game is over, on another seat's decision or a
number that is no decision is refused with the reason and computes nothing; a
stranger gets a 404; without JavaScript, the answer is the replay with a message."""

import pytest
from django.urls import reverse

from games.models import Game, SecondOpinion
from games.services import opinions
from tests.players import play_to_the_end
from tests.web.conftest import started_game

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}
ASK = "What would the strong bot have done?"


def finished(ana, ben, cai) -> Game:
    game = started_game(ana, ben, cai)
    play_to_the_end(game, 2)
    return game


def versions(game, user) -> list[int]:
    return list(opinions.decisions_of(game, game.seats.get(user=user))[1])


def ask(client, user, game, version, **headers):
    client.force_login(user)
    return client.post(reverse("game_second_opinion", args=[game.pk, version]), {"step": "3"}, **headers)


def test_the_replay_offers_a_second_opinion_on_the_viewers_decisions_only(client, ana, ben, cai):
    game = finished(ana, ben, cai)
    client.force_login(ana)
    url = reverse("game_replay", args=[game.pk])
    mine = set(versions(game, ana))
    offered = set()
    step = 1
    while True:
        page = client.get(url, {"step": step}).content.decode()
        offered |= {int(part.split('"')[0]) for part in page.split('data-version="')[1:]}
        if 'rel="next"' not in page:
            break
        step += 1
    assert offered == mine
    assert page.count(ASK) <= len(mine)


def test_an_opinion_before_the_end_is_refused_with_the_reason(client, ana, ben, cai):
    game = started_game(ana, ben, cai)
    response = ask(client, ana, game, 1, **HTMX)
    assert response.status_code == 200
    assert "A second opinion is given only once the game is over." in response.content.decode()
    assert ASK not in client.get(reverse("game", args=[game.pk])).content.decode()
    assert not SecondOpinion.objects.exists()


def test_another_seats_decision_or_a_forged_number_is_refused_and_nothing_is_queued(
    client, ana, ben, cai, django_capture_on_commit_callbacks
):
    game = finished(ana, ben, cai)
    theirs = min(set(versions(game, ben)) - set(versions(game, ana)))
    with django_capture_on_commit_callbacks() as queued:
        for version in (theirs, 999999):
            response = ask(client, ana, game, version, **HTMX)
            assert "That is not one of your decisions in this game." in response.content.decode()
            page = client.get(reverse("game_second_opinion", args=[game.pk, version]), **HTMX).content.decode()
            assert "That is not one of your decisions in this game." in page
    assert not queued and not SecondOpinion.objects.exists()
    # Without JavaScript: back to the replay, with the reason.
    response = ask(client, ana, game, theirs)
    assert response.status_code == 302 and response["Location"].endswith("/replay/?step=3")
    assert "That is not one of your decisions in this game." in client.get(response["Location"]).content.decode()


def test_a_stranger_gets_a_404(client, ana, ben, cai, dora):
    game = finished(ana, ben, cai)
    assert ask(client, dora, game, versions(game, ana)[0], **HTMX).status_code == 404
    assert not SecondOpinion.objects.exists()


def test_an_opinion_asked_shows_as_pending_until_weighed(client, ana, ben, cai):
    game = finished(ana, ben, cai)
    version = versions(game, ana)[0]
    # Queued but not yet weighed (the worker's commit callback is not run here).
    page = ask(client, ana, game, version, **HTMX).content.decode()
    assert "The strong bot is thinking about this decision…" in page and 'hx-trigger="every 1s"' in page
    opinion = SecondOpinion.objects.get(game=game, version=version)
    assert opinions.second_opinion_give(opinion_id=opinion.pk)
    page = client.get(reverse("game_second_opinion", args=[game.pk, version]), **HTMX).content.decode()
    assert "The strong bot would have chosen:" in page and "hx-trigger" not in page


def test_a_kobayakawa_decision_gets_its_opinion_in_its_own_words(client, ana, ben, cai, settings):
    settings.SECOND_OPINION_WORLDS = 20
    game = started_game(ana, ben, cai, kind="kobayakawa")
    play_to_the_end(game, 4)
    version = versions(game, ana)[0]
    ask(client, ana, game, version, **HTMX)
    assert opinions.second_opinion_give(opinion_id=SecondOpinion.objects.get(game=game, version=version).pk)
    page = client.get(reverse("game_second_opinion", args=[game.pk, version]), **HTMX).content.decode()
    assert "The strong bot would have chosen:" in page
    assert page.count("<li") == len(SecondOpinion.objects.get(game=game, version=version).weighed) > 1


OUTSCORED = {
    "en": "Another answer scored a little higher, but by no more than chance",
    "es": "Otra respuesta puntuó un poco más alto, pero no más de lo que da el azar",
    "pt-br": "Outra resposta pontuou um pouco mais, mas não mais do que o acaso explica",
}


def weighed_page(client, ana, ben, cai, chosen) -> tuple[str, list[dict]]:
    """The opinion page of ana's first decision, stored with the last option
    scoring highest and the bot's choice ``chosen`` (an index, -1 the last;
    None: stored without a choice, as before the bot could pass a higher score over)."""
    game = finished(ana, ben, cai)
    version = versions(game, ana)[0]
    ask(client, ana, game, version, **HTMX)
    opinion = SecondOpinion.objects.get(game=game, version=version)
    assert opinions.second_opinion_give(opinion_id=opinion.pk)
    opinion.refresh_from_db()
    scores = [0.5 + index / 100 for index in range(len(opinion.weighed))]  # the last option scores highest
    weighed = [
        {
            "option": entry["option"],
            "score": score,
            **({} if chosen is None else {"chosen": index == chosen % len(scores)}),
        }
        for index, (entry, score) in enumerate(zip(opinion.weighed, scores, strict=True))
    ]
    SecondOpinion.objects.filter(pk=opinion.pk).update(weighed=weighed)
    page = client.get(reverse("game_second_opinion", args=[game.pk, version]), **HTMX).content.decode()
    return page, weighed


def best_percent(page) -> int:
    """The percent of the option marked as the bot's choice ("Allow: 52%", or "52 %" in Spanish)."""
    return int(page.split('class="second-opinion__best">')[1].split("</li>")[0].rsplit(": ", 1)[1].rstrip("%\xa0 "))


@pytest.mark.parametrize("language", OUTSCORED)
def test_the_bots_choice_is_marked_and_a_higher_score_it_passed_over_is_explained(client, ana, ben, cai, language):
    ana.profile.language = language
    ana.profile.save()
    page, weighed = weighed_page(client, ana, ben, cai, chosen=0)
    assert page.count("second-opinion__best") == 1
    assert best_percent(page) == round(100 * weighed[0]["score"])  # the choice, not the top score
    assert OUTSCORED[language] in page


@pytest.mark.parametrize("chosen", [-1, None])
def test_the_top_score_chosen_is_marked_without_explanation(client, ana, ben, cai, chosen):
    page, weighed = weighed_page(client, ana, ben, cai, chosen)
    assert page.count("second-opinion__best") == 1
    assert best_percent(page) == round(100 * weighed[-1]["score"])
    assert OUTSCORED["en"] not in page
