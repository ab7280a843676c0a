"""Bad input at every edge of the server, on SQLite and on PostgreSQL: creating a game,
importing one (a tresham save, an 18xx.games export), posting an action, and the websocket.

Every bad request gets its 4xx with the JSON error shape (``{"error", "rule"}``, plus the
``field`` at fault where there is one), in ASCII whatever it repeats; none is a 500 or a 503;
and none adds or changes a row of the database (games, seats, log) or the state of a game.
The families: wrong JSON types for every field, numbers out of range (2**70, -1, floats,
booleans), huge sizes, bad and absent tokens, encodings (lone surrogates, NUL, invalid UTF-8,
NaN, deep nesting), traversal-like game ids. Last, a real `tresham serve` process: what the
HTTP server refuses before the app, and the websocket handshake of an unknown game.
"""

from __future__ import annotations

import asyncio
import json
import socket
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import select

from conftest_server import LOCAL_RECEIVERS, ROOMY, PgCluster, ServerProcess, auth, play
from tresham.core.game_spec import MAX_NAME, MAX_SEED
from tresham.server import ServerConfig, create_app
from tresham.server.errors import encode_json
from tresham.server.storage import games_table, log_table, seats_table

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's advice to use httpx2 instead of httpx
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

PLAYERS = ["Ann", "Bob", "Cid"]
GAME = {"title": "1849", "players": PLAYERS, "seed": 7, "public": True}  # listed
NO_FIELD = "-"  # the error names no field
ANY_FIELD = "*"  # the error may or may not name one
JSON = {"content-type": "application/json"}
GAME_TEXT = json.dumps(GAME).encode()
DEEP_65 = json.loads("[" * 65 + "]" * 65)  # one level over the limit


def with_seed(text: bytes) -> bytes:
    """The game's body with `text` as its seed, written as it is."""
    return GAME_TEXT.replace(b'"seed": 7', b'"seed": ' + text)


@dataclass
class Edge:
    """A server on one database, with a game some moves in."""

    client: TestClient
    game_id: str
    tokens: dict[str, str]

    def acting(self) -> tuple[str, str]:
        player = self.client.get(f"/api/games/{self.game_id}").json()["acting_player"]
        return player, self.tokens[player]

    def rows(self) -> tuple[list[Any], ...]:
        """Every row of the database."""
        server: Any = self.client.app.state.holder["server"]  # type: ignore[attr-defined]
        with server.storage.engine.connect() as conn:
            return tuple(
                [tuple(r) for r in conn.execute(select(table).order_by(*table.primary_key))]
                for table in (games_table, seats_table, log_table)
            )

    def game_state(self) -> dict[str, Any]:
        answer = self.client.get(f"/api/games/{self.game_id}")
        assert answer.status_code == 200, answer.text
        state: dict[str, Any] = answer.json()
        return state


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def edge(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Edge]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('edges') / 'tresham.sqlite3'}"
    else:
        cluster: PgCluster = request.getfixturevalue("pg_cluster")
        url = cluster.new_database()
    config = ServerConfig(
        database_url=url,
        bot_delay=0.0,
        undo_grace=0.0,
        webhook_timeout=0.5,
        webhook_allow=LOCAL_RECEIVERS,
        **ROOMY,
    )
    with TestClient(create_app(config)) as client:
        answer = client.post("/api/games", json=GAME)
        assert answer.status_code == 201, answer.text
        data = answer.json()
        tokens = {s["player"]: s["token"] for s in data["seats"]}
        play(client, data["id"], tokens, 3)
        yield Edge(client, data["id"], tokens)


def body_of(value: Any) -> bytes:
    """A request body: bytes as they are, anything else as JSON (lone surrogates and NUL
    written as \\u escapes, as any JSON encoder may)."""
    return value if isinstance(value, bytes) else json.dumps(value).encode()


def check_refusal(answer: httpx.Response, status: int, field: str = ANY_FIELD) -> dict[str, Any]:
    """The answer is `status` with the JSON error shape, in ASCII, naming `field`."""
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"] == "application/json", answer.headers
    assert answer.content.isascii(), answer.content[:200]
    body: dict[str, Any] = answer.json()
    assert isinstance(body.get("error"), str) and body["error"], body
    assert isinstance(body.get("rule"), str) and body["rule"], body
    assert set(body) <= {"error", "rule", "field", "index"}, body
    assert len(body["error"]) <= 1000 and "Traceback" not in body["error"]
    if field == NO_FIELD:
        assert "field" not in body, body
    elif field != ANY_FIELD:
        assert body.get("field") == field, body
    return body


