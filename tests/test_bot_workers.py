"""Bots think in worker processes (server/claims.py, bot_worker.py, workers.py): a turn is
claimed once at a time and claimed again when its lease runs out; a worker moves through the
same checks and log as a person (a stale or misdirected turn stores nothing); a worker killed
(SIGKILL) mid-thought loses nothing: another takes the turn again and the move is logged once,
on SQLite (the server's own pool) and on PostgreSQL (two `tresham bot-worker` processes); the
workers' moves reach the websocket listeners; and a game of bots only nobody watches still
pauses. Hints asked at the table are worked out by the same workers (before any bot turn),
stored in the ask's row, and survive a worker killed mid-hint, on SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from conftest_server import ROOT, PgCluster, Receiver, ServerProcess, auth
from tresham.bots.hints import hint
from tresham.core.actions import action_from_json
from tresham.io.save import from_save, new_game
from tresham.server import claims
from tresham.server.bot_worker import BotWorker, Options
from tresham.server.bots import bot_action
from tresham.server.storage import GameRecord, SeatRecord, Storage
from tresham.words import Words

PLAYERS = ["Ann", "Bob", "Cid"]
EASY = [{"player": p, "level": "easy"} for p in PLAYERS]
#: The workers' lease in the tests that kill one (seconds): long enough that a worker the
#: loaded test machine starves of processor time still renews it.
LEASE = "3"


# ---------------------------------------------------------------------- claims
@pytest.fixture
def storage(db_url: str) -> Iterator[Storage]:
    store = Storage(db_url)
    yield store
    store.close()


def test_a_turn_is_claimed_once_until_its_lease_runs_out(storage: Storage) -> None:
    assert claims.queue_turn(storage, "g1", 4, "Bob", "easy") is True
    assert claims.queue_turn(storage, "g1", 4, "Bob", "easy") is False, "queued already"
    first = claims.claim(storage, lease=0.5)
    assert first is not None
    assert (first.game_id, first.index, first.player, first.level) == ("g1", 4, "Bob", "easy")
    assert claims.claim(storage, lease=0.5) is None, "held: nobody else gets it"
    assert claims.queue_turn(storage, "g1", 4, "Bob", "easy") is False
    assert claims.queued_turns(storage)[0].owner == first.owner, "queueing again keeps the claim"
    assert claims.renew(storage, first, 0.5) is True
    time.sleep(0.7)  # the lease runs out (its worker died)
    second = claims.claim(storage, lease=30)
    assert second is not None and second.index == 4 and second.attempts == 2
    assert claims.renew(storage, first, 30) is False, "the first claim is gone"
    claims.finish(storage, first)  # the dead worker's late finish removes nothing
    assert [t.owner for t in claims.queued_turns(storage)] == [second.owner]
    claims.finish(storage, second)
    assert claims.queued_turns(storage) == []


def test_another_index_replaces_the_turn_and_its_claim(storage: Storage) -> None:
    claims.queue_turn(storage, "g1", 4, "Bob", "easy")
    held = claims.claim(storage, lease=30)
    assert held is not None
    assert claims.queue_turn(storage, "g1", 5, "Cid", "medium") is True
    assert claims.renew(storage, held, 30) is False
    fresh = claims.claim(storage, lease=30)
    assert fresh is not None and (fresh.index, fresh.player, fresh.attempts) == (5, "Cid", 1)


def test_two_workers_claiming_at_once_get_different_turns(storage: Storage) -> None:
    for n in range(6):
        claims.queue_turn(storage, f"g{n}", n, "Bob", "easy")
    got: list[str] = []
    barrier = threading.Barrier(3)

    def take() -> None:
        barrier.wait()
        for _ in range(2):
            held = claims.claim(storage, lease=30)
            assert held is not None
            got.append(held.game_id)

    threads = [threading.Thread(target=take) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(got) == [f"g{n}" for n in range(6)]
    assert claims.claim(storage, lease=30) is None


def test_a_turn_whose_workers_keep_dying_is_given_up(storage: Storage) -> None:
    claims.queue_turn(storage, "g1", 0, "Bob", "easy")
    for _ in range(claims.MAX_ATTEMPTS):
        assert claims.claim(storage, lease=0.0) is not None  # each worker dies at once
    assert claims.claim(storage, lease=30) is None
    (turn,) = claims.queued_turns(storage)
    assert turn.failed is not None and "claimed" in turn.failed
    assert claims.queue_turn(storage, "g1", 1, "Cid", "easy") is True, "the next turn is new"
    assert claims.claim(storage, lease=30) is not None


# ---------------------------------------------------------------------- a worker's move
def stored_game(storage: Storage, bots: dict[str, str], seed: int = 3) -> str:
    """A started 1849 game with these bots (player -> level) and no entries; its id."""
    game = new_game("1849", PLAYERS, seed, {})
    game_id = f"w{seed}{len(bots)}"
    seats = [
        SeatRecord(p, None, True, bots[p]) if p in bots else SeatRecord(p, "0" * 64)
        for p in PLAYERS
    ]
    record = GameRecord(game_id, "1849", game.rules_version, seed, {}, list(PLAYERS), seats)
    storage.create_game(record, [])
    return game_id


def test_a_worker_moves_through_the_log_as_a_person_would(sqlite_url: str) -> None:
    storage = Storage(sqlite_url)
    try:
        game_id = stored_game(storage, {p: "easy" for p in PLAYERS})
        worker = BotWorker(storage, Options(lease=30))
        expected = new_game("1849", PLAYERS, 3, {})
        for index in range(3):
            acting = expected.acting_player()
            assert acting is not None
            claims.queue_turn(storage, game_id, index, acting, "easy")
            assert worker.step() is True
            (row,) = storage.entries(game_id, index)
            move = bot_action(expected, index, "easy")
            assert (row.index, row.entry, row.seat) == (index, move.to_json(), acting)
            expected.apply(move)
        assert claims.queued_turns(storage) == []
        assert worker.step() is False, "nothing queued"
    finally:
        storage.close()


def test_a_stale_or_misdirected_turn_stores_nothing(sqlite_url: str) -> None:
    storage = Storage(sqlite_url)
    try:
        game_id = stored_game(storage, {"Bob": "easy", "Cid": "easy"})
        game = new_game("1849", PLAYERS, 3, {})
        acting = game.acting_player()
        assert acting == "Ann", "a person acts first"
        worker = BotWorker(storage, Options(lease=30))
        for index, player in ((0, "Ann"), (0, "Bob"), (5, "Ann")):
            # a person's seat; a bot not to act; an index the log is not at
            claims.queue_turn(storage, game_id, index, player, "easy")
            assert worker.step() is True
            assert storage.entries(game_id) == []
            assert claims.queued_turns(storage) == [], "the turn is dropped"
    finally:
        storage.close()


# ---------------------------------------------------------------------- killed mid-thought
def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(OSError):
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].split()[0]
        return state != "Z"
    return True


def held_turn(hold: Path, timeout: float = 60) -> tuple[int, str, int]:
    """What the holding worker wrote: its pid, the game and the index it holds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if hold.exists() and hold.read_text().endswith("\n"):
            pid, game_id, index = hold.read_text().split()
            return int(pid), game_id, int(index)
        time.sleep(0.02)
    raise AssertionError("no worker held a turn")


