"""The server's storage and live games, on SQLite and on a real PostgreSQL server: the log is
append-only and numbered, one writer wins each index, a refused entry stores nothing, and a
game rebuilt from its log (take-backs included) is the game that was played; a database made
by an older version gets the columns it lacks and keeps working."""

from __future__ import annotations

import functools
import random
import threading
from typing import Any

import psycopg
import pytest
from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    insert,
    inspect,
)

from conftest_server import PgCluster
from tresham.core.errors import RuleError
from tresham.io.save import new_game
from tresham.server.live import LiveGame, TakeBack, token_hash
from tresham.server.storage import (
    CHANNEL,
    LEGACY_BOT_LEVEL,
    GameRecord,
    IndexTaken,
    LogRow,
    SeatRecord,
    Storage,
    StorageError,
    games_table,
    log_table,
    sqlalchemy_url,
)
from tresham.server.view import public_state
from tresham.titles.registry import get_title

PLAYERS = ["Ann", "Bob", "Cid"]


def record(game_id: str = "g1", bots: tuple[str, ...] = (), level: str = "easy") -> GameRecord:
    return GameRecord(
        id=game_id,
        title="1849",
        rules_version=get_title("1849").rules_version,
        seed=11,
        options={"delay_ift": True},
        players=list(PLAYERS),
        seats=[
            SeatRecord(p, None, True, level) if p in bots else SeatRecord(p, token_hash(p))
            for p in PLAYERS
        ],
        webhook="http://127.0.0.1:9/hook",
    )


def row(index: int, seat: str = "Ann") -> LogRow:
    return LogRow(index, {"type": "pass", "entity": seat}, seat)


@pytest.fixture
def storage(db_url: str) -> Any:
    store = Storage(db_url)
    yield store
    store.close()


def test_a_game_reads_back_as_stored(storage: Storage) -> None:
    storage.create_game(record(bots=("Cid",)), [row(0)])
    got = storage.game("g1")
    assert got is not None
    assert got.title == "1849" and got.seed == 11 and got.options == {"delay_ift": True}
    assert [s.player for s in got.seats] == PLAYERS
    assert got.seats[2].bot and got.seats[2].token_hash is None
    assert [s.bot_level for s in got.seats] == [None, None, "easy"]
    assert got.seats[0].token_hash == token_hash("Ann")
    assert got.webhook == "http://127.0.0.1:9/hook"
    assert storage.game("nope") is None
    assert storage.entries("g1") == [row(0)]
    assert storage.games_with_bots() == ["g1"]
    assert [g.id for g in storage.list_games()] == ["g1"]


def test_entries_come_back_in_order_from_any_index(storage: Storage) -> None:
    storage.create_game(record(), [])
    for i in range(5):
        storage.append("g1", row(i, PLAYERS[i % 3]), lambda: False)
    assert [r.index for r in storage.entries("g1")] == [0, 1, 2, 3, 4]
    assert storage.entries("g1", 3) == [row(3, "Ann"), row(4, "Bob")]
    assert storage.log_length("g1") == 5


def test_an_index_is_taken_once(storage: Storage) -> None:
    storage.create_game(record(), [])
    storage.append("g1", row(0), lambda: False)
    with pytest.raises(IndexTaken):
        storage.append("g1", row(0, "Bob"), lambda: False)
    assert storage.entries("g1") == [row(0)]


def test_an_entry_refused_in_memory_is_not_stored(storage: Storage) -> None:
    storage.create_game(record(), [])

    def refuse() -> bool:
        raise RuleError("no", "test")

    with pytest.raises(RuleError):
        storage.append("g1", row(0), refuse)
    assert storage.entries("g1") == []
    storage.append("g1", row(0), lambda: True)
    game = storage.game("g1")
    assert game is not None and game.finished
    assert storage.games_with_bots() == []


def test_simultaneous_appends_of_one_index_let_exactly_one_in(storage: Storage) -> None:
    storage.create_game(record(), [])
    outcomes: list[str] = []
    barrier = threading.Barrier(4)

    def writer(seat: str) -> None:
        barrier.wait()
        try:
            storage.append("g1", row(0, seat), lambda: False)
            outcomes.append("ok")
        except IndexTaken:
            outcomes.append("taken")

    threads = [threading.Thread(target=writer, args=(p,)) for p in [*PLAYERS, "Dan"]]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["ok", "taken", "taken", "taken"]
    assert len(storage.entries("g1")) == 1


