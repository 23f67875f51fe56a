"""Where a person's address or name could still be, searched everywhere the site
keeps anything: every text-like column of every table of the database (the
outbox's messages among them), each session decoded, every key of the Redis
databases of the cache and the broker, and the emails given."""

import json

import redis
from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import connection

TEXT_TYPES = ("text", "character varying", "character", "json", "jsonb", "bytea")


def database_traces(needles: list[str]) -> tuple[list[str], int]:
    """``table.column`` for each place of the database that holds one of ``needles`` (any
    case), and how many columns were searched."""
    found = []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns "
            "WHERE table_schema = 'public' AND data_type = ANY(%s) ORDER BY table_name, column_name",
            [list(TEXT_TYPES)],
        )
        columns = cursor.fetchall()
        for table, column, data_type in columns:
            # Bytes read as text, any byte that is not printable escaped: what is written
            # in them plainly is found (a data export's zip is compressed: it goes with its
            # owner's account, as the test checks by its rows).
            value = f"encode(\"{column}\", 'escape')" if data_type == "bytea" else f'"{column}"::text'
            for needle in needles:
                cursor.execute(f'SELECT count(*) FROM "{table}" WHERE lower({value}) LIKE %s', [f"%{needle.lower()}%"])
                if cursor.fetchone()[0]:
                    found.append(f"{table}.{column}: {needle}")
    for session in Session.objects.all():
        held = json.dumps(session.get_decoded(), default=str).lower()
        found += [f"session {session.session_key}: {needle}" for needle in needles if needle.lower() in held]
    return found, len(columns)


def redis_traces(needles: list[str]) -> tuple[list[str], int]:
    """Each Redis key (of the cache's and the broker's databases) whose value holds one of
    ``needles``, and how many keys were read."""
    found, keys = [], 0
    for url in {settings.REDIS_URL, settings.CELERY_BROKER_URL}:
        client = redis.Redis.from_url(url)
        for key in client.scan_iter(count=1000):
            keys += 1
            kind = client.type(key).decode()
            if kind == "string":
                values = [client.get(key)]
            elif kind == "list":
                values = client.lrange(key, 0, -1)
            elif kind == "hash":
                values = [*client.hgetall(key).keys(), *client.hgetall(key).values()]
            elif kind == "set":
                values = list(client.smembers(key))
            elif kind == "zset":
                values = client.zrange(key, 0, -1)
            else:
                values = []
            blob = b" ".join([key, *(value or b"" for value in values)]).lower()
            found += [f"redis {key!r}: {needle}" for needle in needles if needle.lower().encode() in blob]
    return found, keys


def mail_traces(messages, needles: list[str]) -> list[str]:
    """Each email of ``messages`` (``tests.mailcatcher``) that holds one of ``needles``."""
    found = []
    for message in messages:
        whole = message.message.as_string().lower() + message.text.lower() + (message.html or "").lower()
        found += [f"email {message.subject!r}: {needle}" for needle in needles if needle.lower() in whole]
    return found
