"""The stored truth: games, their seats, and each game's append-only, numbered log.

SQLAlchemy 2 Core over SQLite (a file in WAL mode) or PostgreSQL (psycopg 3). Every log row is
keyed by (game, index): when two writers append the same index, the database lets exactly one
of them in and the other gets :class:`IndexTaken`. On PostgreSQL each appended row is also
announced with ``NOTIFY`` on :data:`CHANNEL` (payload ``"<game id> <index>"``) in the same
transaction, so other server processes hear of it once it is committed.

Calls are synchronous and thread-safe; the server runs them in worker threads. On SQLite the
writes of one process take turns on a lock (SQLite has one writer at a time, and waiting for
it in SQLite's own busy loop costs sleeps), and a write transaction never reads before its
first write (so it never has to upgrade a read snapshot, which SQLite refuses under
concurrency).

The tables are created on first use. A database made by an older version gets the columns it
lacks when a server opens it (:data:`ADDED_COLUMNS`: nullable, so its rows stay as they were):
a bot seat stored before bots had levels has no level, and plays as the bot of that time did
(:data:`LEGACY_BOT_LEVEL`).
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    event,
    func,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.pool import ConnectionPoolEntry

CHANNEL = "tresham_log"

metadata = MetaData()

games_table = Table(
    "tresham_games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("title", String(64), nullable=False),
    Column("rules_version", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", Text, nullable=False),
    Column("players", Text, nullable=False),
    Column("webhook", Text, nullable=True),
    Column("base_url", Text, nullable=True),
    Column("finished", Boolean, nullable=False, default=False),
    Column("created", Float, nullable=False),
)

seats_table = Table(
    "tresham_seats",
    metadata,
    Column("game_id", String(32), ForeignKey("tresham_games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player", Text, nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("bot", Boolean, nullable=False),
    Column("bot_level", String(32), nullable=True),
)

log_table = Table(
    "tresham_log",
    metadata,
    Column("game_id", String(32), ForeignKey("tresham_games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("entry", Text, nullable=False),
    Column("seat", Text, nullable=True),
    Column("created", Float, nullable=False),
)


#: Columns added since the first version of the tables: a database that lacks one gets it
#: when opened (each is nullable).
ADDED_COLUMNS: tuple[Column[Any], ...] = (seats_table.c.bot_level,)

#: The level of a bot seat stored without one (before bots had levels, every server bot
#: was the random bot).
LEGACY_BOT_LEVEL = "random"


class StorageError(Exception):
    """The database cannot be used (bad URL, unreachable server, unwritable file)."""


class IndexTaken(Exception):
    """Another writer appended this game's log entry at this index first."""


@dataclass(frozen=True)
class SeatRecord:
    """One seat: the player's name, the hash of its secret token (None for a bot), and for a
    bot its level (``bots/players.py``)."""

    player: str
    token_hash: str | None
    bot: bool = False
    bot_level: str | None = None


@dataclass(frozen=True)
class GameRecord:
    """What a game is, apart from its log."""

    id: str
    title: str
    rules_version: int
    seed: int
    options: dict[str, Any]
    players: list[str]
    seats: list[SeatRecord]
    webhook: str | None = None
    base_url: str | None = None
    finished: bool = False


@dataclass(frozen=True)
class LogRow:
    """One log entry: its index, the entry (a save-format action, or an undo/redo) and the
    player whose seat posted it (None for imported entries)."""

    index: int
    entry: dict[str, Any]
    seat: str | None = None


@dataclass
class GameSummary:
    """A line of the game list."""

    id: str
    title: str
    players: list[str]
    finished: bool
    created: float


def sqlalchemy_url(url: str) -> URL:
    """The SQLAlchemy URL for a database URL: ``postgresql://`` uses psycopg 3."""
    try:
        parsed = make_url(url)
    except Exception as exc:
        raise StorageError(f"not a database URL: {url!r} ({exc})") from None
    if parsed.get_backend_name() == "postgresql":
        return parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() == "sqlite":
        return parsed
    raise StorageError(f"unsupported database {parsed.drivername!r}: use sqlite or postgresql")


