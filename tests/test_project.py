"""The project's frame: deployment file, environment-driven settings, home page."""

import json
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from coupsite.env import (
    cache_config,
    database_config,
    env_bool,
    env_int,
    env_list,
    env_str,
    mailer_config,
    secret_key_problem,
)

ROOT = Path(__file__).resolve().parent.parent


# --- docker compose -------------------------------------------------------------


def command_of(service: dict) -> str:
    command = service["command"]
    return command if isinstance(command, str) else " ".join(command)


def test_compose_defines_its_services(compose):
    assert set(compose["services"]) == {
        "migrate",
        "web",
        "worker",
        "deadlines",
        "beat",
        "relay",
        "mail-reader",
        "postgres",
        "redis",
        "mailpit",
    }


def test_compose_runs_gunicorn_and_celery_worker_and_beat(compose):
    services = compose["services"]
    assert "gunicorn coupsite.wsgi" in command_of(services["web"])
    assert "celery -A coupsite worker" in command_of(services["worker"])
    assert "celery -A coupsite beat" in command_of(services["beat"])


def test_compose_uses_postgres_16_with_a_volume_redis_7_and_mailpit(compose):
    services = compose["services"]
    assert services["postgres"]["image"] == "postgres:16"
    assert services["postgres"]["volumes"]
    assert services["redis"]["image"] == "redis:7"
    assert services["mailpit"]["image"].startswith("axllent/mailpit")
    assert any("8025" in str(port) for port in services["mailpit"]["ports"])


@pytest.mark.parametrize("name", ["migrate", "web", "worker", "deadlines", "beat"])
def test_compose_app_services_share_the_production_environment(compose, name):
    service = compose["services"][name]
    env = service["environment"]
    assert service["build"] == "."
    assert {"DATABASE_URL", "REDIS_URL", "SECRET_KEY"} <= set(env)
    assert env["DATABASE_URL"].startswith("postgres://")
    assert env["REDIS_URL"].startswith("redis://redis:6379")
    assert env["EMAIL_HOST"] == "mailpit"
    assert str(env["EMAIL_PORT"]) == "1025"
    assert str(env["DEBUG"]) == "0"


def test_compose_requires_a_secret_key_and_publishes_none(compose):
    env = compose["x-app"]["environment"]
    assert env["SECRET_KEY"].startswith("${SECRET_KEY:?")
    with pytest.raises(ValueError, match="SECRET_KEY"):
        compose_environment(compose, {})


def test_compose_keeps_the_mail_catcher_on_this_machine(compose):
    """Mailpit shows every email (sign-in codes, answer links) to whoever opens it."""
    ports = compose["services"]["mailpit"]["ports"]
    assert ports and all(str(port).startswith("127.0.0.1:") for port in ports)


def test_compose_counts_sign_in_attempts_per_client_behind_its_proxy(compose):
    assert compose_environment(compose, {"SECRET_KEY": "k"})["ALLAUTH_TRUSTED_PROXY_COUNT"] == "1"


COMPOSE_VARIABLE = re.compile(r"\$\{(\w+)(?:(:-|:\?)([^}]*))?\}")


def compose_environment(compose, environ: dict) -> dict:
    """The web, worker and beat environment docker compose gives from ``environ``:
    ``${VAR:-default}``, ``${VAR:?error}`` (ValueError when VAR is unset or empty)
    and ``${VAR}`` resolved as compose does."""

    def resolve(match):
        name, operator, argument = match.groups()
        value = environ.get(name, "")
        if operator == ":?" and not value:
            raise ValueError(f"{name}: {argument}")
        if operator == ":-" and not value:
            return argument
        return value

    return {key: COMPOSE_VARIABLE.sub(resolve, str(value)) for key, value in compose["x-app"]["environment"].items()}


def manage(*args, environ: dict) -> subprocess.CompletedProcess:
    """``manage.py`` run with exactly ``environ`` (and PATH), as a server would start."""
    env = {"PATH": os.environ["PATH"], **environ}
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def settings_with(environ: dict, *names: str) -> dict:
    """The values of the settings ``names`` when the site starts with ``environ``."""
    code = (
        "import json, django; django.setup(); from django.conf import settings; "
        f"print(json.dumps({{name: getattr(settings, name) for name in {list(names)!r}}}))"
    )
    env = {"PATH": os.environ["PATH"], "DJANGO_SETTINGS_MODULE": "coupsite.settings", **environ}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_manage_check_deploy_passes_with_composes_settings(compose):
    environ = compose_environment(compose, {"SECRET_KEY": secrets.token_urlsafe(50)})
    done = manage("check", "--deploy", "--fail-level", "WARNING", environ=environ)
    assert done.returncode == 0, done.stdout + done.stderr


# --- safe defaults ----------------------------------------------------------------


def test_debug_is_off_unless_the_environment_turns_it_on():
    key = secrets.token_urlsafe(50)
    assert settings_with({"SECRET_KEY": key}, "DEBUG") == {"DEBUG": False}
    assert settings_with({"DEBUG": "1"}, "DEBUG") == {"DEBUG": True}


