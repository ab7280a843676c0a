"""The server's HTTP and websocket API, in process (Starlette's httpx test client): creating
games, state, legal actions, posting actions with every refusal (403, 409, 413, 422) leaving
the game unchanged, undo/redo, log/export/import, live updates, bots and webhooks."""

from __future__ import annotations

import functools
import json
import random
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from conftest_server import LOCAL_RECEIVERS, ROOMY, Receiver, auth, play, silent_receiver
from offer_position import PROPOSAL, before_the_offer
from positions import two_trains_to_run
from shared_files import EXPORT_27939
from tresham.bots.players import DEFAULT_LEVEL, get_bot
from tresham.core.actions import RunRoutes, RunSpec, action_from_json
from tresham.core.game import Game
from tresham.io.save import from_save, new_game
from tresham.server import ServerConfig, create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's advice to use httpx2 instead of httpx
    from fastapi.testclient import TestClient

PLAYERS = ["Ann", "Bob", "Cid"]


def make_client(db_url: str, **config: Any) -> TestClient:
    settings = {
        "bot_delay": 0.0,
        "undo_grace": 0.0,
        "webhook_timeout": 0.5,
        "webhook_backoff": 0.05,
        "webhook_allow": LOCAL_RECEIVERS,
        **ROOMY,
        **config,
    }
    return TestClient(create_app(ServerConfig(database_url=db_url, **settings)))


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as c:
        yield c


def create(client: TestClient, **extra: Any) -> tuple[str, dict[str, str]]:
    body = {"title": "1849", "players": PLAYERS, "seed": 7, **extra}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["id"], {s["player"]: s["token"] for s in data["seats"] if s["token"]}


def state(client: TestClient, game_id: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}")
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def legal(client: TestClient, game_id: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}/legal", headers=auth(token))
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def post(client: TestClient, game_id: str, token: str | None, index: int, action: Any) -> Any:
    headers = auth(token) if token else {}
    return client.post(
        f"/api/games/{game_id}/actions", json={"index": index, "action": action}, headers=headers
    )


def acting(client: TestClient, game_id: str, tokens: dict[str, str]) -> tuple[str, str]:
    player = state(client, game_id)["acting_player"]
    return player, tokens[player]


