"""A challenged player is asked once: "prove", or "concede and lose <card>" for each
distinct card, played together under the game's lock. Both branches ask, a stale
answer is told the decision passed, and the old separate loss still answers when
the game asks it (a deadline's concession)."""

import pytest

from games.models import Game
from games.selectors import game_state, table_for
from games.services import errors, play
from tests.players import awaited, coup_deals, make_player, race, started_game

WITHOUT_THE_DUKE = {"p1": ["captain", "contessa"], "p2": ["assassin", "captain"], "p3": ["ambassador", "assassin"]}
WITH_THE_DUKE = {"p1": ["captain", "duke"], "p2": ["assassin", "captain"], "p3": ["ambassador", "assassin"]}


def answer(game, user, command):
    player = game.seats.get(user=user).player
    return play.decision_submit(game=game, user=user, command=command, version=awaited(game)[player][1])


def challenged(ana, ben, cai):
    """Ana claims the Duke (Tax) and Ben challenges her: a game waiting for Ana."""
    game = started_game(ana, ben, cai)
    answer(game, ana, {"act": "tax"})
    answer(game, ben, {"act": "challenge"})
    game.refresh_from_db()
    return game


def offered(game, user) -> list[dict]:
    return [{k: v for k, v in option.items() if k != "version"} for option in table_for(game, user).options]


@pytest.mark.parametrize(
    ("hands", "answers"),
    [
        (
            WITHOUT_THE_DUKE,
            [{"act": "concede", "lose": "captain"}, {"act": "concede", "lose": "contessa"}],
        ),
        (
            WITH_THE_DUKE,
            [
                {"act": "prove", "claim": "duke"},
                {"act": "concede", "lose": "captain"},
                {"act": "concede", "lose": "duke"},
            ],
        ),
        (
            {**WITHOUT_THE_DUKE, "p1": ["captain", "captain"], "p2": ["assassin", "contessa"]},
            [{"act": "concede", "lose": "captain"}],
        ),
    ],
)
def test_the_challenged_player_is_offered_one_answer_per_outcome(monkeypatch, ana, ben, cai, hands, answers):
    coup_deals(monkeypatch, hands)
    game = challenged(ana, ben, cai)
    assert offered(game, ana) == answers


def test_one_answer_plays_the_concession_and_the_loss_and_asks_nothing_more(monkeypatch, ana, ben, cai):
    coup_deals(monkeypatch, WITHOUT_THE_DUKE)
    game = challenged(ana, ben, cai)
    before = game.version
    answer(game, ana, {"act": "concede", "lose": "contessa"})
    game.refresh_from_db()
    ana_now = game_state(game).by_name["p1"]
    assert ana_now.revealed == ["contessa"] and ana_now.hand == ["captain"] and ana_now.coins == 2
    assert awaited(game) == {"p2": ("turn", awaited(game)["p2"][1])}
    types = list(game.events.filter(seq__gte=before).order_by("seq").values_list("type", flat=True))
    assert types[:2] == ["coup.claim.conceded", "coup.influence.lost"]
    told = [line.text for line in table_for(game, cai).history.since(before)]
    assert told[0] == "Ana did not prove the Duke and lost an influence: Contessa."


@pytest.mark.parametrize("hands", [WITHOUT_THE_DUKE, WITH_THE_DUKE])
def test_the_game_waits_for_the_challenged_player_whether_or_not_she_holds_the_card(monkeypatch, ana, ben, cai, hands):
    """What the table sees after the challenge is the same in both branches: Ana is
    awaited, with the same deadline, and nothing else happened."""
    coup_deals(monkeypatch, hands)
    game = challenged(ana, ben, cai)
    assert [(name, kind) for name, (kind, _version) in awaited(game).items()] == [("p1", "challenged")]
    assert game.deadline_seconds == game.response_seconds
    seen = table_for(game, cai)
    assert [entry["player"] for entry in seen.view["awaiting"]] == ["p1"]
    assert seen.history.lines[-1].text == "Ben challenged Ana's Duke."


def test_the_card_chosen_with_the_concession_wins_over_the_standing_order(monkeypatch, ana, ben, cai):
    from games.kinds.coup.models import preferences_of

    preferences = preferences_of(ana)
    preferences.lose_first = ["captain"]
    preferences.save()
    coup_deals(monkeypatch, WITHOUT_THE_DUKE)
    game = challenged(ana, ben, cai)
    answer(game, ana, {"act": "concede", "lose": "contessa"})
    game.refresh_from_db()
    assert game_state(game).by_name["p1"].revealed == ["contessa"]


def test_always_proving_still_answers_at_once_in_both_branches(monkeypatch, ana, ben, cai):
    from games.kinds.coup.models import preferences_of

    preferences = preferences_of(ana)
    preferences.always_prove = True
    preferences.lose_first = ["contessa"]
    preferences.save()
    coup_deals(monkeypatch, WITHOUT_THE_DUKE)
    game = challenged(ana, ben, cai)
    assert game_state(game).by_name["p1"].revealed == ["contessa"]  # conceded and lost by her standing answers
    assert "p1" not in awaited(game)