def refused_unchanged(
    edge: Edge, send: Any, cases: list[tuple[Any, int, str]], label: str = ""
) -> None:
    """Send each case's body; each must be refused with its status and field, and the
    database and the game must be as they were."""
    rows = edge.rows()
    state = edge.game_state()
    failures = []
    for value, status, field in cases:
        answer = send(body_of(value))
        try:
            check_refusal(answer, status, field)
        except AssertionError as exc:
            failures.append(f"{label} {repr(value)[:120]}: {exc}")
    assert not failures, "\n".join(failures)
    assert edge.rows() == rows
    assert edge.game_state() == state


# ---------------------------------------------------------------------- creating a game
def wrong_types(name: str, values: list[Any], field: str | None = None) -> list[Any]:
    return [({**GAME, name: v}, 422, field or name) for v in values]


CREATE_CASES: list[tuple[Any, int, str]] = [
    # wrong JSON types, field by field
    *wrong_types("title", [None, True, 1849, 18.49, [], {}, ["1849"]]),
    *wrong_types("players", [None, True, 3, "Ann", {}, {"0": "Ann"}]),
    ({**GAME, "players": [1, "Bob", "Cid"]}, 422, "players[0]"),
    ({**GAME, "players": ["Ann", True, "Cid"]}, 422, "players[1]"),  # null: an open seat
    ({**GAME, "players": ["Ann", "Bob", ["Cid"]]}, 422, "players[2]"),
    ({**GAME, "players": ["Ann", "Bob", {"name": "Cid"}]}, 422, "players[2]"),
    *wrong_types("seed", [True, False, 7.0, 7.5, "7", [7], {}]),
    *wrong_types("options", [None, True, 1, "delay_ift", ["delay_ift"]]),
    *wrong_types("bots", [None, True, "Ann", {"Ann": True}]),
    ({**GAME, "bots": [1]}, 422, "bots[0]"),
    *wrong_types("webhook", [True, 1, [], {}]),
    ({**GAME, "colour": "red"}, 422, "colour"),
    ({**GAME, "\ud800": 1}, 422, "\ud800"),
    ({"players": PLAYERS}, 422, "title"),
    ({"title": "1849"}, 422, "players"),
    *[(v, 422, NO_FIELD) for v in ([], [GAME], "1849", 1849, None, True)],
    # the title
    ({**GAME, "title": "1830"}, 422, "title"),
    ({**GAME, "title": "../1849"}, 422, "title"),
    ({**GAME, "title": "1849\x00"}, 422, "title"),
    ({**GAME, "title": "\ud800"}, 422, "title"),
    ({**GAME, "title": "x" * 100_000}, 422, "title"),
    # players' names and numbers
    ({**GAME, "players": ["Ann\x00", "Bob", "Cid"]}, 422, "players[0]"),
    ({**GAME, "players": ["Ann", "\ud800", "Cid"]}, 422, "players[1]"),
    ({**GAME, "players": ["Ann", "Bob", "Ci\udfffd"]}, 422, "players[2]"),
    ({**GAME, "players": ["Ann", "Bob", "\x07"]}, 422, "players[2]"),
    ({**GAME, "players": ["Ann", "Bob", "Cid\n"]}, 422, "players[2]"),
    ({**GAME, "players": ["Ann", "Bob", "\u200b"]}, 422, "players[2]"),
    ({**GAME, "players": ["", "Bob", "Cid"]}, 422, "players[0]"),
    ({**GAME, "players": ["   ", "Bob", "Cid"]}, 422, "players[0]"),
    ({**GAME, "players": [" Ann", "Bob", "Cid"]}, 422, "players[0]"),
    ({**GAME, "players": ["Ann", "Bob ", "Cid"]}, 422, "players[1]"),
    ({**GAME, "players": ["A" * (MAX_NAME + 1), "Bob", "Cid"]}, 422, "players[0]"),
    ({**GAME, "players": ["Ann", "Bob", "C" * 200_000]}, 422, "players[2]"),
    ({**GAME, "players": ["Ann", "Bob", "Ann"]}, 422, "players[2]"),
    ({**GAME, "players": ["Ann", "Bob", "IFT"]}, 422, "players[2]"),
    ({**GAME, "players": ["Ann", "Bob", "bank"]}, 422, "players[2]"),
    ({**GAME, "players": []}, 422, "players"),
    ({**GAME, "players": ["Ann", "Bob"]}, 422, "players"),
    ({**GAME, "players": [f"P{i}" for i in range(6)]}, 422, "players"),
    ({**GAME, "players": [f"P{i}" for i in range(20_000)]}, 422, "players"),
    # the seed
    *[({**GAME, "seed": v}, 422, "seed") for v in (-1, MAX_SEED + 1, 2**64, 2**70, -(2**70))],
    ({**GAME, "seed": 10**4000}, 422, "seed"),
    # options
    ({**GAME, "options": {"delay_ift": "false"}}, 422, "options.delay_ift"),
    ({**GAME, "options": {"delay_ift": 0}}, 422, "options.delay_ift"),
    ({**GAME, "options": {"delay_ift": None}}, 422, "options.delay_ift"),
    ({**GAME, "options": {"rule_set": "18xx"}}, 422, "options.rule_set"),
    ({**GAME, "options": {"rule_set": True}}, 422, "options.rule_set"),
    ({**GAME, "options": {"rng": "\ud800"}}, 422, "options.rng"),
    ({**GAME, "options": {"no_events": True}}, 422, "options.no_events"),
    ({**GAME, "options": {"\x00": True}}, 422, "options.\x00"),
    ({**GAME, "options": {f"k{i:05}": True for i in range(10_000)}}, 422, "options.k00000"),
    ({**GAME, "options": {"delay_ift": [[[[True]]]]}}, 422, "options.delay_ift"),
    # bots
    ({**GAME, "bots": ["Zed"]}, 422, "bots[0]"),
    ({**GAME, "bots": ["Bob", "Bob"]}, 422, "bots[1]"),
    ({**GAME, "bots": ["Ann", "ann"]}, 422, "bots[1]"),
    ({**GAME, "bots": ["\ud800"]}, 422, "bots[0]"),
    ({**GAME, "bots": ["Ann"] * 30_000}, 422, "bots[1]"),
    ({**GAME, "bots": [{"player": "Cid", "level": "expert"}]}, 422, "bots[0].level"),
    ({**GAME, "bots": ["Ann", {"player": "Cid", "level": "Easy"}]}, 422, "bots[1].level"),
    ({**GAME, "bots": [{"player": "Cid", "level": ""}]}, 422, "bots[0].level"),
    ({**GAME, "bots": [{"player": "Cid", "level": "\ud800"}]}, 422, "bots[0].level"),
    ({**GAME, "bots": [{"player": "Cid", "level": "x" * 100_000}]}, 422, "bots[0].level"),
    ({**GAME, "bots": [{"player": "Cid", "level": 2}]}, 422, "bots[0].level"),
    ({**GAME, "bots": [{"player": "Cid", "level": ["easy"]}]}, 422, "bots[0].level"),
    ({**GAME, "bots": [{"player": "Zed", "level": "easy"}]}, 422, "bots[0].player"),
    ({**GAME, "bots": [{"player": None}]}, 422, "bots[0].player"),
    ({**GAME, "bots": [{"level": "easy"}]}, 422, "bots[0].player"),
    ({**GAME, "bots": [{"player": "Cid", "colour": "red"}]}, 422, "bots[0].colour"),
    ({**GAME, "bots": ["Cid", {"player": "Cid", "level": "easy"}]}, 422, "bots[1].player"),
    ({**GAME, "bots": [{"player": "Cid"}, "Cid"]}, 422, "bots[1]"),
    ({**GAME, "bots": [None]}, 422, "bots[0]"),
    ({**GAME, "bots": [["Cid", "easy"]]}, 422, "bots[0]"),
    # webhooks
    *[
        ({**GAME, "webhook": url}, 422, "webhook")
        for url in (
            "",
            "ftp://example.com/hook",
            "http://",
            "http:///hook",
            "example.com/hook",
            "http://[::1/hook",
            "http://example.com:99999/hook",
            "http://example.com:port/hook",
            "http://example.com/\x00",
            "http://example.com/\ud800",
            "http://exa mple.com/",
            "http://example.com/\r\nX-Evil: 1",
            "http://example.com/" + "x" * 3000,
            "javascript:alert(1)",
        )
    ],
    # sizes
    ({**GAME, "webhook": "x" * 300_000}, 413, NO_FIELD),
    # encodings and malformed bodies
    (b"", 422, NO_FIELD),
    (b"{", 422, NO_FIELD),
    (b'{"title": "1849", "players": ["Ann", "Bob", "Cid"],}', 422, NO_FIELD),
    (b'{"title": "\xff\xfe", "players": ["Ann", "Bob", "Cid"]}', 422, NO_FIELD),
    (b'{"title": "1849", "players": ["Ann", "B\xc3", "Cid"]}', 422, NO_FIELD),
    (b'{"title": "1849", "players": ["Ann", "Bob", "\xed\xa0\x80"]}', 422, NO_FIELD),
    (b"\xef\xbb\xbf" + GAME_TEXT, 422, NO_FIELD),
    (json.dumps(GAME).encode("utf-16"), 422, NO_FIELD),
    *[(with_seed(t), 422, NO_FIELD) for t in (b"NaN", b"Infinity", b"-Infinity", b"1e400")],
    (with_seed(b"9" * 5000), 422, NO_FIELD),
    (b"[" * 100_000 + b"]" * 100_000, 422, NO_FIELD),
    (b'{"a":' * 40_000 + b"1" + b"}" * 40_000, 422, NO_FIELD),
    (json.dumps({**GAME, "options": {"delay_ift": DEEP_65}}).encode(), 422, NO_FIELD),
    (b"\x00" * 100, 422, NO_FIELD),
]  # fmt: skip


