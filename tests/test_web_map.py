"""The map at the browser table (web/panzoom.js, web/board.js) in Debian's Chromium: the
wheel zooms around the pointer, a drag pans (and is no click), "fit" shows the whole board,
a hex is still clicked after panning, every title's board starts fitted with its hex names
at least 9 CSS px at 1366x768 and on a 390 px phone (its coordinates shown only once zoomed
in enough to read), a 390 px phone does not scroll sideways, and the markers
(1883's flood drop, ports, terrain) are drawn as SVG, with no emoji or other glyph a machine
may lack; revenue badges and labels sit clear of the track. Screenshots go to
tests/artifacts/map-*.png.

The server and browser fixtures are those of test_web_browser.py.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import test_web_browser as web
from conftest_server import ServerProcess
from test_web_browser import ARTIFACTS, PLAYERS, WAIT_MS, Errors
from tresham.io.save import new_game, to_save
from tresham.server.board_view import board_payload, terrain_kinds
from tresham.server.bots import bot_action

# The fixtures of test_web_browser.py: a `tresham serve` process and Debian's Chromium.
server = web.server
browser = web.browser

TITLES = {"1849": PLAYERS, "1883": PLAYERS, "1854": [*PLAYERS, "Dan"]}
LAPTOP = {"width": 1366, "height": 768}


def new_table(server: ServerProcess, title: str) -> str:
    answer = httpx.post(
        f"{server.url}/api/games", json={"title": title, "players": TITLES[title], "seed": 3}
    )
    assert answer.status_code == 201, answer.text
    return str(answer.json()["id"])


def open_table(browser: Any, url: str, errors: Errors, viewport: dict[str, int]) -> Any:
    page = errors.watch(browser.new_page(viewport=viewport))
    page.goto(url)
    page.wait_for_selector("#board[data-panzoom='on'] .hex", timeout=WAIT_MS)
    page.wait_for_selector("#status[data-index]", timeout=WAIT_MS)
    return page


def hex_centre(page: Any, coord: str) -> tuple[float, float]:
    """Where the centre of hex `coord` is on the screen."""
    x, y = page.evaluate(
        """(coord) => {
            const g = document.querySelector(`#board .hex[data-hex="${coord}"]`);
            const m = g.getScreenCTM();
            return [m.e, m.f];
        }""",
        coord,
    )
    return float(x), float(y)


def board_view(page: Any) -> dict[str, Any]:
    view: dict[str, Any] = page.evaluate(
        """() => {
            const b = document.querySelector('#board');
            const box = document.querySelector('#board-box').getBoundingClientRect();
            const hexes = [...b.querySelectorAll('.hex .hex-shape')]
                .map((p) => p.getBoundingClientRect());
            const most = (f, side) => f(...hexes.map((r) => r[side]));
            return {
                scale: Number(b.dataset.scale), fitted: b.dataset.fitted,
                box: [box.left, box.top, box.right, box.bottom],
                hexes: [most(Math.min, 'left'), most(Math.min, 'top'),
                        most(Math.max, 'right'), most(Math.max, 'bottom')],
            };
        }"""
    )
    return view


def shows_everything(view: dict[str, Any]) -> bool:
    (bl, bt, br, bb), (hl, ht, hr, hb) = view["box"], view["hexes"]
    return bool(hl >= bl - 1 and ht >= bt - 1 and hr <= br + 1 and hb <= bb + 1)


def moved(a: tuple[float, float], b: tuple[float, float], by: tuple[float, float]) -> bool:
    """Whether screen point `b` is `a` moved by `by` (to a pixel)."""
    return abs(b[0] - a[0] - by[0]) <= 1 and abs(b[1] - a[1] - by[1]) <= 1


SCALE = "Number(document.querySelector('#board').dataset.scale)"


def name_sizes(page: Any) -> list[float]:
    """Every hex name's font size on the screen, in CSS px."""
    sizes: list[float] = page.evaluate(
        """() => [...document.querySelectorAll('#board .hex-name')].map((t) =>
            parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a)"""
    )
    return sizes


