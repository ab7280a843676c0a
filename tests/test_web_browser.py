"""The browser table in a real browser: Debian's Chromium driven by Playwright, against a
`tresham serve` process (uvicorn) on a free loopback port.

One game of 1849 is played at the table by clicks (the private auction, starting
corporations, laying a tile by clicking a hex and a rotation, placing a token, buying a train,
running the proposed routes, undo, a reload), with the moves in between driven through the
HTTP API; a second browser context, holding no seat, follows every move live. Also: the tile
sheet draws every tile at every rotation, a finished game shows its scores and charts, the
table fits a phone's screen, past positions are stepped through and left in one click, the
whole log of a long game is paged through, and the spreadsheet shows the API's figures.
Screenshots go to tests/artifacts/.

`make test` installs Chromium (tools/ensure_chromium.sh); only where it is missing and cannot
be installed (not root) are these tests skipped.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import httpx
import pytest

from conftest_server import ServerProcess, auth
from offer_position import before_the_offer
from positions import two_trains_to_run
from shared_files import EXPORT_27939
from tresham.core.board import BoardDef
from tresham.core.game import Game
from tresham.core.market import Market
from tresham.core.tiles import load_catalogue
from tresham.io.save import new_game, to_save
from tresham.server.board_view import board_drawing
from tresham.server.bots import bot_action

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
PLAYERS = ["Ann", "Bob", "Cid"]
WAIT_MS = 15_000

Action = dict[str, Any]


def chromium_path() -> str:
    """Debian's Chromium; skips where it is missing and cannot be installed (not root)."""
    found = shutil.which("chromium") or (
        "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
    )
    if found:
        return found
    if os.geteuid() != 0:
        pytest.skip("Chromium is not installed and we are not root (tools/ensure_chromium.sh)")
    pytest.fail("Chromium is missing although we are root: run make test (ensure_chromium.sh)")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("web")
    proc = ServerProcess(f"sqlite:///{folder / 'web.sqlite3'}", folder).start()
    yield proc
    proc.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=executable, headless=True, args=["--no-sandbox"]
        )
        yield chromium
        chromium.close()


def wait_until(page: Any, expression: str, timeout: int = WAIT_MS) -> None:
    """Wait until `expression` is true in the page. (Playwright's wait_for_function evaluates
    its predicate with eval inside the page, which the pages' Content-Security-Policy
    refuses; page.evaluate runs outside the page's policy.)"""
    waited = 0
    while not page.evaluate(expression):
        if waited >= timeout:
            raise AssertionError(f"not true within {timeout} ms: {expression}")
        page.wait_for_timeout(50)
        waited += 50


class Errors:
    """The page errors and console errors of the pages it watches."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def watch(self, page: Any) -> Any:
        page.on("pageerror", lambda exc: self.seen.append(f"pageerror: {exc}"))
        page.on(
            "console",
            lambda msg: self.seen.append(f"console: {msg.text}") if msg.type == "error" else None,
        )
        return page


class Api:
    """The game through the HTTP API, as its seats."""

    def __init__(self, url: str, game_id: str, tokens: dict[str, str]) -> None:
        self.client = httpx.Client(base_url=url, timeout=30)
        self.game_id = game_id
        self.tokens = tokens

    def state(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.client.get(f"/api/games/{self.game_id}").json()
        return answer

    def legal_answer(self) -> tuple[dict[str, Any], str]:
        player = self.state()["acting_player"]
        answer = self.client.get(
            f"/api/games/{self.game_id}/legal", headers=auth(self.tokens[player])
        ).json()
        return answer, player

    def legal(self) -> tuple[int, list[Action], str]:
        answer, player = self.legal_answer()
        return answer["index"], answer["actions"], player

    def play_until(
        self, done: Callable[[dict[str, Any], list[Action]], bool], limit: int = 60
    ) -> None:
        """Play by a simple policy (buy shares of AFG, lay the first tile, buy one train a
        turn, pass) until `done(state, legal actions)`."""
        for _ in range(limit):
            index, actions, player = self.legal()
            state = self.state()
            if done(state, actions):
                return
            corp = state["active_entity"]
            trains = next((c["trains"] for c in state["corporations"] if c["sym"] == corp), [])
            choice = (
                first(actions, "buy_shares", corporation="AFG")
                or first(actions, "buy_shares")
                or first(actions, "lay_tile")
                or (first(actions, "buy_train") if not trains else None)
                or first(actions, "dividend")
                or first(actions, "pass")
            )
            assert choice is not None, actions
            answer = self.client.post(
                f"/api/games/{self.game_id}/actions",
                json={"index": index, "action": choice},
                headers=auth(self.tokens[player]),
            )
            assert answer.status_code == 200, answer.text
        raise AssertionError("the position was not reached")


def import_game(server: ServerProcess, game: Game) -> tuple[str, dict[str, str]]:
    """`game` made live on the server by its import: its id, and each seat's token."""
    answer = httpx.post(f"{server.url}/api/games/import", json=to_save(game), timeout=60)
    assert answer.status_code == 201, answer.text
    return answer.json()["id"], {s["player"]: s["token"] for s in answer.json()["seats"]}


def first(actions: list[Action], kind: str, **fields: Any) -> Action | None:
    return next(
        (a for a in actions if a["type"] == kind and all(a.get(k) == v for k, v in fields.items())),
        None,
    )


def kinds(actions: list[Action]) -> set[str]:
    return {a["type"] for a in actions}


def at_index(page: Any, index: int) -> None:
    """Wait until the table shows the game at `index`, drawn from the live state (after the
    websocket's first message, which draws the table again: an element taken before it may
    be replaced under the test)."""
    page.wait_for_selector(f'body[data-synced="1"] #status[data-index="{index}"]', timeout=WAIT_MS)


def test_the_tile_sheet_draws_every_tile_at_every_rotation(
    browser: Any, server: ServerProcess
) -> None:
    game = httpx.post(
        f"{server.url}/api/games", json={"title": "1849", "players": PLAYERS, "seed": 1}
    ).json()
    board = httpx.get(f"{server.url}/api/games/{game['id']}/board").json()
    errors = Errors()
    page = errors.watch(browser.new_page())
    page.goto(f"{server.url}/games/{game['id']}/tiles")
    page.wait_for_selector('body[data-ready="1"]', timeout=WAIT_MS)
    drawn = page.evaluate(
        """() => [...document.querySelectorAll('.tile-row')].map((row) => ({
            id: row.dataset.tile,
            rotations: [...row.querySelectorAll('g.tile')].map((g) => ({
                tracks: g.querySelectorAll('.track').length,
                lengths: [...g.querySelectorAll('.track path.rail')].map((p) => p.getTotalLength()),
                nodes: g.querySelectorAll('.city, .town').length,
            })),
        }))"""
    )
    assert [row["id"] for row in drawn] == list(board["tiles"])
    for row in drawn:
        tile = board["tiles"][row["id"]]
        assert len(row["rotations"]) == 6
        for rotation, seen in zip(tile["rotations"], row["rotations"], strict=True):
            assert seen["tracks"] == len(rotation["paths"])
            assert all(length > 5 for length in seen["lengths"])
            stops = [n for n in rotation["nodes"] if n["kind"] in ("city", "town")]
            assert seen["nodes"] == len(stops)
    assert errors.seen == []
    page.close()


