"""What production must run, as the repository ships it: a worker for the deadline
queue alone beside the one for everything else (docker compose and ``make run``),
beat driving the outbox relay and the daily check of the logs, the relay process the
site leaves its hand-overs to, and migrations run as the owner while the site
connects as the role that may only append events."""

import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlparse

from django.conf import settings

from tests.test_project import ROOT, command_of

SITE_SERVICES = ("web", "worker", "deadlines", "beat", "relay", "mail-reader")


def queues_of(command: str) -> set[str]:
    words = command.split()
    return set(words[words.index("-Q") + 1].split(",")) if "-Q" in words else {"every queue"}


def test_compose_runs_a_worker_for_the_deadline_queue_alone_and_one_for_the_rest(compose):
    commands = {name: command_of(service) for name, service in compose["services"].items() if "command" in service}
    workers = {name: command for name, command in commands.items() if "celery -A coupsite worker" in command}
    assert {name: queues_of(command) for name, command in workers.items()} == {
        "deadlines": {settings.DEADLINE_QUEUE},
        "worker": {settings.CELERY_TASK_DEFAULT_QUEUE},
    }
    assert "celery -A coupsite beat" in command_of(compose["services"]["beat"])


def test_compose_runs_the_outbox_relay_process_and_the_site_leaves_it_every_hand_over(compose):
    assert command_of(compose["services"]["relay"]) == "python manage.py outbox_relay"
    for name in SITE_SERVICES:
        assert compose["services"][name]["environment"]["OUTBOX_RELAY_PROCESS"] == "1"


def test_compose_reads_the_imap_mailbox_only_when_imap_url_is_set(compose):
    """Without IMAP_URL the mail reader says so and stops for good (it restarts on
    failure only); with it, it runs ``read_mail --imap --watch``, here refusing a URL
    that names no IMAP server."""
    service = compose["services"]["mail-reader"]
    assert service["restart"] == "on-failure"
    assert compose["services"]["web"]["environment"]["IMAP_URL"] == "${IMAP_URL:-}"
    script = command_of(service).removeprefix("sh -c ").replace("$$", "$")  # as compose hands it to sh
    path = f"{Path(sys.executable).parent}:{os.environ['PATH']}"  # `python` is the project's
    unset = subprocess.run(
        ["sh", "-c", script],
        cwd=ROOT,
        env={**os.environ, "PATH": path, "IMAP_URL": ""},
        capture_output=True,
        text=True,
        check=False,
    )
    assert (unset.returncode, unset.stdout) == (0, "IMAP_URL is not set: no mailbox to read.\n")
    bad = {**os.environ, "PATH": path, "IMAP_URL": "pop3://play:pw@mail.example.org/"}
    refused = subprocess.run(["sh", "-c", script], cwd=ROOT, env=bad, capture_output=True, text=True, check=False)
    assert refused.returncode == 2 and "IMAP_URL must start with imaps://" in refused.stderr


def test_make_run_starts_a_worker_for_each_queue_and_beat_once():
    recipe = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    workers = [line for line in recipe.splitlines() if "celery -A coupsite worker" in line]
    assert sorted(queues_of(line).pop() for line in workers) == ["celery", "deadlines"]
    assert [line for line in workers if "--beat" in line] == [line for line in workers if "-Q celery" in line]


def test_compose_migrates_as_the_owner_then_lets_the_site_role_only_append_events(compose):
    migrate = compose["services"]["migrate"]
    owner = urlparse(migrate["environment"]["DATABASE_URL"]).username
    assert owner == compose["services"]["postgres"]["environment"]["POSTGRES_USER"]
    assert command_of(migrate) == (
        'sh -c "python manage.py migrate --noinput && python manage.py grant_site_role coup_site --login"'
    )
    assert migrate["restart"] == "no" and migrate["environment"]["SITE_DB_PASSWORD"]
    for name in SITE_SERVICES:
        service = compose["services"][name]
        assert urlparse(service["environment"]["DATABASE_URL"]).username == "coup_site" != owner
        assert service["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
        assert "migrate" not in command_of(service)


def test_beat_runs_the_outbox_relay_often_and_verifies_every_game_daily():
    schedule = {entry["task"]: entry for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert schedule["outbox.tasks.relay"]["schedule"] <= 10
    verify = schedule["games.tasks.verify_games"]["schedule"]
    assert (verify.hour, verify.minute) == ({3}, {30})  # once a day


def test_beat_runs_the_digest_pass_every_hour_so_each_zones_morning_has_one():
    schedule = {entry["task"]: entry for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    digests = schedule["games.tasks.send_digests"]["schedule"]
    assert (digests.hour, digests.minute) == (set(range(24)), {0})