def test_a_deadline_concedes_and_the_card_is_then_its_own_question(monkeypatch, ana, ben, cai):
    coup_deals(monkeypatch, WITHOUT_THE_DUKE)
    game = challenged(ana, ben, cai)
    assert play.deadline_expire(game=Game.objects.get(pk=game.pk), version=game.version) is False  # not yet due
    Game.objects.filter(pk=game.pk).update(deadline_at=game.started_at)
    assert play.deadline_expire(game=Game.objects.get(pk=game.pk), version=game.version)
    game.refresh_from_db()
    assert awaited(game)["p1"][0] == "lose"
    assert offered(game, ana) == [{"act": "lose", "card": "captain"}, {"act": "lose", "card": "contessa"}]
    told = [line.text for line in table_for(game, cai).history.lines]
    assert "Time ran out for Ana: Ana conceded the challenge." in told


def test_an_answer_to_the_question_already_answered_is_told_it_passed(monkeypatch, ana, ben, cai):
    coup_deals(monkeypatch, WITHOUT_THE_DUKE)
    game = challenged(ana, ben, cai)
    version = awaited(game)["p1"][1]
    play.decision_submit(game=game, user=ana, command={"act": "concede", "lose": "captain"}, version=version)
    for command in ({"act": "concede", "lose": "contessa"}, {"act": "lose", "card": "contessa"}):
        with pytest.raises(errors.DecisionPassed):
            play.decision_submit(game=game, user=ana, command=command, version=version)
    # Nor does any version a separate loss could have had answer anything: the game asked none.
    game.refresh_from_db()
    for later in range(version + 1, game.version + 1):
        with pytest.raises(errors.DecisionPassed):
            play.decision_submit(game=game, user=ana, command={"act": "lose", "card": "contessa"}, version=later)
    game.refresh_from_db()
    assert game_state(game).by_name["p1"].revealed == ["captain"]


def test_a_card_not_held_is_refused_in_words_and_changes_nothing(monkeypatch, ana, ben, cai):
    coup_deals(monkeypatch, WITHOUT_THE_DUKE)
    game = challenged(ana, ben, cai)
    before = game.version
    with pytest.raises(errors.ServiceError, match="no face-down Duke"):
        answer(game, ana, {"act": "concede", "lose": "duke"})
    game.refresh_from_db()
    assert game.version == before and game.events.count() == before


@pytest.mark.django_db(transaction=True)
def test_two_answers_racing_give_one_concession_and_one_loss(monkeypatch):
    """Two links of the same email (or the page and a reply) clicked at once."""
    ana, ben, cai = make_player("Ana"), make_player("Ben"), make_player("Cai")
    coup_deals(monkeypatch, WITHOUT_THE_DUKE)
    for _round in range(3):
        game = challenged(ana, ben, cai)
        version = awaited(game)["p1"][1]
        results = race(
            *(
                lambda card=card: play.decision_submit(
                    game=game, user=ana, command={"act": "concede", "lose": card}, version=version
                )
                for card in ("captain", "contessa")
            )
        )
        assert sorted(type(result).__name__ for result in results) == ["DecisionPassed", "Played"], results
        game.refresh_from_db()
        assert list(game.events.values_list("seq", flat=True)) == list(range(game.version))
        assert sum(e.type == "coup.claim.conceded" for e in game.events.all()) == 1
        assert len(game_state(game).by_name["p1"].revealed) == 1


def test_a_coup_forced_on_the_only_opponent_is_played_at_once_and_told(
    ana, ben, smtp, django_capture_on_commit_callbacks
):
    """Ben starts a turn with 10 coins and one opponent: the Coup on Ana is his only
    move, so it is played, not asked, and he is not emailed for it."""
    game = started_game(ana, ben)
    users = {"p1": ana, "p2": ben}
    bens_turns = 0
    while True:
        [(player, (kind, version))] = awaited(game).items()
        if kind != "turn":
            break
        bens_turns += player == "p2"
        with django_capture_on_commit_callbacks(execute=True):
            play.decision_submit(game=game, user=users[player], command={"act": "income"}, version=version)
    assert (player, kind) == ("p1", "lose")
    game.refresh_from_db()
    assert game_state(game).by_name["p2"].coins == 3  # paid 7 of his 10
    told = [line.text for line in table_for(game, ana).history.lines]
    assert told[-1] == "The only possible move, played at once: Ben paid 7 coins to launch a Coup against Ana."
    asked = [mail for mail in smtp.to("ben@example.com") if mail.subject.startswith("Your move")]
    assert len(asked) == bens_turns  # one email per turn he chose, none for the forced one