def test_a_game_at_the_table(browser: Any, server: ServerProcess) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    errors = Errors()
    player_context = browser.new_context(viewport={"width": 1400, "height": 1000})
    table = errors.watch(player_context.new_page())

    # The lobby: create a hotseat game (this browser keeps every seat).
    table.goto(f"{server.url}/")
    table.fill("#players", ", ".join(PLAYERS))
    table.fill("#seed", "7")
    table.wait_for_selector('body[data-ready="1"]')
    table.click("#create")
    table.click("#open-table")
    table.wait_for_selector("#status[data-index]", timeout=WAIT_MS)
    game_id = table.url.rstrip("/").split("/")[-1]
    tokens = json.loads(table.evaluate(f"localStorage.getItem('tresham.seats.{game_id}')"))
    assert sorted(tokens) == PLAYERS
    api = Api(server.url, game_id, tokens)

    # A seat's link: that browser keeps the seat's token (out of the address) and acts for it.
    seat_context = browser.new_context()
    seat_page = errors.watch(seat_context.new_page())
    seat_page.goto(f"{server.url}/games/{game_id}#seat={tokens['Bob']}")
    seat_page.wait_for_selector("#status[data-index]", timeout=WAIT_MS)
    assert seat_page.inner_text("#seats") == "Your seats: Bob"
    assert seat_page.evaluate("location.hash") == ""
    kept = seat_page.evaluate(f"localStorage.getItem('tresham.seats.{game_id}')")
    assert json.loads(kept) == {"Bob": tokens["Bob"]}
    seat_context.close()

    # A second browser, without a seat, follows the game.
    watcher_context = browser.new_context(viewport={"width": 1000, "height": 800})
    watcher = errors.watch(watcher_context.new_page())
    watcher.goto(f"{server.url}/games/{game_id}")
    at_index(watcher, 0)
    assert "watching" in watcher.inner_text("#actions").lower()

    def step(click: Callable[[], None]) -> int:
        index = api.state()["index"]
        click()
        at_index(table, index + 1)
        at_index(watcher, index + 1)
        return index + 1

    # The private auction: each player buys the cheapest private; then a private's owner
    # must start a corporation (choosing its par price).
    while api.state()["round"]["kind"] == "auction":
        _index, actions, _player = api.legal()
        if "par" in kinds(actions):
            row = table.locator(".action-row.par").first
            row.locator("select").select_option(label="L.68")
            step(lambda row=row: row.locator("button").click())
        else:
            # the cheapest private is bought at its price: a button that says so
            buy = table.locator("button.act-bid").first
            assert buy.inner_text().startswith("Buy ")
            step(lambda buy=buy: buy.click())
    state = api.state()
    assert all(c["owner"] in PLAYERS for c in state["companies"])
    parred = [c for c in state["corporations"] if c["parred"]]
    assert len(parred) == 1 and parred[0]["price"] == 68

    # The stock round: start AFG with its home in C1 (a choice of the par dialog).
    row = table.locator(".action-row.par[data-corp='AFG']")
    row.locator("select").select_option(label="L.68 in Trapani (C1)")
    step(lambda: row.locator("button").click())
    afg = next(c for c in api.state()["corporations"] if c["sym"] == "AFG")
    assert afg["parred"] and afg["home"] == "C1"

    api.play_until(lambda s, a: s["active_entity"] == "AFG" and "lay_tile" in kinds(a))
    table.reload()
    at_index(table, api.state()["index"])

    # Lay a tile: click a hex, a tile, the hex again (the next legal rotation), lay it.
    _index, actions, _player = api.legal()
    lays = [a for a in actions if a["type"] == "lay_tile"]
    hex_id = table.locator("g.hex.legal-hex").first.get_attribute("data-hex")
    table.click(f'g.hex[data-hex="{hex_id}"]')
    tile_id = table.locator(".tile-choice").last.get_attribute("data-tile")
    table.locator(".tile-choice").last.click()
    options = [a for a in lays if a["hex"] == hex_id and a["tile"] == tile_id]
    if len(options) > 1:
        table.click(f'g.hex[data-hex="{hex_id}"]')
    expected = options[1 % len(options)]
    assert table.locator(f'g.hex.preview[data-hex="{hex_id}"]').count() == 1
    step(lambda: table.click("#lay-tile"))
    assert api.state()["map"]["tiles"][hex_id] == [tile_id, expected["rotation"]]
    for page in (table, watcher):
        assert page.locator(f'g.hex[data-hex="{hex_id}"][data-tile="{tile_id}"]').count() == 1

    # Place a token: click the highlighted city.
    assert table.locator(".legal-token").count() >= 1
    step(lambda: table.locator(".legal-token").first.click())
    tokens_now = api.state()["map"]["tokens"]
    assert any("AFG" in slots for key, slots in tokens_now.items() if not key.startswith("C1:"))
    assert watcher.locator(".slot.token text", has_text="AFG").count() == 2

    # Buy a train from the depot.
    step(lambda: table.locator(".act-buy_train").first.click())
    state = api.state()
    afg = next(c for c in state["corporations"] if c["sym"] == "AFG")
    assert len(afg["trains"]) == 1
    kind = afg["trains"][0].split("-")[0]
    depot = next(t for t in state["depot"] if t["kind"] == kind)
    sold = sum(kind == t.split("-")[0] for c in state["corporations"] for t in c["trains"])
    assert depot["left"] == depot["count"] - sold
    row = watcher.locator(f'#depot tr[data-train="{kind}"] td').nth(2)
    assert row.inner_text() == f"{depot['left']}/{depot['count']}"

    # On to AFG's next turn, where it runs trains: the proposed runs are drawn; accept them.
    api.play_until(lambda s, a: "run_routes" in kinds(a))
    at_index(table, api.state()["index"])
    answer, _player = api.legal_answer()
    proposed = first(answer["actions"], "run_routes")
    assert proposed is not None
    drawn = table.locator(".runs path.run").count()
    assert drawn == sum(len(run["track"]) for run in proposed["runs"])
    revenue = answer["routes"]["revenue"]
    assert table.locator("#run-revenue").get_attribute("data-revenue") == str(revenue)
    # A run can be left out (its train idle) and put back.
    train = proposed["runs"][0]["train"]
    table.uncheck(f'.run-list input[data-train="{train}"]')
    left_out = sum(len(r["track"]) for r in proposed["runs"] if r["train"] != train)
    assert table.locator(".runs path.run").count() == left_out
    kept = revenue - answer["routes"]["runs"][train]
    assert table.locator("#run-revenue").get_attribute("data-revenue") == str(kept)
    table.check(f'.run-list input[data-train="{train}"]')
    assert table.locator(".runs path.run").count() == drawn
    table.locator("#board-area").screenshot(path=str(ARTIFACTS / "board.png"))
    table.locator("#market-area").screenshot(path=str(ARTIFACTS / "market.png"))
    before = api.state()
    step(lambda: table.click("#run-routes"))
    assert api.state()["actions"] == before["actions"] + 1
    assert f"AFG earns L.{revenue}" in api.state()["events"]

    # Undo (a new log entry that takes the run back), then reload: the state persists.
    step(lambda: table.click("#undo"))
    after_undo = api.state()
    assert after_undo["actions"] == before["actions"]
    assert after_undo["state_hash"] == before["state_hash"]
    table.reload()
    at_index(table, after_undo["index"])
    assert table.locator(f'g.hex[data-hex="{hex_id}"][data-tile="{tile_id}"]').count() == 1
    assert table.locator("#run-routes").count() == 1
    assert table.locator(".slot.token text", has_text="AFG").count() == 2

    # The same table on a phone's screen: the page is no wider than the screen; the board,
    # zoomed in so that hexes can be tapped, pans and zooms inside its box (web/panzoom.js).
    phone = errors.watch(browser.new_page(viewport={"width": 390, "height": 844}))
    phone.goto(f"{server.url}/games/{game_id}")
    at_index(phone, after_undo["index"])
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    assert phone.locator("#board-box").bounding_box()["width"] <= 390
    first_hex = phone.locator("#board .hex .hex-shape").first
    first_hex.wait_for(state="visible", timeout=WAIT_MS)  # the board is drawn after the status
    assert first_hex.bounding_box()["width"] >= 40
    scale = float(phone.locator("#board").get_attribute("data-scale"))
    phone.click("#zoom-out")
    assert float(phone.locator("#board").get_attribute("data-scale")) < scale
    phone.close()
    player_context.close()
    watcher_context.close()
    assert errors.seen == []


