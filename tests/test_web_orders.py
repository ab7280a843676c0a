"""Standing orders at the table, in Chromium, with two people online (issue 36): Ann sets
"auto-pass" in her panel and is never asked to click where Pass is her only choice (her log
says "(standing order)"); Bob, at his own table, adds a buy-until order by its form, sees it
listed in words, and cancels it by its button; each sees only their own orders. Then, each
from a position where it acts at once: Ann ticks "pass-privates" at a corporation's private
step and "pass-round" on her stock-round turn, and both tables log her pass as the order's."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from conftest_server import ServerProcess, auth
from test_standing_orders import anns_turn, in_stock_round, private_step
from test_web_browser import (
    ARTIFACTS,
    WAIT_MS,
    Errors,
    at_index,
    browser,
    import_game,
    server,
    wait_until,
)
from tresham.core.game import Game

__all__ = ["browser", "server"]  # the fixtures this module uses from the table's tests


def test_standing_orders_at_two_tables(browser: Any, server: ServerProcess) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    made = httpx.post(
        f"{server.url}/api/games",
        json={"title": "1849", "players": ["Ann", "Bob", "Cid"], "seed": 7},
        timeout=30,
    )
    assert made.status_code == 201, made.text
    game_id = made.json()["id"]
    tokens = {s["player"]: s["token"] for s in made.json()["seats"]}
    client = httpx.Client(base_url=server.url, timeout=30)
    errors = Errors()

    def table(seat: str) -> Any:
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        page = errors.watch(context.new_page())
        page.goto(f"{server.url}/games/{game_id}#seat={tokens[seat]}")
        page.wait_for_selector("#orders-box:not([hidden])", timeout=WAIT_MS)
        return page

    ann, bob = table("Ann"), table("Bob")
    for page, player in ((ann, "Ann"), (bob, "Bob")):
        wait_until(
            page, f"document.getElementById('orders-title').textContent.includes('{player}')"
        )
        page.click("#orders-title")

    # Ann: auto-pass, by its box
    ann.check("#order-auto-pass")
    wait_until(ann, "document.querySelectorAll('#orders-list .order-on').length === 1")
    assert ann.inner_text("#orders-list .order-on").startswith(
        "Pass whenever Pass is my only choice"
    )
    assert "(1 on)" in ann.inner_text("#orders-title")
    mine = client.get(f"/api/games/{game_id}/seat/orders", headers=auth(tokens["Ann"])).json()
    assert [o["kind"] for o in mine["orders"]] == ["auto-pass"]
    theirs = client.get(f"/api/games/{game_id}/seat/orders", headers=auth(tokens["Bob"])).json()
    assert theirs["orders"] == []  # Bob's panel shows Bob's orders only
    assert bob.locator("#orders-list .order-on").count() == 0

    # Bob: buy-until, by its form, then cancelled by its button
    bob.select_option("#order-buy-corp", "AFG")
    bob.fill("#order-buy-percent", "40")
    bob.click("#order-buy-add")
    wait_until(bob, "document.querySelectorAll('#orders-list .order-on').length === 1")
    assert bob.inner_text("#orders-list .order-on").startswith(
        "Buy a share of AFG at each stock-round turn until I hold 40%"
    )
    ann.locator("#orders-box").screenshot(path=str(ARTIFACTS / "orders-ann.png"))
    bob.screenshot(path=str(ARTIFACTS / "orders-bob.png"))
    bob.click("#orders-list .order-cancel")
    wait_until(bob, "document.querySelectorAll('#orders-list .order-on').length === 0")
    assert "Ended: Buy a share of AFG" in bob.inner_text("#orders-list")
    assert "cancelled by Bob" in bob.inner_text("#orders-list")

    # the game goes on (every seat's other moves posted for it): Ann never has to click Pass
    rng = random.Random(1)
    while True:
        state = client.get(f"/api/games/{game_id}").json()
        entries = client.get(f"/api/games/{game_id}/log").json()["entries"]
        if any(e["order"] for e in entries):
            break
        player = state["acting_player"]
        legal = client.get(f"/api/games/{game_id}/legal", headers=auth(tokens[player])).json()
        if player == "Ann":
            assert [a["type"] for a in legal["actions"]] != ["pass"]
        assert len(entries) < 300, "Ann's order never had a turn to take"
        answer = client.post(
            f"/api/games/{game_id}/actions",
            json={"index": legal["index"], "action": rng.choice(legal["actions"])},
            headers=auth(tokens[player]),
        )
        assert answer.status_code == 200, answer.text
    index = client.get(f"/api/games/{game_id}").json()["index"]
    for page in (ann, bob):
        at_index(page, index)
        heads = page.locator("#log .entry-head").all_inner_texts()
        assert any(h.startswith("Ann") and h.endswith("(standing order)") for h in heads), heads
    ann.screenshot(path=str(ARTIFACTS / "orders-log.png"))
    assert errors.seen == []


@pytest.mark.parametrize(
    ("kind", "where", "words"),
    [
        ("pass-privates", private_step, "Pass when my only choice is to buy a private"),
        ("pass-round", in_stock_round, "Pass for the rest of stock round "),
    ],
)
def test_an_order_ticked_at_the_table_acts_for_its_seat_at_once(
    browser: Any, server: ServerProcess, kind: str, where: Callable[[Game], bool], words: str
) -> None:
    game = anns_turn(where)
    game_id, tokens = import_game(server, game)
    index = len(game.actions)
    errors = Errors()
    pages = {}
    for seat in ("Ann", "Bob"):
        context = browser.new_context(viewport={"width": 1366, "height": 768})
        page = errors.watch(context.new_page())
        page.goto(f"{server.url}/games/{game_id}#seat={tokens[seat]}")
        page.wait_for_selector("#orders-box:not([hidden])", timeout=WAIT_MS)
        at_index(page, index)
        pages[seat] = page
    ann = pages["Ann"]
    ann.click("#orders-title")
    ann.check(f"#order-{kind}")
    for page in pages.values():  # Ann's pass, made by the order, at both tables
        at_index(page, index + 1)
        entry = page.locator(f'#log li.entry[data-entry="{index}"] .entry-head')
        assert entry.inner_text().endswith("(standing order)"), entry.inner_text()
    if kind == "pass-privates":  # it stays, for the next private step
        wait_until(ann, "document.querySelectorAll('#orders-list .order-on').length === 1")
        assert ann.inner_text("#orders-list .order-on").startswith(words)
    else:  # listed with its stock round until that round is over
        assert words in ann.inner_text("#orders-box")
    ann.locator("#orders-box").screenshot(path=str(ARTIFACTS / f"orders-{kind}.png"))
    assert errors.seen == []
