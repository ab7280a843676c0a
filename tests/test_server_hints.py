"""Hints and reviews on the server (server/hints.py, server/review.py): a hint needs the
seat's token, its turn and a game whose creator allowed hints (403 each, nothing noted), is
`hard`'s suggestion in words (bots/hints.py), and is noted beside the log for every player
("Ann asked for a hint", also sent to the websocket's listeners, of every server process on
one PostgreSQL, once each) without touching the game's
state, hash or log; the option is stored with the game (and a database from before hints
gets its column); a hint is worked out in a process of its own, which keeps the games it
hinted up to date. A review is for a finished game only (409), worked out in its own thread,
answering how far it is until done."""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from conftest_server import ROOMY, PgCluster, ServerProcess, auth, play
from tresham.bots.hints import hint
from tresham.io.save import from_save, to_save
from tresham.server import ServerConfig, create_app
from tresham.server import hints as server_hints
from tresham.server import review as server_review
from tresham.server.storage import Storage
from tresham.words import Words

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

SAMPLES = Path(__file__).parent / "data" / "save_samples"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    config = ServerConfig(database_url=sqlite_url, bot_delay=0.0, undo_grace=0.0, **ROOMY)
    with TestClient(create_app(config)) as c:
        yield c


def new_game(client: TestClient, **extra: Any) -> tuple[str, dict[str, str]]:
    body = {"title": "1849", "players": ["Ann", "Bob", "Cid"], "seed": 3, **extra}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["id"], {s["player"]: s["token"] for s in data["seats"]}


def test_a_hint_is_the_searchs_suggestion_for_the_seat_to_act(client: TestClient) -> None:
    gid, tokens = new_game(client, hints=True)
    play(client, gid, tokens, 4)
    state = client.get(f"/api/games/{gid}").json()
    log = client.get(f"/api/games/{gid}/log").json()
    acting = state["acting_player"]
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        assert ws.receive_json()["type"] == "state"
        answer = client.get(f"/api/games/{gid}/hint", headers=auth(tokens[acting]))
        assert answer.status_code == 200, answer.text
        note_message = ws.receive_json()
    data = answer.json()
    assert data["index"] == 4
    given = data["hint"]
    # the engine's hint at that position, in the same words
    save = client.get(f"/api/games/{gid}/export").json()
    game = from_save({k: v for k, v in save.items() if k != "chat"})
    assert given == hint(game).to_dict(Words(game))
    assert given["player"] == acting and given["suggestion"]["text"] in given["text"]
    assert (
        given["suggestion"]["action"]
        in client.get(f"/api/games/{gid}/legal", headers=auth(tokens[acting])).json()["actions"]
    )
    note = {"index": 0, "player": acting, "at": 4, "text": f"{acting} asked for a hint"}
    assert {k: data["note"][k] for k in note} == note
    assert note_message == {"type": "note", "note": data["note"]}
    assert client.get(f"/api/games/{gid}/hints").json() == {"notes": [data["note"]]}
    # a hint is no action: the state, its hash and the log are as they were
    after = client.get(f"/api/games/{gid}").json()
    assert after["state_hash"] == state["state_hash"] and after == state
    assert client.get(f"/api/games/{gid}/log").json() == log
    # asked again at the same position: the same hint, noted once
    again = client.get(f"/api/games/{gid}/hint", headers=auth(tokens[acting])).json()
    assert again["hint"] == given and again["note"] is None
    assert len(client.get(f"/api/games/{gid}/hints").json()["notes"]) == 1
    # the next position's hint is noted again
    play(client, gid, tokens, 1)
    acting = client.get(f"/api/games/{gid}").json()["acting_player"]
    client.get(f"/api/games/{gid}/hint", headers=auth(tokens[acting]))
    notes = client.get(f"/api/games/{gid}/hints").json()["notes"]
    assert [(n["player"], n["at"]) for n in notes] == [(note["player"], 4), (acting, 5)]


