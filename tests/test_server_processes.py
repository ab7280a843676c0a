"""Real `tresham serve` processes: a server killed with kill -9 mid-game restarts with the game
intact (SQLite and PostgreSQL), and two servers sharing one PostgreSQL act as one: a move
posted to one reaches the other's websocket clients live, and simultaneous posts of the same
index to both give one 200 and one 409; chat lines and a seat's webhook reach every process
too."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from conftest_server import (
    PgCluster,
    Receiver,
    ServerProcess,
    auth,
    burst_until_killed,
    play,
    play_until_turn,
    problems_after_restart,
)
from tresham.io.save import from_save

PLAYERS = ["Ann", "Bob", "Cid"]


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[ServerProcess]]:
    started: list[ServerProcess] = []
    yield started
    for server in started:
        server.stop()


def start(servers: list[ServerProcess], db_url: str, tmp_path: Path) -> ServerProcess:
    server = ServerProcess(db_url, tmp_path).start()
    servers.append(server)
    return server


def new_game(client: httpx.Client) -> tuple[str, dict[str, str]]:
    answer = client.post("/api/games", json={"title": "1849", "players": PLAYERS, "seed": 3})
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["id"], {s["player"]: s["token"] for s in data["seats"]}


def race(
    clients: list[httpx.Client], path: str, body: dict[str, Any], headers: dict[str, str]
) -> list[int]:
    """POST the same body through every client at once; the statuses."""
    statuses: list[int] = []
    barrier = threading.Barrier(len(clients))

    def send(client: httpx.Client) -> None:
        barrier.wait()
        statuses.append(client.post(path, json=body, headers=headers).status_code)

    threads = [threading.Thread(target=send, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return statuses


def test_a_killed_server_restarts_with_the_game_intact(
    db_url: str, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    first = start(servers, db_url, tmp_path)
    with httpx.Client(base_url=first.url, timeout=30) as client:
        game_id, tokens = new_game(client)
        play(client, game_id, tokens, 15, seed=1)
        before = client.get(f"/api/games/{game_id}").json()
        log_before = client.get(f"/api/games/{game_id}/log").json()
    first.kill()
    second = start(servers, db_url, tmp_path)
    with httpx.Client(base_url=second.url, timeout=30) as client:
        assert client.get(f"/api/games/{game_id}").json() == before
        assert client.get(f"/api/games/{game_id}/log").json() == log_before
        assert play(client, game_id, tokens, 3, seed=2) == 18


def test_a_server_killed_while_bots_play_restarts_and_they_play_on(
    sqlite_url: str, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    first = start(servers, sqlite_url, tmp_path)
    with httpx.Client(base_url=first.url, timeout=30) as client:
        body = {"title": "1849", "players": PLAYERS, "seed": 5, "bots": PLAYERS}
        game_id = client.post("/api/games", json=body).json()["id"]
        deadline = time.monotonic() + 30
        while client.get(f"/api/games/{game_id}").json()["index"] < 20:
            assert time.monotonic() < deadline
            time.sleep(0.02)
    first.kill()  # the bots were moving: the kill lands between or inside their moves
    second = start(servers, sqlite_url, tmp_path)
    with httpx.Client(base_url=second.url, timeout=30) as client:
        after = client.get(f"/api/games/{game_id}").json()
        assert after["index"] >= 20
        saved = client.get(f"/api/games/{game_id}/export").json()
        log = client.get(f"/api/games/{game_id}/log").json()["entries"]
        # the log is intact (bots never undo: it is the save's actions, and then some)
        assert [e["entry"] for e in log[: len(saved["actions"])]] == saved["actions"]
        assert len(saved["actions"]) >= after["index"]
        assert from_save(saved).state.finished is False
        deadline = time.monotonic() + 30
        while client.get(f"/api/games/{game_id}").json()["index"] < after["index"] + 20:
            assert time.monotonic() < deadline
            time.sleep(0.02)


def test_two_servers_on_one_postgresql_act_as_one(
    pg_cluster: PgCluster, pg_url: str, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    a = start(servers, pg_url, tmp_path)
    b = start(servers, pg_url, tmp_path)
    with (
        httpx.Client(base_url=a.url, timeout=30) as on_a,
        httpx.Client(base_url=b.url, timeout=30) as on_b,
    ):
        game_id, tokens = new_game(on_a)
        with connect(f"{b.ws_url}/api/games/{game_id}/ws", open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["index"] == 0
            for expected in (1, 2, 3):
                play(on_a, game_id, tokens, 1, seed=expected)
                message = json.loads(ws.recv(timeout=10))
                assert message["type"] == "log" and message["index"] == expected
                assert message["state"]["index"] == expected

            for _race in range(5):
                index = on_a.get(f"/api/games/{game_id}").json()["index"]
                player = on_b.get(f"/api/games/{game_id}").json()["acting_player"]
                legal = on_b.get(f"/api/games/{game_id}/legal", headers=auth(tokens[player])).json()
                assert legal["index"] == index
                statuses = race(
                    [on_a, on_b],
                    f"/api/games/{game_id}/actions",
                    {"index": index, "action": legal["actions"][0]},
                    auth(tokens[player]),
                )
                assert sorted(statuses) == [200, 409]
                message = json.loads(ws.recv(timeout=10))
                assert message["index"] == index + 1
        state_a = on_a.get(f"/api/games/{game_id}").json()
        state_b = on_b.get(f"/api/games/{game_id}").json()
        assert state_a == state_b and state_a["index"] == 8


def test_a_kill_during_a_burst_loses_no_acknowledged_action(
    db_url: str, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    """kill -9 while moves are being posted as fast as they can be: after the restart, every
    move the server acknowledged (200) is in the log exactly once, at its index, and the log
    replays to the game the server shows (`tools/crash_soak.py` repeats this many times)."""
    first = start(servers, db_url, tmp_path)
    with httpx.Client(base_url=first.url, timeout=30) as setup:
        game_id, tokens = new_game(setup)
    acknowledged = burst_until_killed(first, game_id, tokens, moves=25, seed=7)
    assert len(acknowledged) >= 25
    second = start(servers, db_url, tmp_path)
    with httpx.Client(base_url=second.url, timeout=30) as client:
        assert problems_after_restart(client, game_id, acknowledged) == []
        never = {**acknowledged, len(acknowledged) + 10**6: {"type": "pass"}}
        assert problems_after_restart(client, game_id, never)[0].startswith("lost")


def test_many_games_at_once(sqlite_url: str, tmp_path: Path, servers: list[ServerProcess]) -> None:
    """Ten clients each create a game and play it at the same time: every move lands, and
    every game's log replays to the state the server shows."""
    server = start(servers, sqlite_url, tmp_path)
    finished: dict[str, int] = {}
    errors: list[BaseException] = []

    def client_plays(seed: int) -> None:
        try:
            with httpx.Client(base_url=server.url, timeout=60) as client:
                game_id, tokens = new_game(client)
                finished[game_id] = play(client, game_id, tokens, 12, seed=seed)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=client_plays, args=(seed,)) for seed in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not errors and len(finished) == 10
    with httpx.Client(base_url=server.url, timeout=60) as client:
        for game_id, index in finished.items():
            shown = client.get(f"/api/games/{game_id}").json()
            assert shown["index"] == index == 12
            game = from_save(client.get(f"/api/games/{game_id}/export").json())
            assert game.state_hash() == shown["state_hash"]