def overlapping_names(page: Any) -> list[list[str]]:
    """The pairs of name lines whose boxes on the screen overlap (by more than a pixel across
    and half their height)."""
    pairs: list[list[str]] = page.evaluate(
        """() => {
            const lines = [...document.querySelectorAll('#board .hex-name tspan')].map((t) => {
                const r = t.getBoundingClientRect();
                return { text: t.textContent, l: r.left, r: r.right, t: r.top, b: r.bottom };
            });
            const out = [];
            for (let i = 0; i < lines.length; i++) {
                for (let j = i + 1; j < lines.length; j++) {
                    const a = lines[i], b = lines[j];
                    const across = Math.min(a.r, b.r) - Math.max(a.l, b.l);
                    const down = Math.min(a.b, b.b) - Math.max(a.t, b.t);
                    if (across > 1 && down > 0.5 * Math.min(a.b - a.t, b.b - b.t)) {
                        out.push([a.text, b.text]);
                    }
                }
            }
            return out;
        }"""
    )
    return pairs


def coordinates(page: Any) -> tuple[int, float, float]:
    """The hex coordinates drawn: how many, the most opaque one's opacity, and the smallest
    font size on the screen (CSS px) of those that can be seen."""
    count, opacity, smallest = page.evaluate(
        """() => {
            const seen = [...document.querySelectorAll('#board .coord')].map((t) => {
                const style = getComputedStyle(t);
                return [parseFloat(style.opacity),
                        parseFloat(style.fontSize) * t.getScreenCTM().a];
            });
            const shown = seen.filter(([o]) => o > 0).map(([, size]) => size);
            return [seen.length, Math.max(0, ...seen.map(([o]) => o)),
                    shown.length ? Math.min(...shown) : 0];
        }"""
    )
    return int(count), float(opacity), float(smallest)


def readable_coordinates(page: Any) -> bool:
    """Whether the hex coordinates are either not shown (a grey speck of 3-5 px beside every
    name at "fit") or at least 6 CSS px; and once zoomed in, shown."""
    count, opacity, smallest = coordinates(page)
    assert count > 0
    return opacity == 0 or smallest >= 6


@pytest.mark.parametrize("title", list(TITLES))
def test_every_board_starts_fitted_with_names_to_read(
    browser: Any, server: ServerProcess, title: str
) -> None:
    errors = Errors()
    page = open_table(browser, f"{server.url}/games/{new_table(server, title)}", errors, LAPTOP)
    view = board_view(page)
    assert view["fitted"] == "1"
    assert shows_everything(view)
    # the board uses its area: it touches two opposite sides of the box
    (bl, bt, br, bb), (hl, ht, hr, hb) = view["box"], view["hexes"]
    assert (hl - bl < 70 and br - hr < 70) or (ht - bt < 70 and bb - hb < 70)
    # the whole board is within the window (1883's is taller than it is wide)
    assert bb <= LAPTOP["height"]
    sizes = name_sizes(page)
    assert sizes and min(sizes) >= 9, (title, min(sizes))
    # no name runs into another's (a long one is squeezed to its hex's width)
    assert overlapping_names(page) == [], title
    # the coordinates are too small to read at "fit": not shown (1854's were 3.8 px)
    assert coordinates(page)[1] == 0, title
    page.locator("#board-box").screenshot(path=str(ARTIFACTS / f"map-{title}-1366.png"))
    zoom_until_coordinates_show(page, title)
    assert errors.seen == []
    page.close()