def test_bad_games_are_refused_and_store_nothing(edge: Edge) -> None:
    games = len(edge.client.get("/api/games").json())

    def send(body: bytes) -> Any:
        return edge.client.post("/api/games", content=body, headers=JSON)

    refused_unchanged(edge, send, CREATE_CASES, "create")
    assert len(edge.client.get("/api/games").json()) == games


def test_the_limits_of_a_game_are_accepted(edge: Edge) -> None:
    """Just inside every limit the engine sets, a game is made and stored on both
    databases as it was asked for (the largest seed fits PostgreSQL's BIGINT)."""
    names = ["A" * MAX_NAME, "Zoë 🚂", "李"]
    body = {
        "title": "1849",
        "players": names,
        "seed": MAX_SEED,
        "options": {"delay_ift": True, "rule_set": "18xx.games", "rng": "tresham"},
        "bots": [{"player": "李", "level": "easy"}],
        "webhook": "http://127.0.0.1:9/" + "h" * 1900,
    }
    answer = edge.client.post("/api/games", content=body_of(body), headers=JSON)
    assert answer.status_code == 201, answer.text
    assert answer.content.isascii()
    game_id = answer.json()["id"]
    saved = edge.client.get(f"/api/games/{game_id}/export").json()
    assert saved["players"] == names and saved["seed"] == MAX_SEED
    assert saved["options"] == body["options"]
    assert [s["bot"] for s in answer.json()["seats"]] == [False, False, True]
    assert [s["level"] for s in answer.json()["seats"]] == [None, None, "easy"]
    seats = edge.client.get(f"/api/games/{answer.json()['id']}").json()["seats"]
    assert [s["level"] for s in seats] == [None, None, "easy"]