def test_an_offer_is_answered_at_the_table(browser: Any, server: ServerProcess) -> None:
    """A negotiated deal (core/deals.py): IFT (Cid) offers for CTL's 4H, whose president is
    Bob. Every table shows the offer and who must answer; Bob's seat answers by its buttons:
    declined (the game is as before the offer), then, offered again, accepted."""
    ARTIFACTS.mkdir(exist_ok=True)
    imported = httpx.post(f"{server.url}/api/games/import", json=to_save(before_the_offer()))
    assert imported.status_code == 201, imported.text
    game_id = imported.json()["id"]
    tokens = {s["player"]: s["token"] for s in imported.json()["seats"]}
    api = Api(server.url, game_id, tokens)
    errors = Errors()

    def table(seat: str | None) -> Any:
        page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
        page.goto(f"{server.url}/games/{game_id}" + (f"#seat={tokens[seat]}" if seat else ""))
        return page

    cid, bob, watcher = table("Cid"), table("Bob"), table(None)
    pages = (cid, bob, watcher)

    def step(page: Any, click: Callable[[Any], None]) -> dict[str, Any]:
        index = api.state()["index"]
        click(page)
        for other in pages:
            at_index(other, index + 1)
        return api.state()

    def offer(page: Any, price: int) -> dict[str, Any]:
        row = page.locator('.action-row[data-group="CTL|4H|"]')  # one row per seller and type
        assert row.count() == 1
        face = next(t["price"] for t in api.state()["depot"] if t["kind"] == "4H")
        cash = next(c["cash"] for c in api.state()["corporations"] if c["sym"] == "IFT")
        assert row.locator("input").input_value() == str(min(face, cash))  # face value first
        row.locator("input").fill(str(price))
        return step(page, lambda _page: row.locator("button").click())

    for page in pages:
        at_index(page, api.state()["index"])
        assert page.locator("#offer").count() == 0
    before = api.state()
    state = offer(cid, 1)
    assert state["offer"]["asked"] == "Bob" and state["acting_player"] == "Bob"
    for page in pages:
        assert page.inner_text("#offer .offer-text") == "IFT offers L.1 to CTL for train 4H"
    for page in (cid, watcher):
        waiting = page.inner_text("#offer .waiting")
        assert waiting == "Waiting for Bob, CTL's president, to accept or decline."
        assert page.locator("#offer button").count() == 0
    assert bob.inner_text("#offer .turn") == "Bob, you answer for CTL:"
    assert bob.inner_text(".offer-accept .act-text") == "Accept: sell 4H to IFT for L.1"
    assert "IFT pays L.1" in bob.inner_text(".offer-accept .act-effects")
    assert bob.inner_text(".offer-decline .act-text") == "Decline: CTL keeps 4H"
    assert bob.locator("#actions button").count() == 2  # the answers, nothing else
    bob.screenshot(path=str(ARTIFACTS / "offer.png"))
    watcher.locator("#actions").screenshot(path=str(ARTIFACTS / "offer-waiting.png"))

    # Bob declines: the offer is gone from every table, the game is as before it
    state = step(bob, lambda page: page.click(".offer-decline"))
    assert state["offer"] is None and state["state_hash"] == before["state_hash"]
    assert "CTL declines IFT's offer for its 4H train" in state["events"]
    for page in pages:
        assert page.locator("#offer").count() == 0

    # offered again, for L.40, Bob accepts: IFT has the train, CTL the money
    state = offer(cid, 40)
    assert bob.inner_text(".offer-accept .act-text") == "Accept: sell 4H to IFT for L.40"
    cash = {c["sym"]: c["cash"] for c in state["corporations"]}
    state = step(bob, lambda page: page.click(".offer-accept"))
    assert state["offer"] is None and state["acting_player"] == "Cid"
    corps = {c["sym"]: c for c in state["corporations"]}
    assert corps["IFT"]["trains"] == ["4H-0"] and corps["CTL"]["trains"] == []
    assert (corps["IFT"]["cash"], corps["CTL"]["cash"]) == (cash["IFT"] - 40, cash["CTL"] + 40)
    for page in pages:
        assert page.locator("#offer").count() == 0
        page.close()
    assert errors.seen == []


def test_a_finished_game_shows_scores_and_charts(browser: Any, server: ServerProcess) -> None:
    imported = httpx.post(
        f"{server.url}/api/games/import", content=EXPORT_27939.read_bytes(), timeout=60
    )
    assert imported.status_code == 201, imported.text
    game_id = imported.json()["id"]
    state = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert state["finished"]
    errors = Errors()
    page = errors.watch(browser.new_page(viewport={"width": 1400, "height": 1000}))
    page.goto(f"{server.url}/games/{game_id}")
    page.wait_for_selector("svg.chart .series", timeout=WAIT_MS)
    ranking = [line.split(":")[0] for line in page.locator("#scores li").all_inner_texts()]
    assert ranking == sorted(state["scores"], key=lambda p: -state["scores"][p])
    worth = page.locator('svg.chart[aria-label="Player worth"] .series')
    assert worth.count() == len(state["players"])
    prices = page.locator('svg.chart[aria-label="Share prices"] .series')
    history = httpx.get(f"{server.url}/api/games/{game_id}/history").json()
    assert prices.count() == len({corp for point in history["points"] for corp in point["prices"]})
    revenue = page.locator('svg.chart[aria-label="Revenue per OR"] .series')
    assert revenue.count() == len({c for point in history["points"] for c in point["revenue"]})
    page.locator("#gameover").screenshot(path=str(ARTIFACTS / "game-over.png"))
    assert errors.seen == []
    page.close()


def test_no_undo_after_a_card_is_drawn(browser: Any, server: ServerProcess) -> None:
    """1883 ruling R36: the seat whose action drew a Random Event card sees, in place of
    Undo, why it cannot take it back."""
    from tresham.titles.t1883 import events

    game = new_game("1883", PLAYERS, 2**62 + 99)
    while True:
        action = bot_action(game, len(game.actions), "random")
        cards = len(events.undrawn(game))
        game.apply(action)
        if 0 < len(events.undrawn(game)) < cards:
            game.undo()
            break
    game_id, tokens = import_game(server, game)
    drawer = game.acting_player()
    assert drawer is not None
    errors = Errors()
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(f"{server.url}/games/{game_id}#seat={tokens[drawer]}")
    page.wait_for_selector("#status[data-index]", timeout=WAIT_MS)
    posted = httpx.post(
        f"{server.url}/api/games/{game_id}/actions",
        json={"index": len(game.actions), "action": action.to_json()},
        headers=auth(tokens[drawer]),
    )
    assert posted.status_code == 200, posted.text
    note = page.wait_for_selector("#undo-gone", timeout=WAIT_MS)
    assert "cannot be undone" in note.inner_text()
    assert page.locator("#undo").count() == 0
    assert errors.seen == []
    page.close()


def title_markets() -> dict[str, dict[str, Any]]:
    """Every title's stock market chart, as the board endpoint gives it."""
    out = {}
    for folder in resources.files("tresham.titles").iterdir():
        data = folder.joinpath("data/market.json")
        if data.is_file():
            out[folder.name] = Market.from_dict(json.loads(data.read_text("utf-8"))).to_dict()
    return out


