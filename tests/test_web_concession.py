"""1883 §5.6 and §6.12 at the table, in Chromium at 1366x768: a Government Concession bought by
its button shows on the line under its holder's row (the places to join, the operating rounds
left, the penalty), and from the round before its last the line is a warning in red, the
concessions table marks the last round and the log has said so; the seat to act is offered a
Political Support card with its price and use (§5.5). The positions are an easy-bot
game (seed 0) whose corporation buys the first concession offered.
"""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

import test_web_browser as web
from conftest_server import ServerProcess
from test_web_browser import ARTIFACTS, Errors, at_index
from test_web_consequences import open_seat
from tresham.core.game import Game
from tresham.io.save import new_game
from tresham.server.bots import bot_action
from tresham.titles.t1883.actions import BuyConcession
from tresham.titles.t1883.state import state_of

server = web.server
browser = web.browser

PLACES = "Casalecchio \N{EN DASH} Bazzano \N{EN DASH} Vignola"


def played(until_warned: bool) -> Game:
    """Seed 0 by easy bots, up to the first concession offered (`until_warned` false), or on
    past its purchase to the first position where it has one operating round left."""
    game = new_game("1883", ["Ann", "Bob", "Cid"], 0)
    while len(game.actions) < 400:
        offered = [a for a in game.legal_actions() if isinstance(a, BuyConcession)]
        held = state_of(game).concessions.status.values()
        if offered and not until_warned:
            return game
        if until_warned and any(s.owner is not None and s.due == 1 for s in held):
            return game
        game.apply(offered[0] if offered else bot_action(game, len(game.actions), "easy"))
    raise AssertionError("the position was not reached")


def test_a_concession_shows_its_holder_deadline_and_penalty(
    browser: Any, server: ServerProcess
) -> None:
    game = played(until_warned=False)
    errors = Errors()
    page = open_seat(browser, server, game, errors)
    button = page.locator(".act-buy_concession", has_text="Government Concession 1 for")
    button.first.wait_for()
    corp = button.first.inner_text().split(" for ")[1].split(" ")[0]
    assert page.locator(f'#corporations tr.holds-row[data-holds-of="{corp}"]').count() == 0
    button.first.click()
    at_index(page, len(game.actions) + 1)
    held = page.locator(f'#corporations tr.holds-row[data-holds-of="{corp}"]')
    assert held.inner_text().strip() == (
        f"Government Concession 1: join {PLACES} within 2 operating rounds, or pay L.30"
    )
    assert held.locator(".holds-warning").count() == 0
    row = page.locator('#title-tables [data-table="concessions"] tbody tr').first
    assert row.inner_text().split("\t")[4:] == [corp, "2", "L.30"]
    page.locator("#corporations").screenshot(path=str(ARTIFACTS / "concession-held.png"))
    page.close()
    assert errors.seen == []


def test_the_last_round_of_a_concession_is_warned_in_red(
    browser: Any, server: ServerProcess
) -> None:
    game = played(until_warned=True)
    status = state_of(game).concessions.status["1"]
    corp = status.owner
    assert corp is not None and status.due == 1
    errors = Errors()
    page = open_seat(browser, server, game, errors)
    # §5.5: a Political Support card says its price and what it is for
    support = page.locator(".act-buy_support").inner_text()
    assert support.startswith(
        "Buy a Political Support card for L.10 (you hold 1): play it against a Random Event, "
        "or to pay a concession's bonus to the shareholders"
    ), support
    warning = page.locator(f'#corporations tr.holds-row[data-holds-of="{corp}"] .holds-warning')
    assert warning.inner_text() == (
        f"\N{WARNING SIGN} Government Concession 1: the next operating round is the last to "
        f"join {PLACES}; if not, {corp} pays L.30 at its end"
    )
    # the table may draw the row again after a push; the check waits for the row drawn last
    expect(warning).to_have_css("color", "rgb(176, 0, 32)")
    row = page.locator('#title-tables [data-table="concessions"] tbody tr').first
    assert row.inner_text().split("\t")[4:] == [corp, "1 (the last)", "L.30"]
    said = page.locator("#log li.entry", has_text="has one operating round left to join")
    assert said.count() == 1 and corp in said.inner_text()
    page.locator("#corporations").screenshot(path=str(ARTIFACTS / "concession-warned.png"))
    page.locator("#title-tables").screenshot(path=str(ARTIFACTS / "concession-table.png"))
    page.close()
    assert errors.seen == []
