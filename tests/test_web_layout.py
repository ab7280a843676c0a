"""The table's layout holds for every title at a laptop's 1366x768 and a phone's 390 px
(issue 36): a game of each title, played by easy bots into its operating rounds and imported
into a `tresham serve` process, is opened in Chromium at both sizes; the page never scrolls
sideways, and the main panels (status, board, actions, players, corporations, log, market)
are laid out inside the screen's width with a size one can read. Screenshots of each go to
tests/artifacts/layout-<title>-<width>.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import test_web_browser as web
from conftest_server import ServerProcess
from test_web_browser import ARTIFACTS, Errors, at_index
from tresham.core.game import Game
from tresham.io.save import new_game, to_save
from tresham.server.bots import bot_action

server = web.server
browser = web.browser

SEATS = {
    "1849": ["Ann", "Bob", "Cid"],
    "1883": ["Ann", "Bob", "Cid"],
    "1854": ["Ann", "Bob", "Cid", "Dan"],
}
SIZES = [(1366, 768), (390, 844)]
PANELS = [
    "#status",
    "#board-box",
    "#actions",
    "#players",
    "#corporations",
    "#log-box",
    "#market-box",
]


def operating_game(title: str, seed: int = 5, limit: int = 2000) -> Game:
    """`title` played by easy bots until its second operating round is under way, so that the
    table shows floated corporations, trains and tiles, the widest the panels get early on."""
    game = new_game(title, SEATS[title], seed)
    seen_operating = 0
    previous = ""
    while len(game.actions) < limit and not game.state.finished:
        kind = game.state.round.kind if game.state.round is not None else ""
        if kind != previous and "operating" in str(kind):
            seen_operating += 1
            if seen_operating == 2:
                return game
        previous = str(kind)
        game.apply(bot_action(game, len(game.actions), "easy"))
    raise AssertionError(f"{title}: no second operating round within {limit} actions")


@pytest.fixture(scope="module")
def imported(server: ServerProcess) -> Iterator[dict[str, tuple[str, int]]]:
    """Each title's game on the server: its id and its position."""
    games: dict[str, tuple[str, int]] = {}
    for title in SEATS:
        game = operating_game(title)
        answer = httpx.post(f"{server.url}/api/games/import", json=to_save(game), timeout=60)
        assert answer.status_code == 201, answer.text
        games[title] = (answer.json()["id"], len(game.actions))
    yield games


@pytest.mark.parametrize("title", list(SEATS))
@pytest.mark.parametrize(("width", "height"), SIZES)
def test_the_layout_holds_for_every_title(
    browser: Any,
    server: ServerProcess,
    imported: dict[str, tuple[str, int]],
    title: str,
    width: int,
    height: int,
) -> None:
    """No sideways scroll, and every main panel inside the screen's width and readable."""
    game_id, index = imported[title]
    errors = Errors()
    page = errors.watch(browser.new_page(viewport={"width": width, "height": height}))
    page.goto(f"{server.url}/games/{game_id}")
    at_index(page, index)
    page.locator("#board .hex .hex-shape").first.wait_for(state="visible", timeout=15_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate("document.body.scrollWidth") <= width
    for panel in PANELS:
        box = page.locator(panel).bounding_box()
        assert box is not None, f"{title} at {width}: {panel} is not shown"
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (title, width, panel, box)
        readable = box["width"] >= min(300, width - 40) and box["height"] > 0
        assert readable, (title, width, panel, box)
    # an element may reach past the screen's edge only inside a box that scrolls or clips
    overflowing = page.evaluate(
        """(width) => {
            const clipped = (e) => {
                for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
                    if (getComputedStyle(a).overflowX !== 'visible') return true;
                }
                return false;
            };
            return [...document.querySelectorAll('body *')].filter((e) => {
                const r = e.getBoundingClientRect();
                return r.width > 0 && r.right > width + 1 && !clipped(e);
            }).map((e) => (e.closest('[id]') || e).id + ' ' + e.tagName).slice(0, 10);
        }""",
        width,
    )
    if width >= 1366:  # on a laptop the side column's tables fit without a scroll bar
        for panel in ("#players", "#corporations"):
            inner, outer = page.evaluate(
                f"(() => {{ const e = document.querySelector('{panel} table');"
                " return [e.scrollWidth, e.parentElement.clientWidth]; })()"
            )
            assert inner <= outer, f"{title} at {width}: {panel} is {inner - outer} px too wide"
    page.screenshot(path=str(ARTIFACTS / f"layout-{title}-{width}.png"), full_page=False)
    assert overflowing == [], f"{title} at {width}: drawn past the screen's edge: {overflowing}"
    page.close()
    assert errors.seen == []