def test_chat_and_seat_webhooks_reach_every_server_on_one_postgresql(
    pg_cluster: PgCluster, pg_url: str, tmp_path: Path, servers: list[ServerProcess]
) -> None:
    """A chat line posted to either of two servers reaches the chat listeners of both, once
    each and in order (PostgreSQL NOTIFY, as log entries do); a listener that comes later gets
    every line so far. A seat's webhook set through one server is called when a move posted
    to the other gives that seat the turn."""
    a = start(servers, pg_url, tmp_path)
    b = start(servers, pg_url, tmp_path)
    receiver = Receiver()
    with (
        httpx.Client(base_url=a.url, timeout=30) as on_a,
        httpx.Client(base_url=b.url, timeout=30) as on_b,
        connect(f"{a.ws_url}/api/games/nope/chat/ws", open_timeout=10) as nowhere,
    ):
        with pytest.raises(ConnectionClosed) as closed:
            nowhere.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
        game_id, tokens = new_game(on_a)
        chat = f"/api/games/{game_id}/chat"
        with (
            connect(f"{a.ws_url}{chat}/ws", open_timeout=10) as ws_a,
            connect(f"{b.ws_url}{chat}/ws", open_timeout=10) as ws_b,
        ):
            for ws in (ws_a, ws_b):
                assert json.loads(ws.recv(timeout=10)) == {"type": "chat", "lines": []}
            posted = []
            for i, (client, player) in enumerate(
                [(on_a, "Ann"), (on_b, "Bob"), (on_b, "Cid"), (on_a, "Bob")]
            ):
                answer = client.post(chat, json={"text": f"line {i}"}, headers=auth(tokens[player]))
                assert answer.status_code == 201, answer.text
                posted.append(answer.json())
            assert [line["index"] for line in posted] == [0, 1, 2, 3]
            for ws in (ws_a, ws_b):
                heard: list[dict[str, Any]] = []
                while len(heard) < len(posted):
                    message = json.loads(ws.recv(timeout=10))
                    assert message["type"] == "chat"
                    heard += message["lines"]
                assert heard == posted
                with pytest.raises(TimeoutError):
                    ws.recv(timeout=0.5)  # each line once
        with connect(f"{b.ws_url}{chat}/ws", open_timeout=10) as late:
            assert json.loads(late.recv(timeout=10))["lines"] == posted

        # Bob's webhook, set through B; the moves are posted to A
        hook = on_b.put(
            f"/api/games/{game_id}/seat/webhook",
            json={"url": receiver.url},
            headers=auth(tokens["Bob"]),
        )
        assert hook.status_code == 200
        play_until_turn(on_a, game_id, tokens, "Bob")
        call = receiver.next_call()
        assert call["tresham"]["player"] == "Bob" and call["tresham"]["game"] == game_id
    receiver.close()
