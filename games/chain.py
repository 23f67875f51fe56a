"""The hash chain of each game's event log: a row altered by hand is found.

Each event row stores ``sha256(previous event's hash + the row's canonical
content)``, and the game row the hash of its last event (``Game.log_hash``), so an
append needs no read of the log: the locked game row already holds the link to
extend. ``verify_games`` recomputes every chain (``games.services.verification``).

The database's triggers already refuse updates and deletes of the log; the chain is
for what goes around them (a superuser, a restored copy of an edited dump). It is
no signature: whoever can rewrite a row can rewrite every hash after it too. What
it rules out is a silent change: a payload, a type or a sequence number edited
alone no longer matches its hash, nor does a log cut short its game's head.

Stored hashes are computed by this definition: it never changes (a migration
computed it for the rows written before it existed).
"""

import hashlib
import json


def event_hash(previous: str, *, game_id: int, seq: int, type: str, payload) -> str:
    """The hash of one event row, following the hash ``previous`` of the one before
    it (empty for a game's first event). The content is canonical JSON (sorted
    keys, no spaces), so the row as PostgreSQL gives it back hashes the same."""
    content = json.dumps([game_id, seq, type, payload], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256((previous + content).encode()).hexdigest()


def events_chain(game, rows: list) -> None:
    """Link ``rows`` (new ``Event`` instances of ``game``, in ``seq`` order, the next
    ones of its log) into the game's chain: each gets its ``hash``, and ``game`` its
    new ``log_hash``, written by the caller with its version. Each payload is hashed
    as the database gives it back (through JSON: tuples become lists, keys strings)."""
    head = game.log_hash
    for row in rows:
        stored = json.loads(json.dumps(row.payload))
        head = row.hash = event_hash(head, game_id=game.pk, seq=row.seq, type=row.type, payload=stored)
    game.log_hash = head