def test_the_titles_list_their_options(edge: Edge) -> None:
    titles = {t["title"]: t for t in edge.client.get("/api/titles").json()}
    assert titles["1849"]["players"] == [3, 5]
    options = {o["name"]: o for o in titles["1849"]["options"]}
    assert options["delay_ift"] == {
        "name": "delay_ift",
        "type": "boolean",
        "default": False,
        "description": options["delay_ift"]["description"],
    }
    assert options["rule_set"]["choices"] == ["summary", "18xx.games"]
    assert {o["name"] for o in titles["1883"]["options"]} >= {"rng", "no_events"}
    assert [o["name"] for o in titles["1854"]["options"]] == ["rng"]


# ---------------------------------------------------------------------- importing a game
def save_cases(save: dict[str, Any]) -> list[tuple[Any, int, str]]:
    """Bad tresham saves, made from a good one."""

    def with_(**changes: Any) -> dict[str, Any]:
        return {**save, **changes}

    bad_action = {"type": "bid", "entity": "Ann", "company": "\ud800", "price": 20}
    return [
        *[(with_(seed=v), 422, "seed") for v in (2**70, -1, MAX_SEED + 1, True, 7.5, "7", None)],
        (with_(players=["Ann\x00", "Bob", "Cid"]), 422, "players[0]"),
        (with_(players=["Ann", "\ud800", "Cid"]), 422, "players[1]"),
        (with_(players=["Ann", "Bob", "C" * (MAX_NAME + 1)]), 422, "players[2]"),
        (with_(players=["Ann", "Bob", "Ann"]), 422, "players[2]"),
        (with_(players=["Ann", "Bob", 3]), 422, "players[2]"),
        (with_(players=["Ann", "Bob"]), 422, "players"),
        (with_(players="Ann,Bob,Cid"), 422, "players"),
        (with_(options={"delay_ift": "false"}), 422, "options.delay_ift"),
        (with_(options={"bogus": True}), 422, "options.bogus"),
        (with_(options=["delay_ift"]), 422, "options"),
        (with_(title="1830"), 422, "title"),
        (with_(title=1849), 422, "title"),
        (with_(title=None), 422, "title"),
        (with_(version=9), 422, NO_FIELD),
        (with_(version="1"), 422, NO_FIELD),
        (with_(rules_version=[]), 422, NO_FIELD),
        (with_(rules_version=99), 422, NO_FIELD),
        (with_(actions="pass"), 422, NO_FIELD),
        (with_(actions={"0": {}}), 422, NO_FIELD),
        (with_(actions=[5]), 422, NO_FIELD),
        (with_(actions=[{"type": "fly"}]), 422, NO_FIELD),
        (with_(actions=[{"type": "\ud800"}]), 422, NO_FIELD),
        (with_(actions=[bad_action]), 422, NO_FIELD),
        (with_(actions=[*save["actions"], {"type": "pass", "entity": "Ann\x00"}]), 422, NO_FIELD),
        (with_(actions=[{**save["actions"][0], "price": 2**70}]), 422, NO_FIELD),
        ({k: v for k, v in save.items() if k != "players"}, 422, NO_FIELD),
        ({k: v for k, v in save.items() if k != "actions"}, 422, NO_FIELD),
    ]


