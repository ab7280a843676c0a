"""No secret in any log line: a `tresham serve` process logging everything (level debug, the
access log on) plays a game whose webhooks all fail, while every route of the API is called
with seat and host tokens; its whole log names no webhook path or query and no token."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import httpx
import websockets.sync.client

from conftest_server import Receiver, ServerProcess, auth, play

PLAYERS = ["Ann", "Bob", "Cid"]
#: The log lines of the two webhooks' failures (the receiver's port is any).
FAILURES = (
    r"webhook http://127\.0\.0\.1:\d+ #\w+ failed: HTTP 500",
    r"webhook http://127\.0\.0\.1:9 #\w+ failed: ConnectError",
)


def wait_for(log: Path, patterns: tuple[str, ...], timeout: float = 60.0) -> None:
    """Wait until every pattern is in `log` (or `timeout` s pass): webhooks are called in the
    background, each failure logged after its last retry, which on a loaded machine may come
    after the last request's answer."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log.read_text() if log.exists() else ""
        if all(re.search(pattern, text) for pattern in patterns):
            return
        time.sleep(0.2)


def every_route(client: httpx.Client, game_id: str, token: str) -> int:
    """Call every route the API lists (its OpenAPI paths, each method), for `game_id`, with
    `token` in the ways a client may send it; returns how many calls were made."""
    paths = client.get("/api/openapi.json").json()["paths"]
    calls = 0
    headers = [auth(token), {"Authorization": token}, {"Authorization": f"Bearer  {token} x"}]
    for path, methods in paths.items():
        url = path.replace("{game_id}", game_id)
        for method in methods:
            for header in headers:
                body = b"{}" if method in ("post", "put") else None
                client.request(
                    method.upper(),
                    url,
                    content=body,
                    headers={**header, "Content-Type": "application/json"},
                )
                calls += 1
    for page in (f"/games/{game_id}", f"/games/{game_id}/tiles", f"/games/{game_id}/join"):
        client.get(page, headers=auth(token))
        calls += 1
    return calls


def test_logs_name_no_webhook_secret_and_no_token(tmp_path: Path, db_url: str) -> None:
    """On both databases (their statements are logged at level debug, without their
    parameters)."""
    receiver = Receiver(fail_first=10**6)
    secrets_of_hooks = ["HOOKPATH1", "HOOKQUERY1", "HOOKPATH2", "HOOKQUERY2", "HOOKUSER"]
    failing = f"http://127.0.0.1:{receiver.port}/api/webhooks/1/HOOKPATH1?wait=HOOKQUERY1"
    closed = "http://HOOKUSER:pw@127.0.0.1:9/HOOKPATH2?key=HOOKQUERY2"
    server = ServerProcess(
        db_url,
        tmp_path,
        {"TRESHAM_LOG_LEVEL": "debug", "TRESHAM_ACCESS_LOG": "1"},
    ).start()
    tokens: list[str] = []
    try:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            made = client.post(
                "/api/games",
                json={"title": "1849", "players": PLAYERS, "seed": 3, "webhook": failing},
            ).json()
            game_id = made["id"]
            seats = {s["player"]: s["token"] for s in made["seats"]}
            tokens += [made["host_token"], *seats.values()]
            for player, hook in zip(PLAYERS, (failing, closed, failing), strict=True):
                put = client.put(
                    f"/api/games/{game_id}/seat/webhook",
                    json={"url": hook},
                    headers=auth(seats[player]),
                )
                assert put.status_code == 200, put.text
            # a waiting game: joins, bots, listing, leaving, starting
            waiting = client.post(
                "/api/games", json={"title": "1849", "players": ["Ann"], "open_seats": 2}
            ).json()
            tokens += [waiting["host_token"], waiting["seats"][0]["token"]]
            joined = client.post(f"/api/games/{waiting['id']}/join", json={"name": "Dan"}).json()
            tokens.append(joined["token"])
            calls = every_route(client, waiting["id"], waiting["host_token"])
            calls += every_route(client, waiting["id"], joined["token"])
            for token in tokens[:4]:
                calls += every_route(client, game_id, token)
            with websockets.sync.client.connect(
                f"{server.ws_url}/api/games/{game_id}/ws",
                additional_headers=auth(seats["Ann"]),
            ) as ws:
                json.loads(ws.recv())
            assert play(client, game_id, seats, 30) == 30
            for token in tokens[:4]:
                calls += every_route(client, game_id, token)
            assert calls > 300
            wait_for(server.log, FAILURES)
        server.stop()
    finally:
        server.kill()
        receiver.close()
    log = server.log.read_text() + "".join(server.output)
    assert len(log.splitlines()) > 1000, "the debug and access logs are on"
    assert re.search(r'"POST /api/games/\w+/actions HTTP/1.1" 200', log), "an access log"
    for failure in FAILURES:
        assert re.search(failure, log), failure
    assert receiver.calls.qsize() > 10, "the webhooks were called (and failed)"
    for secret in secrets_of_hooks:
        assert secret not in log, secret
    for token in tokens:
        assert token not in log
        assert token[:12] not in log
