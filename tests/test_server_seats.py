"""Playing online: games with open seats that people join through a link (201, or 409 when
full or the name is taken), racing joins (exactly one wins each seat and each name, on SQLite
and on PostgreSQL, held by the database's constraints), leaving, the host's start and bots,
private and public listing, "your games" with whose turn it is, and chat (limits, escaping,
never in the state or its hash, stored, exported and imported); a seat's own webhook (set,
read and cleared with its token only, checked, called on its turns, kept when its game
starts); a database of the version before open seats gets their columns and index."""

from __future__ import annotations

import copy
import json
import queue
import threading
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import (
    Boolean,
    Column,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    insert,
    inspect,
)
from sqlalchemy.exc import IntegrityError

from conftest_server import LOCAL_RECEIVERS, ROOMY, Receiver, auth, play, play_until_turn
from shared_files import EXPORT_27939
from tresham.server import ServerConfig, create_app
from tresham.server.live import token_hash
from tresham.server.storage import (
    GameRecord,
    Hosting,
    SeatRecord,
    SeatRefused,
    Storage,
    seats_table,
    sqlalchemy_url,
)
from tresham.titles.registry import get_title

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

XSS = '<img src=x onerror="alert(1)"><script>alert(2)</script>'


def make_client(db_url: str, **config: Any) -> TestClient:
    settings = {
        "bot_delay": 0.0,
        "undo_grace": 0.0,
        "join_limit": 100,
        "chat_limit": 100,
        "webhook_allow": LOCAL_RECEIVERS,
        **ROOMY,
        **config,
    }
    return TestClient(create_app(ServerConfig(database_url=db_url, **settings)))


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as c:
        yield c


def open_game(client: TestClient, **extra: Any) -> dict[str, Any]:
    body = {"title": "1849", "players": ["Bot"], "bots": [{"player": "Bot", "level": "easy"}]}
    answer = client.post("/api/games", json={**body, "open_seats": 2, "seed": 5, **extra})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def join(client: TestClient, game_id: str, name: str) -> Any:
    return client.post(f"/api/games/{game_id}/join", json={"name": name})


def waiting_record(game_id: str = "w1", wanted: int = 3) -> GameRecord:
    return GameRecord(
        id=game_id,
        title="1849",
        rules_version=get_title("1849").rules_version,
        seed=5,
        options={},
        players=[],
        seats=[],
        hosting=Hosting(started=False, seats_wanted=wanted),
    )


# ---------------------------------------------------------------------- joining
def test_open_seats_are_joined_by_link_and_the_game_starts_when_full(client: TestClient) -> None:
    game = open_game(client)
    gid = game["id"]
    assert game["started"] is False and game["open_seats"] == 2 and game["host_token"]
    assert game["join_url"].endswith(f"/games/{gid}/join")
    assert "#" not in game["join_url"] and game["host_token"] not in game["join_url"]
    assert client.get(f"/api/games/{gid}").status_code == 409  # nothing to play yet
    assert client.get(f"/games/{gid}", follow_redirects=False).headers["location"] == (
        f"/games/{gid}/join"
    )
    assert client.get(f"/games/{gid}/join").status_code == 200
    ann = join(client, gid, "Ann")
    assert ann.status_code == 201 and ann.json()["started"] is False
    assert ann.json()["url"].endswith(f"#seat={ann.json()['token']}")
    taken = join(client, gid, "Ann")
    assert taken.status_code == 409 and taken.json()["field"] == "name"
    assert join(client, gid, "Bot").status_code == 409
    seating = client.get(f"/api/games/{gid}/seating").json()
    assert [s["player"] for s in seating["seats"]] == ["Bot", "Ann"] and seating["open"] == 1
    bob = join(client, gid, "Bob")
    assert bob.status_code == 201 and bob.json()["started"] is True
    full = join(client, gid, "Cid")
    assert full.status_code == 409 and full.json()["rule"] == "seats"
    state = client.get(f"/api/games/{gid}").json()
    assert sorted(p["name"] for p in state["players"]) == ["Ann", "Bob", "Bot"]
    # the seating is drawn by lot from the seed: the same seed, the same order
    again = open_game(client)
    join(client, again["id"], "Ann")
    join(client, again["id"], "Bob")
    assert [p["name"] for p in client.get(f"/api/games/{again['id']}").json()["players"]] == [
        p["name"] for p in state["players"]
    ]
    # each seat's token plays its own seat
    tokens = {"Ann": ann.json()["token"], "Bob": bob.json()["token"]}
    seat = client.get(f"/api/games/{gid}/seat", headers=auth(tokens["Ann"])).json()
    assert seat == {"player": "Ann"}