def test_every_title_market_is_drawn_with_stacked_tokens(
    browser: Any, server: ServerProcess
) -> None:
    markets = title_markets()
    assert {m["geometry"] for m in markets.values()} == {"grid", "hex"}
    errors = Errors()
    page = errors.watch(browser.new_page())
    page.goto(f"{server.url}/")
    for name, market in markets.items():
        row, col = next(
            (r, c) for r, cells in enumerate(market["rows"]) for c, x in enumerate(cells) if x
        )
        drawn = page.evaluate(
            """async ([market, pos]) => {
                const { drawMarket } = await import('/web/market.js');
                const root = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
                document.body.append(root);
                const state = { market: { stacks: [{ pos, corps: ['TOP', 'MID', 'LOW'] }] } };
                drawMarket(root, market, state, { TOP: 'red' });
                const cells = {};
                for (const cell of root.querySelectorAll('.cell')) {
                    const m = cell.transform.baseVal[0].matrix;
                    cells[cell.dataset.cell] = [m.e, m.f];
                }
                const stack = root.querySelector(`[data-cell="${pos.join(',')}"]`);
                const tokens = [...stack.querySelectorAll('.market-token')];
                const order = tokens.map((t) => t.dataset.corp);
                root.remove();
                return { cells, order };
            }""",
            [market, [row, col]],
        )
        wanted = {
            f"{r},{c}" for r, cells in enumerate(market["rows"]) for c, x in enumerate(cells) if x
        }
        assert set(drawn["cells"]) == wanted, name
        assert drawn["order"] == ["LOW", "MID", "TOP"]  # the top of the stack drawn last
        # A row sits above the next; on a hex chart half a cell to the right of it.
        checked = 0
        for key, (x, y) in drawn["cells"].items():
            r, c = map(int, key.split(","))
            below, right = drawn["cells"].get(f"{r + 1},{c}"), drawn["cells"].get(f"{r},{c + 1}")
            if below is None or right is None:
                continue
            assert y < below[1]
            half = (right[0] - x) / 2 if market["geometry"] == "hex" else 0
            assert x - below[0] == pytest.approx(half), name
            checked += 1
        assert checked > 5, name
    assert errors.seen == []
    page.close()


def test_a_pointy_board_draws_track_meeting_at_shared_edges(
    browser: Any, server: ServerProcess
) -> None:
    # Three hexes of a pointy-top board: B4 east of B2, C3 south-east of B2; straight track
    # laid B2-B4 (edges W-E) and through C3 (edges NW-SE).
    hexes = {coord: {"color": "white"} for coord in ("B2", "B4", "C3")}
    board = BoardDef.from_dict({"layout": "pointy", "hexes": hexes})
    drawing = board_drawing(board, load_catalogue(), ["9"])
    state = {
        "map": {"tiles": {"B2": ["9", 1], "B4": ["9", 1], "C3": ["9", 2]}, "tokens": {}},
        "phase": "",
    }
    errors = Errors()
    page = errors.watch(browser.new_page())
    page.goto(f"{server.url}/")
    seen = page.evaluate(
        """async ([board, state]) => {
            const { drawBoard } = await import('/web/board.js');
            const root = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
            root.setAttribute('width', '600');
            document.body.append(root);
            drawBoard(root, board, state, { colors: {}, reserved: {} }, {}, () => {});
            const screen = (el, p) => {
                const m = el.getScreenCTM();
                return [p.x * m.a + p.y * m.c + m.e, p.x * m.b + p.y * m.d + m.f];
            };
            const out = {};
            for (const coord of ['B2', 'B4', 'C3']) {
                const hex = root.querySelector(`[data-hex="${coord}"]`);
                const rail = hex.querySelector('.track path.rail');
                const polygon = hex.querySelector('polygon');
                const at = (length) => screen(rail, rail.getPointAtLength(length));
                out[coord] = {
                    ends: [0, rail.getTotalLength()].map(at),
                    corners: [...polygon.points].map((p) => screen(polygon, p)),
                };
            }
            return out;
        }""",
        [drawing, state],
    )

    def meeting_point(a: str, b: str) -> tuple[float, float]:
        shared = [p for p in seen[a]["corners"] if any(close(p, q) for q in seen[b]["corners"])]
        assert len(shared) == 2, (a, b)
        return ((shared[0][0] + shared[1][0]) / 2, (shared[0][1] + shared[1][1]) / 2)

    for a, b in (("B2", "B4"), ("B2", "C3")):
        point = meeting_point(a, b)
        assert any(close(end, point) for end in seen[b]["ends"]), (a, b)
    assert any(close(end, meeting_point("B2", "B4")) for end in seen["B2"]["ends"])
    assert errors.seen == []
    page.close()


def close(p: list[float] | tuple[float, float], q: list[float] | tuple[float, float]) -> bool:
    return abs(p[0] - q[0]) < 0.5 and abs(p[1] - q[1]) < 0.5


def test_the_lobby_starts_a_game_against_a_bot(browser: Any, server: ServerProcess) -> None:
    errors = Errors()
    page = errors.watch(browser.new_page())
    page.goto(f"{server.url}/")
    page.wait_for_selector('body[data-ready="1"]')
    page.select_option("#title", "1849")
    page.fill("#players", "Ann, Bob, Cid")
    page.fill("#bots", "Bob, Cid")
    # a level for each bot: the default (medium) unless another is picked
    levels = page.locator(".bot-level")
    assert levels.count() == 2
    assert page.input_value('.bot-level[data-player="Bob"]') == "medium"
    options = page.locator('.bot-level[data-player="Cid"] option').all_inner_texts()
    assert options == ["random", "easy", "medium", "hard"]
    page.select_option('.bot-level[data-player="Cid"]', "easy")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lobby-bots.png"))
    page.click("#create")
    page.wait_for_selector("#open-table")
    # what to do next is in view and ready for Enter, however long the form above it
    assert page.evaluate("document.activeElement.id") == "open-table"
    shown = page.locator("#open-table").bounding_box()
    height = page.viewport_size["height"] if page.viewport_size else 0
    assert shown is not None and shown["y"] >= 0 and shown["y"] + shown["height"] <= height
    assert page.locator(".seat-link").count() == 1
    assert "Cid: bot (easy)" in page.inner_text("#created")
    page.click("#open-table")
    page.wait_for_selector("#status[data-index]", timeout=WAIT_MS)
    game_id = page.url.rstrip("/").split("/")[-1]
    state = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert [s["bot"] for s in state["seats"]] == [False, True, True]
    assert [s["level"] for s in state["seats"]] == [None, "medium", "easy"]
    assert page.inner_text("#seats") == "Your seats: Ann"
    # the table shows each bot's level next to the player
    shown = {p: page.inner_text(f'#players tr[data-player="{p}"] td.player-name') for p in PLAYERS}
    assert shown == {"Ann": "Ann •", "Bob": "Bob (bot, medium)", "Cid": "Cid (bot, easy)"}
    assert errors.seen == []
    page.close()


