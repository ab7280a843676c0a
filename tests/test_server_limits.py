"""Bounded work for anyone (server/limits.py, registry.py): games made per address and in all
in a window, games of bots only playing per address and in all, each refusal a 429 with a
Retry-After; a game of bots only that nobody watches pauses (no moves) until someone looks,
and stays paused after a restart."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from tresham.server import ServerConfig, create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

PLAYERS = ["Ann", "Bob", "Cid"]
BOTS = [{"player": p, "level": "random"} for p in PLAYERS]


def make_client(db_url: str, **config: Any) -> TestClient:
    settings: dict[str, Any] = {"bot_delay": 0.0, "undo_grace": 0.0, **config}
    return TestClient(create_app(ServerConfig(database_url=db_url, **settings)))


def from_address(client: TestClient, address: str) -> None:
    """Make the client's next requests come from `address` (the test client's transport
    names the client's address in each request's scope)."""
    client._transport.client = (address, 50000)  # type: ignore[attr-defined]


def index_of(client: TestClient, game_id: str) -> int:
    """The game's log length, read inside the server (a request would be a look)."""
    server: Any = client.app.state.holder["server"]  # type: ignore[attr-defined]
    live = server.registry.games.get(game_id)
    if live is not None:
        return int(live.index)
    return len(server.storage.entries(game_id))


def refused_429(answer: Any, words: str) -> None:
    assert answer.status_code == 429, answer.text
    assert int(answer.headers["retry-after"]) > 0
    assert words in answer.json()["error"] and answer.json()["rule"] in ("rate limit", "limits")


@pytest.fixture
def sqlite_client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url, create_limit=3, create_limit_all=5) as client:
        yield client


def test_games_made_are_limited_per_address_and_in_all(sqlite_client: TestClient) -> None:
    client = sqlite_client
    game = {"title": "1849", "players": PLAYERS}
    waiting = {"title": "1849", "players": ["Ann"], "open_seats": 2}
    from_address(client, "198.51.100.1")
    assert client.post("/api/games", json=game).status_code == 201
    assert client.post("/api/games", json=waiting).status_code == 201
    exported = client.post("/api/games", json={**game, "seed": 3}).json()
    refused_429(client.post("/api/games", json=game), "too many games made")
    refused_429(client.post("/api/games", json=waiting), "too many games made")
    body = client.get(f"/api/games/{exported['id']}/export").json()
    refused_429(client.post("/api/games/import", json=body), "too many games made")
    # a bad request is refused as before, and not counted
    assert client.post("/api/games", json={"title": "1849"}).status_code == 422
    from_address(client, "198.51.100.2")
    assert client.post("/api/games", json=game).status_code == 201
    assert client.post("/api/games/import", json=body).status_code == 201
    refused_429(client.post("/api/games", json=game), "on this server")
    assert len(client.get("/api/games").json()) == 0  # private games: none listed


def test_games_of_bots_only_are_limited_per_address_and_in_all(sqlite_url: str) -> None:
    with make_client(sqlite_url, bot_games_per_client=1, bot_games=2, bot_delay=0.05) as client:
        bots_only = {"title": "1849", "players": PLAYERS, "bots": BOTS}
        from_address(client, "198.51.100.1")
        assert client.post("/api/games", json=bots_only).status_code == 201
        refused_429(client.post("/api/games", json=bots_only), "1 yours")
        with_a_person = {"title": "1849", "players": PLAYERS, "bots": BOTS[1:]}
        assert client.post("/api/games", json=with_a_person).status_code == 201
        from_address(client, "198.51.100.2")
        assert client.post("/api/games", json=bots_only).status_code == 201
        from_address(client, "198.51.100.3")
        refused_429(client.post("/api/games", json=bots_only), "2 in all")