def index_of(client: httpx.Client, game_id: str) -> int:
    return int(client.get(f"/api/games/{game_id}").json()["index"])


def check_killed_turn_taken_again(server: ServerProcess, hold: Path, lease: float) -> None:
    """Make a game of easy bots; a worker holds a turn it has thought through; while it
    lives nobody else takes it; SIGKILL it: the turn is taken again, once, and the game's
    websocket listener sees every move."""
    with httpx.Client(base_url=server.url, timeout=30) as client:
        body = {"title": "1849", "players": PLAYERS, "seed": 11, "bots": EASY}
        game_id = client.post("/api/games", json=body).json()["id"]
        pid, held_game, index = held_turn(hold)
        assert held_game == game_id
        with connect(f"{server.ws_url}/api/games/{game_id}/ws", open_timeout=10) as ws:
            first = json.loads(ws.recv(timeout=10))
            assert first["type"] == "state" and first["index"] == index
            time.sleep(lease + 1)  # past the lease: renewed while the worker lives
            assert index_of(client, game_id) == index, "a live worker's turn is its own"
            os.kill(pid, signal.SIGKILL)
            seen = index
            deadline = time.monotonic() + 60
            while seen < index + 10:
                assert time.monotonic() < deadline, f"the game stalled at {seen}"
                message = json.loads(ws.recv(timeout=30))
                assert message["type"] == "log"
                assert [e["index"] for e in message["entries"]] == list(
                    range(seen, message["index"])
                )
                seen = message["index"]
        entries = client.get(f"/api/games/{game_id}/log").json()["entries"]
        assert [e["index"] for e in entries] == list(range(len(entries))), "none lost or doubled"
        # the log replays to the game the server shows at its length (the bots play on)
        saved = client.get(f"/api/games/{game_id}/export").json()
        shown = client.get(f"/api/games/{game_id}", params={"at": len(saved["actions"])})
        assert from_save(saved).state_hash() == shown.json()["state_hash"]
        # the held turn's move is the bot's own choice there, made once
        before = new_game("1849", PLAYERS, 11, {})
        for entry in entries[:index]:
            before.apply(action_from_json(entry["entry"]))
        acting = before.acting_player()
        assert entries[index]["seat"] == acting
        assert entries[index]["entry"] == bot_action(before, index, "easy").to_json()
    assert not alive(pid)