@pytest.mark.parametrize(
    "key, problem",
    [
        ("", "not set"),
        ("change-me-to-a-long-random-string", "published placeholder"),
        ("django-insecure-dev-only-do-not-use-in-production", "published placeholder"),
        ("change-me-Xq81Lm2Pz7Rt5Wv9Ya3Bc6Dn0Fh4Gj8Kk1Ms5Nu9Qw3Er7Ty2", "published placeholder"),
        ("short-but-random-Xq81", "too short"),
        ("a" * 80, "too short"),
    ],
)
def test_outside_debug_the_site_refuses_a_weak_secret_key(key, problem):
    assert problem in secret_key_problem(key)
    done = manage("check", environ={"SECRET_KEY": key} if key else {})
    assert done.returncode != 0 and problem in done.stderr


def test_a_long_random_secret_key_will_do():
    assert secret_key_problem(secrets.token_urlsafe(50)) is None


def test_trusted_proxies_and_secure_cookies_come_from_the_environment():
    environ = {"SECRET_KEY": secrets.token_urlsafe(50), "ALLAUTH_TRUSTED_PROXY_COUNT": "2"}
    found = settings_with(environ, "ALLAUTH_TRUSTED_PROXY_COUNT", "LANGUAGE_COOKIE_SECURE", "SESSION_COOKIE_SECURE")
    assert found == {"ALLAUTH_TRUSTED_PROXY_COUNT": 2, "LANGUAGE_COOKIE_SECURE": True, "SESSION_COOKIE_SECURE": True}
    found = settings_with({"DEBUG": "1"}, "ALLAUTH_TRUSTED_PROXY_COUNT", "LANGUAGE_COOKIE_SECURE")
    assert found == {"ALLAUTH_TRUSTED_PROXY_COUNT": 0, "LANGUAGE_COOKIE_SECURE": False}


# --- settings from the environment ----------------------------------------------


def test_env_helpers_read_typed_values():
    environ = {"NAME": "coup", "FLAG": "yes", "OFF": "0", "COUNT": "42", "HOSTS": "a.example, b.example,"}
    assert env_str("NAME", environ=environ) == "coup"
    assert env_str("MISSING", "dflt", environ=environ) == "dflt"
    assert env_bool("FLAG", environ=environ) is True
    assert env_bool("OFF", True, environ=environ) is False
    assert env_bool("MISSING", True, environ=environ) is True
    assert env_int("COUNT", environ=environ) == 42
    assert env_int("MISSING", 7, environ=environ) == 7
    assert env_list("HOSTS", environ=environ) == ["a.example", "b.example"]
    assert env_list("MISSING", ["x"], environ=environ) == ["x"]


def test_env_bool_rejects_nonsense():
    with pytest.raises(ValueError):
        env_bool("FLAG", environ={"FLAG": "maybe"})


def test_database_url_selects_postgresql():
    config = database_config(ROOT, environ={"DATABASE_URL": "postgres://u:p@db.example:6543/coupdb"})
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("coupdb", "u", "p")
    assert (config["HOST"], int(config["PORT"])) == ("db.example", 6543)


def test_without_database_url_the_database_is_a_sqlite_file_in_the_project():
    config = database_config(ROOT, environ={})
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert Path(config["NAME"]) == ROOT / "db.sqlite3"


def test_database_connections_persist_a_minute_and_are_checked_before_reuse_by_default():
    for environ in ({}, {"DATABASE_URL": "postgres://u:p@db.example:6543/coupdb"}):
        config = database_config(ROOT, environ=environ)
        assert (config["CONN_MAX_AGE"], config["CONN_HEALTH_CHECKS"]) == (60, True)


def test_db_conn_max_age_sets_how_long_connections_persist_on_postgresql_and_sqlite():
    for url in ("postgres://u:p@db.example:6543/coupdb", "sqlite:////tmp/coup.sqlite3"):
        for seconds in (0, 300):
            config = database_config(ROOT, environ={"DATABASE_URL": url, "DB_CONN_MAX_AGE": str(seconds)})
            assert (config["CONN_MAX_AGE"], config["CONN_HEALTH_CHECKS"]) == (seconds, True)


def test_server_side_cursors_can_be_turned_off_for_a_transaction_pooler():
    url = "postgres://u:p@pgbouncer:6432/coupdb"
    assert database_config(ROOT, environ={"DATABASE_URL": url})["DISABLE_SERVER_SIDE_CURSORS"] is False
    config = database_config(ROOT, environ={"DATABASE_URL": url, "DB_DISABLE_SERVER_SIDE_CURSORS": "1"})
    assert config["DISABLE_SERVER_SIDE_CURSORS"] is True


def test_redis_url_selects_the_redis_cache():
    config = cache_config(environ={"REDIS_URL": "redis://cache.example:6379/2"})
    assert config == {
        "BACKEND": "coupsite.cache.RedisCache",
        "LOCATION": "redis://cache.example:6379/2",
    }