def export_cases() -> list[tuple[Any, int, str]]:
    """Bad 18xx.games exports (the shape the site downloads), made from a good one."""
    players = [{"id": i + 1, "name": n} for i, n in enumerate(PLAYERS)]
    bad_bid = {"type": "bid", "id": 1, "entity": 9, "company": "\ud800", "price": 20}
    good = {
        "id": 27939,
        "title": "1849",
        "players": players,
        "actions": [],
        "settings": {"seed": 5, "optional_rules": []},
    }

    def with_(**changes: Any) -> dict[str, Any]:
        return {**good, **changes}

    def named(i: int, name: Any) -> list[dict[str, Any]]:
        return [{**p, "name": name} if j == i else p for j, p in enumerate(players)]

    return [
        (with_(players=named(0, "Ann\x00")), 422, "players[0].name"),
        (with_(players=named(1, "\ud800")), 422, "players[1].name"),
        (with_(players=named(2, "C" * (MAX_NAME + 1))), 422, "players[2].name"),
        (with_(players=players[:2]), 422, "players"),
        (with_(settings={"seed": 2**70}), 422, "settings.seed"),
        (with_(settings={"seed": -1}), 422, "settings.seed"),
        (with_(settings={"seed": "abc"}), 422, NO_FIELD),
        (with_(settings={"seed": 5, "optional_rules": ["bogus"]}), 422, NO_FIELD),
        (with_(settings={"seed": 5, "optional_rules": 5}), 422, NO_FIELD),
        (with_(settings="x"), 422, NO_FIELD),
        (with_(players=[{**players[0], "id": "x"}, *players[1:]]), 422, NO_FIELD),
        (with_(players=[{"name": "Ann"}]), 422, NO_FIELD),
        (with_(players="Ann"), 422, NO_FIELD),
        (with_(actions=[{"type": 5}]), 422, NO_FIELD),
        (with_(actions=[{"id": 1}]), 422, NO_FIELD),
        (with_(actions=[bad_bid]), 422, NO_FIELD),
        (with_(actions=[{"type": "undo", "id": 1, "action_id": "x"}]), 422, NO_FIELD),
        (with_(actions=[{"type": "redo", "id": 1}]), 422, NO_FIELD),
        (with_(actions="x"), 422, NO_FIELD),
        (with_(result=[1]), 422, NO_FIELD),
        (with_(title="1830"), 422, "title"),
        (with_(title="\ud800"), 422, "title"),
        (with_(title="1883"), 422, NO_FIELD),
        ({k: v for k, v in good.items() if k != "actions"}, 422, NO_FIELD),
        ({"something": "else"}, 422, NO_FIELD),
    ]  # fmt: skip


NOT_OBJECTS: list[Any] = [[], [{"format": "tresham-save"}], "tresham-save", 1, None, True]
ENCODING_CASES: list[tuple[Any, int, str]] = [
    (b"", 422, NO_FIELD),
    (b"not json", 422, NO_FIELD),
    (b'{"format": "tresham-save", "title": "\xff"}', 422, NO_FIELD),
    (b'{"format": "tresham-save", "seed": NaN}', 422, NO_FIELD),
    (b'{"format": "tresham-save", "seed": ' + b"1" * 5000 + b"}", 422, NO_FIELD),
    (b"[" * 100_000 + b"]" * 100_000, 422, NO_FIELD),
    (b'{"a":' * 40_000 + b"1" + b"}" * 40_000, 422, NO_FIELD),
    (json.dumps({"format": "tresham-save", "x": DEEP_65}).encode(), 422, NO_FIELD),
    *[(v, 422, NO_FIELD) for v in NOT_OBJECTS],
]  # fmt: skip


def test_bad_imports_are_refused_and_store_nothing(edge: Edge) -> None:
    games = len(edge.client.get("/api/games").json())
    save = edge.client.get(f"/api/games/{edge.game_id}/export").json()
    assert save["players"] == PLAYERS and save["actions"]

    def send(body: bytes) -> Any:
        return edge.client.post("/api/games/import", content=body)

    refused_unchanged(edge, send, save_cases(save), "save")
    refused_unchanged(edge, send, export_cases(), "export")
    refused_unchanged(edge, send, ENCODING_CASES, "encoding")
    assert len(edge.client.get("/api/games").json()) == games