def test_the_wheel_zooms_around_the_pointer_a_drag_pans_and_fit_shows_all(
    browser: Any, server: ServerProcess
) -> None:
    errors = Errors()
    page = open_table(browser, f"{server.url}/games/{new_table(server, '1849')}", errors, LAPTOP)
    fitted = board_view(page)
    x, y = hex_centre(page, "H8")
    page.mouse.move(x + 7, y - 5)
    page.mouse.wheel(0, -240)
    web.wait_until(page, f"{SCALE} > {fitted['scale'] * 1.2}")
    zoomed = board_view(page)
    factor = zoomed["scale"] / fitted["scale"]
    # the point under the pointer stays under it: the hex's centre moved away from it by `factor`
    nx, ny = hex_centre(page, "H8")
    assert nx == pytest.approx(x + 7 - 7 * factor, abs=1.0)
    assert ny == pytest.approx(y - 5 + 5 * factor, abs=1.0)
    assert zoomed["fitted"] == "0" and not shows_everything(zoomed)
    # wheel back out: smaller again
    page.mouse.wheel(0, 120)
    web.wait_until(page, f"{SCALE} < {zoomed['scale']}")
    # a drag pans by as much as the mouse moved
    bx, by = hex_centre(page, "H8")
    page.mouse.move(bx, by)
    page.mouse.down()
    page.mouse.move(bx + 40, by + 10, steps=4)
    page.mouse.move(bx + 90, by + 30, steps=4)
    page.mouse.up()
    assert moved((bx, by), hex_centre(page, "H8"), (90, 30))
    # the buttons: in and out about the centre, and fit
    before = float(page.locator("#board").get_attribute("data-scale"))
    page.click("#zoom-in")
    assert float(page.locator("#board").get_attribute("data-scale")) > before
    page.click("#zoom-fit")
    view = board_view(page)
    assert view["fitted"] == "1" and shows_everything(view)
    assert view["scale"] == pytest.approx(fitted["scale"], rel=1e-3)
    assert errors.seen == []
    page.close()


def lay_position(server: ServerProcess) -> tuple[str, str, str, list[dict[str, Any]]]:
    """An 1849 game where the player to act lays a tile, on a hex with a terrain cost among
    others: (game id, player, token, lays; the costly hexes last)."""
    game = new_game("1849", PLAYERS, 7)
    hexes = game.state.map.board.hexes
    while True:
        lays = [a.to_json() for a in game.legal_actions() if a.to_json()["type"] == "lay_tile"]
        if any(hexes[a["hex"]].terrain_cost for a in lays):
            break
        game.apply(bot_action(game, len(game.actions), "easy"))
    lays.sort(key=lambda a: hexes[a["hex"]].terrain_cost)
    answer = httpx.post(f"{server.url}/api/games/import", json=to_save(game), timeout=60)
    assert answer.status_code == 201, answer.text
    player = game.acting_player()
    assert player is not None
    tokens = {s["player"]: s["token"] for s in answer.json()["seats"]}
    return answer.json()["id"], player, tokens[player], lays


def test_a_hex_is_clicked_after_panning_and_a_drag_is_no_click(
    browser: Any, server: ServerProcess
) -> None:
    game_id, _player, token, lays = lay_position(server)
    coord = lays[0]["hex"]
    errors = Errors()
    page = open_table(browser, f"{server.url}/games/{game_id}#seat={token}", errors, LAPTOP)
    page.wait_for_selector(f'#board .hex.legal-hex[data-hex="{coord}"]', timeout=WAIT_MS)
    # zoom in on the hex, then drag starting on it: the board pans, the hex is not chosen
    x, y = hex_centre(page, coord)
    page.mouse.move(x, y)
    page.mouse.wheel(0, -300)
    x, y = hex_centre(page, coord)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 60, y - 25, steps=6)
    page.mouse.up()
    page.wait_for_timeout(200)
    assert page.locator("#board .hex.selected").count() == 0
    nx, ny = hex_centre(page, coord)
    assert moved((x, y), (nx, ny), (-60, -25))
    # a click on the panned hex chooses it, and its tile is previewed there
    page.mouse.click(nx, ny)
    page.wait_for_selector(f'#board .hex.selected[data-hex="{coord}"]', timeout=WAIT_MS)
    # the panned view stays while the board is redrawn
    assert page.locator("#board").get_attribute("data-fitted") == "0"
    assert moved((nx, ny), hex_centre(page, coord), (0, 0))
    # the terrain of a costly hex stays in sight under the preview
    costly = lays[-1]["hex"]
    assert costly != coord
    page.click("#zoom-fit")
    page.locator(f'#board .hex[data-hex="{costly}"] .hex-shape').click()
    page.wait_for_selector(f'#board .hex.selected[data-hex="{costly}"]', timeout=WAIT_MS)
    assert page.locator(f'#board .hex.selected[data-hex="{costly}"] .terrain').count() == 1
    assert errors.seen == []
    page.close()


