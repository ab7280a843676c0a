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
lacks when a server opens it (:data:`ADDED_COLUMNS`: nullable, so its rows stay as they were),
and the indexes (:data:`ADDED_INDEXES`): a bot seat stored before bots had levels has no level,
and plays as the bot of that time did (:data:`LEGACY_BOT_LEVEL`); a game stored before games
had open seats is started, private and has no host (:class:`Hosting`).

A game with open seats is stored before it starts: its seats fill as people join (one row
each; the key (game, seat) and the unique (game, player) let one join take a seat and a name,
whatever the race), and when it starts its players are written in their seating order. Each
change to a waiting game first updates the game's row, so that joins, leaves and the start of
one game take turns (a row lock on PostgreSQL, the one writer on SQLite). Chat lines are kept
beside the log (:data:`chat_table`), never in it: they change nothing in the game; on
PostgreSQL each is announced on :data:`CHAT_CHANNEL` as log entries are on :data:`CHANNEL`.
A seat may have a webhook of its own (its row's ``webhook``), called when it becomes that
seat's turn, as the game's webhook (its row's) is for every seat.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
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
    Index,
    Integer,
    MetaData,
    Row,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    true,
    update,
)
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.pool import ConnectionPoolEntry

CHANNEL = "tresham_log"
#: The channel of chat news (payload ``"<game id> <line number>"``).
CHAT_CHANNEL = "tresham_chat"
#: The channel of hint notes (payload ``"<game id> <note number>"``).
HINT_CHANNEL = "tresham_hints"
#: The advisory lock PostgreSQL processes take while creating the tables.
SCHEMA_LOCK = 0x7E5A4A

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
    Column("started", Boolean, nullable=True),
    Column("seats_wanted", Integer, nullable=True),
    Column("public", Boolean, nullable=True),
    Column("host_hash", String(64), nullable=True),
    Column("spectator_chat", Boolean, nullable=True),
    Column("hints", Boolean, nullable=True),
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
    Column("webhook", Text, nullable=True),
    # the seat's standing orders and the latest of those that ended (JSON; orders.py)
    Column("orders", Text, nullable=True),
)

#: A name sits once at a game (what stops two racing joins taking one name).
seat_names = Index("tresham_seats_player", seats_table.c.game_id, seats_table.c.player, unique=True)

