"""1854 §5.12 mail contracts at the table, in Chromium at 1366x768 (issue 36): the purchase
says what the contract earns now and at its best, and that it is kept; after the click the
company's row of the corporations table shows the contract and what it collects a turn, the
mail-contract table lists who holds which with the income by phase, and at the company's
next turn the log shows the money collected. The position is a recorded 1854 game
(tests/data/save_samples) just before its first mail contract; after the click the game goes
on with the recorded moves, posted by their seats."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest_server import ServerProcess, auth
from test_web_browser import ARTIFACTS, Api, Errors, at_index, browser, import_game, server
from tresham.io.save import load

__all__ = ["browser", "server"]  # the fixtures this module uses from the table's tests

SAMPLE = Path(__file__).resolve().parent / "data" / "save_samples" / "1854-r1-s6-v1.json"


def test_a_mail_contract_says_what_it_earns_and_who_holds_it(
    browser: Any, server: ServerProcess
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    actions = json.loads(SAMPLE.read_text())["actions"]
    first = next(n for n, a in enumerate(actions) if a["type"] == "buy_mail_contract")
    bought = actions[first]
    corp, cost = bought["entity"], bought["cost"]
    game = load(SAMPLE, upto=first)
    seat = game.acting_player()
    assert seat is not None and game.active_entity() == corp
    game_id, tokens = import_game(server, game)
    errors = Errors()
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(f"{server.url}/games/{game_id}#seat={tokens[seat]}")
    at_index(page, first)
    assert page.inner_text("#actions p.turn") == f"{corp} ({seat}) to act: Mail contract"
    button = page.locator(".act-buy_mail_contract", has_text=f"{cost} G mail contract")
    words = button.locator(".act-text").inner_text()
    assert words == (
        f"Buy a {cost} G mail contract: {corp} collects 10 G at the start of each turn in this "
        "phase (up to 60 G later), and keeps it for good (6 left in the bank)"
    )
    row = page.locator(f'#corporations tr[data-corp="{corp}"]')
    assert "mail" not in row.inner_text()
    assert page.locator('#title-tables [data-table="mail"]').count() == 0  # none held yet
    page.locator("#actions").screenshot(path=str(ARTIFACTS / "mail-offer.png"))
    button.click()
    at_index(page, first + 1)
    held = page.locator(f'#corporations tr.holds-row[data-holds-of="{corp}"]')
    assert held.inner_text().strip() == (
        f"Mail contract of {cost} G: collects 10 G at the start of each turn"
    )
    assert page.locator("#corporations tr.holds-row").count() == 1  # only the holder's
    table = page.locator('#title-tables [data-table="mail"]')
    assert table.locator("tr", has_text=corp).inner_text().split("\t") == [corp, "100 G", "10 G"]
    note = table.locator(".note").inner_text()
    assert "by phase (2/3/4/5/6/8): 100 G: 10/20/20/40/40/60; 200 G: 20/30/30/50/50/80" in note
    assert "Left in the bank: 5 of 100 G, 6 of 200 G." in note
    page.locator("#corporations").screenshot(path=str(ARTIFACTS / "mail-held.png"))
    box = "document.querySelector('#corporations .scroll')"
    assert page.evaluate(f"{box}.scrollWidth <= {box}.clientWidth")  # no scroll bar at 1366
    table.screenshot(path=str(ARTIFACTS / "mail-table.png"))
    # the game goes on with its recorded moves up to the company's next turn
    api = Api(server.url, game_id, tokens)
    collected = None
    for index in range(first + 1, len(actions)):
        player = api.state()["acting_player"]
        answer = api.client.post(
            f"/api/games/{game_id}/actions",
            json={"index": index, "action": actions[index]},
            headers=auth(tokens[player]),
        )
        assert answer.status_code == 200, answer.text
        events = api.client.get(f"/api/games/{game_id}/log?since={index}").json()["entries"]
        if any(e.startswith(f"{corp} collects") for e in events[0]["events"]):
            collected = index
            break
    assert collected is not None, f"{corp} never had another turn"
    # the table has drawn each of those moves as it came: give it time to draw them all
    page.wait_for_selector(f'#status[data-index="{collected + 1}"]', timeout=90_000)
    entry = page.locator(f'#log li.entry[data-entry="{collected}"]')
    entry.wait_for(state="attached")
    assert f"{corp} collects 10 G from its mail contract" in entry.inner_text()
    page.close()
    assert errors.seen == []