# ---------------------------------------------------------------------- posting an action
def action_cases(index: int, player: str, legal: dict[str, Any]) -> list[tuple[Any, int, str]]:
    """Bad posts of an action at the game's `index` by the acting `player`, whose legal
    action `legal` is."""

    def at(action: Any, at_index: Any = index) -> dict[str, Any]:
        return {"index": at_index, "action": action}

    wrong_indexes: list[Any] = ["0", float(index), True, None, -1, [index], {}]
    numbers = [k for k, v in legal.items() if isinstance(v, int) and not isinstance(v, bool)]
    texts = [k for k, v in legal.items() if isinstance(v, str) and k != "type"]
    out: list[tuple[Any, int, str]] = [
        *[(at(legal, v), 422, "index") for v in wrong_indexes],
        (at(legal, index + 1), 409, ANY_FIELD),
        (at(legal, 2**70), 409, ANY_FIELD),
        *[(at(v), 422, "action") for v in ("pass", 1, True, None, [legal])],
        ({"index": index}, 422, "action"),
        ({"action": legal}, 422, "index"),
        ({**at(legal), "seat": player}, 422, "seat"),
        ({**at(legal), "\ud800": 1}, 422, "\ud800"),
        (at({**legal, "type": "fly"}), 422, NO_FIELD),
        (at({**legal, "type": "\ud800"}), 422, NO_FIELD),
        (at({**legal, "type": None}), 422, NO_FIELD),
        (at({k: v for k, v in legal.items() if k != "type"}), 422, NO_FIELD),
        (at({**legal, "extra": 1}), 422, NO_FIELD),
        (at({**legal, "\x00": 1}), 422, NO_FIELD),
        (at({**legal, "entity": "Ann\x00"}), 422, NO_FIELD),
        (at({**legal, "entity": "\ud800"}), 422, NO_FIELD),
        (at({**legal, "entity": ["Ann"]}), 422, NO_FIELD),
        (at({**legal, "entity": "x" * 200_000}), 422, NO_FIELD),
        (at({"type": "undo", "entity": "\ud800"}), 422, NO_FIELD),
        (at({"type": "undo", "extra": "\ud800"}), 422, NO_FIELD),
        (at({"type": "bid", "entity": player, "company": "\ud800", "price": 20}), 422, NO_FIELD),
        (at({"type": "bid", "entity": player, "company": "SCE\x00", "price": 20}), 422, NO_FIELD),
    ]
    for key in numbers:
        v: Any
        for v in (2**70, -(2**70), -1, 1.5, float(legal[key]), True, str(legal[key]), None, [1]):
            out.append((at({**legal, key: v}), 422, NO_FIELD))
        out.append((at({**legal, key: 10**4000}), 422, NO_FIELD))
    for key in texts:
        for v in (
            "\ud800",
            "\x00",
            legal[key] + "\x00",
            "x" * 100_000,
            1,
            True,
            None,
            [legal[key]],
        ):
            out.append((at({**legal, key: v}), 422, NO_FIELD))
    out += [
        (b"", 422, NO_FIELD),
        (b'{"index": ' + str(index).encode() + b', "action": {"type": "\xff"}}', 422, NO_FIELD),
        (b'{"index": NaN, "action": {}}', 422, NO_FIELD),
        (b'{"index": 1e400, "action": {}}', 422, NO_FIELD),
        (b'{"index": ' + b"1" * 5000 + b', "action": {}}', 422, NO_FIELD),
        (b"[" * 100_000 + b"]" * 100_000, 422, NO_FIELD),
        (json.dumps(at({**legal, "x": json.loads("[" * 65 + "]" * 65)})).encode(), 422, NO_FIELD),
        (json.dumps(at({**legal, "x": "y" * 300_000})).encode(), 413, NO_FIELD),
    ]
    return out


def test_bad_actions_are_refused_and_change_nothing(edge: Edge) -> None:
    player, token = edge.acting()
    state = edge.game_state()
    index = state["index"]
    legal = edge.client.get(f"/api/games/{edge.game_id}/legal", headers=auth(token)).json()
    action = next(a for a in legal["actions"] if any(k not in ("type", "entity") for k in a))

    def send(body: bytes) -> Any:
        path = f"/api/games/{edge.game_id}/actions"
        return edge.client.post(path, content=body, headers={**JSON, **auth(token)})

    refused_unchanged(edge, send, action_cases(index, player, action), "action")
    # the game still plays: the legal action is accepted at the index
    answer = send(body_of({"index": index, "action": action}))
    assert answer.status_code == 200 and answer.json() == {"index": index + 1}


