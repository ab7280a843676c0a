"""Decisions whose consequence is not in their price, at the table in Chromium at 1366x768
(issue 36): what a player reads before the click, and what the table shows after it.

- The presidency swap (1849 ruling R23): the outgoing president is told who took the
  presidency and what was handed over, and each answer says what it exchanges and with whom;
  a watcher reads, in the third person, who is asked what, and why;
  after the answer, the log says which certificates the outgoing president kept.
- A presidency changing hands by the exchange of certificates, in every title: the log at the
  table names the new and the old president and what each hands the other.
- A sale that closes a corporation (1849 §Trouble: the price enters "Closed"; 1883 §5.8), and
  with it the privates it owns: the sale's button warns, apart from its price, and names what
  is lost (the treasury, the trains, the other holders' shares, the private); after the click
  the log says it closed.

Each position is a game of random moves up to the first such decision (the search is
bounded and fails if it finds none)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from conftest_server import ServerProcess
from test_web_browser import ARTIFACTS, Errors, at_index, browser, import_game, server
from tresham.bots.random_bot import choose
from tresham.core.actions import Action, SellShares
from tresham.core.game import Game
from tresham.io.save import new_game
from tresham.titles.t1849.state import state_of
from tresham.words import Words

__all__ = ["browser", "server"]  # the fixtures this module uses from the table's tests

PLAYERS = {"1849": ["Ann", "Bob", "Cid"], "1883": ["Ann", "Bob", "Cid", "Dan"]}
PLAYERS["1854"] = PLAYERS["1883"]
#: A presidency handed over by the certificate exchange, in the log (1854: the Director, §6).
EXCHANGE = re.compile(r"^(\w+) becomes (president|Director) of (\w+): \1 hands (\w+) (.+)$")


def random_game_until(
    title: str, found: Callable[[Game], Any], seeds: range, moves: int = 1500
) -> tuple[Game, Any]:
    """The first position of a game of random moves (seeds tried in turn) where `found`
    gives something, and what it gave."""
    for seed in seeds:
        game = new_game(title, PLAYERS[title], seed)
        rng = random.Random(seed)
        for _ in range(moves):
            if game.state.finished:
                break
            if (what := found(game)) is not None:
                return game, what
            game.apply(choose(game, rng))
    raise AssertionError(f"no such position in {title} games of seeds {seeds}")


def open_seat(browser: Any, server: ServerProcess, game: Game, errors: Errors) -> Any:
    """The acting seat's table of `game`, imported, at 1366x768."""
    game_id, tokens = import_game(server, game)
    seat = game.acting_player()
    assert seat is not None
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(f"{server.url}/games/{game_id}#seat={tokens[seat]}")
    at_index(page, len(game.actions))
    return page


def logged(page: Any, index: int) -> str:
    """The log entry at `index` (0-based), once shown."""
    entry = page.locator(f'#log li.entry[data-entry="{index}"]')
    entry.wait_for(state="attached")
    text: str = entry.inner_text()
    return text


def swap_asked(game: Game) -> bool | None:
    s = game.state
    return True if s.pending and s.pending[0][0] == "swap" else None