def _sqlite_pragmas(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


def _seat(player: str, token: str | None, bot: bool, level: str | None) -> SeatRecord:
    """A stored seat (a bot stored without a level: :data:`LEGACY_BOT_LEVEL`)."""
    if not bot:
        return SeatRecord(player, token)
    return SeatRecord(player, token, True, level or LEGACY_BOT_LEVEL)


class Storage:
    """Games and logs in one database."""

    def __init__(self, url: str) -> None:
        self.url = sqlalchemy_url(url)
        self.is_postgres = self.url.get_backend_name() == "postgresql"
        kwargs: dict[str, Any] = {"future": True}
        if self.is_postgres:
            kwargs.update(pool_size=10, max_overflow=20, pool_pre_ping=True)
        else:
            database = self.url.database or ""
            if database in ("", ":memory:"):
                raise StorageError("an SQLite database must be a file (sqlite:///PATH)")
            try:
                Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StorageError(f"cannot create the folder of {database}: {exc}") from None
            kwargs.update(connect_args={"check_same_thread": False, "timeout": 10})
        self.engine: Engine = create_engine(self.url, **kwargs)
        self._write_lock: contextlib.AbstractContextManager[object] = (
            contextlib.nullcontext() if self.is_postgres else threading.Lock()
        )
        if not self.is_postgres:
            event.listen(self.engine, "connect", _sqlite_pragmas)
        try:
            metadata.create_all(self.engine)
            self._add_missing_columns()
        except Exception as exc:
            self.engine.dispose()
            reason = " ".join(str(getattr(exc, "orig", None) or exc).split())
            raise StorageError(f"cannot open the database {self.describe()}: {reason}") from None

    def _add_missing_columns(self) -> None:
        """Add the columns of :data:`ADDED_COLUMNS` that the database lacks (one made by an
        older version). Several processes may start at once: PostgreSQL adds a column only
        if it is still missing, and on SQLite the loser of the race finds it there."""
        for column in ADDED_COLUMNS:
            table = column.table.name
            with self.engine.connect() as conn:
                present = {c["name"] for c in inspect(conn).get_columns(table)}
            if column.name in present:
                continue
            kind = column.type.compile(dialect=self.engine.dialect)
            guard = "IF NOT EXISTS " if self.is_postgres else ""
            statement = f"ALTER TABLE {table} ADD COLUMN {guard}{column.name} {kind}"
            try:
                with self._write_lock, self.engine.begin() as conn:
                    conn.execute(text(statement))
            except OperationalError:
                with self.engine.connect() as conn:
                    present = {c["name"] for c in inspect(conn).get_columns(table)}
                if column.name not in present:
                    raise

    def describe(self) -> str:
        """The database's URL, without a password."""
        return self.url.set(drivername=self.url.get_backend_name()).render_as_string()

    def conninfo(self) -> str:
        """A libpq connection string for PostgreSQL (for LISTEN)."""
        plain = self.url.set(drivername="postgresql")
        return plain.render_as_string(hide_password=False)

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    # ------------------------------------------------------------------ writes
    def create_game(self, record: GameRecord, rows: list[LogRow]) -> None:
        """Store a new game, its seats and its first log entries (an import's) at once."""
        now = time.time()
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(
                insert(games_table).values(
                    id=record.id,
                    title=record.title,
                    rules_version=record.rules_version,
                    seed=record.seed,
                    options=json.dumps(record.options, sort_keys=True),
                    players=json.dumps(record.players),
                    webhook=record.webhook,
                    base_url=record.base_url,
                    finished=record.finished,
                    created=now,
                )
            )
            conn.execute(
                insert(seats_table),
                [
                    {
                        "game_id": record.id,
                        "seat": i,
                        "player": seat.player,
                        "token_hash": seat.token_hash,
                        "bot": seat.bot,
                        "bot_level": seat.bot_level if seat.bot else None,
                    }
                    for i, seat in enumerate(record.seats)
                ],
            )
            if rows:
                conn.execute(insert(log_table), [self._row_values(record.id, r, now) for r in rows])

    def append(self, game_id: str, row: LogRow, apply: Callable[[], bool]) -> None:
        """Append `row` to the log, calling `apply` (which applies it in memory and says
        whether the game is now finished) inside the transaction: if `apply` raises, nothing
        is stored. Raises :class:`IndexTaken` if the index is already taken."""
        try:
            with self._write_lock, self.engine.begin() as conn:
                conn.execute(insert(log_table).values(self._row_values(game_id, row, time.time())))
                finished = apply()
                if finished:
                    conn.execute(
                        update(games_table).where(games_table.c.id == game_id).values(finished=True)
                    )
                if self.is_postgres:
                    self._notify(conn, game_id, row.index + 1)
        except IntegrityError:
            raise IndexTaken(f"entry {row.index} of game {game_id} is taken") from None

    @staticmethod
    def _row_values(game_id: str, row: LogRow, now: float) -> dict[str, Any]:
        return {
            "game_id": game_id,
            "idx": row.index,
            "entry": json.dumps(row.entry, sort_keys=True),
            "seat": row.seat,
            "created": now,
        }

    @staticmethod
    def _notify(conn: Connection, game_id: str, index: int) -> None:
        conn.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": CHANNEL, "payload": f"{game_id} {index}"},
        )

    # ------------------------------------------------------------------ reads
    def game(self, game_id: str) -> GameRecord | None:
        """The game's record, or None if there is no such game."""
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == game_id)).first()
            if row is None:
                return None
            seats = conn.execute(
                select(
                    seats_table.c.player,
                    seats_table.c.token_hash,
                    seats_table.c.bot,
                    seats_table.c.bot_level,
                )
                .where(seats_table.c.game_id == game_id)
                .order_by(seats_table.c.seat)
            ).all()
        return GameRecord(
            id=row.id,
            title=row.title,
            rules_version=row.rules_version,
            seed=row.seed,
            options=json.loads(row.options),
            players=json.loads(row.players),
            seats=[_seat(s.player, s.token_hash, bool(s.bot), s.bot_level) for s in seats],
            webhook=row.webhook,
            base_url=row.base_url,
            finished=bool(row.finished),
        )

    def entries(self, game_id: str, start: int = 0) -> list[LogRow]:
        """The game's log entries from index `start` on, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(log_table.c.idx, log_table.c.entry, log_table.c.seat)
                .where(log_table.c.game_id == game_id, log_table.c.idx >= start)
                .order_by(log_table.c.idx)
            ).all()
        return [LogRow(r.idx, json.loads(r.entry), r.seat) for r in rows]

    def log_length(self, game_id: str) -> int:
        """How many entries the game's log has."""
        with self.engine.connect() as conn:
            count = conn.execute(
                select(func.count()).select_from(log_table).where(log_table.c.game_id == game_id)
            ).scalar_one()
        return int(count)

    def games_with_bots(self) -> list[str]:
        """Ids of unfinished games in which a bot has a seat."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id)
                .where(games_table.c.finished.is_(False))
                .where(
                    games_table.c.id.in_(
                        select(seats_table.c.game_id).where(seats_table.c.bot.is_(True))
                    )
                )
            ).all()
        return [r.id for r in rows]

    def list_games(self, limit: int = 100) -> list[GameSummary]:
        """The most recently created games, newest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    games_table.c.id,
                    games_table.c.title,
                    games_table.c.players,
                    games_table.c.finished,
                    games_table.c.created,
                )
                .order_by(games_table.c.created.desc())
                .limit(limit)
            ).all()
        return [
            GameSummary(r.id, r.title, json.loads(r.players), bool(r.finished), r.created)
            for r in rows
        ]