class Smoke:
    """A title's smoke path at the table: a hotseat game from the lobby, moves by clicks, the
    moves between them through the API by a simple policy."""

    def __init__(self, browser: Any, server: ServerProcess, title: str, players: list[str]):
        self.errors = Errors()
        page = self.errors.watch(browser.new_page(viewport={"width": 1400, "height": 1000}))
        page.goto(f"{server.url}/")
        page.wait_for_selector('body[data-ready="1"]')
        page.select_option("#title", title)
        page.fill("#players", ", ".join(players))
        page.fill("#seed", "7")
        page.click("#create")
        page.click("#open-table")
        page.wait_for_selector("#status[data-index]", timeout=WAIT_MS)
        self.page = page
        self.title = title
        self.game_id = page.url.rstrip("/").split("/")[-1]
        tokens = json.loads(page.evaluate(f"localStorage.getItem('tresham.seats.{self.game_id}')"))
        self.tokens: dict[str, str] = tokens
        self.api = Api(server.url, self.game_id, tokens)
        self.corp: str | None = None

    def click(self, locator: Any) -> None:
        """Click `locator` and wait until the table shows the next log entry."""
        index = self.api.state()["index"]
        locator.click()
        at_index(self.page, index + 1)

    def policy(self, actions: list[Action]) -> Action:
        choice = (
            (first(actions, "buy_shares", corporation=self.corp) if self.corp else None)
            or first(actions, "lay_tile")
            or first(actions, "buy_train")
            or first(actions, "dividend")
            or first(actions, "choose")
            or first(actions, "run_routes")
            or first(actions, "pass")
        )
        return choice or actions[0]

    def play_until(self, done: Callable[[list[Action]], bool], limit: int = 150) -> None:
        for _ in range(limit):
            index, actions, player = self.api.legal()
            if done(actions):
                at_index(self.page, index)
                return
            answer = self.api.client.post(
                f"/api/games/{self.game_id}/actions",
                json={"index": index, "action": self.policy(actions)},
                headers=auth(self.tokens[player]),
            )
            assert answer.status_code == 200, answer.text
        raise AssertionError("the position was not reached")

    def start_rounds(self, kind: str) -> None:
        """While the round is `kind`: buy the cheapest private at its price (or bid the
        lowest amount where none is sold at a price), a par price when one is asked, else
        pass."""
        for _ in range(80):
            if self.api.state()["round"]["kind"] != kind:
                return
            _index, actions, _player = self.api.legal()
            if "par" in kinds(actions):
                self.click(self.page.locator(".action-row.par button").first)
            elif "bid" in kinds(actions):
                buy = self.page.locator("button.act-bid")
                if buy.count():
                    self.click(buy.first)
                else:
                    self.click(self.page.locator(".action-row[data-group^='bid-'] button").first)
            else:
                self.click(self.page.locator(".act-pass").first)
        raise AssertionError(f"the {kind} round did not end")

    def start_a_company(self) -> None:
        """Pass until a par price is offered, then start the first company offered."""
        _index, actions, _player = self.api.legal()
        for _ in range(40):
            if "par" in kinds(actions):
                break
            self.click(self.page.locator(".act-pass").first)
            _index, actions, _player = self.api.legal()
        row = self.page.locator(".action-row.par").first
        self.corp = row.get_attribute("data-corp")
        self.click(row.locator("button"))
        corps = self.api.state()["corporations"]
        assert next(c for c in corps if c["sym"] == self.corp)["parred"]

    def lay_a_tile(self) -> None:
        """A tile laid by clicks: a highlighted hex, a tile, lay."""
        self.play_until(lambda a: "lay_tile" in kinds(a))
        page = self.page
        # zoomed in, the hexes out of view are counted, and one click shows the whole board
        assert page.locator("#offscreen-hint").is_hidden()
        for _ in range(8):
            page.click("#zoom-in")
        hint = page.locator("#offscreen-hint")
        hint.wait_for(state="visible")
        out_of_view = r"\d+ of the \d+ hexes you may lay on (is|are) out of view"
        assert re.match(out_of_view, hint.inner_text())
        page.click("#offscreen-show")
        hint.wait_for(state="hidden")
        hex_id = page.locator("g.hex.legal-hex").first.get_attribute("data-hex")
        page.click(f'g.hex[data-hex="{hex_id}"]')
        tile_id = page.locator(".tile-choice").first.get_attribute("data-tile")
        page.locator(".tile-choice").first.click()
        self.click(page.locator("#lay-tile"))
        assert self.api.state()["map"]["tiles"][hex_id][0] == tile_id

    def pick_and_run(self) -> None:
        """The proposed runs, drawn; another run picked for a train from its list (the best
        runs of that train alone) is drawn and counted instead; then the proposal is run."""
        api, page = self.api, self.page

        def choices(actions: list[Action]) -> bool:
            if "run_routes" not in kinds(actions):
                return False
            answer, _player = api.legal_answer()
            return any(len(runs) > 1 for runs in answer["routes"]["alternatives"].values())

        self.play_until(choices, limit=600)
        answer, _player = api.legal_answer()
        revenue = answer["routes"]["revenue"]
        assert page.locator("#run-revenue").get_attribute("data-revenue") == str(revenue)
        proposal = first(answer["actions"], "run_routes")
        assert proposal is not None
        train, others = next(
            (t, runs) for t, runs in answer["routes"]["alternatives"].items() if len(runs) > 1
        )
        mine = next((r for r in proposal["runs"] if r["train"] == train), None)
        other = next(
            j for j, run in enumerate(others) if mine is None or run["stops"] != mine["stops"]
        )
        page.select_option(f'select.run-choice[data-train="{train}"]', str(other))
        rest = [r for r in proposal["runs"] if r["train"] != train]
        tracks = sum(len(r["track"]) for r in rest) + len(others[other]["track"])
        assert page.locator(".runs path.run").count() == tracks
        shown = sum(answer["routes"]["runs"][r["train"]] for r in rest) + others[other]["revenue"]
        assert page.locator("#run-revenue").get_attribute("data-revenue") == str(shown)
        page.select_option(f'select.run-choice[data-train="{train}"]', "-1")
        assert page.locator("#run-revenue").get_attribute("data-revenue") == str(revenue)
        self.click(page.locator("#run-routes"))

    def finish(self) -> None:
        self.page.locator("#board-area").screenshot(path=str(ARTIFACTS / f"board-{self.title}.png"))
        assert self.errors.seen == []
        self.page.close()


def test_a_1883_game_at_the_table(browser: Any, server: ServerProcess) -> None:
    """The smoke path for 1883: the private auction and starting a corporation by clicks, a
    tile laid by clicks, other runs picked and the proposal run; the FS red track drawn."""
    smoke = Smoke(browser, server, "1883", PLAYERS)
    assert smoke.page.locator("path.long-path-fs").count() == 8  # 1883 §6.7: the FS routes
    smoke.start_rounds("auction")
    assert smoke.api.state()["round"]["kind"] == "stock"
    smoke.start_a_company()
    # 1883 §5.6, §6.12: the concessions, their places, price, bonus, holder and penalty
    concessions = smoke.page.locator('#title-tables [data-table="concessions"]')
    assert concessions.locator("tbody tr").count() == 8
    first_row = concessions.locator("tbody tr").first.inner_text()
    assert "Casalecchio" in first_row and "L.15" in first_row and "for sale" in first_row
    assert "pays the penalty" in concessions.locator(".note").inner_text()
    # 1883 §6.9.5: the 2G is described where the trains are listed
    assert "gravity train" in smoke.page.locator('#depot tr[data-train="2G"]').inner_text()
    support = smoke.page.locator('#title-tables [data-table="support"] tbody tr')
    assert support.count() == len(PLAYERS)  # 1883 §2.2.1: one card each at the start
    smoke.page.locator("#sheet-area").screenshot(path=str(ARTIFACTS / "sheet-1883.png"))
    smoke.lay_a_tile()
    smoke.pick_and_run()
    # 1883 §6.6: a port token placed by its button is drawn on its hex in its owner's colour
    smoke.play_until(lambda a: "place_port" in kinds(a), limit=300)
    port = smoke.page.locator(".act-place_port").first
    assert port.inner_text().startswith("Place a port token in ")
    smoke.click(port)
    placed = smoke.api.state()["markers"]
    assert [m["kind"] for m in placed] == ["port"]
    marker = smoke.page.locator(".map-marker.marker-port")
    assert marker.count() == 1 and marker.get_attribute("data-hex") == placed[0]["hex"]
    smoke.finish()


