"""Past positions and the whole log, through the HTTP API (Starlette's test client):
`GET /api/games/{id}?at=N` is, field for field, the state served live when the log had N
entries (a whole random game with undos and redos, every 25 entries); the log gives each
entry's round and event lines, which add up to the game's event log; every operating round's
prices and revenue agree with the history the charts replay; and what a spreadsheet needs
(worth, certificates against the limit, the order still to start)."""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Iterator
from itertools import pairwise
from typing import Any

import pytest

from conftest_server import ROOMY, auth
from tresham.core.actions import action_from_json
from tresham.core.stock import player_certs
from tresham.io.save import from_save, new_game
from tresham.server import ServerConfig, create_app
from tresham.server.live import LiveGame
from tresham.server.past import Past
from tresham.server.storage import GameRecord, LogRow, SeatRecord
from tresham.server.view import public_state
from tresham.titles.t1849.state import state_of
from tresham.words import Words

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's advice to use httpx2 instead of httpx
    from fastapi.testclient import TestClient

PLAYERS = ["Ann", "Bob", "Cid"]
EVERY = 25


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    url = f"sqlite:///{tmp_path_factory.mktemp('past') / 'past.sqlite3'}"
    config = ServerConfig(database_url=url, bot_delay=0.0, undo_grace=0.0, **ROOMY)
    with TestClient(create_app(config)) as c:
        yield c


class Table:
    """A hotseat game through the API: every seat's token at hand."""

    def __init__(self, client: TestClient, title: str, players: list[str], seed: int) -> None:
        answer = client.post("/api/games", json={"title": title, "players": players, "seed": seed})
        assert answer.status_code == 201, answer.text
        self.client = client
        self.id = answer.json()["id"]
        self.tokens = {s["player"]: s["token"] for s in answer.json()["seats"]}

    def state(self, at: int | None = None) -> dict[str, Any]:
        answer = self.client.get(f"/api/games/{self.id}", params={} if at is None else {"at": at})
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()
        return result

    def post(self, player: str, index: int, action: dict[str, Any]) -> None:
        answer = self.client.post(
            f"/api/games/{self.id}/actions",
            json={"index": index, "action": action},
            headers=auth(self.tokens[player]),
        )
        assert answer.status_code == 200, answer.text

    def play(self, seed: int, limit: int = 4000) -> dict[int, dict[str, Any]]:
        """A random game to its end: a random legal action of the seat to act, now and then
        an undo (by the seat that may) and a redo. Returns the state served after every
        EVERY entries, and at the end, by index."""
        rng = random.Random(seed)
        served: dict[int, dict[str, Any]] = {}
        state = self.state()
        served[0] = state
        for _ in range(limit):
            if state["finished"]:
                break
            index = state["index"]
            roll = rng.random()
            if state["undo"] and roll < 0.06:
                self.post(state["undo"], index, {"type": "undo"})
            elif state["redo"] and roll < 0.12:
                self.post(state["redo"], index, {"type": "redo"})
            else:
                player = state["acting_player"]
                legal = self.client.get(
                    f"/api/games/{self.id}/legal", headers=auth(self.tokens[player])
                ).json()
                self.post(player, index, rng.choice(legal["actions"]))
            state = self.state()
            if state["index"] % EVERY == 0:
                served[state["index"]] = state
        assert state["finished"], "the random game did not end"
        served[state["index"]] = state
        return served


@pytest.fixture(scope="module")
def played(client: TestClient) -> tuple[Table, dict[int, dict[str, Any]]]:
    """A whole random game of 1849 (1720 entries, undos and redos among them) and the state
    served after every 25 entries."""
    table = Table(client, "1849", PLAYERS, 11)
    return table, table.play(seed=11)


def replayed_history(client: TestClient, game_id: str) -> list[dict[str, Any]]:
    """The charts' points worked out independently: the game's actions in force replayed on
    a fresh game, sampled whenever an operating round is left, and at the end."""
    save = client.get(f"/api/games/{game_id}/export").json()
    game = from_save({**save, "actions": []})
    seen: dict[str, int] = {}

    def sample(label: str) -> dict[str, Any]:
        s = game.state
        revenue = {}
        for sym, corp in s.corps.items():
            new = corp.revenue_history[seen.get(sym, 0) :]
            if new:
                revenue[sym] = sum(new)
            seen[sym] = len(corp.revenue_history)
        prices = {sym: s.market.price(sym) for sym in s.corps if sym in s.market}
        return {
            "label": label,
            "prices": prices,
            "worth": game.title.raw_scores(game),
            "revenue": revenue,
        }

    def key() -> tuple[str | None, int]:
        s = game.state
        return (s.round.kind if s.round is not None else None, s.operating_round_no)

    points = [sample("start")]
    current = key()
    for raw in save["actions"]:
        game.apply(action_from_json(raw))
        after = key()
        if current[0] == "operating" and after != current:
            points.append(sample(f"OR {current[1]}"))
        current = after
    if game.state.finished:
        points.append(sample(f"OR {current[1]} (end)" if current[0] == "operating" else "(end)"))
    return points


