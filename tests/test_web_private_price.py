"""A private is bought at any legal price from the table (issue 36; 1849 RD §5.11, ruling
R27: L.1 to twice face value, within the buyer's treasury): the engine lists one price, the
server gives its range (`ranges` of /legal), and the table offers an amount box over that
range, starting at face value; a price other than the default is paid. Likewise a train from
another corporation (1849 §OR Buy trains: any price from L.1): one row per seller and train,
its name and range, starting at the train's face value; the price typed is offered to the
seller's president, who accepts, and paid."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from conftest_server import ServerProcess, auth
from test_web_browser import ARTIFACTS, Api, Errors, at_index, browser, import_game, server
from tresham.core.actions import Action, BuyCompany, BuyTrain
from tresham.core.game import Game
from tresham.io.save import new_game
from tresham.server.bots import bot_action

__all__ = ["browser", "server"]  # the fixtures this module uses from the table's tests

T = TypeVar("T")


def easy_game_until(seed: int, found: Callable[[Game, Action], T | None]) -> tuple[Game, T]:
    """An 1849 game of easy bots up to the first position with a legal action for which
    `found` gives something; and what it gave."""
    game = new_game("1849", ["Ann", "Bob", "Cid"], seed)
    while not game.state.finished:
        for a in game.legal_actions():
            if (what := found(game, a)) is not None:
                return game, what
        game.apply(bot_action(game, len(game.actions), "easy"))
    raise AssertionError("no such position")


def at_seat(browser: Any, api: Api, token: str, errors: Errors) -> tuple[Any, int]:
    """The table of the seat holding `token` at 1366x768, once it shows the present; and
    the present's index."""
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    url = str(api.client.base_url).rstrip("/")
    page.goto(f"{url}/games/{api.game_id}#seat={token}")
    index: int = api.state()["index"]
    at_index(page, index)
    return page, index


def own_private_for_sale() -> tuple[Game, BuyCompany]:
    """An 1849 game of easy bots where a corporation may buy its president's own private
    (no one else is asked: R27)."""

    def own(game: Game, a: Action) -> BuyCompany | None:
        owner = game.state.companies[a.company].owner if isinstance(a, BuyCompany) else None
        return a if isinstance(a, BuyCompany) and owner == game.acting_player() else None

    return easy_game_until(1, own)


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
    page, index = at_seat(browser, api, tokens[seller], errors)
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


def train_of_another_corporation() -> tuple[Game, str, str]:
    """An 1849 game of easy bots where a corporation may buy a train from another one: the
    game, the train bought, and its seller."""

    def of_another(game: Game, a: Action) -> tuple[str, str] | None:
        if not isinstance(a, BuyTrain):
            return None
        seller = next((s for s, c in game.state.corps.items() if a.train in c.trains), None)
        return (a.train, seller) if seller is not None and seller != a.entity else None

    game, (tid, seller) = easy_game_until(3, of_another)
    return game, tid, seller


def test_a_train_of_another_corporation_is_bought_at_a_price_typed_at_the_table(
    browser: Any, server: ServerProcess
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    game, tid, seller = train_of_another_corporation()
    buyer = game.active_entity()
    assert buyer is not None
    listed = [a for a in game.legal_actions() if isinstance(a, BuyTrain) and a.train == tid]
    lo, hi = min(a.price for a in listed), max(a.price for a in listed)
    depot = game.state.depot
    name = depot.trains[tid].kind
    face = depot.types[name].price
    assert lo == 1 and hi == game.state.corps[buyer].cash
    price = (lo + min(hi, face)) // 2
    assert price not in (lo, hi, face)
    same_kind = [t for t in game.state.corps[seller].trains if depot.trains[t].kind == name]
    game_id, tokens = import_game(server, game)
    api = Api(server.url, game_id, tokens)
    acting = game.acting_player()
    assert acting is not None
    errors = Errors()
    page, index = at_seat(browser, api, tokens[acting], errors)
    # one row for the seller's trains of that kind, however many it has, by the train's name
    rows = page.locator(f'.action-row[data-group^="{seller}|"]')
    assert rows.count() == 1 and len(same_kind) >= 1
    text = rows.inner_text()
    assert name in text and tid not in text, text
    assert f"L.{lo}\N{EN DASH}L.{hi}" in text, text
    assert rows.locator("input").input_value() == str(min(hi, face))  # face value first
    rows.locator("input").fill(str(price))
    page.screenshot(path=str(ARTIFACTS / "train-price.png"))
    cash = next(c["cash"] for c in api.state()["corporations"] if c["sym"] == seller)
    rows.locator("button").click()
    at_index(page, index + 1)
    seller_president = game.state.shares.president[seller]
    if seller_president != acting:  # 1849 §OR: the seller's president is asked (an offer)
        offer = f"{buyer} offers L.{price} to {seller} ({seller_president}) for its {name} train"
        assert offer in page.inner_text("#log"), page.inner_text("#log")
        legal, who = api.legal_answer()
        accept = next(a for a in legal["actions"] if a.get("choice") == "accept")
        answer = api.client.post(
            f"/api/games/{game_id}/actions",
            json={"index": legal["index"], "action": accept},
            headers=auth(tokens[who]),
        )
        assert answer.status_code == 200, answer.text
    corps = {c["sym"]: c for c in api.state()["corporations"]}
    assert corps[seller]["cash"] == cash + price
    assert len(corps[buyer]["trains"]) == len(game.state.corps[buyer].trains) + 1
    page.close()
    assert errors.seen == []