@pytest.fixture
def processes() -> Iterator[list[Any]]:
    started: list[Any] = []
    yield started
    for proc in started:
        if isinstance(proc, ServerProcess):
            proc.stop()
        else:
            proc.kill()
            proc.wait(10)


def test_sqlite_a_worker_killed_mid_thought_loses_nothing(
    sqlite_url: str, tmp_path: Path, processes: list[Any]
) -> None:
    """The server's own pool of two workers; the first holds its first turn."""
    hold = tmp_path / "hold"
    env = {"TRESHAM_BOT_WORKERS": "2", "TRESHAM_BOT_LEASE": LEASE, "TRESHAM_BOT_HOLD": str(hold)}
    server = ServerProcess(sqlite_url, tmp_path, env).start()
    processes.append(server)
    check_killed_turn_taken_again(server, hold, lease=float(LEASE))
    assert server.proc is not None and server.proc.poll() is None


def bot_worker(db_url: str, tmp_path: Path, *extra: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "tresham.cli", "bot-worker", "--db", db_url, *extra]
    log = (tmp_path / f"worker-{time.monotonic_ns()}.log").open("w")
    return subprocess.Popen(command, stdout=log, stderr=log, text=True, cwd=ROOT)


def test_postgresql_a_worker_killed_mid_thought_loses_nothing(
    pg_cluster: PgCluster, pg_url: str, tmp_path: Path, processes: list[Any]
) -> None:
    """A server that starts no workers, and two `tresham bot-worker` processes of their own
    sharing its PostgreSQL database; one holds its first turn."""
    hold = tmp_path / "hold"
    server = ServerProcess(pg_url, tmp_path, {"TRESHAM_BOT_WORKERS": "0"}).start()
    processes.append(server)
    for extra in (("--hold", str(hold)), ()):
        processes.append(bot_worker(pg_url, tmp_path, "--lease", LEASE, *extra))
    check_killed_turn_taken_again(server, hold, lease=float(LEASE))
    survivor = processes[-1]
    assert survivor.poll() is None


# ---------------------------------------------------------------------- limits
def test_a_game_of_bots_only_nobody_watches_pauses_with_workers(
    sqlite_url: str, tmp_path: Path, processes: list[Any]
) -> None:
    """The server decides when a bot moves (its workers only think): a game of bots only
    nobody looks at stops queueing turns after `bot_idle`; a look wakes it."""
    env = {"TRESHAM_BOT_WORKERS": "1", "TRESHAM_BOT_IDLE": "1", "TRESHAM_BOT_DELAY": "0.05"}
    server = ServerProcess(sqlite_url, tmp_path, env).start()
    processes.append(server)
    storage = Storage(sqlite_url)
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            body = {"title": "1849", "players": PLAYERS, "seed": 4, "bots": EASY}
            game_id = client.post("/api/games", json=body).json()["id"]
            time.sleep(2.0)  # nobody looks: the bots pause within 1 s
            paused = storage.log_length(game_id)
            assert paused > 0
            time.sleep(1.0)
            assert storage.log_length(game_id) == paused, "no move while nobody watches"
            client.get(f"/api/games/{game_id}")
            deadline = time.monotonic() + 20
            while storage.log_length(game_id) == paused:
                assert time.monotonic() < deadline, "a look wakes it"
                time.sleep(0.05)
    finally:
        storage.close()