def differences(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))


def test_every_past_position_is_the_state_served_then(
    client: TestClient, played: tuple[Table, dict[int, dict[str, Any]]]
) -> None:
    """A whole random game of 1849 with undos and redos: every 25 entries, `?at=N` equals the
    state served live then, field for field (nothing in it is about "now"), asked for in a
    shuffled order, so that the replay goes back as well as forward."""
    table, served = played
    log = client.get(f"/api/games/{table.id}/log").json()
    kinds = {entry["entry"]["type"] for entry in log["entries"]}
    assert {"undo", "redo"} <= kinds
    assert len(served) > 5
    positions = list(served)
    random.Random(1).shuffle(positions)
    for n in positions:
        past = table.state(at=n)
        assert past["index"] == n
        assert differences(past, served[n]) == [], n
        assert past == served[n]


@pytest.mark.parametrize(("title", "players"), [("1883", 3), ("1854", 4)])
def test_past_positions_of_every_title(title: str, players: int) -> None:
    """The same in process (LiveGame and Past, without HTTP) over a whole random game of the
    other titles, with undos and redos."""
    names = ["Ann", "Bob", "Cid", "Dan"][:players]
    game = new_game(title, names, 5)
    record = GameRecord(
        id="past",
        title=title,
        rules_version=game.rules_version,
        seed=5,
        options={},
        players=names,
        seats=[SeatRecord(p, None) for p in names],
    )
    live = LiveGame.adopt(record, game, public_state)
    rng = random.Random(5)
    served = {0: live.snapshot_json}
    for _ in range(6000):
        if live.game.state.finished:
            break
        roll = rng.random()
        undo, redo = live.undo_seat(), live.redo_seat()
        if undo and roll < 0.05:
            entry: dict[str, Any] = {"type": "undo", "entity": undo}
        elif redo and roll < 0.1:
            entry = {"type": "redo", "entity": redo}
        else:
            entry = rng.choice(live.game.legal_actions()).to_json()
        live.apply_row(LogRow(live.index, entry, live.game.acting_player()))
        live.refresh_snapshot()
        if live.index % EVERY == 0:
            served[live.index] = live.snapshot_json
    assert live.game.state.finished
    served[live.index] = live.snapshot_json
    past = Past(LiveGame.rebuild(record, [], public_state))
    positions = list(served)
    random.Random(2).shuffle(positions)
    for n in positions:
        assert json.loads(past.state_json(live.rows, n)) == json.loads(served[n]), n


def test_a_past_position_must_be_in_the_log(client: TestClient) -> None:
    table = Table(client, "1849", PLAYERS, 7)
    state = table.state()
    for _ in range(12):
        player = state["acting_player"]
        legal = client.get(f"/api/games/{table.id}/legal", headers=auth(table.tokens[player]))
        table.post(player, state["index"], legal.json()["actions"][0])
        state = table.state()
    assert table.state(at=12) == state
    assert table.state(at=0)["index"] == 0
    for bad in ("13", "-1", "x", "", "1.0", " 1", "+1", "1e1", "99999999999999999999", "٣"):
        answer = client.get(f"/api/games/{table.id}", params={"at": bad})
        assert answer.status_code == 422, bad
        body = answer.json()
        assert body["field"] == "at" and body["rule"] == "history", body
        assert "from 0 to 12" in body["error"]
    answer = client.get(f"/api/games/{table.id}/log", params={"since": "13"})
    assert answer.status_code == 422 and answer.json()["field"] == "since"
    later = client.get(f"/api/games/{table.id}/log", params={"since": "10"}).json()
    assert [e["index"] for e in later["entries"]] == [10, 11]
    assert client.get("/api/games/nosuch", params={"at": "0"}).status_code == 404


def test_the_log_gives_each_entry_its_round_and_its_event_lines(
    client: TestClient, played: tuple[Table, dict[int, dict[str, Any]]]
) -> None:
    """The event lines of the entries in force (an undo takes its action's lines back, a redo
    brings them again), after the set-up's, are the game's event log; each entry names the
    round it was made in, and its number: the entries of one round share it, and it moves on
    after an entry whose lines include headings (lines the engine marks as saying a round
    began, the last of them the label of the round that follows) by their count."""
    table, _served = played
    log = client.get(f"/api/games/{table.id}/log").json()
    final = table.state()
    in_force: list[list[str]] = []
    taken_back: list[list[str]] = []
    for entry in log["entries"]:
        kind = entry["entry"]["type"]
        if kind == "undo":
            assert entry["events"] == []
            taken_back.append(in_force.pop())
        elif kind == "redo":
            assert entry["events"] == taken_back.pop()
            in_force.append(entry["events"])
        else:
            in_force.append(entry["events"])
            taken_back.clear()
    lines = log["start_events"] + [line for lines in in_force for line in lines]
    assert len(lines) == final["events_total"]
    assert lines[-len(final["events"]) :] == final["events"]
    rounds = [entry["round"] for entry in log["entries"]]
    assert rounds[0] == "Auction"
    assert "Stock round 1" in rounds and "Operating round 1.1" in rounds
    # the round an entry was made in is the round of the position before it
    for n in (1, 50, 100, len(rounds) - 1):
        assert rounds[n] == table.state(at=n)["round"]["label"]
    entries = log["entries"]
    begun = 0
    for before, entry in pairwise(entries):
        if before["entry"]["type"] in ("undo", "redo"):
            continue
        if before["headings"]:
            # rounds in which nothing could be done begin and end within one entry
            assert before["headings"][-1] == entry["round"], before["index"]
            begins = len(before["headings"])
            assert entry["round_number"] == before["round_number"] + begins, entry["index"]
            begun += 1
        else:
            assert entry["round_number"] == before["round_number"], entry["index"]
            assert entry["round"] == before["round"], entry["index"]
    assert begun >= 2  # the first operating round and the second stock round at least