def test_bad_joins_and_creations_are_refused(client: TestClient) -> None:
    gid = open_game(client)["id"]
    assert join(client, gid, "").status_code == 422
    assert join(client, gid, " Ann").json()["field"] == "name"
    assert join(client, gid, "x" * 41).status_code == 422
    assert client.post(f"/api/games/{gid}/join", json={"name": 5}).status_code == 422
    assert client.post(f"/api/games/{gid}/join", json={"name": "A", "x": 1}).status_code == 422
    assert join(client, "nope", "Ann").status_code == 404
    too_many = client.post("/api/games", json={"title": "1849", "open_seats": 7})
    assert too_many.status_code == 422 and too_many.json()["field"] == "players"
    too_few = client.post("/api/games", json={"title": "1849", "open_seats": 2})
    assert too_few.status_code == 422
    option = client.post(
        "/api/games", json={"title": "1849", "open_seats": 3, "options": {"delay_ift": "yes"}}
    )
    assert option.json()["field"] == "options.delay_ift"
    twice = client.post("/api/games", json={"title": "1849", "players": ["A", "A", None]})
    assert twice.json()["field"] == "players[1]"
    a_bot = client.post(
        "/api/games", json={"title": "1849", "players": ["A", None, None], "bots": ["Z"]}
    )
    assert a_bot.json()["field"] == "bots[0]"


def test_seats_may_be_left_before_the_start_and_the_host_starts(client: TestClient) -> None:
    game = open_game(client, open_seats=3)
    gid, host = game["id"], game["host_token"]
    ann = join(client, gid, "Ann").json()["token"]
    bob = join(client, gid, "Bob").json()["token"]
    assert client.post(f"/api/games/{gid}/leave").status_code == 403
    assert client.post(f"/api/games/{gid}/leave", headers=auth("no")).status_code == 403
    left = client.post(f"/api/games/{gid}/leave", headers=auth(bob))
    assert left.status_code == 200 and left.json()["left"] == "Bob"
    assert join(client, gid, "Bob").status_code == 201  # the seat and the name are free again
    # only the host starts, and not below the title's minimum
    assert client.post(f"/api/games/{gid}/start", headers=auth(ann)).status_code == 403
    assert client.post(f"/api/games/{gid}/leave", headers=auth(ann)).status_code == 200
    short = client.post(f"/api/games/{gid}/start", headers=auth(host))
    assert short.status_code == 409 and "at least 3" in short.json()["error"]
    # the host seats a bot of any level, then starts with 3 of the 4 seats taken
    bot = client.post(
        f"/api/games/{gid}/bots", json={"player": "Rob", "level": "medium"}, headers=auth(host)
    )
    assert bot.status_code == 201
    bad = client.post(
        f"/api/games/{gid}/bots", json={"player": "Rex", "level": "god"}, headers=auth(host)
    )
    assert bad.status_code == 422 and bad.json()["field"] == "level"
    started = client.post(f"/api/games/{gid}/start", headers=auth(host))
    assert started.status_code == 200 and sorted(started.json()["players"]) == ["Bob", "Bot", "Rob"]
    state = client.get(f"/api/games/{gid}").json()
    levels = {s["player"]: s.get("level") for s in state["seats"] if s.get("bot")}
    assert levels == {"Bot": "easy", "Rob": "medium"}
    assert client.post(f"/api/games/{gid}/leave", headers=auth(bob)).status_code == 409
    assert client.post(f"/api/games/{gid}/start", headers=auth(host)).status_code == 409


