"""Bot turns waiting for a worker, and the workers' claims on them (``tresham_bot_turns``).

When a bot is to act in a game and the server has waited its delay, the server *queues* the
turn: one row per game (a game has one acting player), naming the log index the move is for,
the bot's player and its level. A worker process (``server/bot_worker.py``) *claims* a turn:
it takes a lease on it (its own random owner tag, until a deadline) and renews the lease while
it thinks; a turn whose lease ran out (its worker died, or hangs) is claimed again by any
worker. When the move is stored, or the turn turns out stale (someone acted first, a take-back
changed the index), its worker *finishes* it: the row goes, if it is still that worker's. The
log's unique (game, index) key is what makes a move land once, whatever the workers do: a
claim only saves work.

PostgreSQL: a claim is ``SELECT … FOR UPDATE SKIP LOCKED`` (workers on any machine never wait
for each other's claims), times are the database's clock (workers' clocks may differ), and a
queued turn is announced with ``NOTIFY`` on :data:`BOT_CHANNEL` (payload ``"<game id>
<index>"``) in the same transaction, which the workers ``LISTEN`` for. SQLite: a claim is one
``UPDATE … RETURNING`` (SQLite has one writer, so the statement is atomic), times are the
local clock (its workers share the machine), and the server wakes its local workers itself.

Queueing is idempotent: queueing the turn that is queued already (same index) changes
nothing, so a server may queue again while it waits; queueing another index replaces the row
and its claim. A turn claimed :data:`MAX_ATTEMPTS` times without an end (each of its workers
died thinking) is marked failed and no longer claimed, as is one whose bot raised; the next
turn queued for the game replaces it.

Hints asked at the table (``server/hints.py``) are worked out by the same workers, from a
queue of their own (``tresham_hint_asks``, one row per game and log index: a hint is for the
seat to act there): the server *asks* (:func:`ask_hint`, announced on :data:`BOT_CHANNEL` as
a turn is), a worker claims the ask as it claims a turn (a worker takes asks before turns: a
person is waiting), works it out and *stores* it in the row (:func:`store_hint`, announced on
:data:`HINTED_CHANNEL` on PostgreSQL), where any server reads it (:func:`hint_asked`); the
row keeps it, so the same position's hint is the same for every server. A claim on an ask
runs out, is renewed and is given up as a turn's is; an ask given up (or made stale by a move)
is asked anew by the next request for it.

The tables are new (additive): :func:`ensure_table` creates them where they are missing, once
per process and database.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, Integer, String, Table, Text, text
from sqlalchemy.dialects import postgresql, sqlite

from tresham.server.storage import SCHEMA_LOCK, Storage, metadata

#: The channel on which queued bot turns and asked hints are announced (PostgreSQL).
BOT_CHANNEL = "tresham_bots"
#: The channel on which a worked-out hint is announced (PostgreSQL): ``"<game id> <index>"``.
HINTED_CHANNEL = "tresham_hinted"
#: How often a turn may be claimed before it is given up as failed.
MAX_ATTEMPTS = 5


def _lease_columns() -> list[Column[Any]]:
    """The columns every claim queue shares: when it was queued, and who holds its lease
    until when, after how many attempts, and why it failed."""
    return [
        Column("queued", Float, nullable=False),
        Column("owner", String(64), nullable=True),
        Column("lease_until", Float, nullable=True),
        Column("attempts", Integer, nullable=False, default=0),
        Column("failed", Text, nullable=True),
    ]


bot_turns_table = Table(
    "tresham_bot_turns",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("idx", Integer, nullable=False),
    Column("player", Text, nullable=False),
    Column("level", String(64), nullable=False),
    *_lease_columns(),
)

hint_asks_table = Table(
    "tresham_hint_asks",
    metadata,
    Column("game_id", String(32), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("player", Text, nullable=False),
    *_lease_columns(),
    #: The hint as the API gives it (JSON), once worked out.
    Column("hint", Text, nullable=True),
)

#: The queues workers claim from: bot turns, and hints asked.
TURNS = "tresham_bot_turns"
HINTS = "tresham_hint_asks"
#: The level of a claim on a hint (a hint's search has its own budget: ``bots/hints.py``).
HINT_LEVEL = "hint"

#: The databases (their URLs) this process has seen the table in.
_made: set[str] = set()
_made_lock = threading.Lock()


@dataclass(frozen=True)
class Claim:
    """A worker's claim on the bot turn of game `game_id` at log index `index`: `player`'s
    bot of `level` is to act; `owner` is the claim's own tag; `attempts` counts this one.
    `queue` :data:`HINTS`: a claim on the hint `player` asked for there instead (its `level`
    :data:`HINT_LEVEL`)."""

    game_id: str
    index: int
    player: str
    level: str
    owner: str
    attempts: int
    queue: str = TURNS


def new_owner() -> str:
    """A tag for one claim (unique: no two claims share one)."""
    return secrets.token_hex(8)


def ensure_table(storage: Storage) -> None:
    """Create the table where the database lacks it (PostgreSQL processes starting at once
    take turns on the schema lock, as the storage's own tables do)."""
    key = storage.url.render_as_string(hide_password=False)
    with _made_lock:
        if key in _made:
            return
        if storage.is_postgres:
            with storage.engine.begin() as conn:
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
                metadata.create_all(conn, tables=[bot_turns_table, hint_asks_table])
        else:
            for attempt in range(5):
                try:
                    metadata.create_all(storage.engine, tables=[bot_turns_table, hint_asks_table])
                    break
                except Exception:  # made meanwhile by another process: look again
                    if attempt == 4:
                        raise
                    time.sleep(0.05 * (attempt + 1))
        _made.add(key)


def _now(storage: Storage) -> str:
    """SQL for the clock of leases: the database's on PostgreSQL, the local one on SQLite."""
    if storage.is_postgres:
        return "EXTRACT(EPOCH FROM clock_timestamp())"
    return ":local_now"


def _params(storage: Storage, **values: Any) -> dict[str, Any]:
    if not storage.is_postgres:
        values["local_now"] = time.time()
    return values


def queue_turn(storage: Storage, game_id: str, index: int, player: str, level: str) -> bool:
    """Queue the bot turn of `game_id` at log `index` (a no-op if that turn is queued
    already); returns whether it was queued now (and so announced)."""
    ensure_table(storage)
    values = {
        "game_id": game_id,
        "idx": index,
        "player": player,
        "level": level,
        "queued": time.time(),
        "owner": None,
        "lease_until": None,
        "attempts": 0,
        "failed": None,
    }
    table = bot_turns_table
    changed = {k: v for k, v in values.items() if k != "game_id"}
    return _put(storage, values, changed, [table.c.game_id], lambda new: table.c.idx != new.idx)


def _put(
    storage: Storage,
    values: dict[str, Any],
    again: dict[str, Any],
    keys: list[Column[Any]],
    where: Callable[[Any], Any],
) -> bool:
    """Insert the row `values` into its table (the table of `keys`), or where a row with its
    keys is there, set `again` on it if `where(the new row)` holds of it; whether it was put
    (and then announced on :data:`BOT_CHANNEL` on PostgreSQL: ``"<game id> <index>"``)."""
    table = keys[0].table
    if storage.is_postgres:
        pg = postgresql.insert(table).values(values)
        statement: Any = pg.on_conflict_do_update(
            index_elements=keys, set_=again, where=where(pg.excluded)
        )
    else:
        lite = sqlite.insert(table).values(values)
        statement = lite.on_conflict_do_update(
            index_elements=keys, set_=again, where=where(lite.excluded)
        )
    with storage.write_lock, storage.engine.begin() as conn:
        put = conn.execute(statement.returning(keys[0])).first() is not None
        if put and storage.is_postgres:
            conn.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": BOT_CHANNEL, "payload": f"{values['game_id']} {values['idx']}"},
            )
    return put