def zoom_until_coordinates_show(page: Any, title: str) -> None:
    """Zoom in by the button until the coordinates show; at every step they are either not
    shown or readable, and they show before the names are four times their "fit" size."""
    fit_scale = page.evaluate(SCALE)
    while coordinates(page)[1] < 1:
        assert readable_coordinates(page), title
        assert page.evaluate(SCALE) < 4 * fit_scale, title
        page.click("#zoom-in")
    assert readable_coordinates(page), title


@pytest.mark.parametrize("title", list(TITLES))
def test_the_phone_shows_names_to_read_and_no_coordinate_specks(
    browser: Any, server: ServerProcess, title: str
) -> None:
    """At 390 px the board starts filled: its names at least 9 CSS px and clear of each
    other, its coordinates shown only once they can be read (the issue: 1854's map at "fit",
    its coordinates tiny and its names running into each other)."""
    errors = Errors()
    page = open_table(
        browser,
        f"{server.url}/games/{new_table(server, title)}",
        errors,
        {"width": 390, "height": 844},
    )
    sizes = name_sizes(page)
    assert sizes and min(sizes) >= 9, (title, min(sizes))
    assert overlapping_names(page) == [], title
    assert readable_coordinates(page), title
    page.locator("#board-box").screenshot(path=str(ARTIFACTS / f"map-{title}-390.png"))
    zoom_until_coordinates_show(page, title)
    page.locator("#board-box").screenshot(path=str(ARTIFACTS / f"map-{title}-390-zoomed.png"))
    assert errors.seen == []
    page.close()