def test_a_1854_game_at_the_table(browser: Any, server: ServerProcess) -> None:
    """The smoke path for 1854 (pointy-top board, hex market): the first share round by
    clicks, a tile laid by clicks, other runs picked and the proposal run, a tunnel drawn when
    its button is pointed at (the map moving to it when it is out of view) and built."""
    smoke = Smoke(browser, server, "1854", [*PLAYERS, "Dan"])
    assert smoke.api.state()["round"]["kind"] == "first_share_round"
    smoke.start_rounds("first_share_round")
    # §3.1.2: the Local Railways' certificates are listed under their own heading, not among
    # the privates, in the players' table, the spreadsheet and the privates' list
    state = smoke.api.state()
    group = {c["sym"]: c["group"] for c in state["companies"]}
    assert set(group.values()) == {"privates", "Local Railways"}
    heads = smoke.page.locator("#players thead th").all_inner_texts()
    assert heads[heads.index("privates") + 1] == "Local Railways"
    assert "loans" not in heads  # shown only once someone has a loan (1849's)
    owned = [p for p in state["players"] if p["companies"]]
    assert any(group[c] == "Local Railways" for p in owned for c in p["companies"])
    for p in owned:
        row = smoke.page.locator(f'#players tr[data-player="{p["name"]}"]')
        for kind, where in (("privates", "td.privates"), ("Local Railways", "td.company-group")):
            listed = ", ".join(c for c in p["companies"] if group[c] == kind)
            assert row.locator(f'td[data-group="{kind}"]').inner_text() == listed
            sheet = smoke.page.locator(f'#sheet-players tr[data-player="{p["name"]}"] {where}')
            assert sheet.inner_text() == listed
    assert smoke.page.locator('#privates table[data-group="Local Railways"] tbody tr').count() == 6
    for p in owned:  # a Local Railway's row names its owner, who runs it (§3.1.2)
        for local in (c for c in p["companies"] if group[c] == "Local Railways"):
            row = smoke.page.locator(f'#corporations tr[data-corp="{local}"] td').nth(1)
            assert row.inner_text() == p["name"]
    smoke.page.locator("#players").screenshot(path=str(ARTIFACTS / "players-1854.png"))
    # §5.6: the Orient Express by its name, and what it does, where the trains are listed
    express = smoke.page.locator('#depot tr[data-train="OE"]').inner_text()
    assert express.startswith("Orient Express") and "Paris" in express
    smoke.lay_a_tile()
    smoke.pick_and_run()
    # 1854 §5.3.1: a tunnel built by its button is drawn over its hex
    smoke.play_until(lambda a: "build_tunnel" in kinds(a), limit=300)
    tunnel = smoke.page.locator(".act-build_tunnel").first
    assert re.match(r"Build an? (straight|gentle|sharp) tunnel through ", tunnel.inner_text())
    tunnel.hover()  # drawn on the map while weighed
    preview = smoke.page.locator(".tunnel-preview")
    assert preview.count() == 1 and preview.locator("path.overlay-preview").count() == 1
    _index, actions, _player = smoke.api.legal()
    weighed = first(actions, "build_tunnel")
    assert weighed is not None and preview.get_attribute("data-hex") == weighed["hex"]
    smoke.page.locator("#board-area").screenshot(path=str(ARTIFACTS / "tunnel-preview.png"))
    smoke.page.mouse.move(0, 0)
    assert preview.count() == 0
    # zoomed in with its hex out of view, the map moves to show the tunnel pointed at
    page = smoke.page
    area = page.locator("#board").bounding_box()
    hexbox = page.locator(f'#board g.hex[data-hex="{weighed["hex"]}"]').bounding_box()
    assert area is not None and hexbox is not None

    def out_of_view(box: dict[str, float]) -> bool:
        across = box["x"] > area["x"] + area["width"] or box["x"] + box["width"] < area["x"]
        return (
            across or box["y"] > area["y"] + area["height"] or box["y"] + box["height"] < area["y"]
        )

    # the wheel zooms in about the pointer, held at the side of the area away from the hex
    left = hexbox["x"] + hexbox["width"] / 2 < area["x"] + area["width"] / 2
    page.mouse.move(area["x"] + (area["width"] - 5 if left else 5), hexbox["y"])
    for _ in range(12):
        if out_of_view(hexbox):
            break
        page.mouse.wheel(0, -300)
        found = page.locator(f'#board g.hex[data-hex="{weighed["hex"]}"]').bounding_box()
        assert found is not None
        hexbox = found
    assert hexbox is not None and out_of_view(hexbox)
    tunnel.hover()
    shown = preview.bounding_box()
    assert shown is not None
    assert area["x"] <= shown["x"] and shown["x"] + shown["width"] <= area["x"] + area["width"]
    assert area["y"] <= shown["y"] and shown["y"] + shown["height"] <= area["y"] + area["height"]
    page.locator("#board-area").screenshot(path=str(ARTIFACTS / "tunnel-revealed.png"))
    page.mouse.move(0, 0)
    smoke.click(tunnel)
    built = sum(len(v) for v in smoke.api.state()["map"].get("overlays", {}).values())
    assert built == 1 and smoke.page.locator("path.overlay").count() == 1
    smoke.finish()


# ---------------------------------------------------------------------- history, log, sheet
def bot_game(actions: int, seed: int = 7) -> Game:
    """1849 played by easy bots for `actions` actions (or to its end)."""
    game = new_game("1849", PLAYERS, seed)
    while len(game.actions) < actions and not game.state.finished:
        game.apply(bot_action(game, len(game.actions), "easy"))
    return game


class Played:
    """An easy-bot game imported into the server, played on through the API by its seats
    (the same moves applied to `game`, a copy in this process)."""

    def __init__(self, server: ServerProcess, actions: int) -> None:
        self.game = bot_game(actions)
        answer = httpx.post(f"{server.url}/api/games/import", json=to_save(self.game), timeout=60)
        assert answer.status_code == 201, answer.text
        self.id = answer.json()["id"]
        self.tokens = {s["player"]: s["token"] for s in answer.json()["seats"]}
        self.api = Api(server.url, self.id, self.tokens)
        self.url = f"{server.url}/games/{self.id}"

    def post(self, player: str, action: Action) -> int:
        index = self.api.state()["index"]
        answer = self.api.client.post(
            f"/api/games/{self.id}/actions",
            json={"index": index, "action": action},
            headers=auth(self.tokens[player]),
        )
        assert answer.status_code == 200, answer.text
        return index + 1

    def move(self) -> int:
        """The easy bot's move for the seat to act."""
        game = self.game
        player = game.acting_player()
        assert player is not None
        action = bot_action(game, len(game.actions), "easy")
        index = self.post(player, action.to_json())
        game.apply(action)
        return index

    def take_back(self, kind: str) -> int:
        index = self.post(self.api.state()[kind], {"type": kind})
        self.game.undo() if kind == "undo" else self.game.redo()
        return index

    def at(self, position: int) -> dict[str, Any]:
        answer = self.api.client.get(f"/api/games/{self.id}", params={"at": position})
        assert answer.status_code == 200, answer.text
        result: dict[str, Any] = answer.json()
        return result

    def log(self) -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = self.api.client.get(f"/api/games/{self.id}/log").json()[
            "entries"
        ]
        return entries


def looking_at(page: Any, position: int | None) -> None:
    """Wait until the table shows the past position `position` (None: the present)."""
    wanted = "" if position is None else str(position)
    page.wait_for_selector(f'body[data-at="{wanted}"]', state="attached", timeout=WAIT_MS)


def sidebar_cash(page: Any) -> dict[str, int]:
    """Each player's cash as the sidebar shows it, in the title's money ("L.45")."""
    shown = {p: page.inner_text(f'#players tr[data-player="{p}"] td.num') for p in PLAYERS}
    assert all(text.startswith("L.") for text in shown.values()), shown
    return {p: int(text.removeprefix("L.")) for p, text in shown.items()}