def test_a_hint_is_worked_out_in_a_process_of_its_own(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the server's interpreter never searches: a hint there would fail here
    def no_search(*_: Any, **__: Any) -> Any:
        raise AssertionError("a hint was worked out in the server's process")

    monkeypatch.setattr(server_hints, "hint", no_search)
    gid, tokens = new_game(client, hints=True)
    play(client, gid, tokens, 3)
    acting = client.get(f"/api/games/{gid}").json()["acting_player"]
    answer = client.get(f"/api/games/{gid}/hint", headers=auth(tokens[acting]))
    assert answer.status_code == 200, answer.text
    assert answer.json()["hint"]["player"] == acting


def test_the_hint_process_keeps_a_game_up_to_date_and_rebuilds_it_after_a_take_back() -> None:
    game = from_save(json.loads((SAMPLES / "1849-r6-s11-v1.json").read_text()))
    whole = to_save(game)
    server_hints._games.clear()
    first = server_hints._up_to_date("g", {**whole, "actions": whole["actions"][:20]})
    assert len(first.actions) == 20
    moved = server_hints._up_to_date("g", {**whole, "actions": whole["actions"][:30]})
    assert moved is first and moved.state_hash() == from_save(whole, upto=30).state_hash()
    back = server_hints._up_to_date("g", {**whole, "actions": whole["actions"][:25]})
    assert back is not first and back.state_hash() == from_save(whole, upto=25).state_hash()
    other = server_hints._up_to_date("g", {**whole, "seed": whole["seed"] + 1, "actions": []})
    assert other is not back and other.seed == whole["seed"] + 1
    for n in range(server_hints.CACHED_GAMES + 2):
        server_hints._up_to_date(f"h{n}", {**whole, "actions": []})
    assert len(server_hints._games) == server_hints.CACHED_GAMES and "g" not in server_hints._games
    server_hints._games.clear()


def test_hints_are_refused_without_a_token_on_anothers_turn_and_when_off(
    client: TestClient,
) -> None:
    gid, tokens = new_game(client, hints=True)
    play(client, gid, tokens, 2)
    acting = client.get(f"/api/games/{gid}").json()["acting_player"]
    other = next(p for p in tokens if p != acting)
    refusals = [
        (client.get(f"/api/games/{gid}/hint"), "seat"),
        (client.get(f"/api/games/{gid}/hint", headers=auth("not-a-token")), "seat"),
        (client.get(f"/api/games/{gid}/hint", headers=auth(tokens[other])), "turn order"),
    ]
    off, off_tokens = new_game(client)
    refusals.append(
        (client.get(f"/api/games/{off}/hint", headers=auth(off_tokens["Ann"])), "hints")
    )
    for answer, rule in refusals:
        assert answer.status_code == 403, answer.text
        assert answer.json()["rule"] == rule
    assert "turn" in refusals[2][0].json()["error"] and acting in refusals[2][0].json()["error"]
    assert "creator did not allow" in refusals[3][0].json()["error"]
    assert client.get(f"/api/games/{gid}/hints").json() == {"notes": []}
    assert client.get(f"/api/games/{off}/hints").json() == {"notes": []}
    assert client.get("/api/games/nosuchgame/hint", headers=auth("x")).status_code == 404
    # the option is stored with the game and shown in its seating
    assert client.get(f"/api/games/{gid}/seating").json()["hints"] is True
    assert client.get(f"/api/games/{off}/seating").json()["hints"] is False
    bad = client.post("/api/games", json={"title": "1849", "players": ["A", "B", "C"], "hints": 1})
    assert bad.status_code == 422


def test_the_hints_option_is_stored_and_a_database_before_it_gets_its_column(
    sqlite_url: str,
) -> None:
    config = ServerConfig(database_url=sqlite_url, bot_delay=0.0, undo_grace=0.0, **ROOMY)
    with TestClient(create_app(config)) as c:
        gid, _ = new_game(c, hints=True)
    storage = Storage(sqlite_url)
    try:
        record = storage.game(gid)
        assert record is not None and record.hosting.hints
        with storage.engine.begin() as conn:
            conn.exec_driver_sql("ALTER TABLE tresham_games DROP COLUMN hints")
    finally:
        storage.close()
    reopened = Storage(sqlite_url)  # the column is added again; the game has no hints
    try:
        record = reopened.game(gid)
        assert record is not None and not record.hosting.hints
    finally:
        reopened.close()


def test_a_review_is_for_a_finished_game_and_says_how_far_it_is(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, tokens = new_game(client)
    play(client, gid, tokens, 2)
    answer = client.get(f"/api/games/{gid}/review")
    assert answer.status_code == 409 and answer.json()["rule"] == "review"
    monkeypatch.setattr(server_review, "REVIEW_WORK", 10)
    save = json.loads((SAMPLES / "1883-r2-s5-v1.json").read_text())
    imported = client.post("/api/games/import", json=save)
    assert imported.status_code == 201, imported.text
    done = imported.json()["id"]
    first = client.get(f"/api/games/{done}/review").json()
    assert first["status"] in ("working", "done")
    deadline = time.monotonic() + 120
    answer = first
    while answer["status"] == "working" and time.monotonic() < deadline:
        assert 0 <= answer["done"] <= answer["total"] == len(save["actions"])
        time.sleep(0.2)
        answer = client.get(f"/api/games/{done}/review").json()
    assert answer["status"] == "done"
    review = answer["review"]
    assert review["work"] == 10
    assert set(review["players"]) == set(save["players"])
    assert any(review["players"].values())
    for missed in review["players"].values():
        for m in missed:
            assert m["gain"] > 0 and m["gain_text"].startswith("L.") and m["chosen"]
    page = client.get(f"/games/{done}/review")
    assert page.status_code == 200 and "review.js" in page.text


def test_a_hint_note_reaches_the_listeners_of_every_server_on_one_postgresql(
    pg_cluster: PgCluster, pg_url: str, tmp_path: Path
) -> None:
    """A hint asked of server A is noted once to the game's listeners on A and on B."""
    servers = [ServerProcess(pg_url, tmp_path).start() for _ in range(2)]
    a, b = servers
    try:
        with (
            httpx.Client(base_url=a.url, timeout=60) as on_a,
            httpx.Client(base_url=b.url, timeout=60) as on_b,
        ):
            body = {"title": "1849", "players": ["Ann", "Bob", "Cid"], "seed": 3, "hints": True}
            created = on_a.post("/api/games", json=body).json()
            gid = created["id"]
            tokens = {s["player"]: s["token"] for s in created["seats"]}
            acting = on_b.get(f"/api/games/{gid}").json()["acting_player"]
            with (
                connect(f"{a.ws_url}/api/games/{gid}/ws", open_timeout=10) as ws_a,
                connect(f"{b.ws_url}/api/games/{gid}/ws", open_timeout=10) as ws_b,
            ):
                for ws in (ws_a, ws_b):
                    assert json.loads(ws.recv(timeout=10))["type"] == "state"
                answer = on_a.get(f"/api/games/{gid}/hint", headers=auth(tokens[acting]))
                assert answer.status_code == 200, answer.text
                note = answer.json()["note"]
                for ws in (ws_a, ws_b):
                    assert json.loads(ws.recv(timeout=10)) == {"type": "note", "note": note}
                    with pytest.raises(TimeoutError):
                        ws.recv(timeout=0.5)  # once
            assert on_b.get(f"/api/games/{gid}/hints").json() == {"notes": [note]}
    finally:
        for server in servers:
            server.stop()