def test_the_phone_does_not_scroll_sideways(browser: Any, server: ServerProcess) -> None:
    errors = Errors()
    for title in TITLES:
        page = open_table(
            browser,
            f"{server.url}/games/{new_table(server, title)}",
            errors,
            {"width": 390, "height": 844},
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, title
        box = page.locator("#board-box").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390
        # hexes big enough to tap: the phone starts with its area filled
        page.wait_for_selector("#board .hex .hex-shape", timeout=WAIT_MS)
        size = page.locator("#board .hex .hex-shape").first.bounding_box()
        assert size["width"] >= 40, title
        # the fit button shows it all
        page.click("#zoom-fit")
        assert shows_everything(board_view(page))
        page.screenshot(path=str(ARTIFACTS / f"map-{title}-phone.png"))
        page.close()
    assert errors.seen == []


def test_markers_are_svg_and_no_text_needs_a_special_font(
    browser: Any, server: ServerProcess
) -> None:
    errors = Errors()
    for title in TITLES:
        game_id = new_table(server, title)
        board = httpx.get(f"{server.url}/api/games/{game_id}/board").json()
        page = open_table(browser, f"{server.url}/games/{game_id}", errors, LAPTOP)
        seen = page.evaluate(
            """() => {
                const b = document.querySelector('#board');
                const hexOf = (m) => m.closest('.hex').dataset.hex;
                const marker = (kind) => [...b.querySelectorAll(`[data-marker="${kind}"]`)]
                    .map((m) => ({
                        hex: hexOf(m),
                        shapes: m.querySelectorAll('path, circle').length,
                        text: m.textContent,
                    }));
                const terrain = {};
                for (const t of b.querySelectorAll('.terrain')) {
                    terrain[hexOf(t)] = t.dataset.terrain;
                }
                return {
                    flood: marker('flood'), port: marker('port'), terrain,
                    texts: [...b.querySelectorAll('text')].map((t) => t.textContent),
                };
            }"""
        )
        flood = {h["coord"] for h in board["hexes"] if h["flood"]}
        assert {m["hex"] for m in seen["flood"]} == flood
        assert {m["hex"] for m in seen["port"]} == {h["coord"] for h in board["hexes"] if h["port"]}
        for m in seen["flood"] + seen["port"]:
            assert m["shapes"] >= 2 and m["text"] == ""
        assert seen["terrain"] == {
            h["coord"]: h["terrain"] for h in board["hexes"] if h["terrain_cost"]
        }
        # Latin letters, digits and punctuation only: nothing an emoji font must supply
        for text in seen["texts"]:
            assert all(ord(ch) < 0x250 or 0x2010 <= ord(ch) <= 0x2027 for ch in text), text
        page.close()
    assert errors.seen == []


def test_1883_rivers_hills_and_mountains_are_told_apart() -> None:
    game = new_game("1883", PLAYERS, 1)
    hexes = {h["coord"]: h for h in board_payload(game)["hexes"]}
    board = game.state.map.board
    assert {c for c, h in hexes.items() if h["terrain"] == "river"} == set(
        board.extra["flood_hexes"]
    )
    assert {c for c, h in hexes.items() if h["terrain"] == "hill"} == set(board.extra["hills"])
    assert {c for c, h in hexes.items() if h["terrain"] == "mountain"} == set(
        board.extra["mountains"]
    )
    # 1854 names its water; 1849's terrain is mountains
    kinds_1854 = {h["terrain"] for h in board_payload(new_game("1854", TITLES["1854"], 1))["hexes"]}
    assert kinds_1854 == {"", "mountain", "water"}
    board_1849 = new_game("1849", PLAYERS, 1).state.map.board
    assert set(terrain_kinds(board_1849).values()) == {"mountain"}


@pytest.mark.parametrize("title", list(TITLES))
def test_badges_labels_and_markers_sit_clear_of_the_track(
    browser: Any, server: ServerProcess, title: str
) -> None:
    # A game well on (tiles laid) and the printed board: every revenue badge, tile label and
    # marker keeps clear of every rail of its hex.
    game = new_game(title, TITLES[title], 7)
    while len(game.actions) < 250 and not game.state.finished:
        game.apply(bot_action(game, len(game.actions), "easy"))
    answer = httpx.post(f"{server.url}/api/games/import", json=to_save(game), timeout=60)
    assert answer.status_code == 201, answer.text
    errors = Errors()
    page = open_table(browser, f"{server.url}/games/{answer.json()['id']}", errors, LAPTOP)
    clashes = page.evaluate(
        """() => {
            const out = [];
            for (const hex of document.querySelectorAll('#board .hex')) {
                const rails = [...hex.querySelectorAll('.track path.rail')];
                const points = [];
                for (const rail of rails) {
                    const n = Math.ceil(rail.getTotalLength());
                    for (let i = 0; i <= n; i++) points.push(rail.getPointAtLength(i));
                }
                const hm = hex.getCTM().inverse();
                const things = [
                    ...[...hex.querySelectorAll('.revenue:not(.at-stop)')].map((g) => [g, 9]),
                    ...[...hex.querySelectorAll('[data-marker], .terrain')].map((g) => [g, 7]),
                    ...[...hex.querySelectorAll('.tile-label')].map((t) => [t, 5]),
                ];
                for (const [el, r] of things) {
                    const bb = el.getBBox();
                    const m = hm.multiply(el.getCTM());
                    const cx = m.a * (bb.x + bb.width / 2) + m.e;
                    const cy = m.d * (bb.y + bb.height / 2) + m.f;
                    const near = Math.min(...points.map((p) => Math.hypot(p.x - cx, p.y - cy)));
                    const what = [el.getAttribute('class'), el.textContent, near.toFixed(1)];
                    if (near < r + 4 - 0.5) out.push([hex.dataset.hex, ...what]);
                }
            }
            return out;
        }"""
    )
    assert clashes == []
    page.locator("#board-box").screenshot(path=str(ARTIFACTS / f"map-{title}-played.png"))
    assert errors.seen == []
    page.close()