def test_bad_tokens_are_403_and_change_nothing(edge: Edge) -> None:
    player, token = edge.acting()
    index = edge.game_state()["index"]
    legal = edge.client.get(f"/api/games/{edge.game_id}/legal", headers=auth(token)).json()
    body = body_of({"index": index, "action": legal["actions"][0]})
    other = next(t for p, t in edge.tokens.items() if p != player)
    answer = edge.client.post("/api/games", json=GAME)
    stranger = answer.json()["seats"][0]["token"]  # a seat of another game
    headers: list[dict[str, Any]] = [
        {},
        {"Authorization": ""},
        {"Authorization": "Bearer"},
        {"Authorization": "Bearer "},
        {"Authorization": "bearer"},
        {"Authorization": f"Basic {token}"},
        {"Authorization": token},
        {"Authorization": f"Bearer {token}x"},
        {"Authorization": f"Bearer {token[:-1]}"},
        {"Authorization": f"Bearer {token.upper()}"},
        {"Authorization": "Bearer " + "t" * 10_000},
        {"Authorization": b"Bearer \xff\xfe\xed\xa0\x80"},
        {"Authorization": "Bearer ../../etc/passwd"},
        {"Authorization": f"Bearer {stranger}"},
        {"Authorization": f"Bearer {other}"},  # a seat of the game, not the acting one
    ]
    rows = edge.rows()
    state = edge.game_state()
    path = f"/api/games/{edge.game_id}"
    for h in headers:
        a_seat = h.get("Authorization") == f"Bearer {other}"
        answer = edge.client.post(f"{path}/actions", content=body, headers={**JSON, **h})
        check_refusal(answer, 403, NO_FIELD)
        # the token is checked before the body is read
        answer = edge.client.post(f"{path}/actions", content=b"[" * 99_999, headers={**JSON, **h})
        check_refusal(answer, 422 if a_seat else 403, NO_FIELD)
        if not a_seat:
            check_refusal(edge.client.get(f"{path}/legal", headers=h), 403, NO_FIELD)
            check_refusal(edge.client.get(f"{path}/seat", headers=h), 403, NO_FIELD)
    assert edge.game_state() == state
    assert edge.rows() == rows


@pytest.mark.parametrize(
    "game_id",
    ["nope", "%2e%2e", "%2E%2E", "..%2f..%2fetc", "%00", "x%00y", "%ff", "%ed%a0%80", "a" * 33,
     "g" * 10_000, "..", "%2e", "DROP TABLE tresham_games"],
)  # fmt: skip
def test_unknown_and_traversal_like_game_ids_are_404(edge: Edge, game_id: str) -> None:
    """On every route naming a game (server/ids.py checks the id once for all, so a NUL
    never reaches PostgreSQL), the pages included."""
    rows = edge.rows()
    _player, token = edge.acting()
    body = body_of({"index": 0, "action": {"type": "pass", "entity": "Ann"}})
    base = f"/api/games/{game_id}"
    seat = {**JSON, **auth(token)}
    answers = [
        edge.client.get(base),
        edge.client.get(f"{base}/log"),
        edge.client.get(f"{base}/legal", headers=auth(token)),
        edge.client.get(f"{base}/export"),
        edge.client.get(f"{base}/board"),
        edge.client.get(f"{base}/history"),
        edge.client.post(f"{base}/actions", content=body, headers={**JSON, **auth(token)}),
        edge.client.post(f"{base}/actions", content=b"\xff", headers={**JSON, **auth(token)}),
    ]
    # the client resolves dot segments: `..` is no game id, but no game route either
    dots = game_id.lower().replace("%2e", ".") in (".", "..")
    answers += (
        []
        if dots
        else [
            edge.client.get(f"{base}/seating"),
            edge.client.get(f"{base}/chat"),
            edge.client.post(f"{base}/chat", json={"text": "hi", "name": "Zed"}, headers=seat),
            edge.client.post(f"{base}/leave", headers=seat),
            edge.client.post(f"{base}/start", headers=seat),
            edge.client.post(f"{base}/join", json={"name": "Zed"}),
            edge.client.post(f"{base}/bots", json={"player": "Zed"}, headers=seat),
            edge.client.post(f"{base}/listing", json={"public": True}, headers=seat),
            edge.client.get(f"{base}/seat", headers=seat),
            edge.client.get(f"{base}/seat/webhook", headers=seat),
            edge.client.put(f"{base}/seat/webhook", json={"url": None}, headers=seat),
            *[edge.client.get(f"/games/{game_id}{page}") for page in ("", "/join", "/tiles")],
        ]
    )
    for answer in answers:
        check_refusal(answer, 404, NO_FIELD)
    for page in () if dots else ("", "/join", "/tiles"):
        shown = edge.client.get(f"/games/{game_id}{page}", headers={"Accept": "text/html"})
        assert shown.status_code == 404 and "text/html" in shown.headers["content-type"]
    assert edge.rows() == rows
    for where in ("ws", "chat/ws"):
        with edge.client.websocket_connect(f"{base}/{where}") as ws:  # accepted, then closed
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 4404
    for path in ("/api/games/../../etc/passwd", "/api/games/x/../../../etc/passwd/ws"):
        check_refusal(edge.client.get(path), 404, NO_FIELD)