def test_a_game_of_bots_only_pauses_until_someone_looks(sqlite_url: str) -> None:
    with make_client(sqlite_url, bot_idle=0.5, bot_games_per_client=1) as client:
        made = client.post(
            "/api/games", json={"title": "1849", "players": PLAYERS, "bots": BOTS}
        ).json()
        game_id = made["id"]
        time.sleep(1.0)  # nobody looks: the bots pause within 0.5 s
        paused = settled(client, game_id)  # (a move already thinking then may still land)
        assert paused > 0
        time.sleep(0.5)
        assert index_of(client, game_id) == paused, "no move while nobody watches"
        # a paused game is no longer counted against its maker
        again = client.post("/api/games", json={"title": "1849", "players": PLAYERS, "bots": BOTS})
        assert again.status_code == 201, again.text
        # a look wakes it
        deadline = time.monotonic() + 30  # a loaded CI machine: a bot worker may be slow
        while index_of(client, game_id) == paused and time.monotonic() < deadline:
            client.get(f"/api/games/{game_id}")  # someone looks, as a table polling would
            time.sleep(0.1)
        assert index_of(client, game_id) > paused
        # a websocket watches it as long as it is open
        with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
            ws.receive_json()
            time.sleep(0.8)
            before = index_of(client, game_id)
            time.sleep(0.3)
            assert index_of(client, game_id) > before or client_finished(client, game_id)


def settled(client: TestClient, game_id: str, still: float = 0.4, limit: float = 5.0) -> int:
    """The game's index once it has not changed for `still` seconds (within `limit`)."""
    deadline = time.monotonic() + limit
    index, since = index_of(client, game_id), time.monotonic()
    while time.monotonic() - since < still and time.monotonic() < deadline:
        time.sleep(0.02)
        if (now := index_of(client, game_id)) != index:
            index, since = now, time.monotonic()
    return index


def client_finished(client: TestClient, game_id: str) -> bool:
    server: Any = client.app.state.holder["server"]  # type: ignore[attr-defined]
    return bool(server.registry.games[game_id].game.state.finished)


def test_after_a_restart_games_of_bots_only_stay_paused(sqlite_url: str) -> None:
    with make_client(sqlite_url, bot_delay=0.2) as first:
        made = first.post("/api/games", json={"title": "1849", "players": PLAYERS, "bots": BOTS})
        game_id = made.json()["id"]
        person = first.post(
            "/api/games", json={"title": "1849", "players": PLAYERS, "bots": BOTS[:2]}
        ).json()["id"]
    with make_client(sqlite_url, bot_delay=0.0) as second:
        stopped = index_of(second, game_id)
        time.sleep(0.5)
        assert index_of(second, game_id) == stopped
        second.get(f"/api/games/{game_id}")
        deadline = time.monotonic() + 5
        while index_of(second, game_id) == stopped and time.monotonic() < deadline:
            time.sleep(0.02)
        assert index_of(second, game_id) > stopped
        assert person in second.app.state.holder["server"].registry.games  # type: ignore[attr-defined]


def test_a_waiting_game_filled_with_bots_needs_room_to_start(sqlite_url: str) -> None:
    """The host seats bots in a waiting game: the bot that would start a game of bots only,
    or the host's start of one, is refused (429) while the host's address has its games of
    bots only playing; a waiting game with a person starts as before."""
    with make_client(sqlite_url, bot_games_per_client=1, bot_delay=0.05) as client:
        assert client.post("/api/games", json={"title": "1849", "players": PLAYERS, "bots": BOTS})
        made = client.post("/api/games", json={"title": "1849", "players": [], "open_seats": 4})
        game_id, host = made.json()["id"], {"Authorization": f"Bearer {made.json()['host_token']}"}
        for name in PLAYERS:
            seated = client.post(f"/api/games/{game_id}/bots", json={"player": name}, headers=host)
            assert seated.status_code == 201, seated.text
        refused_429(
            client.post(f"/api/games/{game_id}/bots", json={"player": "Dan"}, headers=host),
            "1 yours",
        )
        refused_429(client.post(f"/api/games/{game_id}/start", headers=host), "1 yours")
        assert client.get(f"/api/games/{game_id}/seating").json()["started"] is False
        joined = client.post(f"/api/games/{game_id}/join", json={"name": "Dan"})
        assert joined.status_code == 201 and joined.json()["started"] is True