def test_stepping_back_through_history_and_returning(browser: Any, server: ServerProcess) -> None:
    """The timeline: one entry back, a jump to any entry, a click on a log entry; the past is
    drawn as the API gives it (`?at=N`), under a banner, with nothing to act on (no undo);
    the game goes on meanwhile; one click returns to the present."""
    played = Played(server, 150)
    for _ in range(4):
        played.move()
    # on to a position where the seat to act made the last move (it may undo it)
    for _ in range(60):
        present = played.api.state()
        if present["undo"] == present["acting_player"]:
            break
        played.move()
    assert present["undo"] == present["acting_player"]
    n = present["index"]
    acting = present["acting_player"]
    errors = Errors()
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(f"{played.url}#seat={played.tokens[acting]}")
    at_index(page, n)
    looking_at(page, None)
    assert page.locator("#past-banner").is_hidden()
    page.wait_for_selector("#actions button", timeout=WAIT_MS)  # the seat's choices
    assert page.locator("#undo").count() == 1
    assert page.locator("#at-next").is_disabled() and page.locator("#at-last").is_disabled()

    # one entry back: the banner, the past's figures, nothing to act on
    page.click("#at-back")
    looking_at(page, n - 1)
    assert page.locator("#past-banner").is_visible()
    banner = page.inner_text("#past-banner")
    assert f"the position after entry {n - 1} of {n}" in banner and "Back to the present" in banner
    past = played.at(n - 1)
    assert sidebar_cash(page) == {p["name"]: p["cash"] for p in past["players"]}
    assert page.locator("#actions .act, #actions .action-row, #undo, #redo").count() == 0
    assert page.inner_text("#actions .past-note").startswith(
        f"This is the position after entry {n - 1}"
    )
    assert page.get_attribute("#status", "data-index") == str(n)
    assert page.evaluate("location.search") == f"?at={n - 1}"
    for _ in range(3):
        page.click("#at-back")
    looking_at(page, n - 4)

    # a jump: before and after a tile was laid
    lays = [e for e in played.log() if e["entry"]["type"] == "lay_tile"]
    lay = lays[len(lays) // 2]
    hex_id, tile = lay["entry"]["hex"], lay["entry"]["tile"]
    placed = f'g.hex[data-hex="{hex_id}"][data-tile="{tile}"]'
    page.fill("#at-input", str(lay["index"]))
    page.press("#at-input", "Enter")
    looking_at(page, lay["index"])
    assert page.locator(placed).count() == 0
    page.click("#at-next")
    looking_at(page, lay["index"] + 1)
    assert page.locator(placed).count() == 1
    assert page.locator(f'#log li.entry.current[data-entry="{lay["index"]}"]').count() == 1
    page.screenshot(path=str(ARTIFACTS / "history.png"))

    # a click on a log entry shows the position after it
    link = page.locator("#log a.at-link").nth(3)
    target = int(link.get_attribute("data-at"))
    link.click()
    looking_at(page, target)
    assert page.locator(f'#log li.entry.current[data-entry="{target - 1}"]').count() == 1
    shown = played.at(target)
    assert sidebar_cash(page) == {p["name"]: p["cash"] for p in shown["players"]}

    # the game goes on meanwhile: the table stays in the past, the header follows the present
    n = played.move()
    at_index(page, n)
    looking_at(page, target)
    assert page.inner_text("#at-total") == f"of {n}"

    # back to the present in one click
    page.click("#to-present")
    looking_at(page, None)
    assert page.locator("#past-banner").is_hidden()
    assert page.evaluate("location.search") == ""
    now = played.api.state()
    assert sidebar_cash(page) == {p["name"]: p["cash"] for p in now["players"]}
    if now["acting_player"] == acting:
        page.wait_for_selector("#actions button", timeout=WAIT_MS)
    # the start, then the present again by the last button; a link to a past position
    page.click("#at-first")
    looking_at(page, 0)
    assert page.locator("#at-back").is_disabled()
    assert "the start of the game" in page.inner_text("#past-banner")
    page.click("#at-last")
    looking_at(page, None)
    page.goto(f"{played.url}?at=5")
    looking_at(page, 5)
    assert page.locator("#past-banner").is_visible()
    page.close()
    assert errors.seen == []


def test_the_whole_log_of_a_long_game(browser: Any, server: ServerProcess) -> None:
    """A whole game (over 400 entries, eight pages and more; an undo and a redo among them):
    every entry is in the log, a page at a time, once each, in order, under the headings of
    its rounds, with the event lines the API gives; undo and redo name the entry they take
    back or bring again; an entry links to the position after it."""
    whole = len(bot_game(10_000).actions)
    played = Played(server, whole - 26)
    played.move()
    played.move()
    undo_at = played.take_back("undo")
    redo_at = played.take_back("redo")
    while not played.game.state.finished:
        played.move()
    log = played.log()
    total = len(log)
    assert total == whole + 2 > 400
    errors = Errors()
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(played.url)
    at_index(page, total)
    # pages of 50 counted back from the newest: the page being played is always full
    last_page = f"{total - 49}\N{EN DASH}{total} of {total}"
    assert page.inner_text("#log-pager .log-range") == last_page
    page.locator("#log-box").screenshot(path=str(ARTIFACTS / "log.png"))
    page.click("#log-pager .log-first")
    seen: list[int] = []
    headings: list[str] = []
    texts: dict[int, list[str]] = {}
    for _ in range(40):
        items = page.evaluate(
            """() => [...document.querySelectorAll('#log > li')].map((li) => ({
                heading: li.classList.contains('round-heading') ? li.textContent : null,
                entry: li.dataset.entry === undefined ? null : Number(li.dataset.entry),
                lines: [...li.querySelectorAll('.entry-head, .entry-lines li')]
                    .map((x) => x.textContent),
            }))"""
        )
        assert items[0]["heading"] is not None  # every page starts under its round's heading
        on_page = 0
        for item in items:
            if item["heading"] is not None:
                headings.append(item["heading"])
            elif item["entry"] is not None and item["entry"] >= 0:
                seen.append(item["entry"])
                texts[item["entry"]] = item["lines"]
                on_page += 1
        assert on_page == 50 or len(seen) == on_page  # only the first page may be short
        if page.locator("#log-pager .log-next").is_disabled():
            break
        page.click("#log-pager .log-next")
    assert seen == list(range(total))
    assert headings[0] == "Start" and headings[1] == "Auction"
    # a line that only says a round began (the engine marks it: the entry's `headings`) is
    # its round's heading, not repeated under an entry; an entry is headed by the first line
    # its action wrote, else by its words (the server's `said`, as the table offered it), the
    # lines that followed it below
    said = 0
    for e in log:
        events = [line for line in e["events"] if line not in e["headings"]]
        assert e["lines"] == events, e["index"]
        if e["entry"]["type"] not in ("undo", "redo"):
            shown = texts[e["index"]]
            assert shown[len(shown) - len(events) :] == events, e["index"]
            if e["own"] == 0:
                assert shown[0] == f"{e['entry']['entity']}: {e['said']}", e["index"]
                said += 1
            else:
                assert shown == events, e["index"]
        assert not any(line in e["headings"] for line in texts.get(e["index"], []))
    assert said > 0  # some entries wrote no line of their own (a pass of a step)
    assert texts[undo_at - 1] == [
        f"{log[undo_at - 1]['entry']['entity']} undoes entry {undo_at - 1}"
    ]
    redone = [f"{log[redo_at - 1]['entry']['entity']} redoes entry {undo_at - 1}"]
    assert texts[redo_at - 1] == redone + log[undo_at - 2]["events"]
    rounds = [e["round"] for e in log]
    changes = [r for i, r in enumerate(rounds) if i == 0 or rounds[i - 1] != r]
    assert "Operating round 1.1" in changes and "Stock round 2" in changes
    assert set(changes) <= set(headings)
    assert sum(bool(e["headings"]) for e in log) >= len(changes) - 1
    # an entry of the middle links to the position after it
    page.click("#log-pager .log-first")
    page.locator("#log-pager .log-next").click()
    second = total - (-(-total // 50) - 1) * 50  # entries before the second page
    middle = second + 10
    page.locator(f'#log li[data-entry="{middle}"] a.at-link').click()
    looking_at(page, middle + 1)
    assert page.locator(f'#log li.entry.current[data-entry="{middle}"]').count() == 1
    shown = f"{second + 1}\N{EN DASH}{second + 50} of {total}"
    assert page.inner_text("#log-pager .log-range") == shown
    page.close()
    assert errors.seen == []


def test_the_spreadsheet_shows_the_figures_of_the_api(browser: Any, server: ServerProcess) -> None:
    """Players (cash, certificates / limit, shares, privates, worth), corporations (president,
    par, price and its move in the latest OR, treasury, trains by name, tokens, the revenue
    of every OR, this OR's order) and who is still to start: the figures of the API, now and
    at a past position."""
    played = Played(server, 600)
    errors = Errors()
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(played.url)
    at_index(page, played.api.state()["index"])
    for position in (None, 300):
        state = played.api.state() if position is None else played.at(position)
        if position is not None:
            page.fill("#at-input", str(position))
            page.press("#at-input", "Enter")
            looking_at(page, position)
        check_sheet(page, state)
    page.click("#to-present")
    looking_at(page, None)
    page.locator("#sheet-area").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "spreadsheet.png"))
    page.locator("#sheet-area").screenshot(path=str(ARTIFACTS / "spreadsheet-area.png"))
    # the side column's corporations table fits its column at 1366 px
    fits = page.evaluate(
        """() => document.querySelector('#corporations table').getBoundingClientRect().width
            <= document.querySelector('aside').getBoundingClientRect().width + 1"""
    )
    assert fits
    bank = played.api.state()["bank"]  # the server's words for it, never a negative amount
    assert bank["text"] in page.inner_text("#depot > p") and "L.-" not in page.inner_text("#depot")
    page.close()
    assert errors.seen == []


def check_sheet(page: Any, state: dict[str, Any]) -> None:
    """The spreadsheet of `page` against the public state `state`."""
    sheet = page.evaluate(
        """() => {
            const rows = (id) => [...document.querySelectorAll(`#${id} tbody tr`)];
            const text = (tr, sel) => [...tr.querySelectorAll(sel)].map((td) => td.textContent);
            const players = {};
            for (const tr of rows('sheet-players').filter((tr) => tr.dataset.player)) {
                const shares = {};
                for (const td of tr.querySelectorAll('td.share')) {
                    shares[td.dataset.corp] = td.textContent;
                }
                players[tr.dataset.player] = {
                    cash: text(tr, 'td.cash')[0], certs: text(tr, 'td.certs')[0],
                    worth: text(tr, 'td.worth')[0], privates: text(tr, 'td.privates')[0], shares,
                };
            }
            const corps = {};
            for (const tr of rows('sheet-corporations')) {
                const revenue = {};
                for (const td of tr.querySelectorAll('td.revenue')) {
                    revenue[td.dataset.or] = td.textContent;
                }
                corps[tr.dataset.corp] = {
                    president: text(tr, 'td.president')[0], par: text(tr, 'td.par')[0],
                    price: text(tr, 'td.price')[0], move: tr.querySelector('td.move').dataset.move,
                    treasury: text(tr, 'td.treasury')[0], trains: text(tr, 'td.trains')[0],
                    tokens: text(tr, 'td.tokens')[0], status: text(tr, 'td.or-status')[0], revenue,
                };
            }
            return { players, corps, toStart: document.getElementById('to-start').textContent };
        }"""
    )
    started = [c for c in state["corporations"] if c["parred"] or c["floated"]]
    for p in state["players"]:
        row = sheet["players"][p["name"]]
        assert row["cash"] == f"L.{p['cash']}"  # 1849's money
        assert row["certs"] == f"{p['certificates']}/{p['certificate_limit']}"
        assert row["worth"] == f"L.{p['worth']}"
        assert row["privates"] == ", ".join(p["companies"])
        shares = {
            c["sym"]: f"{p['shares'][c['sym']]}%" if c["sym"] in p["shares"] else ""
            for c in started
        }
        assert row["shares"] == shares
    assert {p["name"]: p["worth"] for p in state["players"]} == raw_worth(state)
    rounds = state["operating_rounds"]
    latest = rounds[-1]
    assert set(sheet["corps"]) == {c["sym"] for c in started}
    for c in started:
        row = sheet["corps"][c["sym"]]
        assert row["president"] == (c["president"] or "")
        assert (row["par"], row["price"], row["treasury"]) == (
            str(c["par_price"] or ""),
            "" if c["price"] is None else str(c["price"]),
            f"L.{c['cash']}",
        )
        before, after = latest["prices_before"].get(c["sym"]), latest["prices"].get(c["sym"])
        assert row["move"] == ("" if before is None or after is None else str(after - before))
        assert row["trains"] == " ".join(c["train_names"])
        assert row["tokens"] == f"{len(c['placed'])}/{c['tokens']}"
        revenue = {str(r["number"]): str(r["revenue"].get(c["sym"], "")) for r in rounds}
        assert row["revenue"] == revenue
        if state["round"]["kind"] == "operating":
            words = {"done": "done", "operating": "now", "to come": "to come", None: ""}
            assert row["status"] == words[c["or_status"]]
    assert sheet["toStart"].endswith(", ".join(state["to_start"]))


def test_the_charts_are_drawn_while_the_game_is_played(browser: Any, server: ServerProcess) -> None:
    """Share prices, worth and revenue per operating round, in a box of the table while the
    game is played (not only at its end), one series per player in the worth chart."""
    played = Played(server, 250)
    assert not played.game.state.finished
    errors = Errors()
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(played.url)
    at_index(page, played.api.state()["index"])
    page.click("#charts-area summary")
    worth = '#live-charts svg.chart[aria-label="Player worth"] .series'
    page.wait_for_selector(worth, timeout=WAIT_MS)
    assert page.locator(worth).count() == len(PLAYERS)
    assert page.locator("#live-charts svg.chart").count() == 3
    page.locator("#charts-area").screenshot(path=str(ARTIFACTS / "charts-live.png"))
    page.close()
    assert errors.seen == []


def raw_worth(state: dict[str, Any]) -> dict[str, int]:
    """Each player's worth as 1849's summary counts it: cash plus shares at market, minus
    L.750 a loan (its private companies not counted)."""
    prices = {c["sym"]: c["price"] for c in state["corporations"]}
    return {
        p["name"]: p["cash"]
        - 750 * p["loans"]
        + sum(prices[sym] * pct // 10 for sym, pct in p["shares"].items() if prices[sym])
        for p in state["players"]
    }


# ---------------------------------------------------------------------- the run picker
def test_the_run_picker_refuses_runs_that_share_track(browser: Any, server: ServerProcess) -> None:
    """1849 §OR Run trains: two trains may not run on the same track. Picking for the second
    train the first one's run, the table asks the engine (`/check`), shows its reason beside
    the trains and offers no Run; picking back the proposal offers Run again."""
    game, proposal = two_trains_to_run()
    game_id, tokens = import_game(server, game)
    acting = game.acting_player()
    assert acting is not None
    errors = Errors()
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(f"{server.url}/games/{game_id}#seat={tokens[acting]}")
    first_run, second_run = proposal.runs[:2]
    select = page.locator(f'select.run-choice[data-train="{second_run.train}"]')
    select.wait_for()
    labels = select.locator("option").all_inner_texts()
    wanted = " \N{EN DASH} ".join(
        game.state.map.board.town(s.rsplit("-", 1)[0]) for s in first_run.stops
    )
    same = next(i for i, text in enumerate(labels) if text.startswith(f"{wanted} (")) - 1
    page.select_option(f'select.run-choice[data-train="{second_run.train}"]', str(same))
    conflict = page.locator("#run-conflict")
    conflict.wait_for()
    assert conflict.inner_text().startswith("These runs cannot be run: ")
    assert page.locator("#run-routes").is_disabled()
    page.locator(".runs-panel").screenshot(path=str(ARTIFACTS / "run-conflict.png"))
    page.select_option(f'select.run-choice[data-train="{second_run.train}"]', "-1")
    assert page.locator("#run-conflict").count() == 0
    assert page.locator("#run-routes").is_enabled()
    page.close()
    assert errors.seen == []