@pytest.mark.parametrize("ids", [["\ud800"], ["x\x00y"], ["a" * 33], ["ok", ""], ["../etc"], ["é"]])
def test_a_list_of_games_names_only_game_ids(edge: Edge, ids: list[str]) -> None:
    """``POST /api/games/mine``: an id that cannot be a game's is a 422 naming it, on both
    databases (an unpaired surrogate was a 500)."""
    answer = edge.client.post("/api/games/mine", content=body_of({"ids": ids}), headers=JSON)
    check_refusal(answer, 422, f"ids[{len(ids) - 1}]")
    mine = edge.client.post("/api/games/mine", json={"ids": [edge.game_id, "nope"]})
    assert [g["id"] for g in mine.json()] == [edge.game_id]


def test_the_websocket_ignores_what_a_client_sends(edge: Edge) -> None:
    with edge.client.websocket_connect(f"/api/games/{edge.game_id}/ws") as ws:
        first = ws.receive_json()
        assert first["type"] == "state"
        ws.send_bytes(b"\xff\x00" * 1000)
        ws.send_text("\ud800 not json")
        ws.send_text("[" * 100_000)
        ws.send_json({"type": "state", "index": -1})
        index = first["index"]
        play(edge.client, edge.game_id, edge.tokens, 1, seed=index)
        message = ws.receive_json()
        assert message["type"] == "log" and message["index"] == index + 1


def test_an_answer_can_always_be_encoded() -> None:
    """Whatever an answer holds, it is ASCII JSON, and encoding it never raises."""
    cycle: list[Any] = []
    cycle.append(cycle)
    for content, expected in [
        ({"error": "\ud800\x00é🚂"}, {"error": "\ud800\x00é🚂"}),
        ({"x": float("nan"), "y": [float("inf")]}, {"x": None, "y": [None]}),
        ({"x": {1, 2}.__class__}, {"x": str(set)}),
        ({1: "one"}, {"1": "one"}),
        (cycle, {"error": "the answer could not be encoded", "rule": "server"}),
    ]:
        encoded = encode_json(content)
        assert encoded.isascii() and json.loads(encoded) == expected


# ---------------------------------------------------------------------- a real server
def raw_http(url: str, request: bytes) -> bytes:
    """Send `request` as it is to the server at `url`; its whole answer."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(request)
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


@pytest.fixture(params=["sqlite", "postgresql"])
def real_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerProcess]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'tresham.sqlite3'}"
    else:
        cluster: PgCluster = request.getfixturevalue("pg_cluster")
        url = cluster.new_database()
    server = ServerProcess(url, tmp_path).start()
    try:
        yield server
    finally:
        server.stop()


def test_a_real_server_at_its_edges(real_server: ServerProcess) -> None:
    """Over real HTTP (uvicorn): a lone surrogate or a NUL is a 422 on a connection that
    stays open; a malformed Content-Length is the HTTP server's plain-text 400, before the
    app (README, "API"); an unknown game's websocket opens, then closes with 4404."""
    with httpx.Client(base_url=real_server.url, timeout=10) as client:
        created = client.post("/api/games", json=GAME).json()
        game_id = created["id"]
        tokens = {s["player"]: s["token"] for s in created["seats"]}
        player = client.get(f"/api/games/{game_id}").json()["acting_player"]
        headers = {**JSON, **auth(tokens[player])}
        bid = {"type": "bid", "entity": player, "company": "\ud800", "price": 20}
        nul = {**GAME, "players": ["Ann\x00", "Bob", "Cid"]}
        for _ in range(3):  # the same connection, each time
            answer = client.post(
                f"/api/games/{game_id}/actions",
                content=body_of({"index": 0, "action": bid}),
                headers=headers,
            )
            check_refusal(answer, 422, NO_FIELD)
            assert "\\ud800" in answer.text
            check_refusal(
                client.post("/api/games", content=body_of(nul), headers=JSON), 422, "players[0]"
            )
            save = {**nul, "format": "tresham-save", "version": 1, "actions": []}
            answer = client.post("/api/games/import", content=body_of(save))
            check_refusal(answer, 422, "players[0]")
        assert [g["id"] for g in client.get("/api/games").json()] == [game_id]
        assert client.get(f"/api/games/{game_id}").json()["index"] == 0
    for length in (b"abc", b"-5", b"1 2", b"99999999999999999999999"):
        reply = raw_http(
            real_server.url,
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: " + length
            + b"\r\nConnection: close\r\n\r\n{}",
        )  # fmt: skip
        head, _, text = reply.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 400 ") and b"text/plain" in head, reply
        assert text == b"Invalid HTTP request received."

    async def unknown_game() -> int | None:
        async with websockets.connect(real_server.ws_url + "/api/games/nope/ws") as ws:
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            return closed.value.rcvd.code if closed.value.rcvd else None

    assert asyncio.run(unknown_game()) == 4404
    assert httpx.get(f"{real_server.url}/api/health").json()["ok"] is True
