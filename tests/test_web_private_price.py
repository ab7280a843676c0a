"""A private is bought at any legal price from the table (issue 36; 1849 RD §5.11, ruling
R27: L.1 to twice face value, within the buyer's treasury): the engine lists one price, the
server gives its range (`ranges` of /legal), and the table offers an amount box over that
range, starting at face value; a price other than the default is paid."""

from __future__ import annotations

from typing import Any

from conftest_server import ServerProcess
from test_web_browser import ARTIFACTS, Api, Errors, at_index, browser, import_game, server
from tresham.core.actions import BuyCompany
from tresham.core.game import Game
from tresham.io.save import new_game
from tresham.server.bots import bot_action

__all__ = ["browser", "server"]  # the fixtures this module uses from the table's tests


def own_private_for_sale() -> tuple[Game, BuyCompany]:
    """An 1849 game of easy bots where a corporation may buy its president's own private
    (no one else is asked: R27)."""
    game = new_game("1849", ["Ann", "Bob", "Cid"], 1)
    while not game.state.finished:
        for a in game.legal_actions():
            owner = game.state.companies[a.company].owner if isinstance(a, BuyCompany) else None
            if isinstance(a, BuyCompany) and owner == game.acting_player():
                return game, a
        game.apply(bot_action(game, len(game.actions), "easy"))
    raise AssertionError("no corporation could buy its president's private")


def test_a_private_is_bought_at_a_price_typed_at_the_table(
    browser: Any, server: ServerProcess
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    game, listed = own_private_for_sale()
    comp = game.state.companies[listed.company]
    lo, hi = game.title.price_range(game, listed) or (0, 0)
    assert (lo, hi) == (1, min(2 * comp.value, game.state.corps[listed.entity].cash))
    assert listed.price == hi
    price = (lo + hi) // 2
    assert price not in (listed.price, comp.value)
    game_id, tokens = import_game(server, game)
    api = Api(server.url, game_id, tokens)
    seller = str(comp.owner)
    legal, _ = api.legal_answer()
    i = [a.get("company") for a in legal["actions"]].index(listed.company)
    assert legal["ranges"][i] == [lo, hi]
    errors = Errors()
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(f"{server.url}/games/{game_id}#seat={tokens[seller]}")
    index = api.state()["index"]
    at_index(page, index)
    row = page.locator(f'.action-row[data-group="{listed.company}"]')
    assert row.count() == 1
    assert f"L.{lo}\N{EN DASH}L.{hi}" in row.inner_text()
    assert row.locator("input").input_value() == str(min(hi, comp.value))  # face value first
    row.locator("input").fill(str(price))
    page.screenshot(path=str(ARTIFACTS / "private-price.png"))
    cash = next(p["cash"] for p in api.state()["players"] if p["name"] == seller)
    row.locator("button").click()
    at_index(page, index + 1)
    state = api.state()
    owner = next(c["owner"] for c in state["companies"] if c["sym"] == listed.company)
    assert owner == listed.entity
    assert next(p["cash"] for p in state["players"] if p["name"] == seller) == cash + price
    page.close()
    assert errors.seen == []
