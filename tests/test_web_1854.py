"""1854 on its rulebook's own board at the browser table (web/board.js) in Debian's Chromium:
a game played by the server's bots until a medium-sized city has been promoted (§5.3, §5.10:
441-444) and a double small city upgraded (§5.4: 457-464) is imported and drawn. The
medium-sized cities show their ring (printed) or marker (built on), the permission shields
their companies (§5.3, until a tile is laid), München's and E7's customs their signs (§5.6),
the two cities of a 457-464 tile sit apart, every marker keeps clear of the track, and the
page raises no error. Screenshots go to tests/artifacts/map-1854-original-*.png.
On a 390 px touch screen, a tunnel is drawn at the first tap on its button and built at the
second (§5.3.1; tests/artifacts/tunnel-tapped-390*.png).

The server and browser fixtures are those of test_web_browser.py.
"""

from __future__ import annotations

from typing import Any

import httpx

import test_web_browser as web
from conftest_server import ServerProcess
from test_web_browser import ARTIFACTS, WAIT_MS, Errors, at_index, import_game
from tresham.core.game import Game
from tresham.io.save import new_game, to_save
from tresham.server.bots import bot_action
from tresham.titles.t1854.versions import ORIGINAL_BOARD_VERSION

server = web.server
browser = web.browser
PHONE = {"width": 390, "height": 844}

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]
LAPTOP = {"width": 1366, "height": 768}
MEDIUM_GREEN = {"441", "442", "443", "444"}
DOUBLE_GREEN = {str(n) for n in range(457, 465)}


def promoted(game: Game) -> tuple[list[str], list[str]]:
    """The medium-sized cities on a green tile, and the hexes with a 457-464 tile."""
    tiles = {coord: tile for coord, (tile, _r) in game.state.map.tiles.items()}
    medium = game.state.map.board.extra["medium_cities"]
    return (
        [c for c in medium if tiles.get(c) in MEDIUM_GREEN],
        sorted(c for c, t in tiles.items() if t in DOUBLE_GREEN),
    )


def played_game() -> Game:
    """Four medium bots play seed 3 until both kinds of upgrade are on the board."""
    game = new_game("1854", PLAYERS, 3)
    assert game.rules_version == ORIGINAL_BOARD_VERSION
    while not all(promoted(game)):
        assert not game.state.finished and len(game.actions) < 3000
        game.apply(bot_action(game, len(game.actions), "medium"))
    return game


SEEN = """() => {
    const b = document.querySelector('#board');
    const hexOf = (m) => m.closest('.hex').dataset.hex;
    const all = (sel) => [...b.querySelectorAll(sel)];
    const box = (el) => { const r = el.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom]; };
    const clashes = [];
    for (const hex of all('.hex')) {
        const points = [];
        for (const rail of hex.querySelectorAll('.track path.rail')) {
            const n = Math.ceil(rail.getTotalLength());
            for (let i = 0; i <= n; i++) points.push(rail.getPointAtLength(i));
        }
        const hm = hex.getCTM().inverse();
        for (const el of hex.querySelectorAll('[data-marker]')) {
            const bb = el.getBBox();
            const m = hm.multiply(el.getCTM());
            const cx = m.a * (bb.x + bb.width / 2) + m.e;
            const cy = m.d * (bb.y + bb.height / 2) + m.f;
            const near = Math.min(...points.map((p) => Math.hypot(p.x - cx, p.y - cy)));
            if (near < 7 + 4 - 0.5) clashes.push([hex.dataset.hex, el.dataset.marker, near]);
        }
    }
    return {
        rings: all('.medium-city-ring').map((m) => m.dataset.mediumCity),
        medium: all('[data-marker="medium-city"]').map((m) => [hexOf(m), m.dataset.mediumCity]),
        shields: Object.fromEntries(all('[data-marker="shield"]').map(
            (m) => [hexOf(m), [m.dataset.company, m.textContent]])),
        customs: all('[data-marker="customs"]').map((m) => [hexOf(m), m.querySelectorAll(
            'circle, rect, path').length]),
        tiles: Object.fromEntries(all('.hex[data-tile]').map(
            (h) => [h.dataset.hex, h.dataset.tile])),
        cities: Object.fromEntries(all('.hex').map((h) => [h.dataset.hex,
            [...h.querySelectorAll('.city')].map(box)])),
        clashes,
        names: all('.hex-name tspan').map((t) => [t.parentNode.dataset.nameOf, t.textContent,
            box(t)]),
    };
}"""


def widened(box: list[float], by: float = 2.0) -> list[float]:
    """A screen box `by` pixels wider on each side (two names closer than twice that read as
    one)."""
    return [box[0] - by, box[1], box[2] + by, box[3]]


def apart(a: list[float], b: list[float]) -> bool:
    """Whether two screen boxes do not overlap (to a pixel)."""
    return a[2] <= b[0] + 1 or b[2] <= a[0] + 1 or a[3] <= b[1] + 1 or b[3] <= a[1] + 1