def test_a_game_rebuilt_from_its_log_is_the_game_played(storage: Storage) -> None:
    """Actions, undo and redo go to the log; replaying it gives the same state."""
    game = new_game("1849", PLAYERS, seed=11, options={"delay_ift": True})
    live = LiveGame.adopt(record(), game, public_state)
    storage.create_game(record(), [])
    rng = random.Random(2)
    for step in range(40):
        player = live.game.acting_player()
        assert player is not None
        if step % 7 == 6 and live.undo_seat() == player:
            entry: Any = TakeBack("undo", player)
        elif step % 7 == 0 and live.redo_seat() == player:
            entry = TakeBack("redo", player)
        else:
            entry = rng.choice(live.game.legal_actions())
        live.check_seat(player, entry)
        new = LogRow(live.index, entry.to_json(), player)
        storage.append("g1", new, functools.partial(live.apply_posted, new, entry))
    live.refresh_snapshot()
    stored = storage.game("g1")
    assert stored is not None
    again = LiveGame.rebuild(stored, storage.entries("g1"), public_state)
    assert again.index == live.index == 40
    assert any(r.entry["type"] == "undo" for r in again.rows)
    assert again.game.state_hash() == live.game.state_hash()
    assert again.snapshot == live.snapshot
    assert again.actors == live.actors and again.undone_actors == live.undone_actors


def test_a_bad_database_url_is_a_clear_error(tmp_path: Any) -> None:
    with pytest.raises(StorageError, match="unsupported database"):
        Storage("mysql://localhost/x")
    with pytest.raises(StorageError, match="must be a file"):
        Storage("sqlite://")


def test_postgresql_announces_each_entry(pg_cluster: PgCluster, pg_url: str) -> None:
    storage = Storage(pg_url)
    try:
        storage.create_game(record(), [])
        with psycopg.connect(storage.conninfo(), autocommit=True) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            storage.append("g1", row(0), lambda: False)
            storage.append("g1", row(1, "Bob"), lambda: False)
            heard = [n.payload for n in conn.notifies(timeout=5, stop_after=2)]
        assert heard == ["g1 1", "g1 2"]
    finally:
        storage.close()


# ---------------------------------------------------------------------- older databases
def old_schema() -> MetaData:
    """The tables as the first version of the server made them (no seat has a bot level)."""
    old = MetaData()
    games_table.to_metadata(old)
    log_table.to_metadata(old)
    Table(
        "tresham_seats",
        old,
        Column("game_id", String(32), ForeignKey("tresham_games.id"), primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("player", Text, nullable=False),
        Column("token_hash", String(64), nullable=True),
        Column("bot", Boolean, nullable=False),
    )
    return old


def test_a_database_of_an_older_version_keeps_working(db_url: str) -> None:
    """A database made before bots had levels gets the seats' level column when a server
    opens it; its games read back as they were, a bot seat stored without a level plays as
    the random bot it was, and new games store their bots' levels."""
    engine = create_engine(sqlalchemy_url(db_url))
    if db_url.startswith("sqlite"):
        with engine.connect() as conn:  # as the server made it
            conn.exec_driver_sql("PRAGMA journal_mode=WAL")
    old = old_schema()
    old.create_all(engine)
    with engine.begin() as conn:
        conn.execute(
            insert(old.tables["tresham_games"]).values(
                id="old",
                title="1849",
                rules_version=get_title("1849").rules_version,
                seed=11,
                options="{}",
                players='["Ann", "Bob", "Cid"]',
                finished=False,
                created=1.0,
            )
        )
        conn.execute(
            insert(old.tables["tresham_seats"]),
            [
                {"game_id": "old", "seat": i, "player": p, "token_hash": None, "bot": True}
                for i, p in enumerate(PLAYERS)
            ],
        )
    with engine.connect() as conn:
        assert "bot_level" not in {c["name"] for c in inspect(conn).get_columns("tresham_seats")}
    barrier = threading.Barrier(3)
    opened: list[Storage] = []

    def open_it() -> None:  # servers starting at once: one adds the column, none fails
        barrier.wait()
        opened.append(Storage(db_url))

    threads = [threading.Thread(target=open_it) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(opened) == 3
    for store in opened:
        store.close()
    for _opening in range(2):  # opening it again changes nothing
        storage = Storage(db_url)
        try:
            got = storage.game("old")
            assert got is not None and got.players == PLAYERS
            assert [(s.bot, s.bot_level) for s in got.seats] == [(True, LEGACY_BOT_LEVEL)] * 3
            assert LEGACY_BOT_LEVEL == "random"
            assert "old" in storage.games_with_bots()
            live = LiveGame.rebuild(got, storage.entries("old"), public_state)
            assert [s["level"] for s in live.snapshot["seats"]] == ["random"] * 3
            if storage.game("g1") is None:
                storage.create_game(record(bots=("Bob", "Cid"), level="medium"), [])
            new = storage.game("g1")
            assert new is not None
            assert [s.bot_level for s in new.seats] == [None, "medium", "medium"]
        finally:
            storage.close()
    with engine.connect() as conn:
        columns = [c["name"] for c in inspect(conn).get_columns("tresham_seats")]
    assert columns.count("bot_level") == 1
    engine.dispose()