def claim(storage: Storage, lease: float, queue: str = TURNS) -> Claim | None:
    """Claim the oldest queued turn (`queue` :data:`HINTS`: the oldest hint asked and not yet
    worked out) nobody holds (none claimed, or its lease run out) for `lease` seconds; None
    if there is none. One claimed too often is marked failed instead, and the next one
    looked for."""
    ensure_table(storage)
    now = _now(storage)
    free = f"failed IS NULL AND (lease_until IS NULL OR lease_until < {now})"
    level = "level"
    if queue == HINTS:
        free += " AND hint IS NULL"
        level = f"'{HINT_LEVEL}'"
    if storage.is_postgres:
        sql = (
            f"WITH c AS (SELECT game_id, idx FROM {queue} WHERE "
            f"{free} ORDER BY queued LIMIT 1 FOR UPDATE SKIP LOCKED) "
            f"UPDATE {queue} t SET owner = :owner, lease_until = {now} + :lease, "
            "attempts = t.attempts + 1 FROM c WHERE t.game_id = c.game_id AND t.idx = c.idx "
            f"RETURNING t.game_id, t.idx, t.player, {level}, t.attempts"
        )
    else:
        sql = (
            f"UPDATE {queue} SET owner = :owner, lease_until = {now} + :lease, "
            f"attempts = attempts + 1 WHERE (game_id, idx) = (SELECT game_id, idx FROM {queue} "
            f"WHERE {free} ORDER BY queued LIMIT 1) "
            f"RETURNING game_id, idx, player, {level}, attempts"
        )
    while True:
        owner = new_owner()
        with storage.write_lock, storage.engine.begin() as conn:
            row = conn.execute(text(sql), _params(storage, owner=owner, lease=lease)).first()
        if row is None:
            return None
        found = Claim(row[0], row[1], row[2], row[3], owner, row[4], queue)
        if found.attempts <= MAX_ATTEMPTS:
            return found
        fail(storage, found, f"claimed {MAX_ATTEMPTS} times without an end")