def test_1854_plays_on_the_original_board_at_the_table(browser: Any, server: ServerProcess) -> None:
    game = played_game()
    medium, double = promoted(game)
    answer = httpx.post(f"{server.url}/api/games/import", json=to_save(game), timeout=60)
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    board = httpx.get(f"{server.url}/api/games/{game_id}/board").json()
    hexes = {h["coord"]: h for h in board["hexes"]}
    errors = Errors()
    page = errors.watch(browser.new_page(viewport=LAPTOP))
    page.goto(f"{server.url}/games/{game_id}")
    page.wait_for_selector("#board[data-panzoom='on'] .hex", timeout=WAIT_MS)
    page.wait_for_selector("#status[data-index]", timeout=WAIT_MS)
    seen = page.evaluate(SEEN)
    laid = {coord for coord, _ in game.state.map.tiles.items()}
    # §5.3: the nine medium-sized cities: printed, a ring; built on, the marker (on 441-444 too)
    all_medium = {c for c, h in hexes.items() if h["medium_city"]}
    assert len(all_medium) == 9
    assert set(seen["rings"]) == all_medium - laid
    assert {h for h, _ in seen["medium"]} == all_medium & laid
    assert all(h == m for h, m in seen["medium"])
    for coord in medium:
        assert seen["tiles"][coord] in MEDIUM_GREEN
    # §5.3: the shields beside Wien name their companies while the hex is bare
    shields = {c: h["shield"] for c, h in hexes.items() if h["shield"]}
    assert set(shields) == {"B22", "C21", "D22"}
    assert seen["shields"] == {c: [s, s] for c, s in shields.items() if c not in laid}
    # §5.6: München's and E7's customs signs, drawn as shapes
    assert sorted(h for h, _ in seen["customs"]) == ["D12", "E7"]
    assert all(shapes >= 3 for _, shapes in seen["customs"])
    # §5.4: each 457-464 tile shows its two cities apart
    for coord in double:
        assert seen["tiles"][coord] in DOUBLE_GREEN
        a, b = seen["cities"][coord]
        assert apart(a, b), (coord, a, b)
    assert seen["clashes"] == []
    # at "fit" no place's name runs into another's (the "Stey Sankt Pölte")
    overlaps = [
        (a[1], b[1])
        for i, a in enumerate(seen["names"])
        for b in seen["names"][i + 1 :]
        if a[0] != b[0] and not apart(widened(a[2]), widened(b[2]))
    ]
    assert overlaps == []
    page.locator("#board-box").screenshot(path=str(ARTIFACTS / "map-1854-original-1366.png"))
    # zoomed in on a promoted medium city and a double city
    for coord in (medium[0], double[0]):
        page.click("#zoom-fit")
        x, y = page.evaluate(
            """(c) => { const m = document.querySelector(`#board .hex[data-hex="${c}"]`)
                .getScreenCTM(); return [m.e, m.f]; }""",
            coord,
        )
        page.mouse.move(x, y)
        for _ in range(4):
            page.mouse.wheel(0, -240)
            page.wait_for_timeout(60)
        page.locator("#board-box").screenshot(
            path=str(ARTIFACTS / f"map-1854-original-{coord}.png")
        )
    assert errors.seen == []
    page.close()


def tunnels_to_weigh() -> Game:
    """Easy bots play seed 3 until the seat to act may build one of several tunnels."""
    game = new_game("1854", PLAYERS, 3)
    while sum(a.type == "build_tunnel" for a in game.legal_actions()) < 2:
        assert not game.state.finished and len(game.actions) < 500
        game.apply(bot_action(game, len(game.actions), "easy"))
    return game


def test_on_a_touch_screen_a_tunnel_is_drawn_at_the_first_tap_and_built_at_the_second(
    browser: Any, server: ServerProcess
) -> None:
    """1854 §5.3.1 at a 390 px touch screen, where nothing is pointed at (so no hover draws
    a tunnel): the first tap on a tunnel's button draws it on the map and says so on the
    button, building nothing; a tap on another draws that one instead; a second tap on the
    one chosen builds it, and the map then draws it as built."""
    game = tunnels_to_weigh()
    tunnels = [a for a in game.legal_actions() if a.type == "build_tunnel"]
    game_id, tokens = import_game(server, game)
    errors = Errors()
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = errors.watch(context.new_page())
    page.goto(f"{server.url}/games/{game_id}#seat={tokens[game.acting_player()]}")
    index = len(game.actions)
    at_index(page, index)
    buttons = page.locator(".act-build_tunnel")
    assert buttons.count() == len(tunnels)
    preview = page.locator("#board .tunnel-preview")
    assert preview.count() == 0

    def drawn() -> tuple[str | None, str | None]:
        """The hex of the tunnel drawn as weighed, and its path."""
        assert preview.count() == 1
        return preview.get_attribute("data-hex"), preview.locator("path").get_attribute("d")

    buttons.nth(0).tap()
    first_drawn = drawn()
    assert first_drawn[0] == tunnels[0].hex
    assert "tap again to build it" in buttons.nth(0).inner_text()
    assert buttons.nth(0).get_attribute("aria-pressed") == "true"
    page.locator("#board-area").screenshot(path=str(ARTIFACTS / "tunnel-tapped-390.png"))
    page.locator("#actions").screenshot(path=str(ARTIFACTS / "tunnel-tapped-390-buttons.png"))
    buttons.nth(1).tap()
    second_drawn = drawn()
    assert second_drawn[0] == tunnels[1].hex and second_drawn[1] != first_drawn[1]
    assert buttons.nth(1).get_attribute("aria-pressed") == "true"
    assert buttons.nth(0).get_attribute("aria-pressed") is None
    assert "tap again" not in buttons.nth(0).inner_text()
    # nothing was built by the taps that chose
    state = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert state["index"] == index and not state["map"].get("overlays")
    buttons.nth(1).tap()
    at_index(page, index + 1)
    state = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert state["map"]["overlays"] == {tunnels[1].hex: [[tunnels[1].a, tunnels[1].b]]}
    assert page.locator("#board path.overlay").count() == 1
    assert preview.count() == 0
    assert errors.seen == []
    context.close()