@pytest.mark.skipif(not settings.REDIS_URL, reason="the Redis cache is configured by REDIS_URL")
def test_the_redis_cache_keeps_its_client_and_threads_share_it():
    from concurrent.futures import ThreadPoolExecutor

    from django.core.cache import cache

    backend = cache._cache
    assert backend.get_client(write=True) is backend.get_client(write=True)

    def round_trip(index: int):
        cache.set(f"kept-client-test:{index}", {"index": index}, 30)
        return cache.get(f"kept-client-test:{index}")

    with ThreadPoolExecutor(8) as threads:
        assert list(threads.map(round_trip, range(64))) == [{"index": index} for index in range(64)]
    assert cache.get_many([f"kept-client-test:{index}" for index in (3, 5)]) == {
        "kept-client-test:3": {"index": 3},
        "kept-client-test:5": {"index": 5},
    }
    cache.delete_many([f"kept-client-test:{index}" for index in range(64)])


def test_without_redis_url_the_cache_is_local_memory():
    assert cache_config(environ={"REDIS_URL": ""})["BACKEND"] == ("django.core.cache.backends.locmem.LocMemCache")


def test_without_email_host_emails_are_written_to_the_mailbox_folder():
    config = mailer_config(ROOT, environ={})
    assert config["BACKEND"] == "coupsite.mailbox.EmailBackend"
    assert Path(config["OPTIONS"]["file_path"]) == ROOT / "var" / "mailbox"


def test_email_host_selects_smtp():
    environ = {"EMAIL_HOST": "mailpit", "EMAIL_PORT": "1025", "EMAIL_USE_TLS": "0"}
    config = mailer_config(ROOT, environ=environ)
    assert config["BACKEND"] == "coupsite.smtp.EmailBackend"
    assert config["OPTIONS"]["host"] == "mailpit"
    assert config["OPTIONS"]["port"] == 1025
    assert config["OPTIONS"]["use_tls"] is False


def test_djangos_own_smtp_backend_named_in_the_environment_is_the_signing_one():
    """An operator who names Django's SMTP backend still gets their mail signed when a
    DKIM key is configured: the signing mailer is the same one with that step added."""
    environ = {"EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend", "EMAIL_HOST": "smtp.example.org"}
    config = mailer_config(ROOT, environ=environ)
    assert config["BACKEND"] == "coupsite.smtp.EmailBackend"
    assert config["OPTIONS"]["host"] == "smtp.example.org"


def test_live_settings_follow_the_environment():
    expected_db = database_config(ROOT, environ=os.environ)
    assert settings.DATABASES["default"]["ENGINE"] == expected_db["ENGINE"]
    assert settings.CACHES["default"]["BACKEND"] == cache_config(environ=os.environ)["BACKEND"]


def test_system_checks_pass():
    call_command("check", fail_level="WARNING")


# --- home page --------------------------------------------------------------------


@pytest.mark.django_db
def test_home_page_says_what_the_service_is(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert "Play Coup by email with your friends" in response.text


@pytest.mark.django_db
def test_home_page_is_in_spanish_for_spanish_browsers(client):
    response = client.get(reverse("home"), headers={"accept-language": "es"})
    assert response.status_code == 200
    assert "Juega al Coup por email con tus amigos" in response.text
    assert '<html lang="es">' in response.text


@pytest.mark.django_db
def test_home_page_is_in_brazilian_portuguese_for_brazilian_browsers(client):
    response = client.get(reverse("home"), headers={"accept-language": "pt-BR"})
    assert response.status_code == 200
    assert "Jogue Coup por e-mail com seus amigos" in response.text


def test_while_redis_cannot_be_reached_the_cache_finds_nothing_and_stores_nothing_but_locks_fail():
    import redis

    from coupsite.cache import RedisCache
    from tests.mailcatcher import free_port

    cache = RedisCache(f"redis://127.0.0.1:{free_port()}/0", {})  # nobody listens there
    assert cache.get("history", "a miss") == "a miss"
    assert cache.get_many(["history", "awaited"]) == {}
    cache.set("history", [1, 2], 30)
    assert cache.set_many({"history": [1], "awaited": 2}, 30) == ["history", "awaited"]
    with pytest.raises(redis.ConnectionError):
        cache.add("sweep-deadlines", "token", 300)
    with pytest.raises(redis.ConnectionError):
        cache.incr("explanations")


def test_beat_keeps_its_schedule_in_memory_when_its_file_cannot_be_written(tmp_path):
    import dbm

    from coupsite.celery import Scheduler, app

    class LockedFile(dict):
        def sync(self):
            raise dbm.error[0]("locking protocol")  # what Python 3.13's SQLite shelve said under load

    scheduler = Scheduler(app, schedule_filename=str(tmp_path / "celerybeat-schedule"))
    store, scheduler._store = scheduler._store, LockedFile(entries=scheduler.schedule)
    scheduler.sync()  # logged, not raised: beat's loop goes on
    scheduler._store = store
    assert "relay-outbox" in scheduler.schedule
    scheduler.close()