def test_a_workers_move_that_gives_a_person_the_turn_calls_the_webhook(
    sqlite_url: str, tmp_path: Path, processes: list[Any]
) -> None:
    """The bots of Bob and Cid think in a worker; when their moves give Ann the turn, the
    game's webhook hears of it (once per turn) from the server that queued the turn."""
    server = ServerProcess(sqlite_url, tmp_path, {"TRESHAM_BOT_WORKERS": "1"}).start()
    processes.append(server)
    receiver = Receiver()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            bots = [{"player": p, "level": "easy"} for p in ("Bob", "Cid")]
            body = {"title": "1849", "players": PLAYERS, "seed": 3, "bots": bots}
            body["webhook"] = receiver.url
            made = client.post("/api/games", json=body).json()
            game_id, token = made["id"], made["seats"][0]["token"]
            first = receiver.next_call(timeout=30)["tresham"]
            assert (first["player"], first["index"]) == ("Ann", 0)
            legal = client.get(f"/api/games/{game_id}/legal", headers=auth(token)).json()
            action = next(a for a in legal["actions"] if a["type"] != "pass")
            posted = client.post(
                f"/api/games/{game_id}/actions",
                json={"index": 0, "action": action},
                headers=auth(token),
            )
            assert posted.status_code == 200, posted.text
            turn = receiver.next_call(timeout=30)["tresham"]
            assert turn["player"] == "Ann" and turn["index"] > 1, "after the bots' moves"
            state = client.get(f"/api/games/{game_id}").json()
            assert state["acting_player"] == "Ann" and state["index"] == turn["index"]
            log = client.get(f"/api/games/{game_id}/log").json()["entries"]
            assert {e["seat"] for e in log[1:]} <= {"Bob", "Cid"}
            assert receiver.calls.empty(), "one call for the turn"
    finally:
        receiver.close()


def test_a_standing_order_acts_after_a_workers_bot_move(
    sqlite_url: str, tmp_path: Path, processes: list[Any]
) -> None:
    """Ann's auto-pass order takes her only-pass turns; the bots of Bob and Cid think in a
    worker, and an order acts right after one of their moves (the server that queued the
    turn runs the orders, as after a move made in it)."""
    server = ServerProcess(sqlite_url, tmp_path, {"TRESHAM_BOT_WORKERS": "1"}).start()
    processes.append(server)
    rng = random.Random(1)
    with httpx.Client(base_url=server.url, timeout=30) as client:
        bots = [{"player": p, "level": "random"} for p in ("Bob", "Cid")]
        body = {"title": "1849", "players": PLAYERS, "seed": 7, "bots": bots}
        made = client.post("/api/games", json=body).json()
        game_id, token = made["id"], made["seats"][0]["token"]
        orders = {"orders": [{"kind": "auto-pass"}]}
        set_orders = client.put(
            f"/api/games/{game_id}/seat/orders", json=orders, headers=auth(token)
        )
        assert set_orders.status_code == 200, set_orders.text
        deadline = time.monotonic() + 90
        while True:
            log = client.get(f"/api/games/{game_id}/log").json()["entries"]
            after_bot = [
                e
                for prev, e in itertools.pairwise(log)
                if e["order"] == "auto-pass" and prev["seat"] in ("Bob", "Cid")
            ]
            if after_bot:
                break
            assert time.monotonic() < deadline, "no order acted after a bot's move"
            state = client.get(f"/api/games/{game_id}").json()
            if state["acting_player"] == "Ann":
                legal = client.get(f"/api/games/{game_id}/legal", headers=auth(token)).json()
                if legal["actions"]:
                    client.post(
                        f"/api/games/{game_id}/actions",
                        json={"index": legal["index"], "action": rng.choice(legal["actions"])},
                        headers=auth(token),
                    )
            else:
                time.sleep(0.02)
        assert all(e["seat"] == "Ann" and e["entry"]["type"] == "pass" for e in after_bot)


# ---------------------------------------------------------------------- hints
def test_a_worker_works_a_hint_out_before_any_turn_and_drops_a_stale_ask(db_url: str) -> None:
    """A hint asked is claimed before a queued bot turn (a person waits for it), worked out
    at the ask's position (the engine's hint there, in the same words) and stored in the
    ask's row; asked again, it is not asked anew; an ask the game has moved past is dropped;
    one that cannot be worked out is given up, and asked anew by the next ask."""
    storage = Storage(db_url)
    try:
        game_id = stored_game(storage, {"Bob": "easy", "Cid": "easy"})
        game = new_game("1849", PLAYERS, 3, {})
        claims.queue_turn(storage, game_id, 0, "Bob", "easy")
        assert claims.ask_hint(storage, game_id, 0, "Ann") is True
        assert claims.ask_hint(storage, game_id, 0, "Ann") is False, "asked already"
        worker = BotWorker(storage, Options(lease=30))
        assert worker.step() is True
        asked = claims.hint_asked(storage, game_id, 0)
        assert asked is not None and asked.failed is None and asked.player == "Ann"
        assert asked.hint == hint(game).to_dict(Words(game))
        assert [t.player for t in claims.queued_turns(storage)] == ["Bob"], "the turn waits"
        assert claims.ask_hint(storage, game_id, 0, "Ann") is False, "worked out already"
        assert claims.claim(storage, 30, claims.HINTS) is None, "nothing left to work out"
        # the log is at 0, not 5: dropped, nothing stored
        claims.ask_hint(storage, game_id, 5, "Ann")
        assert worker.step() is True
        assert claims.hint_asked(storage, game_id, 5) is None
        assert storage.entries(game_id) == []
        # no such game: given up with the reason, then asked anew
        claims.ask_hint(storage, "nosuchgame", 0, "Ann")
        assert worker.step() is True
        given_up = claims.hint_asked(storage, "nosuchgame", 0)
        assert given_up is not None and given_up.hint is None
        assert given_up.failed is not None and "nosuchgame" in given_up.failed
        assert claims.ask_hint(storage, "nosuchgame", 0, "Ann") is True
        again = claims.hint_asked(storage, "nosuchgame", 0)
        assert again is not None and again.failed is None
    finally:
        storage.close()