def test_the_presidency_swap_says_what_is_exchanged_and_with_whom(
    browser: Any, server: ServerProcess
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    game, _ = random_game_until("1849", swap_asked, range(9, 40))
    old, sym = game.acting_player(), state_of(game).swap_corp
    assert sym is not None
    new = game.state.shares.president[sym]
    assert old is not None and new is not None and new != old
    errors = Errors()
    page = open_seat(browser, server, game, errors)
    turn = page.inner_text("#actions p.turn")
    assert turn.startswith(f"{old} to act: {new} now holds more of {sym} than you"), turn
    assert "president's certificate (20%) for the 20% last certificate" in turn
    keep = page.locator(".act-choose", has_text="Keep the 20% last certificate")
    two = page.locator(".act-choose", has_text="two of")
    assert keep.inner_text() == (
        f"Keep the 20% last certificate of {sym} that {new} gave you for the president's "
        "certificate"
    )
    assert two.inner_text() == (
        f"Give {new} the 20% last certificate of {sym} back for two of {new}'s 10% certificates"
    )
    assert "One 20% cert" not in page.inner_text("#actions")
    page.locator("#actions").screenshot(path=str(ARTIFACTS / "swap-asked.png"))
    # a watcher sees why the table waits: who took the presidency, and what is chosen
    watcher = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    watcher.goto(page.url.split("#", 1)[0])
    at_index(watcher, len(game.actions))
    waiting = watcher.inner_text("#actions p.waiting")
    assert waiting.startswith(
        f"{old} to act. {new} took the presidency of {sym} and handed {old} the 20% last "
        f"certificate for the president's certificate: {old} keeps it or takes two 10% "
        "certificates instead."
    ), waiting
    assert " you" not in waiting, waiting
    watcher.close()
    held = page.locator("#players tr", has_text=str(old)).first.inner_text()
    two.click()
    at_index(page, len(game.actions) + 1)
    entry = logged(page, len(game.actions))
    assert f"{old} takes two 10% certificates of {sym} instead of the 20%" in entry, entry
    assert page.locator(".act-choose", has_text="last certificate").count() == 0
    # the same holding, in other certificates
    assert page.locator("#players tr", has_text=str(old)).first.inner_text() == held
    page.screenshot(path=str(ARTIFACTS / "swap-answered.png"))
    page.close()
    assert errors.seen == []


@pytest.mark.parametrize("title", ["1849", "1854", "1883"])
def test_a_presidency_exchange_is_told_in_the_log_at_the_table(
    browser: Any, server: ServerProcess, title: str
) -> None:
    """A random game (seeds tried in turn) up to the first move after which a presidency
    changed hands by the exchange: its log entry at the table says who hands whom what."""
    found = None
    for seed in range(12):
        game = new_game(title, PLAYERS[title], seed)
        rng = random.Random(seed)
        while found is None and not game.state.finished and len(game.actions) < 600:
            before = len(game.state.events)
            game.apply(choose(game, rng))
            found = next((m for m in map(EXCHANGE.match, game.state.events[before:]) if m), None)
        if found is not None:
            break
    assert found is not None, f"no presidency exchange in {title}'s random games"
    new, _role, corp, old, _given = found.groups()
    assert new != old and corp in game.state.corps
    errors = Errors()
    game_id, _tokens = import_game(server, game)
    page = errors.watch(browser.new_page(viewport={"width": 1366, "height": 768}))
    page.goto(f"{server.url}/games/{game_id}")
    at_index(page, len(game.actions))
    entry = logged(page, len(game.actions) - 1)
    assert found[0] in entry, entry
    page.locator(f'#log li.entry[data-entry="{len(game.actions) - 1}"]').screenshot(
        path=str(ARTIFACTS / f"presidency-exchange-{title}.png")
    )
    page.close()
    assert errors.seen == []


def closing_sale(private: bool) -> Callable[[Game], tuple[Action, tuple[str, ...]] | None]:
    """A sale listed now whose warnings say a corporation closes (`private`: and a private
    with it), and its warnings."""

    def found(game: Game) -> tuple[Action, tuple[str, ...]] | None:
        sales = [a for a in game.legal_actions() if isinstance(a, SellShares)]
        words = Words(game)
        for sale in sales:
            warnings = words.consequences(sale)[1]
            closes = any(w.startswith(f"{sale.corporation} closes") for w in warnings)
            if closes and (not private or any(w.startswith("The private") for w in warnings)):
                return sale, warnings
        return None

    return found


def test_a_sale_that_closes_a_corporation_warns_before_the_click(
    browser: Any, server: ServerProcess
) -> None:
    """1883 §5.8: the sale's button is marked and says, apart from the money, that the
    corporation closes and what goes with it; the log says so after the click."""
    game, (sale, warnings) = random_game_until("1883", closing_sale(False), range(0, 20))
    sym = sale.corporation
    errors = Errors()
    page = open_seat(browser, server, game, errors)
    words = Words(game).text(sale)
    button = page.locator(".act-sell_shares", has_text=words)
    assert button.count() == 1
    assert "act-grave" in str(button.get_attribute("class"))
    shown = button.locator(".act-warning").all_inner_texts()
    assert shown == [f"\N{WARNING SIGN} {w}" for w in warnings]
    closes = f'{sym} closes: its share price enters the "Closed" section (5.8)'
    assert shown[0].startswith(f"\N{WARNING SIGN} {closes}. Lost with it: its ")
    others = [b for b in page.locator(".act-sell_shares").all() if b.inner_text() != words]
    assert all(b.locator(".act-warning").count() == 0 for b in others if sym not in b.inner_text())
    page.locator("#actions").screenshot(path=str(ARTIFACTS / "closing-sale.png"))
    button.click()
    at_index(page, len(game.actions) + 1)
    entry = logged(page, len(game.actions))
    assert f"{sym} closes" in entry, entry
    page.close()
    assert errors.seen == []


def test_a_sale_that_closes_a_private_with_its_corporation_says_so(
    browser: Any, server: ServerProcess
) -> None:
    """1849 §Trouble: a sale that moves the price into "Closed" closes the corporation and
    the privates it owns; both are said on the button, by the private's name."""
    game, (sale, warnings) = random_game_until("1849", closing_sale(True), range(0, 20))
    owned = [
        co for co in game.state.companies.values() if co.owner == sale.corporation and not co.closed
    ]
    assert owned
    errors = Errors()
    page = open_seat(browser, server, game, errors)
    button = page.locator(".act-sell_shares", has_text=Words(game).text(sale))
    shown = button.locator(".act-warning").all_inner_texts()
    for co in owned:
        assert f"\N{WARNING SIGN} The private {co.name} ({co.sym}) closes" in shown, shown
    assert any(w.startswith(f"\N{WARNING SIGN} {sale.corporation} closes") for w in shown)
    assert len(shown) == len(warnings)
    # the corporation's privates, by name, on the line under its row; the table fits its box
    held = page.locator(f'#corporations tr.holds-row[data-holds-of="{sale.corporation}"]')
    names = ", ".join(f"{co.name} ({co.sym})" for co in owned)
    assert held.inner_text().strip() == f"Privates: {names}"
    box = "document.querySelector('#corporations .scroll')"
    assert page.evaluate(f"{box}.scrollWidth <= {box}.clientWidth")
    page.locator("#actions").screenshot(path=str(ARTIFACTS / "closing-sale-private.png"))
    button.click()
    at_index(page, len(game.actions) + 1)
    entry = logged(page, len(game.actions))
    assert f"{sale.corporation} closes" in entry, entry
    assert held.count() == 0
    page.close()
    assert errors.seen == []
