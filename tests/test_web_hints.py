"""Hints at the browser table (server/hints.py, web/table.js): in a game whose creator allowed
hints, the seat to act has a Hint button; the hint is shown in words with the next best
choices, its tile lay drawn on the map as a lay being chosen is (the tile previewed on its hex)
with the hex outlined; a watcher has no button and sees "Ann asked for a hint" in the log, live.
A finished game's review page shows its progress, then each player's decisions. Screenshots
at 1366x768 go to tests/artifacts/hint.png and review.png.

The server and browser fixtures are those of test_web_browser.py.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import httpx

import test_web_browser as web
from conftest_server import ServerProcess, auth
from test_web_browser import ARTIFACTS, WAIT_MS, Errors, wait_until
from tresham.bots.heuristic import MEDIUM
from tresham.bots.hints import hint
from tresham.io.save import new_game
from tresham.words import Words

server = web.server
browser = web.browser

PLAYERS = ["Ann", "Bob", "Cid"]
SAMPLES = Path(__file__).parent / "data" / "save_samples"


def test_a_hint_is_shown_in_words_and_drawn_on_the_map(browser: Any, server: ServerProcess) -> None:
    """1849, seed 3, after 60 moves of `medium`: the operating corporation's hint is a tile lay
    (the engine's own hint, bots/hints.py), drawn on its hex."""
    answer = httpx.post(
        f"{server.url}/api/games",
        json={"title": "1849", "players": PLAYERS, "seed": 3, "hints": True},
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    tokens = {s["player"]: s["token"] for s in answer.json()["seats"]}
    game = new_game("1849", PLAYERS, 3)
    with httpx.Client(base_url=server.url, timeout=30) as client:
        for i in range(60):
            action = MEDIUM.decide(game, random.Random(i))[0]
            player = game.acting_player()
            assert player is not None
            posted = client.post(
                f"/api/games/{game_id}/actions",
                json={"index": i, "action": action.to_json()},
                headers=auth(tokens[player]),
            )
            assert posted.status_code == 200, posted.text
            game.apply(action)
    expected = hint(game)
    lay = expected.suggestion.action.to_json()
    assert lay["type"] == "lay_tile"
    player = game.acting_player()
    assert player is not None
    errors = Errors()
    watcher = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    watcher.goto(f"{server.url}/games/{game_id}")
    web.at_index(watcher, 60)
    assert watcher.locator("#hint-button").count() == 0  # no seat: no hint
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(f"{server.url}/games/{game_id}#seat={tokens[player]}")
    web.at_index(page, 60)
    page.wait_for_selector("#hint-button", timeout=WAIT_MS)
    assert page.locator(".hint-mark, #board .hex.preview").count() == 0
    page.click("#hint-button")
    page.wait_for_selector("#hint-box.hint", timeout=WAIT_MS)
    words = Words(game)
    shown = page.locator("#hint-box").inner_text()
    assert expected.suggestion.text in shown and "Next best:" in shown
    assert "the best rival by L." in shown
    for alt in expected.alternatives:
        assert alt.text in shown
    # drawn on the map: the tile previewed on its hex at its rotation, the hex outlined
    hexes = page.locator(f'#board .hex.preview[data-hex="{lay["hex"]}"]')
    assert hexes.count() == 1
    assert page.locator(f'#board .hint-mark[data-hex="{lay["hex"]}"] polygon').count() == 1
    page.screenshot(path=str(ARTIFACTS / "hint.png"))
    # every player sees that a hint was shown: in the log, live, for the watcher too
    note = f"{player} asked for a hint"
    for seen in (page, watcher):
        wait_until(
            seen,
            "[...document.querySelectorAll('#log li.log-note')]"
            f".some((li) => li.textContent === {note!r})",
        )
    state = httpx.get(f"{server.url}/api/games/{game_id}").json()
    assert state["index"] == 60 and state["state_hash"] == game.state_hash()
    assert words.text(expected.suggestion.action) == expected.suggestion.text
    # the hint goes when the position changes: acted on, no hint is left on the map
    page.click("#hint-box .hint-close")
    page.wait_for_selector("#hint-button", timeout=WAIT_MS)
    assert page.locator(".hint-mark").count() == 0
    assert errors.seen == []
    page.close()
    watcher.close()


def test_no_hint_button_where_hints_are_off(browser: Any, server: ServerProcess) -> None:
    answer = httpx.post(
        f"{server.url}/api/games", json={"title": "1849", "players": PLAYERS, "seed": 3}, timeout=30
    )
    game_id = answer.json()["id"]
    tokens = {s["player"]: s["token"] for s in answer.json()["seats"]}
    state = httpx.get(f"{server.url}/api/games/{game_id}").json()
    errors = Errors()
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(f"{server.url}/games/{game_id}#seat={tokens[state['acting_player']]}")
    web.at_index(page, 0)
    page.wait_for_selector("#actions .act, #actions button", timeout=WAIT_MS)
    assert page.locator("#hint-button").count() == 0
    assert errors.seen == []
    page.close()


def test_a_finished_games_review_page(browser: Any, server: ServerProcess) -> None:
    """A finished 1883 game (272 actions): the game-over box links to its review, whose page
    shows how far the review is, then each player's decisions in words, as the API has them."""
    save = json.loads((SAMPLES / "1883-r2-s5-v1.json").read_text())
    imported = httpx.post(f"{server.url}/api/games/import", json=save, timeout=60)
    assert imported.status_code == 201, imported.text
    game_id = imported.json()["id"]
    errors = Errors()
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(f"{server.url}/games/{game_id}")
    page.wait_for_selector("#review-link", timeout=WAIT_MS)
    page.click("#review-link")
    page.wait_for_selector("#review-bar", timeout=WAIT_MS)
    page.wait_for_selector(".review-player", timeout=180_000)
    answer = httpx.get(f"{server.url}/api/games/{game_id}/review", timeout=30).json()
    assert answer["status"] == "done"
    players = answer["review"]["players"]
    assert page.locator(".review-player").count() == len(players)
    assert page.locator("#review-progress").is_hidden()
    for player, missed in players.items():
        section = page.locator(f'.review-player[data-player="{player}"]')
        rows = section.locator("tr.review-row")
        assert rows.count() == len(missed)
        for i, m in enumerate(missed):
            text = rows.nth(i).inner_text()
            assert m["chosen"] in text and m["best"] in text and f"+{m['gain_text']}" in text
    page.screenshot(path=str(ARTIFACTS / "review.png"))
    assert errors.seen == []
    page.close()