def ask_in_background(server: ServerProcess, game_id: str, token: str) -> dict[str, Any]:
    """Ask for a hint in a thread of its own: `answer` holds the response once it came."""
    asked: dict[str, Any] = {}

    def ask() -> None:
        with httpx.Client(base_url=server.url, timeout=120) as client:
            asked["answer"] = client.get(f"/api/games/{game_id}/hint", headers=auth(token))

    asked["thread"] = threading.Thread(target=ask, daemon=True)
    asked["thread"].start()
    return asked


def check_killed_hint_asked_again(
    server: ServerProcess, db_url: str, hold: Path, start_another: Any
) -> None:
    """Ann asks for a hint; the only worker holds it, worked out but not stored; SIGKILL it
    and `start_another()`: the hint comes, the engine's own at that position, worked out by
    a worker (the ask's row holds it), and nothing is added to the log."""
    with httpx.Client(base_url=server.url, timeout=30) as client:
        body = {"title": "1849", "players": PLAYERS, "seed": 3, "hints": True}
        made = client.post("/api/games", json=body).json()
        game_id, token = made["id"], made["seats"][0]["token"]
        asked = ask_in_background(server, game_id, token)
        pid, held_game, index = held_turn(hold)
        assert (held_game, index) == (game_id, 0)
        time.sleep(float(LEASE) + 1)  # past the lease: renewed while the worker lives
        assert "answer" not in asked, "a live worker's ask is its own"
        os.kill(pid, signal.SIGKILL)
        start_another()
        asked["thread"].join(90)
        answer = asked["answer"]
        assert answer.status_code == 200, answer.text
        game = new_game("1849", PLAYERS, 3, {})
        assert answer.json()["hint"] == hint(game).to_dict(Words(game))
        assert client.get(f"/api/games/{game_id}/log").json()["entries"] == []
    storage = Storage(db_url)
    try:
        row = claims.hint_asked(storage, game_id, 0)
        assert row is not None and row.hint == answer.json()["hint"]
    finally:
        storage.close()
    assert not alive(pid)


def test_sqlite_a_hint_is_worked_out_by_the_servers_worker_and_survives_its_death(
    sqlite_url: str, tmp_path: Path, processes: list[Any]
) -> None:
    """The server's own pool of one worker, which holds its first job; killed, the pool
    starts another, which takes the ask again."""
    hold = tmp_path / "hold"
    env = {"TRESHAM_BOT_WORKERS": "1", "TRESHAM_BOT_LEASE": LEASE, "TRESHAM_BOT_HOLD": str(hold)}
    server = ServerProcess(sqlite_url, tmp_path, env).start()
    processes.append(server)
    check_killed_hint_asked_again(server, sqlite_url, hold, lambda: None)


def test_postgresql_a_hint_is_worked_out_by_a_bot_worker_and_survives_its_death(
    pg_cluster: PgCluster, pg_url: str, tmp_path: Path, processes: list[Any]
) -> None:
    """A server that starts no workers: a `tresham bot-worker` of its own holds the ask;
    killed, a second one started then takes the ask again."""
    hold = tmp_path / "hold"
    server = ServerProcess(pg_url, tmp_path, {"TRESHAM_BOT_WORKERS": "0"}).start()
    processes.append(server)
    processes.append(bot_worker(pg_url, tmp_path, "--lease", LEASE, "--hold", str(hold)))

    def start_another() -> None:
        processes.append(bot_worker(pg_url, tmp_path, "--lease", LEASE))

    check_killed_hint_asked_again(server, pg_url, hold, start_another)