def race(count: int, work: Any) -> list[Any]:
    """Run `work(i)` in `count` threads released at once; their results."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def run(i: int) -> None:
        barrier.wait()
        results[i] = work(i)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def test_racing_joins_through_the_api_take_each_seat_once(db_url: str) -> None:
    with make_client(db_url) as client:
        gid = open_game(client, open_seats=1, players=["Bot", "Ann"])["id"]
        codes = race(8, lambda i: join(client, gid, f"P{i}").status_code)
        assert sorted(codes) == [201] + [409] * 7
        state = client.get(f"/api/games/{gid}").json()
        assert len(state["players"]) == 3
        same = open_game(client, open_seats=2)["id"]
        codes = race(6, lambda i: join(client, same, "Dan").status_code)
        assert sorted(codes) == [201] + [409] * 5


def test_racing_joins_in_the_database_take_each_seat_and_name_once(db_url: str) -> None:
    """Several servers (a Storage each: its own connections, and on SQLite its own lock)
    join one waiting game at once: each seat and each name is taken once."""
    stores = [Storage(db_url) for _ in range(4)]
    try:
        stores[0].create_game(waiting_record(wanted=3), [])

        def take(i: int) -> str:
            try:
                stores[i % 4].join_seat("w1", SeatRecord(f"P{i}", token_hash(f"P{i}")))
            except SeatRefused as exc:
                return exc.reason
            return "ok"

        outcomes = race(8, take)
        assert sorted(outcomes) == ["full"] * 5 + ["ok"] * 3
        record = stores[0].game("w1")
        assert record is not None and len({s.player for s in record.seats}) == 3
        stores[0].create_game(waiting_record("w2", wanted=4), [])

        def same(i: int) -> str:
            try:
                stores[i % 4].join_seat("w2", SeatRecord("Dan", token_hash(f"t{i}")))
            except SeatRefused as exc:
                return exc.reason
            return "ok"

        assert sorted(race(8, same)) == ["name"] * 7 + ["ok"]
        # the constraints themselves: a seat and a name are stored once
        with stores[0].engine.connect() as conn, pytest.raises(IntegrityError):
            conn.execute(
                insert(seats_table).values(
                    game_id="w2", seat=3, player="Dan", token_hash=None, bot=False
                )
            )
        with stores[0].engine.connect() as conn, pytest.raises(IntegrityError):
            conn.execute(
                insert(seats_table).values(
                    game_id="w2", seat=0, player="Eve", token_hash=None, bot=False
                )
            )
    finally:
        for store in stores:
            store.close()


# ---------------------------------------------------------------------- listing
def test_games_are_private_by_default_and_finished_ones_unlisted(client: TestClient) -> None:
    private = client.post("/api/games", json={"title": "1849", "players": ["A", "B", "C"]})
    public = client.post(
        "/api/games", json={"title": "1849", "players": ["A", "B", "C"], "public": True}
    )
    waiting = open_game(client, public=True)
    listed = [g["id"] for g in client.get("/api/games").json()]
    assert private.json()["id"] not in listed
    assert public.json()["id"] in listed and waiting["id"] in listed
    line = next(g for g in client.get("/api/games").json() if g["id"] == waiting["id"])
    assert line["open"] == 2 and line["started"] is False and line["players"] == ["Bot"]
    # the host lists or unlists a game; nobody else may
    pid, host = private.json()["id"], private.json()["host_token"]
    seat = private.json()["seats"][0]["token"]
    listing = f"/api/games/{pid}/listing"
    assert client.post(listing, json={"public": True}, headers=auth(seat)).status_code == 403
    assert client.post(listing, json={"public": True}, headers=auth(host)).status_code == 200
    assert pid in [g["id"] for g in client.get("/api/games").json()]
    client.post(listing, json={"public": False}, headers=auth(host))
    assert pid not in [g["id"] for g in client.get("/api/games").json()]
    # a finished game is not listed
    server: Any = client.app.state.holder["server"]  # type: ignore[attr-defined]
    from sqlalchemy import update

    from tresham.server.storage import games_table

    with server.storage.engine.begin() as conn:
        conn.execute(
            update(games_table).where(games_table.c.id == public.json()["id"]).values(finished=True)
        )
    assert public.json()["id"] not in [g["id"] for g in client.get("/api/games").json()]


def test_your_games_say_whose_turn_it_is(client: TestClient) -> None:
    full = client.post("/api/games", json={"title": "1849", "players": ["A", "B", "C"], "seed": 3})
    gid = full.json()["id"]
    waiting = open_game(client)["id"]
    mine = client.post("/api/games/mine", json={"ids": [gid, waiting, "nope"]}).json()
    by_id = {g["id"]: g for g in mine}
    assert set(by_id) == {gid, waiting}
    acting = client.get(f"/api/games/{gid}").json()["acting_player"]
    assert by_id[gid]["acting_player"] == acting and by_id[gid]["started"] is True
    assert by_id[waiting]["acting_player"] is None and by_id[waiting]["open"] == 2
    assert client.post("/api/games/mine", json={"ids": "x"}).status_code == 422
    assert client.post("/api/games/mine", json={"ids": ["x"] * 101}).status_code == 422


# ---------------------------------------------------------------------- chat
def started_game(client: TestClient, **extra: Any) -> tuple[str, dict[str, str], str]:
    body = {"title": "1849", "players": ["Ann", "Bob", "Cid"], "seed": 7, **extra}
    data = client.post("/api/games", json=body).json()
    return data["id"], {s["player"]: s["token"] for s in data["seats"]}, data["host_token"]


def test_chat_goes_to_listeners_but_never_into_the_game(client: TestClient) -> None:
    gid, tokens, _host = started_game(client)
    play(client, gid, tokens, 2)
    before = client.get(f"/api/games/{gid}").json()
    log_before = client.get(f"/api/games/{gid}/log").json()
    with client.websocket_connect(f"/api/games/{gid}/chat/ws") as ws:
        assert ws.receive_json() == {"type": "chat", "lines": []}
        answer = client.post(
            f"/api/games/{gid}/chat", json={"text": f"  {XSS}  "}, headers=auth(tokens["Bob"])
        )
        assert answer.status_code == 201
        line = answer.json()
        assert line["player"] == "Bob" and line["text"] == XSS and line["at"] == 2
        assert ws.receive_json() == {"type": "chat", "lines": [line]}
    after = client.get(f"/api/games/{gid}").json()
    assert after["state_hash"] == before["state_hash"] and after == before
    assert client.get(f"/api/games/{gid}/log").json() == log_before
    assert "onerror" not in json.dumps(after)
    assert client.get(f"/api/games/{gid}/chat").json()["lines"] == [line]
    # answers are JSON: the line comes back as text, never as markup the server made
    raw = client.get(f"/api/games/{gid}/chat")
    assert raw.headers["content-type"].startswith("application/json")


def test_chat_is_limited(sqlite_url: str) -> None:
    with make_client(sqlite_url, chat_limit=3) as client:
        gid, tokens, host = started_game(client)
        url = f"/api/games/{gid}/chat"
        ann = auth(tokens["Ann"])
        assert client.post(url, json={"text": ""}, headers=ann).status_code == 422
        assert client.post(url, json={"text": "   "}, headers=ann).status_code == 422
        assert client.post(url, json={"text": "x" * 501}, headers=ann).status_code == 422
        assert client.post(url, json={"text": "a\x00b"}, headers=ann).status_code == 422
        assert client.post(url, json={"text": "x" * 500}, headers=ann).status_code == 201
        assert client.post(url, json={"text": "hi", "name": "Bob"}, headers=ann).status_code == 422
        assert client.post(url, json={"text": "hi"}, headers=auth("nope")).status_code == 403
        assert client.post(url, json={"text": "two"}, headers=ann).status_code == 201
        assert client.post(url, json={"text": "three"}, headers=ann).status_code == 201
        over = client.post(url, json={"text": "four"}, headers=ann)
        assert over.status_code == 429 and over.json()["rule"] == "rate limit"
        assert (
            client.post(url, json={"text": "mine"}, headers=auth(tokens["Bob"])).status_code == 201
        )
        # spectators only where the host allows, under a name no player has
        spectator = client.post(url, json={"text": "hello", "name": "Eve"})
        assert spectator.status_code == 403
        assert client.post(url, json={"text": "hello"}).status_code == 403
        client.post(f"/api/games/{gid}/listing", json={"spectator_chat": True}, headers=auth(host))
        assert client.post(url, json={"text": "hello"}).status_code == 422
        assert client.post(url, json={"text": "hi", "name": "Ann"}).status_code == 422
        eve = client.post(url, json={"text": "hello", "name": "Eve"})
        assert eve.status_code == 201 and eve.json()["spectator"] is True
        assert client.post("/api/games/nope/chat", json={"text": "x"}).status_code == 404


def test_joins_are_limited(sqlite_url: str) -> None:
    with make_client(sqlite_url, join_limit=2) as client:
        gid = open_game(client, open_seats=4)["id"]
        assert join(client, gid, "A").status_code == 201
        assert join(client, gid, "B").status_code == 201
        assert join(client, gid, "C").status_code == 429


def test_chat_is_exported_and_imported(client: TestClient) -> None:
    gid, tokens, _host = started_game(client)
    play(client, gid, tokens, 3)
    for player, text in (("Ann", "deal?"), ("Cid", XSS)):
        client.post(f"/api/games/{gid}/chat", json={"text": text}, headers=auth(tokens[player]))
    save = client.get(f"/api/games/{gid}/export").json()
    assert [(c["player"], c["text"], c["at"]) for c in save["chat"]] == [
        ("Ann", "deal?", 3),
        ("Cid", XSS, 3),
    ]
    imported = client.post("/api/games/import", json=save)
    assert imported.status_code == 201
    copy_id = imported.json()["id"]
    lines = client.get(f"/api/games/{copy_id}/chat").json()["lines"]
    assert [(c["player"], c["text"], c["at"]) for c in lines] == [
        ("Ann", "deal?", 3),
        ("Cid", XSS, 3),
    ]
    assert (
        client.get(f"/api/games/{copy_id}").json()["state_hash"]
        == client.get(f"/api/games/{gid}").json()["state_hash"]
    )
    bad = client.post("/api/games/import", json={**save, "chat": [{"player": 5}]})
    assert bad.status_code == 422 and bad.json()["field"] == "chat[0]"


def test_an_18xx_games_import_keeps_its_messages_as_chat(client: TestClient) -> None:
    export = json.loads(EXPORT_27939.read_text())
    player = export["players"][0]
    kept = copy.deepcopy(export)
    message = {"type": "message", "entity": player["id"], "entity_type": "player"}
    kept["actions"].insert(3, {**message, "id": 900001, "message": "gl hf <b>"})
    kept["actions"].append({**message, "id": 900002, "message": "gg"})
    answer = client.post("/api/games/import", json=kept)
    assert answer.status_code == 201, answer.text
    gid = answer.json()["id"]
    lines = client.get(f"/api/games/{gid}/chat").json()["lines"]
    actions = len(client.get(f"/api/games/{gid}/export").json()["actions"])
    assert [(c["player"], c["text"]) for c in lines] == [
        (player["name"], "gl hf <b>"),
        (player["name"], "gg"),
    ]
    assert lines[0]["at"] <= 3 and lines[1]["at"] == actions


# ---------------------------------------------------------------------- older databases
def test_a_database_before_open_seats_gets_their_columns_and_index(db_url: str) -> None:
    """The games table without the hosting columns and the seats without the unique name:
    opening it adds both; its games are started, private, with no host."""
    engine = create_engine(sqlalchemy_url(db_url))
    old = MetaData()
    Table(
        "tresham_games",
        old,
        Column("id", String(32), primary_key=True),
        Column("title", String(64), nullable=False),
        Column("rules_version", Integer, nullable=False),
        Column("seed", Integer, nullable=False),
        Column("options", Text, nullable=False),
        Column("players", Text, nullable=False),
        Column("webhook", Text, nullable=True),
        Column("base_url", Text, nullable=True),
        Column("finished", Boolean, nullable=False),
        Column("created", Float, nullable=False),
    )
    Table(
        "tresham_seats",
        old,
        Column("game_id", String(32), primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("player", Text, nullable=False),
        Column("token_hash", String(64), nullable=True),
        Column("bot", Boolean, nullable=False),
        Column("bot_level", String(32), nullable=True),
    )
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
    stores = race(3, lambda _i: Storage(db_url))  # servers starting at once
    for store in stores:
        store.close()
    storage = Storage(db_url)
    try:
        record = storage.game("old")
        assert record is not None and record.hosting == Hosting()
        assert not record.hosting.hints
        assert storage.list_games(public_only=True) == []
        assert [g.id for g in storage.list_games()] == ["old"]
        with engine.connect() as conn:
            indexes = {i["name"] for i in inspect(conn).get_indexes("tresham_seats")}
            columns = {c["name"] for c in inspect(conn).get_columns("tresham_games")}
            seat_columns = {c["name"] for c in inspect(conn).get_columns("tresham_seats")}
        assert "tresham_seats_player" in indexes
        assert {"started", "seats_wanted", "public", "host_hash", "spectator_chat"} <= columns
        assert "hints" in columns  # hints (server/hints.py), off in the old game
        assert "webhook" in seat_columns  # a seat's own webhook
        assert storage.turn_webhooks("old", "Ann") == []
        storage.create_game(waiting_record(), [])
        storage.join_seat("w1", SeatRecord("Ann", None, True, "easy"))
        with pytest.raises(SeatRefused):
            storage.join_seat("w1", SeatRecord("Ann", None, True, "easy"))
    finally:
        storage.close()
        engine.dispose()


# ---------------------------------------------------------------------- a seat's webhook
def test_a_seat_sets_and_clears_its_own_webhook(client: TestClient) -> None:
    """A seat's webhook: set and read only with that seat's token, checked as a game's
    webhook is, called on that seat's turns only (the game has no webhook of its own), kept
    when a waiting game starts, and cleared with null."""
    receiver = Receiver()
    try:
        gid, tokens, host = started_game(client)
        url = f"/api/games/{gid}/seat/webhook"
        bob = auth(tokens["Bob"])
        assert client.get(url, headers=bob).json() == {"player": "Bob", "webhook": None}
        put = client.put(url, json={"url": receiver.url}, headers=bob)
        assert put.status_code == 200 and put.json() == {"player": "Bob", "webhook": receiver.url}
        assert client.get(url, headers=bob).json()["webhook"] == receiver.url
        # another seat sees its own (none), nobody else sees any
        ann = client.get(url, headers=auth(tokens["Ann"])).json()
        assert ann == {"player": "Ann", "webhook": None}
        assert client.get(url).status_code == 403
        assert client.get(url, headers=auth(host)).status_code == 403
        assert client.put(url, json={"url": receiver.url}, headers=auth(host)).status_code == 403
        assert client.get("/api/games/nope/seat/webhook", headers=bob).status_code == 404
        for bad in ("ftp://x", "javascript:alert(1)", "http://a b", "http://", "x" * 2001, ""):
            refused = client.put(url, json={"url": bad}, headers=bob)
            assert refused.status_code == 422 and refused.json()["field"] == "url", bad
        assert client.put(url, json={"url": 5}, headers=bob).status_code == 422
        assert client.put(url, json={}, headers=bob).status_code == 422
        assert client.get(url, headers=bob).json()["webhook"] == receiver.url  # unchanged

        # Bob's turns are announced to Bob's receiver, nobody else's
        seed = play_until_turn(client, gid, tokens, "Bob")
        call = receiver.next_call()
        assert call["tresham"]["player"] == "Bob" and call["tresham"]["game"] == gid
        assert "Bob: your turn" in call["content"]
        while client.get(f"/api/games/{gid}").json()["acting_player"] == "Bob":
            play(client, gid, tokens, 1, seed=seed)
            seed += 1
        with pytest.raises(queue.Empty):
            receiver.calls.get(timeout=0.5)

        cleared = client.put(url, json={"url": None}, headers=bob)
        assert cleared.status_code == 200 and cleared.json()["webhook"] is None
        play_until_turn(client, gid, tokens, "Bob", seed)
        with pytest.raises(queue.Empty):
            receiver.calls.get(timeout=0.5)

        # set while the game waits for players, kept when it starts
        waiting = open_game(client)
        ann_seat = join(client, waiting["id"], "Ann").json()
        hook = f"/api/games/{waiting['id']}/seat/webhook"
        answer = client.put(hook, json={"url": receiver.url}, headers=auth(ann_seat["token"]))
        assert answer.status_code == 200
        assert join(client, waiting["id"], "Bob").json()["started"] is True
        kept = client.get(hook, headers=auth(ann_seat["token"])).json()
        assert kept == {"player": "Ann", "webhook": receiver.url}
    finally:
        receiver.close()
