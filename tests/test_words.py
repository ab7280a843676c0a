"""Every legal action in a player's words, with its consequences (tresham/words.py; issue
"The table players expect": "every decision with its consequence, in words a player uses").

Positions come from seeded games of the easy bot; what the words say is checked against
facts found another way: the board's printed terrain costs, the revenue being paid, the
title's currency, the towns' names."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from tresham.bots.players import get_bot
from tresham.core.actions import (
    Action,
    Bid,
    BuyCompany,
    BuyTrain,
    Dividend,
    LayTile,
    Par,
    Pass,
    RunRoutes,
    SellShares,
)
from tresham.core.end import EndReason
from tresham.core.game import Game
from tresham.core.rounds.operating import OperatingRound
from tresham.server.bots import bot_action
from tresham.sim import new_game
from tresham.words import Words, end_words, round_label


def play_until(
    title: str, found: Callable[[Game, list[Action]], bool], seed: int = 5, limit: int = 3000
) -> tuple[Game, list[Action]]:
    """A seeded game of easy bots, up to the first position whose legal actions satisfy
    `found`."""
    game = new_game(title, ["Ann", "Bob", "Cid"], seed, None)
    bot = get_bot("easy")
    for n in range(limit):
        actions = game.legal_actions()
        if found(game, actions):
            return game, actions
        game.apply(bot.choose(game, random.Random(n)))
    raise AssertionError(f"no such position in {limit} actions")


def test_the_cheapest_private_is_bought_the_others_bid_on() -> None:
    """1849 summary, the private auction: the cheapest private is bought at its price, the
    others are bid on; the table offers the first as a purchase, not a bid."""
    game, actions = play_until("1849", lambda g, a: any(isinstance(x, Bid) for x in a))
    words = Words(game)
    bids = [a for a in actions if isinstance(a, Bid)]
    cheapest = [a for a in bids if a.company == "SCE"]
    assert [words.text(a) for a in cheapest] == ["Buy SCE for L.20"]
    other = next(a for a in bids if a.company != "SCE")
    assert words.text(other) == f"Bid L.{other.price} on {other.company}"
    assert words.text(next(a for a in actions if isinstance(a, Pass))) == (
        "Pass (the auction goes on)"
    )
    # the table tells the purchase from the bids by this fact, not by its words
    choices = dict(zip(bids, words.choices(bids), strict=True))
    assert [a for a in bids if choices[a].buys] == cheapest
    assert all(c.label is None and c.detail is None for c in choices.values())


@pytest.mark.parametrize(
    ("title", "kind"), [("1849", Par), ("1883", Par), ("1854", BuyTrain), ("1849", BuyCompany)]
)
def test_a_priced_choice_says_its_price_apart(title: str, kind: type[Action]) -> None:
    """Where the table picks or names the price apart (a par's select, a purchase's amount),
    the choice's words come in two parts, the words without the price and the words it adds,
    that together are its text; the price is the action's, in the title's currency."""
    game, actions = play_until(title, lambda g, a: any(isinstance(x, kind) for x in a))
    words = Words(game)
    priced = [a for a in actions if isinstance(a, kind)]
    for action, choice in zip(priced, words.choices(priced), strict=True):
        assert isinstance(action, Par | BuyTrain | BuyCompany)
        assert choice.label is not None and choice.detail is not None
        assert f"{choice.label} {choice.detail}" == choice.text
        assert game.title.money(action.price) in choice.detail
        assert game.title.money(action.price) not in choice.label
        assert not choice.buys


def first_lay_on_terrain(title: str) -> tuple[Game, LayTile]:
    """The first position of a seeded game where a corporation may build on a hex with a
    printed terrain cost, and such a lay."""

    def costly(g: Game, actions: list[Action]) -> bool:
        return any(on_terrain(g, a) for a in actions)

    game, actions = play_until(title, costly)
    lay = next(a for a in actions if isinstance(a, LayTile) and on_terrain(game, a))
    return game, lay


def on_terrain(game: Game, action: Action) -> bool:
    """Whether `action` lays the first tile on a hex with a printed terrain cost."""
    return (
        isinstance(action, LayTile)
        and game.state.map.board.hexes[action.hex].terrain_cost > 0
        and action.hex not in game.state.map.tiles
    )


@pytest.mark.parametrize("title", ["1849", "1883", "1854"])
def test_a_lay_shows_its_cost_before_it_is_made(title: str) -> None:
    """1849 §OR Lay track, 1883 §6.4.1, 1854 §5.3: a lay on a hex with terrain costs money;
    the choice says who pays how much before the lay, and it is what the lay then costs
    (as the game's log says once it is made)."""
    game, lay = first_lay_on_terrain(title)
    (choice,) = Words(game).choices([lay])
    board = game.state.map.board
    assert choice.text == f"Lay tile {lay.tile} on {board.place(lay.hex)}"
    after = game.clone()
    seen = len(after.state.events)
    after.apply(lay)
    (line,) = [e for e in after.state.events[seen:] if " lays tile " in e]
    cost = line.rsplit(" for ", 1)[1]
    if cost == game.title.money(0):
        assert not any(e.startswith(f"{lay.entity} pays") for e in choice.effects)
    else:
        assert any(e.startswith(f"{lay.entity} pays {cost} (") for e in choice.effects)


def test_1849_narrow_track_costs_a_quarter_of_the_terrain() -> None:
    """1849 §OR Lay track: terrain is paid on every lay, in full when standard or dual track
    is added, a quarter when only narrow track is: tile 73 (narrow) on Piazza Armerina
    (I9, L.160) costs L.40, and the choice says so before the lay."""
    game, lay = first_lay_on_terrain("1849")
    assert (lay.hex, lay.tile) == ("I9", "73")
    assert game.state.map.board.hexes["I9"].terrain_cost == 160
    was = game.state.corps[lay.entity].cash
    (choice,) = Words(game).choices([lay])
    assert choice.effects == (f"{lay.entity} pays L.40 (L.{was} → L.{was - 40})",)


def test_working_out_the_consequences_changes_nothing() -> None:
    """Bad input changes nothing, and neither does looking: listing the choices of a position
    (which plays each on a copy) leaves the game's state hash as it was."""
    game, actions = play_until("1849", lambda g, a: any(isinstance(x, Dividend) for x in a))
    before = game.state_hash()
    events = list(game.state.events)
    Words(game).choices(actions)
    assert game.state_hash() == before
    assert game.state.events == events


def test_a_dividend_says_what_each_share_pays() -> None:
    """1849 §OR Dividends: paid out, the revenue is divided among the ten shares; each
    holder of a 10% share receives a tenth, and the share price moves; withheld, the
    corporation keeps it all."""

    def paying(g: Game, actions: list[Action]) -> bool:
        rnd = g.state.round
        return (
            any(isinstance(x, Dividend) for x in actions)
            and isinstance(rnd, OperatingRound)
            and (rnd.turn.revenue or 0) % 10 == 0
            and any(
                g.state.shares.percent(p.name, actions[0].entity)
                and p.name != g.state.shares.president[actions[0].entity]
                for p in g.state.players
            )
        )

    game, actions = play_until("1849", paying)
    rnd = game.state.round
    assert isinstance(rnd, OperatingRound)
    revenue = rnd.turn.revenue
    assert revenue is not None
    words = Words(game)
    by_kind = {
        a.kind: c
        for a, c in zip(actions, words.choices(actions), strict=True)
        if isinstance(a, Dividend)
    }
    assert by_kind["payout"].text == "Pay out"
    assert f"L.{revenue // 10} per 10% share" in by_kind["payout"].effects
    corp = actions[0].entity
    assert f"{corp} keeps L.{revenue}" in by_kind["withhold"].effects


def test_a_sale_says_what_it_brings_and_where_the_price_goes() -> None:
    """1849 §SR Selling: the seller receives the current price for each share, then the price
    moves down; the choice says both before the sale."""

    def selling(g: Game, actions: list[Action]) -> bool:
        in_sr = g.state.round is not None and g.state.round.kind == "stock"
        return in_sr and any(isinstance(x, SellShares) for x in actions)

    game, actions = play_until("1849", selling)
    sale = next(a for a in actions if isinstance(a, SellShares))
    price = game.state.market.price(sale.corporation)
    (choice,) = Words(game).choices([sale])
    assert choice.text == f"Sell {sale.percent}% of {sale.corporation}" + (
        " (with the last certificate)" if sale.last else ""
    )
    gain = price * sale.percent // 10
    assert any(e.startswith(f"{sale.entity} receives L.{gain} ") for e in choice.effects)
    assert any(e.startswith(f"{sale.corporation}'s share price falls") for e in choice.effects)


@pytest.mark.parametrize("title", ["1849", "1883", "1854"])
def test_runs_are_named_by_their_towns_and_trains(title: str) -> None:
    """Runs read as players say them: the train's name and the towns it runs between, never
    the engine's ids ("4H-0", "C1-0")."""
    game, actions = play_until(
        title, lambda g, a: any(isinstance(x, RunRoutes) and x.runs for x in a)
    )
    run = next(a for a in actions if isinstance(a, RunRoutes) and a.runs)
    text = Words(game).text(run)
    board = game.state.map.board
    first = run.runs[0]
    train = game.state.depot.trains[first.train]
    assert text.startswith(f"{train.variant or train.kind}: {board.town(first.stops[0][:-2])}")
    assert first.train not in text


def test_1854_counts_in_gulden_and_names_its_steps() -> None:
    """1854 counts in Gulden ("100 G"); a pass in the track step says it lays no track."""
    game, actions = play_until("1854", lambda g, a: any(isinstance(x, LayTile) for x in a))
    words = Words(game)
    assert words.step() == ("Lay track", "Lay no track")
    assert words.text(next(a for a in actions if isinstance(a, Pass))) == "Lay no track"
    costs = [e for c in words.choices(actions) for e in c.effects]
    assert costs and all(" G" in e and "L." not in e for e in costs)


def test_end_reasons_are_one_enumeration_in_words() -> None:
    """A game's end, said as players would ("a share price reached the end of the market"),
    for every reason the engine gives; the values are the strings saves and 18xx.games
    exports carry, so a reason read back from one is the same member."""
    assert end_words(EndReason.STOCK_MARKET) == "a share price reached the end of the market"
    assert end_words(None) == ""
    for reason in EndReason:
        assert reason.words and "_" not in reason.words
        assert EndReason(str(reason.value)) is reason
    assert {r.value for r in EndReason} == {
        "bank",
        "stock_market",
        "bankrupt",
        "no_play",
        "endgame",
        "dnf",
    }


def test_the_log_says_why_a_game_ended_in_words() -> None:
    game = new_game("1849", ["Ann", "Bob", "Cid"], 3)
    while not game.state.finished:
        game.apply(bot_action(game, len(game.actions), "easy"))
    reason = game.state.end_reason
    assert isinstance(reason, EndReason)
    assert game.state.events[-1] == f"Game over: {reason.words}"


# 1849 §Trouble: a sale whose price enters "Closed" closes the corporation (its treasury,
# trains and privates leave the game, its certificates are lost). The sale warns of it apart
# from its price, naming what is lost: the treasury, the trains by name, each player's shares
# (the seller's less those sold); the closing corporation is not said to "pay" its treasury.
def test_a_closing_sale_warns_of_what_is_lost() -> None:
    rng = random.Random(0)
    game = new_game("1849", ["Ann", "Bob", "Cid"], 0, None)
    found = []
    for _ in range(1500):
        words = Words(game)
        for sale in [a for a in game.legal_actions() if isinstance(a, SellShares)]:
            effects, warnings = words.consequences(sale)
            if any(w.startswith(f"{sale.corporation} closes") for w in warnings):
                found.append((game.clone(), sale, effects, warnings))
        if found or game.state.finished:
            break
        game.apply(get_bot("random").choose(game, rng))
    assert found, "no closing sale in the game"
    game, sale, effects, warnings = found[0]
    sym, s = sale.corporation, game.state
    lost = [f"its {Words(game).money(s.corps[sym].cash)}"] if s.corps[sym].cash else []
    trains = sorted(s.depot.name(t) for t in s.corps[sym].trains)
    if trains:
        lost.append(f"its train{'s' if len(trains) > 1 else ''} ({', '.join(trains)})")
    shares = []
    for p in game.player_names:
        held = s.shares.percent(p, sym) - (sale.percent if p == sale.entity else 0)
        if held:
            shares.append(f"{p}'s {held}%")
    if shares:
        joined = shares[0] if len(shares) == 1 else ", ".join(shares[:-1]) + f" and {shares[-1]}"
        lost.append(f"{joined} of {sym}")
    closes = f'{sym} closes: its share price enters the "Closed" box'
    assert warnings[0] == f"{closes}. Lost with it: {'; '.join(lost)}"
    assert not any(e.startswith(f"{sym} pays") for e in effects)
    assert any(e.startswith(f"{sale.entity} receives") for e in effects)
    choice = Words(game).choices([sale])[0]
    assert choice.to_dict()["warnings"] == list(warnings) and choice.effects == effects


# 1854 §4-§6 name the rounds "Share Buying Round" and "Operating Round" (1849 and 1883:
# "Stock round", "Operating round"): the log line that opens a round is the table's heading
# for it, in the title's words, so that the table shows it once (as its heading)
@pytest.mark.parametrize(("title", "players"), [("1849", 3), ("1854", 4), ("1883", 4)])
def test_the_log_line_opening_a_round_is_its_heading(title: str, players: int) -> None:
    game = new_game(title, ["Ann", "Bob", "Cid", "Dan"][:players], 1)
    labels = set()
    while len(game.actions) < 400 and not game.state.finished:
        labels.add(round_label(game))
        game.apply(bot_action(game, len(game.actions), "easy"))
    names = game.title.round_names
    opening = {
        line
        for line in game.state.events
        if line.startswith((f"{names['stock']} ", f"{names['operating']} "))
    }
    assert len(opening) >= 4
    assert opening <= labels
