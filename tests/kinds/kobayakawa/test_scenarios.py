"""Kobayakawa scenario files: what each player's view shows at the end of every one.

The expectations themselves are checked with all the other scenario folders in
test_scenarios.py; this adds the hiding rules of Kobayakawa's views.
"""

import json
from pathlib import Path

import pytest

from games.engine.scenario import run

FOLDER = Path(__file__).resolve().parents[2] / "scenarios" / "kobayakawa"
FILES = sorted(p for p in FOLDER.glob("*.json") if not p.name.endswith(".expect.json"))
PUBLIC_PLAYER = ("medals", "bet", "discards", "answer", "shown", "out", "resigned")
PUBLIC_TABLE = (
    "kobayakawa",
    "covered",
    "centre",
    "box",
    "round",
    "last_round",
    "first",
    "stage",
    "awaiting",
    "previous",
    "winner",
)


def test_there_is_a_scenario_per_rule():
    assert len(FILES) >= 30


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_views_show_own_card_and_shown_cards_only(path):
    data = json.loads(path.read_text())
    full = run(json.loads(path.read_text()))["state"]
    everyone = {p["name"]: p for p in full["players"]}
    assert isinstance(full["deck"], list)
    for viewer in data["players"]:
        seen = run(json.loads(path.read_text()), view=viewer)["state"]
        assert seen["deck"] == len(full["deck"]), "the deck order leaked"
        for key in PUBLIC_TABLE:
            assert seen[key] == full[key], f"[view {viewer}] {key} differs"
        for p in seen["players"]:
            truth = everyone[p["name"]]
            for key in PUBLIC_PLAYER:
                assert p[key] == truth[key], f"[view {viewer}] {p['name']}.{key} differs"
            if p["name"] == viewer or truth["shown"]:
                assert p["card"] == truth["card"]
                assert p.get("drawn") == truth.get("drawn") or p["name"] != viewer
            else:
                assert p["card"] is None, f"[view {viewer}] {p['name']}'s card leaked"
            if p["name"] != viewer:
                assert p.get("drawn") is None, f"[view {viewer}] {p['name']}'s drawn card leaked"


def test_a_lone_bettor_shows_nothing_in_the_round_summary():
    state = run(json.loads((FOLDER / "lone_bettor_wins_unseen.json").read_text()), view="ambar")["state"]
    assert state["previous"]["bettors"] == ["dante"]
    assert "cards" not in state["previous"] and "totals" not in state["previous"]


def test_events_show_each_player_only_their_own_deal():
    result = run(json.loads((FOLDER / "deal_from_first_player.json").read_text()), view="ambar", with_events=True)
    dealt = {
        e["data"]["player"]: e["data"].get("card") for e in result["events"] if e["type"] == "kobayakawa.card.dealt"
    }
    assert dealt == {"dante": None, "santi": None, "ambar": 2}
    shuffled = [e for e in result["events"] if e["type"] == "kobayakawa.deck.shuffled"]
    assert shuffled and all("deck" not in e["data"] for e in shuffled)
