"""1883 §8.1.6 at the table, in Chromium at 1366x768: the Co-operative's president is offered
the loot with its consequence in words (the revenue taken, the share sold to the pool for
half its value, the presidency left for good), and after the click the table shows it: the
log says the president is ousted, the looter no longer holds a CCFR share and the pool does.
The position is a recorded 1883 game (tests/data/save_samples) just before a loot.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import test_web_browser as web
from conftest_server import ServerProcess
from test_web_browser import ARTIFACTS, Errors, at_index, import_game
from tresham.io.save import load

server = web.server
browser = web.browser

SAMPLE = Path(__file__).resolve().parent / "data" / "save_samples" / "1883-r1-s5-v1.json"


def before_the_loot() -> int:
    """The index of the sample's first loot."""
    actions = json.loads(SAMPLE.read_text())["actions"]
    looted = [n for n, a in enumerate(actions) if a.get("choice") == "loot"]
    assert looted, "the sample holds no loot"
    return looted[0]


def test_the_loot_says_it_ousts_the_president(browser: Any, server: ServerProcess) -> None:
    game = load(SAMPLE, upto=before_the_loot())
    looter = game.acting_player()
    assert looter is not None
    game_id, tokens = import_game(server, game)
    errors = Errors()
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(f"{server.url}/games/{game_id}#seat={tokens[looter]}")
    at_index(page, len(game.actions))
    loot = page.locator(".act-choose", has_text="Loot CCFR")
    loot.wait_for()
    words = loot.inner_text()
    assert "yourself" in words and "to the pool" in words
    assert "leave the presidency for good" in words
    page.locator("#actions").screenshot(path=str(ARTIFACTS / "loot-offer.png"))
    before = page.locator("#players tr", has_text=looter).first.inner_text()
    assert "CCFR" in before
    loot.click()
    at_index(page, len(game.actions) + 1)
    logged = page.locator(f'#log li.entry[data-entry="{len(game.actions)}"]')  # 0-based
    logged.wait_for(state="attached")
    entry = logged.inner_text()
    assert f"{looter} loots CCFR" in entry and "ousted" in entry, entry
    after = page.locator("#players tr", has_text=looter).first.inner_text()
    assert "CCFR" not in after, after
    pool = page.locator('#corporations tr[data-corp="CCFR"]').inner_text()
    assert "· 10%" in pool or "· 20%" in pool, pool
    page.screenshot(path=str(ARTIFACTS / "loot-done.png"))
    page.close()
    assert errors.seen == []