def test_the_log_gives_each_entry_its_words_and_the_lines_its_action_wrote(
    client: TestClient, played: tuple[Table, dict[int, dict[str, Any]]]
) -> None:
    """Each entry comes with the facts a table shows it by, so that no table reads its
    English: its action in the words the table offered it (`said`, as ``tresham.words``
    says it in the position before it), the lines to show (`lines`: its event lines less
    those the engine marks as saying a round began, `headings`) and how many of the first of
    them its action wrote itself (`own`: worked out here by processing the action alone on a
    copy of the position before it)."""
    table, _served = played
    log = client.get(f"/api/games/{table.id}/log").json()
    save = client.get(f"/api/games/{table.id}/export").json()
    game = from_save({**save, "actions": []})
    counted = {"said": 0, "own": 0, "headings": 0}
    for entry in log["entries"]:
        events, headings = entry["events"], entry["headings"]
        assert entry["lines"] == [x for x in events if x not in headings]
        assert [x for x in events if x in headings] == headings
        counted["headings"] += len(headings)
        kind = entry["entry"]["type"]
        if kind in ("undo", "redo"):
            assert entry["said"] is None and entry["own"] == 0
            if kind == "undo":
                game.undo()
            else:
                game.redo()
            continue
        action = action_from_json(entry["entry"])
        assert entry["said"] == Words(game).text(action), entry["index"]
        alone = game.clone()
        start = len(alone.state.events)
        alone.title.process(alone, action)
        marked = set(alone.state.round_lines)
        own = [x for i, x in enumerate(alone.state.events) if i >= start and i not in marked]
        assert entry["lines"][: entry["own"]] == own, entry["index"]
        counted["said"] += 1
        counted["own"] += bool(own)
        game.apply(action)
    assert counted["said"] > counted["own"] > 0  # some entries wrote no line of their own
    assert counted["headings"] > 0


def test_operating_rounds_agree_with_the_history_and_the_spreadsheet_facts(
    client: TestClient, played: tuple[Table, dict[int, dict[str, Any]]]
) -> None:
    """The charts' history (read from the chronicle) is, point for point, what replaying the
    actions in force on a fresh game gives after each operating round; every operating round's
    prices at its end and revenue are those of the history; players' worth is the title's raw score,
    their certificates counted as the title counts them; 1849's corporations still to start
    are in its drawn order."""
    table, served = played
    final = table.state()
    history = client.get(f"/api/games/{table.id}/history").json()
    assert history["points"] == replayed_history(client, table.id)
    by_label = {point["label"]: point for point in history["points"]}
    rounds = final["operating_rounds"]
    numbers = [r["number"] for r in rounds]
    # (an operating round in which nobody has anything to decide passes within one entry,
    # unseen by both)
    assert numbers[:3] == [1, 2, 3] and numbers == sorted(set(numbers))
    for r in rounds:
        point = by_label.get(f"OR {r['number']}") or by_label[f"OR {r['number']} (end)"]
        assert r["done"] and r["prices"] == point["prices"], r["number"]
        assert r["revenue"] == point["revenue"], r["number"]
    assert {p["name"]: p["worth"] for p in final["players"]} == final["raw_scores"]
    # mid-game: the facts against the engine's
    n = max(k for k in served if k < final["index"] // 2)
    state = served[n]
    log = client.get(f"/api/games/{table.id}/log").json()
    live = LiveGame.rebuild(
        GameRecord("x", "1849", final["rules_version"], 11, {}, PLAYERS, []),
        [LogRow(e["index"], e["entry"], e["seat"]) for e in log["entries"][:n]],
        public_state,
    )
    g = live.game
    assert {p["name"]: p["worth"] for p in state["players"]} == g.title.raw_scores(g)
    limit = state_of(g).cert_limit
    for p in state["players"]:
        assert p["certificates"] == player_certs(g, p["name"])
        assert p["certificate_limit"] == limit
    order = state_of(g).order
    assert state["to_start"] == [s for s in order if not g.state.corps[s].parred]
    assert state["extra"]["order"] == order