chat_table = Table(
    "tresham_chat",
    metadata,
    Column("game_id", String(32), ForeignKey("tresham_games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("player", Text, nullable=False),
    Column("spectator", Boolean, nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Integer, nullable=False),
    Column("created", Float, nullable=False),
)

#: That a seat was shown a hint (``server/hints.py``): beside the log, never in it (a hint is
#: no action of the game), numbered per game, at the log index it was shown at.
hint_notes_table = Table(
    "tresham_hint_notes",
    metadata,
    Column("game_id", String(32), ForeignKey("tresham_games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("player", Text, nullable=False),
    Column("at", Integer, nullable=False),
    Column("created", Float, nullable=False),
)

log_table = Table(
    "tresham_log",
    metadata,
    Column("game_id", String(32), ForeignKey("tresham_games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("entry", Text, nullable=False),
    Column("seat", Text, nullable=True),
    Column("created", Float, nullable=False),
    # the kind of the seat's standing order that made the entry (None: the seat did)
    Column("standing_order", String(32), nullable=True),
)


#: Columns added since the first version of the tables: a database that lacks one gets it
#: when opened (each is nullable).
ADDED_COLUMNS: tuple[Column[Any], ...] = (
    seats_table.c.bot_level,
    games_table.c.started,
    games_table.c.seats_wanted,
    games_table.c.public,
    games_table.c.host_hash,
    games_table.c.spectator_chat,
    seats_table.c.webhook,
    seats_table.c.orders,
    log_table.c.standing_order,
    games_table.c.hints,
)

#: Indexes added since the first version of the tables (made when a database lacks them).
ADDED_INDEXES: tuple[Index, ...] = (seat_names,)

#: The level of a bot seat stored without one (before bots had levels, every server bot
#: was the random bot).
LEGACY_BOT_LEVEL = "random"


class StorageError(Exception):
    """The database cannot be used (bad URL, unreachable server, unwritable file)."""


class IndexTaken(Exception):
    """Another writer appended this game's log entry at this index first."""


class SeatRefused(Exception):
    """A seat of a waiting game cannot be taken, left or the game started: `reason` is one
    of :data:`SEAT_REASONS`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


#: Why a waiting game refuses: no such game; it has started; no seat is free; the name sits
#: there already; the token holds no seat of it.
SEAT_REASONS = ("missing", "started", "full", "name", "no seat")


@dataclass(frozen=True)
class SeatRecord:
    """One seat: the player's name, the hash of its secret token (None for a bot), and for a
    bot its level (``bots/players.py``)."""

    player: str
    token_hash: str | None
    bot: bool = False
    bot_level: str | None = None


@dataclass(frozen=True)
class Hosting:
    """How a game is hosted: whether it has started (a game with open seats waits until
    they fill or its host starts it), how many seats it has then (None: it was made full),
    whether strangers see it listed, whether spectators may chat, the hash of its host's
    secret token (None: no host, as in a game stored before games had hosts), and whether its
    seats may ask for hints (``server/hints.py``; a game stored before hints: no)."""

    started: bool = True
    seats_wanted: int | None = None
    public: bool = False
    spectator_chat: bool = False
    host_hash: str | None = None
    hints: bool = False


@dataclass(frozen=True)
class HintNote:
    """That `player`'s seat was shown a hint: the note's number in the game, and the log
    index it was shown at."""

    index: int
    player: str
    at: int
    created: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The note as the API gives it, with its line for the log."""
        return {
            "index": self.index,
            "player": self.player,
            "at": self.at,
            "created": self.created,
            "text": f"{self.player} asked for a hint",
        }


@dataclass(frozen=True)
class GameRecord:
    """What a game is, apart from its log (and its chat). A game waiting for players has
    no `players` yet, and `seats` are those taken so far."""

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
    hosting: Hosting = Hosting()


@dataclass(frozen=True)
class ChatLine:
    """A chat message: its number in the game's chat, who wrote it (a seat's player, or a
    spectator's chosen name), its text, and the log index it was written at."""

    index: int
    player: str
    text: str
    at: int
    spectator: bool = False
    created: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The line as the API gives it."""
        return {
            "index": self.index,
            "player": self.player,
            "spectator": self.spectator,
            "text": self.text,
            "at": self.at,
            "created": self.created,
        }


@dataclass(frozen=True)
class LogRow:
    """One log entry: its index, the entry (a save-format action, or an undo/redo), the
    player whose seat posted it (None for imported entries) and, when one of that seat's
    standing orders made it, the order's kind."""

    index: int
    entry: dict[str, Any]
    seat: str | None = None
    order: str | None = None


@dataclass
class GameSummary:
    """A line of the game list: `players` are the seats taken so far, in seat order (in the
    order they were taken while the game waits)."""

    id: str
    title: str
    players: list[str]
    finished: bool
    created: float
    hosting: Hosting = Hosting()


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


def _hosting(row: Any) -> Hosting:
    """A game row's hosting (a row stored before games had hosts: started, private)."""
    return Hosting(
        started=row.started is None or bool(row.started),
        seats_wanted=row.seats_wanted,
        public=bool(row.public),
        spectator_chat=bool(row.spectator_chat),
        host_hash=row.host_hash,
        hints=bool(row.hints),
    )


def _seat_rows(game_id: str, seats: Iterable[SeatRecord]) -> list[dict[str, Any]]:
    return [
        {
            "game_id": game_id,
            "seat": i,
            "player": seat.player,
            "token_hash": seat.token_hash,
            "bot": seat.bot,
            "bot_level": seat.bot_level if seat.bot else None,
        }
        for i, seat in enumerate(seats)
    ]


class Storage:
    """Games and logs in one database."""

    def __init__(self, url: str) -> None:
        self.url = sqlalchemy_url(url)
        self.is_postgres = self.url.get_backend_name() == "postgresql"
        # hide_parameters: an error's message never repeats what was stored (a webhook's URL
        # is its receiver's secret) into a log
        kwargs: dict[str, Any] = {"future": True, "hide_parameters": True}
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
            self._create_tables()
            self._add_missing_columns()
            self._add_missing_indexes()
        except Exception as exc:
            self.engine.dispose()
            reason = " ".join(str(getattr(exc, "orig", None) or exc).split())
            raise StorageError(f"cannot open the database {self.describe()}: {reason}") from None

    def _create_tables(self) -> None:
        """Create the tables the database lacks. On PostgreSQL, processes starting at once
        take turns (an advisory lock): two creating one table would collide; on SQLite the
        loser of that race looks again (a few times) and finds the table there."""
        if not self.is_postgres:
            for attempt in range(5):
                try:
                    metadata.create_all(self.engine)
                    return
                except OperationalError:  # created meanwhile, or a snapshot gone stale
                    if attempt == 4:
                        raise
                    time.sleep(0.05 * (attempt + 1))
        with self.engine.begin() as conn:
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})
            metadata.create_all(conn)

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

    def _add_missing_indexes(self) -> None:
        """Make the indexes of :data:`ADDED_INDEXES` that the database lacks (the loser of
        a race between starting processes finds the index there)."""
        for index in ADDED_INDEXES:
            assert index.table is not None
            table = index.table.name
            with self.engine.connect() as conn:
                present = {i["name"] for i in inspect(conn).get_indexes(table)}
            if index.name in present:
                continue
            try:
                with self._write_lock, self.engine.begin() as conn:
                    index.create(conn, checkfirst=True)
            except DBAPIError:
                with self.engine.connect() as conn:
                    present = {i["name"] for i in inspect(conn).get_indexes(table)}
                if index.name not in present:
                    raise

    def describe(self) -> str:
        """The database's URL, without a password."""
        return self.url.set(drivername=self.url.get_backend_name()).render_as_string()

    def conninfo(self) -> str:
        """A libpq connection string for PostgreSQL (for LISTEN)."""
        plain = self.url.set(drivername="postgresql")
        return plain.render_as_string(hide_password=False)

    @property
    def write_lock(self) -> contextlib.AbstractContextManager[object]:
        """What this process's writes take turns on (SQLite; nothing on PostgreSQL), for
        writers of tables kept beside this module's (``server/claims.py``)."""
        return self._write_lock

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()

    # ------------------------------------------------------------------ writes
    def create_game(
        self, record: GameRecord, rows: list[LogRow], chat: Iterable[ChatLine] = ()
    ) -> None:
        """Store a new game, its seats, its first log entries and chat lines (an import's)
        at once."""
        now = time.time()
        hosting = record.hosting
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
                    started=hosting.started,
                    seats_wanted=hosting.seats_wanted,
                    public=hosting.public,
                    spectator_chat=hosting.spectator_chat,
                    host_hash=hosting.host_hash,
                    hints=hosting.hints,
                )
            )
            if record.seats:
                conn.execute(insert(seats_table), _seat_rows(record.id, record.seats))
            if rows:
                conn.execute(insert(log_table), [self._row_values(record.id, r, now) for r in rows])
            lines = [self._chat_values(record.id, line, now) for line in chat]
            if lines:
                conn.execute(insert(chat_table), lines)

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
                    self._notify(conn, CHANNEL, game_id, row.index + 1)
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
            "standing_order": row.order,
        }

    @staticmethod
    def _notify(conn: Connection, channel: str, game_id: str, number: int) -> None:
        """Announce `"<game id> <number>"` on `channel` when the transaction commits."""
        conn.execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": channel, "payload": f"{game_id} {number}"},
        )

    # ------------------------------------------------------------------ waiting games
    def _hold(self, conn: Connection, game_id: str, waiting: bool = True) -> None:
        """Begin a change of a game (of a waiting one, if `waiting`) by updating its row: the
        changes of one game take turns from here to the commit. Raises SeatRefused
        ("missing", "started")."""
        held = conn.execute(
            update(games_table)
            .where(games_table.c.id == game_id)
            .where(games_table.c.started.is_(False) if waiting else true())
            .values(title=games_table.c.title)
        )
        if held.rowcount == 0:
            exists = conn.execute(
                select(games_table.c.id).where(games_table.c.id == game_id)
            ).first()
            raise SeatRefused("missing" if exists is None else "started")

    def join_seat(self, game_id: str, seat: SeatRecord) -> GameRecord:
        """Give `seat` the first free seat of a waiting game; returns the game as it is now.
        Raises SeatRefused ("missing", "started", "full", "name")."""
        for _attempt in range(3):
            try:
                with self._write_lock, self.engine.begin() as conn:
                    self._hold(conn, game_id)
                    record = self._record(conn, game_id)
                    assert record is not None
                    if any(s.player == seat.player for s in record.seats):
                        raise SeatRefused("name")
                    taken = {
                        r.seat
                        for r in conn.execute(
                            select(seats_table.c.seat).where(seats_table.c.game_id == game_id)
                        )
                    }
                    free = [n for n in range(record.hosting.seats_wanted or 0) if n not in taken]
                    if not free:
                        raise SeatRefused("full")
                    values = _seat_rows(game_id, [seat])[0]
                    conn.execute(insert(seats_table).values({**values, "seat": free[0]}))
                    return self._record(conn, game_id) or record
            except IntegrityError:
                continue  # another join took the seat or the name first: look again
        raise SeatRefused("full")

    def leave_seat(self, game_id: str, token_hash: str) -> str:
        """Free the seat of a waiting game whose token hash this is; returns its player.
        Raises SeatRefused ("missing", "started", "no seat")."""
        with self._write_lock, self.engine.begin() as conn:
            self._hold(conn, game_id)
            row = conn.execute(
                select(seats_table.c.player).where(
                    seats_table.c.game_id == game_id, seats_table.c.token_hash == token_hash
                )
            ).first()
            if row is None:
                raise SeatRefused("no seat")
            conn.execute(
                delete(seats_table).where(
                    seats_table.c.game_id == game_id, seats_table.c.token_hash == token_hash
                )
            )
            return str(row.player)

    def start_game(
        self, game_id: str, arrange: Callable[[GameRecord], list[SeatRecord]]
    ) -> GameRecord:
        """Start a waiting game: `arrange` puts its seats in their seating order (or raises,
        and nothing changes); they become its players. Returns the started game. Raises
        SeatRefused ("missing", "started")."""
        with self._write_lock, self.engine.begin() as conn:
            self._hold(conn, game_id)
            record = self._record(conn, game_id)
            assert record is not None
            seats = arrange(record)
            players = [s.player for s in seats]
            hooks = {
                r.player: r.webhook
                for r in conn.execute(
                    select(seats_table.c.player, seats_table.c.webhook).where(
                        seats_table.c.game_id == game_id
                    )
                )
            }
            rows = [{**r, "webhook": hooks.get(r["player"])} for r in _seat_rows(game_id, seats)]
            conn.execute(delete(seats_table).where(seats_table.c.game_id == game_id))
            conn.execute(insert(seats_table), rows)
            conn.execute(
                update(games_table)
                .where(games_table.c.id == game_id)
                .values(started=True, players=json.dumps(players))
            )
            started = self._record(conn, game_id)
            assert started is not None
            return started

    def set_listing(
        self, game_id: str, public: bool | None = None, spectator_chat: bool | None = None
    ) -> None:
        """Change whether a game is listed and whether its spectators may chat (None:
        unchanged)."""
        values: dict[str, Any] = {}
        if public is not None:
            values["public"] = public
        if spectator_chat is not None:
            values["spectator_chat"] = spectator_chat
        if values:
            with self._write_lock, self.engine.begin() as conn:
                conn.execute(update(games_table).where(games_table.c.id == game_id).values(values))

    # ------------------------------------------------------------------ webhooks
    def set_seat_webhook(self, game_id: str, player: str, url: str | None) -> None:
        """Set (None: clear) the webhook of `player`'s seat. Raises SeatRefused
        ("no seat")."""
        with self._write_lock, self.engine.begin() as conn:
            changed = conn.execute(
                update(seats_table)
                .where(seats_table.c.game_id == game_id, seats_table.c.player == player)
                .values(webhook=url)
            )
            if changed.rowcount == 0:
                raise SeatRefused("no seat")

    def seat_webhook(self, game_id: str, player: str) -> str | None:
        """The webhook of `player`'s seat (None: it has none)."""
        with self.engine.connect() as conn:
            url = conn.execute(
                select(seats_table.c.webhook).where(
                    seats_table.c.game_id == game_id, seats_table.c.player == player
                )
            ).scalar()
        return None if url is None else str(url)

    # ------------------------------------------------------------------ standing orders
    def set_seat_orders(self, game_id: str, player: str, orders: dict[str, Any]) -> None:
        """Store the standing orders of `player`'s seat (``{"orders", "ended"}``, as
        ``server/standing.py`` keeps them). Raises SeatRefused ("no seat")."""
        with self._write_lock, self.engine.begin() as conn:
            changed = conn.execute(
                update(seats_table)
                .where(seats_table.c.game_id == game_id, seats_table.c.player == player)
                .values(orders=json.dumps(orders, sort_keys=True))
            )
            if changed.rowcount == 0:
                raise SeatRefused("no seat")

    def seat_orders(self, game_id: str) -> dict[str, dict[str, Any]]:
        """The standing orders of the game's seats that hold any, by player."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(seats_table.c.player, seats_table.c.orders).where(
                    seats_table.c.game_id == game_id, seats_table.c.orders.is_not(None)
                )
            ).all()
        return {str(r.player): json.loads(r.orders) for r in rows}

    def turn_webhooks(self, game_id: str, player: str) -> list[str]:
        """Whom to tell that it is `player`'s turn: the game's webhook and the seat's (each
        URL once)."""
        with self.engine.connect() as conn:
            game = conn.execute(
                select(games_table.c.webhook).where(games_table.c.id == game_id)
            ).scalar()
            seat = conn.execute(
                select(seats_table.c.webhook).where(
                    seats_table.c.game_id == game_id,
                    seats_table.c.player == player,
                )
            ).scalar()
        return list(dict.fromkeys(str(url) for url in (game, seat) if url))

    # ------------------------------------------------------------------ lines beside the log
    @staticmethod
    def _next_number(conn: Connection, table: Table, game_id: str) -> int:
        """The number the game's next line in `table` (chat, hint notes) gets."""
        last = conn.execute(
            select(func.max(table.c.idx)).where(table.c.game_id == game_id)
        ).scalar_one()
        return 0 if last is None else int(last) + 1

    def _numbered(self, table: Table, game_id: str, start: int) -> Sequence[Row[Any]]:
        """The game's lines in `table` from number `start` on, in order."""
        with self.engine.connect() as conn:
            return conn.execute(
                select(table)
                .where(table.c.game_id == game_id, table.c.idx >= start)
                .order_by(table.c.idx)
            ).all()

    # ------------------------------------------------------------------ chat
    def add_chat(self, game_id: str, line: ChatLine) -> ChatLine:
        """Add a chat line to a game (its number is the next one; `line.index` is ignored);
        returns it as stored. Raises SeatRefused ("missing")."""
        now = time.time()
        with self._write_lock, self.engine.begin() as conn:
            self._hold(conn, game_id, waiting=False)
            number = self._next_number(conn, chat_table, game_id)
            stored = ChatLine(number, line.player, line.text, line.at, line.spectator, now)
            conn.execute(insert(chat_table).values(self._chat_values(game_id, stored, now)))
            if self.is_postgres:
                self._notify(conn, CHAT_CHANNEL, game_id, number)
        return stored

    def chat(self, game_id: str, start: int = 0) -> list[ChatLine]:
        """The game's chat lines from number `start` on, in order."""
        rows = self._numbered(chat_table, game_id, start)
        return [ChatLine(r.idx, r.player, r.text, r.at, bool(r.spectator), r.created) for r in rows]

    @staticmethod
    def _chat_values(game_id: str, line: ChatLine, now: float) -> dict[str, Any]:
        return {
            "game_id": game_id,
            "idx": line.index,
            "player": line.player,
            "spectator": line.spectator,
            "text": line.text,
            "at": line.at,
            "created": line.created or now,
        }

    # ------------------------------------------------------------------ hint notes
    def add_hint_note(self, game_id: str, player: str, at: int) -> HintNote:
        """Note that `player`'s seat was shown a hint at log index `at`; returns the note as
        stored. Raises SeatRefused ("missing")."""
        now = time.time()
        with self._write_lock, self.engine.begin() as conn:
            self._hold(conn, game_id, waiting=False)
            note = HintNote(self._next_number(conn, hint_notes_table, game_id), player, at, now)
            conn.execute(
                insert(hint_notes_table).values(
                    game_id=game_id, idx=note.index, player=player, at=at, created=now
                )
            )
            if self.is_postgres:
                self._notify(conn, HINT_CHANNEL, game_id, note.index)
        return note

    def hint_notes(self, game_id: str, start: int = 0) -> list[HintNote]:
        """The game's hint notes from number `start` on, in order."""
        rows = self._numbered(hint_notes_table, game_id, start)
        return [HintNote(r.idx, r.player, r.at, r.created) for r in rows]

    # ------------------------------------------------------------------ reads
    def game(self, game_id: str) -> GameRecord | None:
        """The game's record, or None if there is no such game."""
        with self.engine.connect() as conn:
            return self._record(conn, game_id)

    @staticmethod
    def _record(conn: Connection, game_id: str) -> GameRecord | None:
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
            hosting=_hosting(row),
        )

    def entries(self, game_id: str, start: int = 0) -> list[LogRow]:
        """The game's log entries from index `start` on, in order."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    log_table.c.idx,
                    log_table.c.entry,
                    log_table.c.seat,
                    log_table.c.standing_order,
                )
                .where(log_table.c.game_id == game_id, log_table.c.idx >= start)
                .order_by(log_table.c.idx)
            ).all()
        return [LogRow(r.idx, json.loads(r.entry), r.seat, r.standing_order) for r in rows]

    def log_length(self, game_id: str) -> int:
        """How many entries the game's log has."""
        with self.engine.connect() as conn:
            count = conn.execute(
                select(func.count()).select_from(log_table).where(log_table.c.game_id == game_id)
            ).scalar_one()
        return int(count)

    def games_with_bots(self) -> list[str]:
        """Ids of unfinished, started games in which a bot has a seat."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id)
                .where(games_table.c.finished.is_(False))
                .where(or_(games_table.c.started.is_(None), games_table.c.started.is_(True)))
                .where(
                    games_table.c.id.in_(
                        select(seats_table.c.game_id).where(seats_table.c.bot.is_(True))
                    )
                )
            ).all()
        return [r.id for r in rows]

    def list_games(
        self, limit: int = 100, *, public_only: bool = False, ids: Iterable[str] | None = None
    ) -> list[GameSummary]:
        """The most recently created games, newest first: only the unfinished public ones
        if `public_only`, only those of `ids` if given."""
        query = select(games_table).order_by(games_table.c.created.desc()).limit(limit)
        if public_only:
            query = query.where(games_table.c.public.is_(True), games_table.c.finished.is_(False))
        if ids is not None:
            query = query.where(games_table.c.id.in_(list(ids)))
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
            seated: dict[str, list[str]] = {r.id: [] for r in rows}
            for seat in conn.execute(
                select(seats_table.c.game_id, seats_table.c.player)
                .where(seats_table.c.game_id.in_(list(seated)))
                .order_by(seats_table.c.game_id, seats_table.c.seat)
            ):
                seated[seat.game_id].append(seat.player)
        return [
            GameSummary(r.id, r.title, seated[r.id], bool(r.finished), r.created, _hosting(r))
            for r in rows
        ]
