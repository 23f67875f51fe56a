"""The embedded default (SQLite in a file) takes players' clicks arriving at the
same moment: a real server on a SQLite file, five decision POSTs at once."""

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]

SETUP = """
import json
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from games.models import Game
from games.services import play
from tests.players import awaited, make_player, started_game

players = [make_player(name) for name in ("Ana", "Ben", "Cai", "Dora", "Eve", "Fay")]
game = started_game(*players)
play.decision_submit(game=game, user=players[0], command={"act": "tax"}, version=awaited(game)["p1"][1])
sessions = {}
for user in players[1:]:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    sessions[user.username] = session.session_key
print(json.dumps({"game": game.pk, "sessions": sessions}))
"""

STATE = """
import json
from games.models import Game
from games.selectors import game_state
game = Game.objects.get()
print(json.dumps({"coins": game_state(game).by_name["p1"].coins, "allowed": game.events.filter(type="coup.allowed").count()}))
"""


def free_port() -> int:
    for port in range(8700, 8800):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    raise RuntimeError("no free port in 8700-8799")


@pytest.fixture
def sqlite_site(tmp_path):
    """A gunicorn server (threads) on a fresh SQLite file, with a game where Ana
    claimed Tax and five players are asked whether to allow it."""
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_URL": "",
        "CELERY_BROKER_URL": "memory://",
        "EMAIL_BACKEND": "django.core.mail.backends.locmem.EmailBackend",
        "DEBUG": "1",
        "SQLITE_BUSY_TIMEOUT": "5",
    }
    python = sys.executable

    def manage(*args):
        return subprocess.run(
            [python, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True
        ).stdout

    manage("migrate", "--noinput")
    setup = json.loads(manage("shell", "-c", SETUP).strip().splitlines()[-1])
    port = free_port()
    server = subprocess.Popen(
        [python, "-m", "gunicorn", "coupsite.wsgi", "-b", f"127.0.0.1:{port}", "--workers", "2", "--threads", "4"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                requests.get(url + "/", timeout=5)
                break
            except requests.RequestException:
                time.sleep(0.2)
        yield (
            url,
            setup,
            lambda: json.loads(manage("shell", "-c", STATE).strip().splitlines()[-1]),
            tmp_path / "db.sqlite3",
        )
    finally:
        server.terminate()
        server.wait(timeout=10)


def allow_forms(url, setup) -> list:
    """Each asked player's browser, signed in, and the "allow" form of their game page."""
    forms = []
    for session_key in setup["sessions"].values():
        browser = requests.Session()
        browser.cookies.set("sessionid", session_key)
        page = browser.get(f"{url}/games/{setup['game']}/", timeout=10).text
        version = re.search(r'name="version" value="(\d+)"', page).group(1)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        forms.append(
            (browser, {"csrfmiddlewaretoken": token, "version": version, "command": json.dumps({"act": "allow"})})
        )
    return forms


def post(url, setup, form):
    browser, data = form
    game_url = f"{url}/games/{setup['game']}/"
    return browser.post(f"{game_url}decide", data=data, headers={"Referer": game_url}, timeout=60)


def test_five_players_allowing_at_once_are_all_played(sqlite_site):
    url, setup, state, _database = sqlite_site
    forms = allow_forms(url, setup)
    with ThreadPoolExecutor(len(forms)) as pool:
        responses = list(pool.map(lambda form: post(url, setup, form), forms))
    assert [response.status_code for response in responses] == [200] * len(forms)
    assert state() == {"coins": 5, "allowed": 5}  # every click played: Ana's Tax went through


def test_a_click_the_locked_database_cannot_take_is_refused_with_a_message(sqlite_site):
    url, setup, state, database = sqlite_site
    [form, *_others] = allow_forms(url, setup)
    writer = sqlite3.connect(database, isolation_level=None)
    writer.execute("BEGIN IMMEDIATE")  # another writer holds the lock past the busy timeout
    try:
        response = post(url, setup, form)
    finally:
        writer.execute("ROLLBACK")
        writer.close()
    assert response.status_code == 200
    assert "The table was busy and your answer was not played: please answer again." in response.text
    assert state() == {"coins": 2, "allowed": 0}
    assert post(url, setup, form).status_code == 200  # answered again, it is played
    assert state()["allowed"] == 1
