"""The decision emails of one update leave together (``emails.send_decisions``): each
player gets exactly the email the one-seat path (``emails.send_decision``) sends
them, and nothing another player may see alone."""

import re

import pytest
from celery.exceptions import Retry
from django.template.loader import render_to_string
from django.utils import translation

from games import history
from games.kinds import KINDS
from games.mail import emails
from games.mail.emails.sending import SharedTableBlocks, render_text
from games.mail.tokens import read_answer_token
from games.models import Seat
from games.selectors import game_state, player_names, table_for
from games.services import play
from tests.players import awaited, make_player, started_game

# A signed value (``django.core.signing``): its data, then the time it was signed and
# the signature, which differ between two sends a second apart.
SIGNED = re.compile(r"([.\w-]+):\w+:[\w-]{43}")


def unsigned(text: str) -> str:
    return SIGNED.sub(r"\1", text)


def answers(mail) -> list[dict]:
    return [read_answer_token(link.rstrip("/").rsplit("/", 1)[1]) for link in mail.links if "/a/" in link]


def test_each_player_gets_from_the_batch_exactly_the_email_sent_to_them_alone(db, smtp):
    users = [make_player(name) for name in ("Ana", "Ben", "Cai", "Dan", "Eve")]
    game = started_game(*users)
    state = game_state(game)
    [(claimant, (_kind, version))] = awaited(game).items()
    tax = next(option for option in KINDS[game.kind].rules.options(state, claimant) if option["act"] == "tax")
    by_player = {seat.player: seat for seat in game.seats.select_related("user")}
    claimant_user = by_player[claimant].user
    play.decision_submit(game=game, user=claimant_user, command=tax, version=version)
    asked = awaited(game)
    assert len(asked) == 4  # everyone else may challenge the Duke claim
    seats = [seat for player, seat in by_player.items() if player in asked]
    start = {seat.pk: seat.notified_version for seat in seats}

    def reset():
        for seat in seats:
            Seat.objects.filter(pk=seat.pk).update(notified_version=start[seat.pk])
        smtp.clear()

    alone = {}
    for seat in seats:
        reset()
        emails.send_decision(seat.pk, asked[seat.player][1])
        [alone[seat.player]] = smtp.to(seat.user.email)
    reset()
    emails.send_decisions(game.pk, [(seat.pk, asked[seat.player][1]) for seat in seats])
    assert len(smtp.messages) == len(seats)

    game.refresh_from_db()
    state = game_state(game)
    names = player_names(game)
    lines = {seat.player: {line.text for line in history.latest(game, seat.player, names).lines} for seat in seats}
    for seat in seats:
        [batched] = smtp.to(seat.user.email)
        single = alone[seat.player]
        assert batched.subject == single.subject
        assert unsigned(batched.text) == unsigned(single.text)
        assert unsigned(batched.html) == unsigned(single.html)
        assert batched.message["Reply-To"] == single.message["Reply-To"]
        assert batched.message["References"] == single.message["References"]
        assert answers(batched) == answers(single)
        assert {answer["s"] for answer in answers(batched)} == {seat.pk}
        hand_line = next(line for line in batched.text.splitlines() if line.startswith("Your hand:"))
        for card in {"duke", "assassin", "captain", "ambassador", "contessa"} - set(state.by_name[seat.player].hand):
            assert card.capitalize() not in hand_line
        for other in seats:
            for line in lines[other.player] - lines[seat.player]:  # what only the other player may read
                assert line not in batched.text and line not in batched.html
    for seat in seats:
        seat.refresh_from_db()
        assert seat.notified_version == game.version


def test_a_player_whose_decision_passed_gets_no_email_and_the_others_theirs(db, smtp):
    users = [make_player(name) for name in ("Ana", "Ben", "Cai")]
    game = started_game(*users)
    [(first, (_kind, version))] = awaited(game).items()
    by_player = {seat.player: seat for seat in game.seats.select_related("user")}
    seat = by_player[first]
    play.decision_submit(game=game, user=seat.user, command={"act": "income"}, version=version)
    [(second, (_kind, second_version))] = awaited(game).items()
    other = by_player[second]
    smtp.clear()
    emails.send_decisions(game.pk, [(seat.pk, version), (other.pk, second_version)])
    assert [mail.to for mail in smtp.messages] == [[other.user.email]]
    seat.refresh_from_db()
    assert seat.notified_version < game.version


@pytest.mark.parametrize("kind", ["coup", "kobayakawa"])
@pytest.mark.parametrize("language", ["en", "es"])
def test_the_shared_table_block_is_the_block_the_whole_email_context_renders(db, kind, language):
    users = [make_player(name, language) for name in ("Ana", "Ben", "Cai", "Dan")]
    game = started_game(*users, kind=kind)
    tables = SharedTableBlocks(KINDS[game.kind].templates)
    with translation.override(language):
        for seat in game.seats.select_related("game", "user__profile"):
            context = emails._seat_context(seat, table_for(game, seat.user))
            shared = tables.rendered(context)
            assert shared["table_txt"].render(None) == render_text(context["table_txt"], context)
            assert shared["table_html"].render(None) == render_to_string(context["table_html"], context)
    assert len(tables.blocks) == 1  # the same table for every reader


def test_a_mail_server_failure_midway_retries_only_the_emails_not_sent(db, smtp):
    users = [make_player(name) for name in ("Ana", "Ben", "Cai", "Dan")]
    game = started_game(*users)
    state = game_state(game)
    [(claimant, (_kind, version))] = awaited(game).items()
    tax = next(option for option in KINDS[game.kind].rules.options(state, claimant) if option["act"] == "tax")
    by_player = {seat.player: seat for seat in game.seats.select_related("user")}
    play.decision_submit(game=game, user=by_player[claimant].user, command=tax, version=version)
    asked = sorted(awaited(game).items())
    decisions = [[by_player[player].pk, decision_version] for player, (_kind, decision_version) in asked]
    first, failing, last = (by_player[player] for player, _decision in asked)
    smtp.clear()
    smtp.refused.add(failing.user.email)

    with pytest.raises(Retry) as retry:
        emails.send_decisions.apply(args=[game.pk, decisions], throw=True)
    assert list(retry.value.sig.args) == [game.pk, decisions[1:]]  # the first left; the others wait
    assert [mail.to for mail in smtp.messages] == [[first.user.email]]
    game.refresh_from_db()
    notified = {seat.pk: seat.notified_version for seat in Seat.objects.filter(game=game)}
    assert notified[first.pk] == game.version
    assert notified[failing.pk] < game.version and notified[last.pk] < game.version

    smtp.refused.clear()  # the server is back: the retry sends the rest, once each
    emails.send_decisions.apply(args=retry.value.sig.args, throw=True)
    assert sorted(address for mail in smtp.messages for address in mail.to) == sorted(
        seat.user.email for seat in (first, failing, last)
    )