# ---------------------------------------------------------------------- creating and reading
def test_a_new_game_has_a_link_per_seat_and_a_public_state(client: TestClient) -> None:
    answer = client.post("/api/games", json={"title": "1849", "players": PLAYERS, "seed": 7})
    assert answer.status_code == 201
    data = answer.json()
    assert [s["player"] for s in data["seats"]] == PLAYERS
    for seat in data["seats"]:
        assert seat["url"].endswith(f"/games/{data['id']}#seat={seat['token']}")
    s = state(client, data["id"])
    assert s["index"] == 0 and s["finished"] is False and s["scores"] is None
    assert s["acting_player"] in PLAYERS and s["title"] == "1849"
    assert {p["name"] for p in s["players"]} == set(PLAYERS)
    assert s["round"]["kind"] and s["phase"] and s["state_hash"]
    assert {"corporations", "companies", "trains_for_sale", "map", "market", "bank"} <= set(s)
    assert all(t["left"] == t["count"] > 0 and t["pool"] == 0 for t in s["depot"])
    assert {t["kind"] for t in s["trains_for_sale"]} <= {t["kind"] for t in s["depot"]}
    assert client.get(f"/games/{data['id']}").status_code == 200
    assert client.get("/api/titles").json()[0]["title"] == "1849"
    assert data["id"] not in [g["id"] for g in client.get("/api/games").json()]  # private


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"title": "1830", "players": PLAYERS}, "unknown title"),
        ({"title": "1849", "players": ["Ann"]}, "players"),
        ({"title": "1849", "players": ["Ann", "Ann", "Bob"]}, "distinct"),
        ({"title": "1849", "players": PLAYERS, "bots": ["Zed"]}, "bots"),
        (
            {"title": "1849", "players": PLAYERS, "bots": [{"player": "Cid", "level": "expert"}]},
            "level",
        ),
        ({"title": "1849", "players": PLAYERS, "webhook": "ftp://x"}, "webhook"),
        ({"title": "1849", "players": PLAYERS, "seed": "7"}, "seed"),
        ({"title": "1849", "players": PLAYERS, "colour": "red"}, "colour"),
        ({"players": PLAYERS}, "title"),
    ],
)
def test_a_game_that_cannot_be_set_up_is_refused(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 422
    assert words in answer.json()["error"]
    assert set(answer.json()) >= {"error", "rule"}


def test_unknown_games_are_404(client: TestClient) -> None:
    for path in ["/api/games/nope", "/api/games/nope/log", "/api/games/../../etc/passwd"]:
        answer = client.get(path)
        assert answer.status_code == 404
        assert "error" in answer.json()


# ---------------------------------------------------------------------- seats and turns
def test_legal_actions_are_the_acting_seats_only(client: TestClient) -> None:
    game_id, tokens = create(client)
    player, token = acting(client, game_id, tokens)
    mine = legal(client, game_id, token)
    assert mine["index"] == 0 and mine["actions"]
    assert all(a["entity"] == player for a in mine["actions"])
    other = next(p for p in PLAYERS if p != player)
    assert legal(client, game_id, tokens[other]) == {
        "index": 0,
        "actions": [],
        "choices": [],
        "ranges": [],
        "step": "",
        "routes": None,
    }
    assert client.get(f"/api/games/{game_id}/legal").status_code == 403
    wrong = client.get(f"/api/games/{game_id}/legal", headers=auth("not-a-token"))
    assert wrong.status_code == 403


def test_refused_posts_change_nothing(client: TestClient) -> None:
    game_id, tokens = create(client)
    play(client, game_id, tokens, 3)
    before = state(client, game_id)
    player, token = acting(client, game_id, tokens)
    action = legal(client, game_id, token)["actions"][0]
    _other_id, other_tokens = create(client)
    other = next(p for p in PLAYERS if p != player)
    illegal = {"type": "bid", "entity": player, "company": "NOPE", "price": 5}
    cases = [
        (post(client, game_id, None, 3, action), 403),
        (post(client, game_id, other_tokens[player], 3, action), 403),
        (post(client, game_id, tokens[other], 3, {**action, "entity": other}), 403),
        (post(client, game_id, token, 2, action), 409),
        (post(client, game_id, token, 4, action), 409),
        (post(client, game_id, token, 3, illegal), 422),
        (post(client, game_id, token, 3, {"type": "fly", "entity": player}), 422),
        (post(client, game_id, token, 3, {"type": "bid", "entity": player}), 422),
        (post(client, game_id, token, 3, "pass"), 422),
        (post(client, game_id, token, "3", action), 422),
        (post(client, game_id, token, -1, action), 422),
    ]
    for answer, status in cases:
        assert answer.status_code == status, answer.text
        body = answer.json()
        assert set(body) >= {"error", "rule"} and "Traceback" not in answer.text
    assert cases[3][0].json()["index"] == 3
    assert "NOPE" in cases[5][0].json()["error"] or cases[5][0].json()["rule"]
    not_json = client.post(
        f"/api/games/{game_id}/actions",
        content=b"{index: 3",
        headers={**auth(token), "content-type": "application/json"},
    )
    assert not_json.status_code == 422
    assert state(client, game_id) == before
    assert client.get(f"/api/games/{game_id}/log").json()["index"] == 3
    assert post(client, game_id, token, 3, action).status_code == 200


def test_oversized_bodies_are_413(sqlite_url: str) -> None:
    with make_client(sqlite_url, max_body=2000, max_import_body=4000) as client:
        game_id, tokens = create(client)
        player, token = acting(client, game_id, tokens)
        big = {"index": 0, "action": {"type": "pass", "entity": player, "x": "y" * 5000}}
        answer = client.post(f"/api/games/{game_id}/actions", json=big, headers=auth(token))
        assert answer.status_code == 413 and "error" in answer.json()

        def chunks() -> Iterator[bytes]:
            yield b'{"index": 0, "action": {"type": "pass", "entity": "' + player.encode()
            for _ in range(10):
                yield b" " * 500
            yield b'"}}'

        streamed = client.post(
            f"/api/games/{game_id}/actions",
            content=chunks(),
            headers={**auth(token), "content-type": "application/json"},
        )
        assert streamed.status_code == 413
        assert client.post("/api/games/import", content=b"x" * 5000).status_code == 413
        assert state(client, game_id)["index"] == 0


def test_an_illegal_action_leaves_the_state_hash_unchanged(client: TestClient) -> None:
    game_id, tokens = create(client)
    play(client, game_id, tokens, 5, seed=3)
    before = state(client, game_id)
    _player, token = acting(client, game_id, tokens)
    for action in legal(client, game_id, token)["actions"]:
        for field in ("price", "percent"):
            if field in action:
                bad = {**action, field: action[field] + 10_000}
                answer = post(client, game_id, token, before["index"], bad)
                assert answer.status_code == 422, answer.text
                assert answer.json()["rule"]
    after = state(client, game_id)
    assert after["state_hash"] == before["state_hash"] and after == before


# ---------------------------------------------------------------------- undo and redo
def test_undo_and_redo_are_log_entries_with_limits(client: TestClient) -> None:
    game_id, tokens = create(client)
    player, token = acting(client, game_id, tokens)
    start = state(client, game_id)
    action = legal(client, game_id, token)["actions"][0]
    assert post(client, game_id, token, 0, action).status_code == 200
    moved = state(client, game_id)
    assert moved["undo"] == player
    others = [p for p in PLAYERS if p != player]
    assert post(client, game_id, tokens[others[0]], 1, {"type": "undo"}).status_code == 403
    assert post(client, game_id, token, 1, {"type": "redo"}).status_code == 422
    assert post(client, game_id, token, 1, {"type": "undo", "entity": others[0]}).status_code == 422
    assert post(client, game_id, token, 1, {"type": "undo"}).json() == {"index": 2}
    undone = state(client, game_id)
    assert undone["state_hash"] == start["state_hash"] and undone["redo"] == player
    assert undone["actions"] == 0 and undone["index"] == 2
    assert post(client, game_id, token, 2, {"type": "redo"}).status_code == 200
    assert state(client, game_id)["state_hash"] == moved["state_hash"]
    assert post(client, game_id, token, 3, {"type": "undo"}).status_code == 200
    assert post(client, game_id, token, 4, {"type": "undo"}).status_code == 422
    entries = client.get(f"/api/games/{game_id}/log").json()["entries"]
    assert [e["entry"]["type"] for e in entries][1:] == ["undo", "redo", "undo"]
    assert all(e["seat"] == player for e in entries)
    # another action ends the chance to redo
    assert post(client, game_id, token, 4, action).status_code == 200
    assert post(client, game_id, token, 5, {"type": "redo"}).status_code == 422


def test_a_game_reloaded_from_its_log_is_the_same(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        game_id, tokens = create(client)
        play(client, game_id, tokens, 12, seed=5)
        player, token = acting(client, game_id, tokens)
        last = client.get(f"/api/games/{game_id}/log").json()["entries"][-1]
        if last["seat"] == player:
            assert post(client, game_id, token, 12, {"type": "undo"}).status_code == 200
        before = state(client, game_id)
    with make_client(sqlite_url) as client:
        assert state(client, game_id) == before
        play(client, game_id, tokens, 2, seed=6)


def test_a_server_behind_the_log_catches_up_before_it_appends(sqlite_url: str) -> None:
    """Two apps on one database, as two processes would be: each sees the other's moves."""
    with make_client(sqlite_url) as one, make_client(sqlite_url) as two:
        game_id, tokens = create(one)
        assert state(two, game_id)["index"] == 0
        play(one, game_id, tokens, 1)
        _player, token = acting(one, game_id, tokens)
        action = legal(one, game_id, token)["actions"][0]
        # `two` still holds the game at index 0: its insert there is refused by the database
        assert post(two, game_id, token, 0, action).status_code == 409
        play(one, game_id, tokens, 1)
        # asked for index 2, `two` catches up from the log first, then appends
        _player, token = acting(one, game_id, tokens)
        action = legal(one, game_id, token)["actions"][0]
        assert post(two, game_id, token, 2, action).json() == {"index": 3}
        assert state(one, game_id) == state(two, game_id)


# ---------------------------------------------------------------------- log, export, import
def test_export_then_import_gives_the_same_game(client: TestClient) -> None:
    game_id, tokens = create(client)
    play(client, game_id, tokens, 10, seed=8)
    saved = client.get(f"/api/games/{game_id}/export").json()
    assert saved["format"] == "tresham-save" and len(saved["actions"]) == 10
    assert from_save(saved).state_hash() == state(client, game_id)["state_hash"]
    answer = client.post("/api/games/import", json=saved)
    assert answer.status_code == 201, answer.text
    copy_id = answer.json()["id"]
    assert copy_id != game_id
    copy = state(client, copy_id)
    assert copy["state_hash"] == state(client, game_id)["state_hash"] and copy["index"] == 10
    copy_tokens = {s["player"]: s["token"] for s in answer.json()["seats"]}
    _player, token = acting(client, copy_id, copy_tokens)
    assert post(client, copy_id, token, 10, {"type": "undo"}).status_code == 422
    assert play(client, copy_id, copy_tokens, 2) == 12


@pytest.mark.parametrize(
    "body",
    [
        {"format": "tresham-save", "version": 1, "title": "1849"},
        {"format": "tresham-save", "version": 9},
        {"something": "else"},
        [],
    ],
)
def test_a_bad_import_is_refused(client: TestClient, body: Any) -> None:
    answer = client.post("/api/games/import", json=body)
    assert answer.status_code == 422, answer.text
    assert "error" in answer.json()


def test_an_18xx_games_export_imports(client: TestClient) -> None:
    answer = client.post("/api/games/import", content=EXPORT_27939.read_bytes())
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    s = state(client, game_id)
    assert s["index"] > 100
    saved = client.get(f"/api/games/{game_id}/export").json()
    assert from_save(saved).state_hash() == s["state_hash"]


# ---------------------------------------------------------------------- live updates
def test_the_websocket_sends_the_state_then_every_entry(client: TestClient) -> None:
    game_id, tokens = create(client)
    with client.websocket_connect(f"/api/games/{game_id}/ws") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["index"] == 0
        assert first["state"] == state(client, game_id)
        for expected in (1, 2, 3):
            play(client, game_id, tokens, 1, seed=expected)
            message = ws.receive_json()
            assert message["type"] == "log" and message["index"] == expected
            assert [e["index"] for e in message["entries"]] == [expected - 1]
            assert message["state"]["index"] == expected
        player, token = acting(client, game_id, tokens)
        assert post(client, game_id, token, 0, {"type": "pass", "entity": player}).status_code
        assert state(client, game_id)["index"] == 3


def test_the_websocket_of_an_unknown_game_is_closed(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/api/games/nope/ws") as ws:
        ws.receive_json()


# ---------------------------------------------------------------------- bots
def test_bots_take_their_turns(client: TestClient) -> None:
    game_id, tokens = create(client, bots=["Bob", "Cid"])
    assert set(tokens) == {"Ann"}
    deadline = time.monotonic() + 20
    moves = 0
    while moves < 6 and time.monotonic() < deadline:
        s = state(client, game_id)
        if s["acting_player"] != "Ann":
            time.sleep(0.02)
            continue
        play(client, game_id, tokens, 1, seed=moves)
        moves += 1
    assert moves == 6
    seats = {e["seat"] for e in client.get(f"/api/games/{game_id}/log").json()["entries"]}
    assert seats == {"Ann", "Bob", "Cid"}


def test_a_bot_gives_a_person_time_to_take_their_move_back(sqlite_url: str) -> None:
    """After a person's move gives the turn to a bot, the bot waits the undo grace: the
    person may still take the move back, and then the bot does not move; once the grace is
    over, it moves (issue "The table players expect": bots give humans time)."""
    with make_client(sqlite_url, undo_grace=1.5) as client:
        game_id, tokens = create(client, bots=["Bob", "Cid"])
        first = legal(client, game_id, tokens["Ann"])
        post = {"index": first["index"], "action": first["actions"][-1]}
        assert (
            client.post(
                f"/api/games/{game_id}/actions", json=post, headers=auth(tokens["Ann"])
            ).status_code
            == 200
        )
        s = state(client, game_id)
        assert s["acting_player"] == "Bob" and s["undo"] == "Ann"
        time.sleep(0.5)  # well within the grace: the bot waits
        assert state(client, game_id)["index"] == first["index"] + 1
        undo = {"index": first["index"] + 1, "action": {"type": "undo"}}
        assert (
            client.post(
                f"/api/games/{game_id}/actions", json=undo, headers=auth(tokens["Ann"])
            ).status_code
            == 200
        )
        time.sleep(2.0)  # past the grace: Ann is to act again, the bots have nothing to do
        s = state(client, game_id)
        assert s["acting_player"] == "Ann" and s["index"] == first["index"] + 2
        # moved again, and left alone: the bot moves once the grace is over
        assert (
            client.post(
                f"/api/games/{game_id}/actions",
                json={**post, "index": s["index"]},
                headers=auth(tokens["Ann"]),
            ).status_code
            == 200
        )
        wait_for_index(client, game_id, s["index"] + 2, seconds=10)


def test_a_game_of_bots_plays_by_itself(client: TestClient) -> None:
    game_id, _tokens = create(client, bots=PLAYERS)
    deadline = time.monotonic() + 20
    while state(client, game_id)["index"] < 60 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert state(client, game_id)["index"] >= 60


def wait_for_index(client: TestClient, game_id: str, index: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while state(client, game_id)["index"] < index and time.monotonic() < deadline:
        time.sleep(0.05)
    assert state(client, game_id)["index"] >= index


def bot_moves_checked(client: TestClient, game_id: str, levels: dict[str, str]) -> int:
    """Replay the game's log and check every bot's move: the move of the bot of its seat's
    level, given random numbers seeded from the game's seed and the move's log index (as any
    server process seeds them); returns how many bot moves there were."""
    entries = client.get(f"/api/games/{game_id}/log").json()["entries"]
    game = new_game("1849", PLAYERS, 7)
    checked = 0
    for e in entries:
        if e["seat"] in levels:
            rng = random.Random(f"tresham-bot:{game.seed}:{e['index']}")
            chosen = get_bot(levels[e["seat"]]).choose(game, rng)
            assert chosen.to_json() == e["entry"], (e["index"], levels[e["seat"]])
            checked += 1
        game.apply(action_from_json(e["entry"]))
    return checked


def test_each_bot_seat_has_a_level(client: TestClient) -> None:
    """A bot seat is a name (the default level, medium) or {player, level}; the answer, the
    public state and every move show it."""
    bots = ["Ann", {"player": "Bob", "level": "easy"}, {"player": "Cid", "level": "random"}]
    answer = client.post(
        "/api/games", json={"title": "1849", "players": PLAYERS, "seed": 7, "bots": bots}
    )
    assert answer.status_code == 201, answer.text
    seats = answer.json()["seats"]
    assert [(s["bot"], s["level"], s["token"]) for s in seats] == [
        (True, DEFAULT_LEVEL, None),
        (True, "easy", None),
        (True, "random", None),
    ]
    assert DEFAULT_LEVEL == "medium"
    game_id = answer.json()["id"]
    levels = {"Ann": "medium", "Bob": "easy", "Cid": "random"}
    assert state(client, game_id)["seats"] == [
        {"player": p, "bot": True, "level": level} for p, level in levels.items()
    ]
    wait_for_index(client, game_id, 60)
    assert bot_moves_checked(client, game_id, levels) >= 60
    assert client.get("/api/bots").json() == {
        "levels": ["random", "easy", "medium", "hard"],
        "default": "medium",
    }


def test_a_bot_plays_by_its_level(client: TestClient) -> None:
    """Bob's seat plays as the easy bot: the same position with Bob at another level would
    have seen other moves."""
    game_id, tokens = create(client, bots=[{"player": "Bob", "level": "easy"}])
    assert set(tokens) == {"Ann", "Cid"}
    assert [s["level"] for s in state(client, game_id)["seats"]] == [None, "easy", None]
    for moves in range(40):
        s = state(client, game_id)
        deadline = time.monotonic() + 20
        while s["acting_player"] == "Bob" and time.monotonic() < deadline:
            time.sleep(0.02)
            s = state(client, game_id)
        play(client, game_id, tokens, 1, seed=moves)
    assert bot_moves_checked(client, game_id, {"Bob": "easy"}) >= 5
    with pytest.raises(AssertionError):
        bot_moves_checked(client, game_id, {"Bob": "random"})


def test_a_restarted_server_keeps_each_bots_level(sqlite_url: str) -> None:
    """The level is stored with the seat: after a restart the bots play on (resumed at
    once), each at its level."""
    levels = {"Ann": "easy", "Bob": "random", "Cid": "medium"}
    bots = [{"player": p, "level": level} for p, level in levels.items()]
    with make_client(sqlite_url, bot_delay=3600.0) as first:  # the bots wait: none moves
        game_id, _tokens = create(first, bots=bots)
        assert state(first, game_id)["index"] == 0
    with make_client(sqlite_url) as second:
        assert [s["level"] for s in state(second, game_id)["seats"]] == list(levels.values())
        wait_for_index(second, game_id, 40)
        assert bot_moves_checked(second, game_id, levels) >= 40


# ---------------------------------------------------------------------- webhooks
def test_the_webhook_hears_whose_turn_it_is(client: TestClient) -> None:
    receiver = Receiver()
    try:
        game_id, tokens = create(client, webhook=receiver.url)
        first = receiver.next_call()
        s = state(client, game_id)
        assert first["tresham"]["player"] == s["acting_player"]
        assert first["tresham"]["game"] == game_id
        assert s["acting_player"] in first["content"] and first["text"] == first["content"]
        for _ in range(4):
            before = state(client, game_id)["acting_player"]
            play(client, game_id, tokens, 1)
            after = state(client, game_id)["acting_player"]
            if after != before:
                call = receiver.next_call()
                assert call["tresham"]["player"] == after
        assert receiver.calls.empty()
    finally:
        receiver.close()


def created_at_the_offer(client: TestClient, **extra: Any) -> tuple[str, dict[str, str]]:
    """A game at `offer_position.before_the_offer` (IFT, Cid's, may offer for CTL's 4H, which
    Bob presides), made live by the server's registry with `extra` (bots, webhook)."""
    server: Any = client.app.state.holder["server"]  # type: ignore[attr-defined]
    assert client.portal is not None
    create = functools.partial(server.registry.create, before_the_offer(), **extra)
    live, seats = client.portal.call(create)
    return live.record.id, {s.player: s.token for s in seats if s.token}


def test_the_webhook_asks_the_seller_to_answer_an_offer(client: TestClient) -> None:
    receiver = Receiver()
    try:
        game_id, tokens = created_at_the_offer(client, webhook=receiver.url)
        assert receiver.next_call()["tresham"]["player"] == "Cid"
        index = state(client, game_id)["index"]
        assert post(client, game_id, tokens["Cid"], index, PROPOSAL.to_json()).status_code == 200
        call = receiver.next_call()
        facts = call["tresham"]
        assert facts["event"] == "offer" and facts["player"] == "Bob"
        assert facts["offer"] == state(client, game_id)["offer"]
        assert facts["offer"]["buyer"] == "IFT" and facts["offer"]["price_text"] == "L.1"
        assert call["content"].startswith("Bob: IFT offers L.1 to CTL for train 4H; accept")
        assert "your turn" not in call["content"] and call["text"] == call["content"]
        # the answer gives the turn back to the buyer's president: a plain turn message
        decline = {"type": "choose", "entity": "CTL", "choice": "decline"}
        assert post(client, game_id, tokens["Bob"], index + 1, decline).status_code == 200
        call = receiver.next_call()
        assert call["tresham"]["event"] == "turn" and call["tresham"]["player"] == "Cid"
        assert "offer" not in call["tresham"] and "your turn" in call["content"]
        assert receiver.calls.empty()
    finally:
        receiver.close()


@pytest.mark.parametrize("level", ["random", "easy", "medium"])
def test_a_bot_seller_answers_an_offer_at_once(client: TestClient, level: str) -> None:
    game_id, tokens = created_at_the_offer(client, bots={"Bob": level})
    assert set(tokens) == {"Ann", "Cid"}
    assert state(client, game_id)["seats"][1] == {"player": "Bob", "bot": True, "level": level}
    index = state(client, game_id)["index"]
    assert post(client, game_id, tokens["Cid"], index, PROPOSAL.to_json()).status_code == 200
    deadline = time.monotonic() + 20
    while state(client, game_id)["index"] < index + 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    s = state(client, game_id)
    assert s["offer"] is None and s["acting_player"] == "Cid"
    answer = client.get(f"/api/games/{game_id}/log").json()["entries"][index + 1]
    assert answer["seat"] == "Bob" and answer["entry"]["type"] == "choose"
    assert answer["entry"]["entity"] == "CTL" and answer["entry"]["choice"] in ("accept", "decline")
    ift = next(c for c in s["corporations"] if c["sym"] == "IFT")
    assert ("4H-0" in ift["trains"]) == (answer["entry"]["choice"] == "accept")


def test_a_failed_webhook_call_is_tried_again(client: TestClient) -> None:
    receiver = Receiver(fail_first=1)
    try:
        game_id, _tokens = create(client, webhook=receiver.url)
        first, second = receiver.next_call(), receiver.next_call()
        assert first == second and first["tresham"]["game"] == game_id
    finally:
        receiver.close()


def test_a_dead_webhook_never_holds_up_the_game(sqlite_url: str) -> None:
    with (
        silent_receiver() as silent,
        make_client(sqlite_url, webhook_timeout=2.0, webhook_attempts=2) as client,
    ):
        for url in (silent, "http://127.0.0.1:9/closed"):
            game_id, tokens = create(client, webhook=url)
            started = time.monotonic()
            play(client, game_id, tokens, 6)
            assert time.monotonic() - started < 2.0
        server: Any = client.app.state.holder["server"]  # type: ignore[attr-defined]
        deadline = time.monotonic() + 15
        while server.registry.webhooks.stats.failed < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert server.registry.webhooks.stats.failed >= 2
        assert server.registry.webhooks.stats.delivered == 0


def test_the_api_works_the_same_on_postgresql(pg_url: str) -> None:
    with make_client(pg_url) as client:
        game_id, tokens = create(client)
        assert play(client, game_id, tokens, 5) == 5
        player, token = acting(client, game_id, tokens)
        stale = post(client, game_id, token, 3, {"type": "pass", "entity": player})
        assert stale.status_code == 409
        before = state(client, game_id)
    with make_client(pg_url) as client:
        assert state(client, game_id) == before
        saved = client.get(f"/api/games/{game_id}/export").json()
        assert json.dumps(saved)


# ---------------------------------------------------------------------- the browser table
def test_the_table_pages_and_their_files_are_served(client: TestClient) -> None:
    game_id, _tokens = create(client)
    for path in ["/", f"/games/{game_id}", f"/games/{game_id}/tiles"]:
        answer = client.get(path)
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/html")
        assert '<script type="module"' in answer.text
    for name in ["table.js", "board.js", "market.js", "charts.js", "common.js", "table.css"]:
        assert client.get(f"/web/{name}").status_code == 200
    assert client.get("/games/nope").status_code == 404
    assert client.get("/games/nope/tiles").status_code == 404


def test_the_board_endpoint_gives_the_static_drawing_data(client: TestClient) -> None:
    game_id, _tokens = create(client)
    board = client.get(f"/api/games/{game_id}/board").json()
    s = state(client, game_id)
    assert board["layout"] == "flat" and len(board["corners"]) == 6
    assert set(board["tiles"]) == set(s["map"]["supply"])
    assert all(len(t["rotations"]) == 6 for t in board["tiles"].values())
    assert board["market"]["geometry"] == "grid"
    assert board["phases"][0]["name"] == s["phase"]
    assert [p["name"] for p in board["phases"]] == ["4H", "6H", "8H", "10H", "12H", "16H"]
    assert set(board["corporation_colors"]) == {c["sym"] for c in s["corporations"]}
    assert client.get("/api/games/nope/board").status_code == 404


def test_a_seat_token_names_its_player(client: TestClient) -> None:
    game_id, tokens = create(client)
    for player, token in tokens.items():
        answer = client.get(f"/api/games/{game_id}/seat", headers=auth(token))
        assert answer.json() == {"player": player}
    assert client.get(f"/api/games/{game_id}/seat").status_code == 403
    assert client.get(f"/api/games/{game_id}/seat", headers=auth("nope")).status_code == 403


def test_the_history_of_a_finished_game(client: TestClient) -> None:
    answer = client.post("/api/games/import", content=EXPORT_27939.read_bytes())
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    s = state(client, game_id)
    history = client.get(f"/api/games/{game_id}/history").json()
    points = history["points"]
    last = s["round"]["operating_round"]
    assert [p["label"] for p in points] == [
        "start",
        *(f"OR {n}" for n in range(1, last)),
        f"OR {last} (end)",
    ]
    assert points[-1]["worth"] == s["raw_scores"]
    assert points[-1]["prices"] == {c["sym"]: c["price"] for c in s["corporations"] if c["price"]}
    start = from_save({**client.get(f"/api/games/{game_id}/export").json(), "actions": []})
    assert points[0]["worth"] == {p.name: p.cash for p in start.state.players}
    assert history["players"] == [p["name"] for p in s["players"]]
    # each point's revenue is what the corporations earned in that OR; together, all of it
    for c in s["corporations"]:
        earned = [p["revenue"][c["sym"]] for p in points if c["sym"] in p["revenue"]]
        assert sum(earned) == sum(c["revenue_history"])
    assert points[0]["revenue"] == {}


def test_a_new_game_has_a_history_of_one_point(client: TestClient) -> None:
    game_id, _tokens = create(client)
    history = client.get(f"/api/games/{game_id}/history").json()
    assert [p["label"] for p in history["points"]] == ["start"]
    assert set(history["points"][0]["worth"]) == set(PLAYERS)


# ---------------------------------------------------------------------- checking an action
def made_live(client: TestClient, game: Game) -> tuple[str, dict[str, str]]:
    server: Any = client.app.state.holder["server"]  # type: ignore[attr-defined]
    assert client.portal is not None
    live, seats = client.portal.call(functools.partial(server.registry.create, game))
    return live.record.id, {s.player: s.token for s in seats if s.token}


def check(client: TestClient, game_id: str, token: str, index: int, action: Any) -> Any:
    return client.post(
        f"/api/games/{game_id}/check", json={"index": index, "action": action}, headers=auth(token)
    )


# 1849 §OR Run trains (and every title's routes rule): two trains may not share track; the
# engine's refusal is given before the run is made, and nothing changes
def test_a_composed_set_of_runs_is_checked_by_the_engine(client: TestClient) -> None:
    game, proposal = two_trains_to_run()
    index = len(game.actions)
    game_id, tokens = made_live(client, game)
    player = game.acting_player()
    assert player is not None
    token = tokens[player]
    before = state(client, game_id)["state_hash"]
    answer = check(client, game_id, token, index, proposal.to_json())
    assert answer.status_code == 200 and answer.json() == {"legal": True}
    first, second = proposal.runs[:2]
    shared = RunRoutes(proposal.entity, (first, RunSpec(second.train, first.stops, first.track)))
    answer = check(client, game_id, token, index, shared.to_json())
    assert answer.status_code == 200
    refusal = answer.json()
    assert refusal["legal"] is False and refusal["error"] and refusal["rule"]
    assert state(client, game_id)["state_hash"] == before  # nothing changed
    assert state(client, game_id)["index"] == index
    # the index must be the game's, and only the seat to act may ask
    assert check(client, game_id, token, index + 1, proposal.to_json()).status_code == 409
    other = next(t for p, t in tokens.items() if p != player)
    assert check(client, game_id, other, index, proposal.to_json()).status_code == 403
    assert check(client, game_id, token, index, {"type": "undo"}).status_code == 422
