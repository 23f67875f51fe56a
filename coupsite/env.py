"""Typed readers for configuration taken from the environment.

Each helper takes an optional ``environ`` mapping so tests can pass a plain dict
instead of patching ``os.environ``. Settings call them with the real environment.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import dj_database_url

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _source(environ: Mapping[str, str] | None) -> Mapping[str, str]:
    return os.environ if environ is None else environ


def env_str(name: str, default: str = "", *, environ: Mapping[str, str] | None = None) -> str:
    return _source(environ).get(name, default)


def env_bool(name: str, default: bool = False, *, environ: Mapping[str, str] | None = None) -> bool:
    raw = _source(environ).get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ValueError(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def env_int(name: str, default: int = 0, *, environ: Mapping[str, str] | None = None) -> int:
    raw = _source(environ).get(name, "").strip()
    if not raw:
        return default
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r} is not an integer") from None


def env_list(name: str, default: list[str] | None = None, *, environ: Mapping[str, str] | None = None) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    raw = _source(environ).get(name)
    if raw is None:
        return list(default or [])
    return [item.strip() for item in raw.split(",") if item.strip()]


# Django's own bar for a key (security.W009): long, and not a handful of characters.
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE_CHARACTERS = 5
# Keys that were ever written in this project's files (anyone can read them, so
# anyone could sign answer links and sessions with them), and Django's mark of a
# development key.
PUBLISHED_SECRET_KEYS = {
    "change-me-to-a-long-random-string",
    "django-insecure-dev-only-do-not-use-in-production",
    "collectstatic-only",
}
PLACEHOLDER_MARKS = ("django-insecure", "change-me", "changeme", "change_me")


def secret_key_problem(key: str) -> str | None:
    """Why ``key`` must not sign anything in production, or None when it will do."""
    if not key:
        return "SECRET_KEY is not set."
    if key in PUBLISHED_SECRET_KEYS or any(mark in key.lower() for mark in PLACEHOLDER_MARKS):
        return "SECRET_KEY is a published placeholder."
    if len(key) < SECRET_KEY_MIN_LENGTH or len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS:
        return f"SECRET_KEY is too short or too simple: use at least {SECRET_KEY_MIN_LENGTH} random characters."
    return None


# Seconds a database connection is kept for the next request or task (DB_CONN_MAX_AGE).
DEFAULT_CONN_MAX_AGE = 60


def database_config(base_dir: Path, *, environ: Mapping[str, str] | None = None) -> dj_database_url.DBConfig:
    """DATABASES["default"] from DATABASE_URL; a SQLite file in the project root if unset.

    Connections are kept open between requests and tasks (``DB_CONN_MAX_AGE``
    seconds, 60 by default; 0 closes each one at the end of its request or task),
    and checked before reuse, so a connection the server dropped meanwhile is
    replaced instead of failing the request. Behind PgBouncer in transaction
    mode, ``DB_DISABLE_SERVER_SIDE_CURSORS=1`` (README, "Many web processes")."""
    url = env_str("DATABASE_URL", environ=environ) or f"sqlite:///{base_dir / 'db.sqlite3'}"
    config = dj_database_url.parse(
        url,
        conn_max_age=env_int("DB_CONN_MAX_AGE", DEFAULT_CONN_MAX_AGE, environ=environ),
        conn_health_checks=True,
    )
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # Players click at the same moment: readers never wait for a writer (WAL), a
        # transaction takes the write lock when it begins (IMMEDIATE), so it waits
        # its turn up to the busy timeout instead of failing when it first writes.
        config["OPTIONS"] = {
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            "transaction_mode": "IMMEDIATE",
            "timeout": env_int("SQLITE_BUSY_TIMEOUT", 20, environ=environ),
            **config.get("OPTIONS", {}),
        }
    else:
        # A transaction-mode pooler hands each transaction a different server
        # connection, where a cursor declared by an earlier one does not exist.
        config["DISABLE_SERVER_SIDE_CURSORS"] = env_bool("DB_DISABLE_SERVER_SIDE_CURSORS", False, environ=environ)
    return config


def cache_config(*, environ: Mapping[str, str] | None = None) -> dict:
    """CACHES["default"]: Redis when REDIS_URL is set, else per-process memory."""
    redis_url = env_str("REDIS_URL", environ=environ)
    if redis_url:
        return {
            "BACKEND": "coupsite.cache.RedisCache",
            "LOCATION": redis_url,
        }
    return {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}


# Django's SMTP mailer, with a VERP bounce address per message and a DKIM signature
# when a key is configured (coupsite.smtp).
SMTP_BACKEND = "coupsite.smtp.EmailBackend"
DJANGO_SMTP_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
FILE_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
MAILDIR_BACKEND = "coupsite.mailbox.EmailBackend"


def mailer_config(base_dir: Path, *, environ: Mapping[str, str] | None = None) -> dict:
    """MAILERS["default"] (Django 6.1 replaced the EMAIL_* settings with MAILERS).

    The environment keeps the familiar EMAIL_* names. SMTP when EMAIL_HOST is set,
    otherwise each message is stored in the Maildir var/mailbox/ (EMAIL_FILE_PATH),
    which the /mailbox/ page lists when DEBUG is on (coupsite.mailbox).
    """
    host = env_str("EMAIL_HOST", environ=environ)
    backend = env_str("EMAIL_BACKEND", environ=environ) or (SMTP_BACKEND if host else MAILDIR_BACKEND)
    if backend == DJANGO_SMTP_BACKEND:
        backend = SMTP_BACKEND  # the same mailer, which adds VERP and DKIM as configured
    if backend == SMTP_BACKEND:
        options = {
            "host": host or "localhost",
            # None lets Django pick 25, or 587 with TLS.
            "port": env_int("EMAIL_PORT", 0, environ=environ) or None,
            "username": env_str("EMAIL_HOST_USER", environ=environ) or None,
            "password": env_str("EMAIL_HOST_PASSWORD", environ=environ) or None,
            "use_tls": env_bool("EMAIL_USE_TLS", False, environ=environ),
        }
    elif backend in (MAILDIR_BACKEND, FILE_BACKEND):
        default_path = str(base_dir / "var" / "mailbox")
        options = {"file_path": env_str("EMAIL_FILE_PATH", default_path, environ=environ)}
    else:
        options = {}  # e.g. the console backend takes no options
    return {"BACKEND": backend, "OPTIONS": options}
