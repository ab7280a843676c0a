"""Standing orders at the table, in Chromium, with two people online (issue 36): Ann sets
"auto-pass" in her panel and is never asked to click where Pass is her only choice (her log
says "(standing order)"); Bob, at his own table, adds a buy-until order by its form, sees it
listed in words, and cancels it by its button; each sees only their own orders."""

from __future__ import annotations

import random
from typing import Any

import httpx

from conftest_server import ServerProcess, auth
from test_web_browser import ARTIFACTS, WAIT_MS, Errors, at_index, browser, server, wait_until

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