def renew(storage: Storage, held: Claim, lease: float) -> bool:
    """Extend the claim's lease by `lease` seconds from now; False if it is no longer held
    (the turn was queued anew, or claimed again after the lease ran out)."""
    now = _now(storage)
    with storage.write_lock, storage.engine.begin() as conn:
        done = conn.execute(
            text(
                f"UPDATE {held.queue} SET lease_until = {now} + :lease "
                "WHERE game_id = :game_id AND owner = :owner"
            ),
            _params(storage, lease=lease, game_id=held.game_id, owner=held.owner),
        )
    return done.rowcount > 0


def finish(storage: Storage, held: Claim) -> None:
    """The claimed turn is over (moved, or stale): remove it, if the claim still holds it."""
    with storage.write_lock, storage.engine.begin() as conn:
        conn.execute(
            text(f"DELETE FROM {held.queue} WHERE game_id = :game_id AND owner = :owner"),
            {"game_id": held.game_id, "owner": held.owner},
        )


def fail(storage: Storage, held: Claim, reason: str) -> None:
    """The claimed turn cannot be played (its bot raised, or workers died on it): mark it
    failed, so no worker claims it until the game's next turn is queued (a hint: until it is
    asked again)."""
    with storage.write_lock, storage.engine.begin() as conn:
        conn.execute(
            text(
                f"UPDATE {held.queue} SET failed = :reason, lease_until = NULL "
                "WHERE game_id = :game_id AND owner = :owner"
            ),
            {"reason": reason[:500], "game_id": held.game_id, "owner": held.owner},
        )


def ask_hint(storage: Storage, game_id: str, index: int, player: str) -> bool:
    """Ask for the hint of `player`, to act in `game_id` at log `index` (a no-op if it is
    asked already, or worked out; asked anew if it was given up); returns whether it was
    asked now (and so announced)."""
    ensure_table(storage)
    values = {
        "game_id": game_id,
        "idx": index,
        "player": player,
        "queued": time.time(),
        "owner": None,
        "lease_until": None,
        "attempts": 0,
        "failed": None,
        "hint": None,
    }
    table = hint_asks_table
    again = {k: v for k, v in values.items() if k not in ("game_id", "idx")}
    keys = [table.c.game_id, table.c.idx]
    return _put(storage, values, again, keys, lambda _new: table.c.failed.is_not(None))


def store_hint(storage: Storage, held: Claim, hint: dict[str, Any]) -> bool:
    """The claimed ask's hint is worked out: store it (announced on :data:`HINTED_CHANNEL` on
    PostgreSQL); False if the claim no longer holds the ask (it was given up meanwhile)."""
    with storage.write_lock, storage.engine.begin() as conn:
        done = conn.execute(
            text(
                f"UPDATE {HINTS} SET hint = :hint, owner = NULL, lease_until = NULL "
                "WHERE game_id = :game_id AND idx = :idx AND owner = :owner"
            ),
            {
                "hint": json.dumps(hint),
                "game_id": held.game_id,
                "idx": held.index,
                "owner": held.owner,
            },
        )
        if done.rowcount > 0 and storage.is_postgres:
            conn.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": HINTED_CHANNEL, "payload": f"{held.game_id} {held.index}"},
            )
    return done.rowcount > 0


@dataclass(frozen=True)
class HintAsk:
    """A hint asked, as its row is: `hint` once worked out, `failed` (why) if given up."""

    player: str
    hint: dict[str, Any] | None
    failed: str | None


def hint_asked(storage: Storage, game_id: str, index: int) -> HintAsk | None:
    """The hint asked in `game_id` at log `index` (None: not asked, or dropped as stale)."""
    ensure_table(storage)
    with storage.engine.connect() as conn:
        row = conn.execute(
            text(f"SELECT player, hint, failed FROM {HINTS} WHERE game_id = :g AND idx = :i"),
            {"g": game_id, "i": index},
        ).first()
    if row is None:
        return None
    return HintAsk(row[0], None if row[1] is None else json.loads(row[1]), row[2])


@dataclass(frozen=True)
class QueuedTurn:
    """A row of the table, as it is (for tests and diagnostics)."""

    game_id: str
    index: int
    player: str
    level: str
    owner: str | None
    attempts: int
    failed: str | None


def queued_turns(storage: Storage) -> list[QueuedTurn]:
    """Every queued turn, oldest first."""
    ensure_table(storage)
    with storage.engine.connect() as conn:
        rows = conn.execute(
            text(
                "SELECT game_id, idx, player, level, owner, attempts, failed "
                "FROM tresham_bot_turns ORDER BY queued"
            )
        ).all()
    return [QueuedTurn(r[0], r[1], r[2], r[3], r[4], r[5], r[6]) for r in rows]
