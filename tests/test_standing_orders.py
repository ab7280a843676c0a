"""Standing orders (issue 36): what each order does in every title's positions (orders.py),
and on the server: stored per seat and shown only to it, run as the seat's own actions and
logged with their kind, never acting right after an undo, cancelled by the undo of their own
move, by another's trade (buy-until) or by their seat, refused with a clear error that
changes nothing."""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest_server import ROOMY, auth
from terminal_script import scripted
from tresham.bots.random_bot import choose
from tresham.cli import main
from tresham.core.actions import BuyCompany, BuyShares, Pass, SellShares
from tresham.core.errors import RuleError
from tresham.core.game import Game
from tresham.io.save import new_game
from tresham.orders import (
    OrderKind,
    StandingOrder,
    cancelled_by,
    expired,
    make_order,
    next_move,
)
from tresham.server import ServerConfig, create_app
from tresham.server.bots import bot_action

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

AUTO_PASS = StandingOrder(OrderKind.AUTO_PASS)
PASS_PRIVATES = StandingOrder(OrderKind.PASS_PRIVATES)
PLAYERS = {"1849": ["Ann", "Bob", "Cid"], "1883": ["Ann", "Bob", "Cid", "Dan"]}
PLAYERS["1854"] = PLAYERS["1883"]


def positions(title: str, moves: int, seed: int = 3) -> Iterator[Game]:
    """The positions of a game of easy bots, its first `moves` of them."""
    game = new_game(title, PLAYERS[title], seed)
    for _ in range(moves):
        if game.state.finished:
            return
        yield game
        game.apply(bot_action(game, len(game.actions), "easy"))


# ---------------------------------------------------------------------- the orders' rules
@pytest.mark.parametrize("title", ["1849", "1854", "1883"])
def test_auto_pass_and_pass_privates_act_exactly_where_they_say(title: str) -> None:
    """auto-pass: only where Pass is the only legal choice; pass-privates: only where the
    choices are to buy a private or pass. Neither acts for a seat whose turn it is not."""
    found = {"only pass": 0, "other": 0, "privates": 0}
    for game in positions(title, 700):
        player = game.acting_player()
        assert player is not None
        legal = game.legal_actions()
        only_pass = len(legal) == 1 and isinstance(legal[0], Pass)
        move = next_move(game, player, [AUTO_PASS])
        if only_pass:
            assert move is not None and move.action == legal[0] and not move.ends
            found["only pass"] += 1
        else:
            assert move is None
            found["other"] += 1
        privates = any(isinstance(a, BuyCompany) for a in legal) and all(
            isinstance(a, BuyCompany | Pass) for a in legal
        )
        move = next_move(game, player, [PASS_PRIVATES])
        assert (move is not None) == privates
        if move is not None:
            assert isinstance(move.action, Pass) and move.action in legal
            found["privates"] += 1
        someone_else = next(p for p in game.player_names if p != player)
        assert next_move(game, someone_else, [AUTO_PASS, PASS_PRIVATES]) is None
    assert found["only pass"] and found["other"], found
    if title == "1849":  # its end-of-turn step of buying privates
        assert found["privates"], found


def stock_turn_with_a_buy(goes_on: bool = False) -> tuple[Game, str, BuyShares]:
    """A position of a stock round where the acting player may buy a share of a started
    corporation (`goes_on`: one after which their turn goes on, as after a buy in a stock
    round where they may still sell)."""
    for game in positions("1849", 3000, seed=5):
        if game.state.round is None or game.state.round.kind != "stock":
            continue
        player = game.acting_player()
        assert player is not None
        for buy in [a for a in game.legal_actions() if isinstance(a, BuyShares)]:
            after = game.clone()
            after.apply(buy)
            if not goes_on or after.acting_player() == player:
                return game.clone(), player, buy
    raise AssertionError("no such stock-round buy in the game")


@pytest.mark.parametrize("goes_on", [False, True])
def test_buy_until_buys_one_share_a_turn_ends_the_turn_and_stops_at_its_percentage(
    goes_on: bool,
) -> None:
    game, player, buy = stock_turn_with_a_buy(goes_on)
    corp = buy.corporation
    held = game.state.shares.percent(player, corp)
    order = make_order(game, {"kind": "buy-until", "corporation": corp, "percent": held + 10})
    move = next_move(game, player, [order])
    assert move is not None and isinstance(move.action, BuyShares) and not move.ends
    assert move.action.corporation == corp and move.action in game.legal_actions()
    game.apply(move.action)
    assert game.state.shares.percent(player, corp) >= held + 10
    after = next_move(game, player, [order], last=OrderKind.BUY_UNTIL)
    assert (game.acting_player() == player) == goes_on
    if goes_on:  # the turn goes on: the order ends it, and itself (its holding is reached)
        assert after is not None and isinstance(after.action, Pass) and after.ends
        assert after.why == f"{player} holds {held + 10}% of {corp}"
        # had the player bought it by hand, the order would only end itself
        done = next_move(game, player, [order], last=None)
        assert done is not None and done.action is None and done.ends
    else:
        assert after is None


def test_buy_until_is_cancelled_when_the_seat_cannot_buy() -> None:
    game, player, buy = stock_turn_with_a_buy()
    order = make_order(game, {"kind": "buy-until", "corporation": buy.corporation, "percent": 100})
    game.player(player).cash = 0
    move = next_move(game, player, [order])
    assert move is not None and move.action is None and move.ends
    assert move.why == f"{player} cannot buy a share of {buy.corporation} now"


def test_buy_until_is_cancelled_by_anyone_else_trading_its_corporation() -> None:
    order = StandingOrder(OrderKind.BUY_UNTIL, corporation="AFG", percent=60)
    assert cancelled_by([order], "Bob", BuyShares("Bob", "AFG", "pool", 10)) == ["Bob traded AFG"]
    assert cancelled_by([order], "Bob", SellShares("Bob", "AFG", 10)) == ["Bob traded AFG"]
    assert cancelled_by([order], "Bob", BuyShares("Bob", "ATA", "pool", 10)) == []
    assert cancelled_by([AUTO_PASS], "Bob", BuyShares("Bob", "AFG", "pool", 10)) == []


def test_pass_round_passes_for_the_rest_of_its_stock_round_only() -> None:
    game, player, _ = stock_turn_with_a_buy()
    order = make_order(game, {"kind": "pass-round"})
    assert order.stock_round == game.state.stock_round_no
    move = next_move(game, player, [order])
    assert move is not None and isinstance(move.action, Pass) and not move.ends
    while game.state.round is not None and game.state.round.kind == "stock":
        game.apply(bot_action(game, len(game.actions), "easy"))
    assert expired(game, order)
    acting = game.acting_player()
    assert acting is not None
    later = next_move(game, acting, [order])
    assert later is None or (later.action is None and later.ends)


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ({"kind": "sell-all"}, "no standing order 'sell-all'"),
        ("auto-pass", "a standing order is"),
        ({"kind": "auto-pass", "percent": 10}, "unknown fields ['percent']"),
        ({"kind": "buy-until", "corporation": "XYZ", "percent": 50}, "needs a corporation"),
        ({"kind": "buy-until", "corporation": "AFG", "percent": 5}, "from 10 to 100"),
        ({"kind": "buy-until", "corporation": "AFG", "percent": True}, "from 10 to 100"),
        ({"kind": "pass-round"}, "none is under way"),  # the game opens with the auction
    ],
)
def test_a_bad_order_is_refused_with_its_reason(raw: Any, words: str) -> None:
    game = new_game("1849", PLAYERS["1849"], 3)
    with pytest.raises(RuleError) as info:
        make_order(game, raw)
    assert words in str(info.value) and info.value.rule == "standing order"


# ---------------------------------------------------------------------- on the server
@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    config = ServerConfig(database_url=sqlite_url, bot_delay=0.0, undo_grace=0.0, **ROOMY)
    with TestClient(create_app(config)) as c:
        yield c


def create(client: TestClient, seed: int = 7, **extra: Any) -> tuple[str, dict[str, str]]:
    body = {"title": "1849", "players": PLAYERS["1849"], "seed": seed, **extra}
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    return data["id"], {s["player"]: s["token"] for s in data["seats"] if s["token"]}


def put_orders(client: TestClient, gid: str, token: str, orders: list[Any]) -> Any:
    return client.put(f"/api/games/{gid}/seat/orders", json={"orders": orders}, headers=auth(token))


def orders_of(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/games/{gid}/seat/orders", headers=auth(token))
    assert answer.status_code == 200, answer.text
    result: dict[str, Any] = answer.json()
    return result


def move(client: TestClient, gid: str, tokens: dict[str, str], rng: random.Random) -> str:
    """One random legal move of the acting seat; returns who made it."""
    player = client.get(f"/api/games/{gid}").json()["acting_player"]
    legal = client.get(f"/api/games/{gid}/legal", headers=auth(tokens[player])).json()
    answer = client.post(
        f"/api/games/{gid}/actions",
        json={"index": legal["index"], "action": rng.choice(legal["actions"])},
        headers=auth(tokens[player]),
    )
    assert answer.status_code == 200, answer.text
    return str(player)


def entries(client: TestClient, gid: str) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = client.get(f"/api/games/{gid}/log").json()["entries"]
    return result


def test_orders_are_the_seats_own_and_bad_ones_change_nothing(client: TestClient) -> None:
    gid, tokens = create(client)
    assert client.get(f"/api/games/{gid}/seat/orders").status_code == 403
    answer = put_orders(client, gid, tokens["Ann"], [{"kind": "auto-pass"}])
    assert answer.status_code == 200, answer.text
    assert answer.json()["orders"] == [
        {"kind": "auto-pass", "words": "Pass whenever Pass is my only choice"}
    ]
    assert orders_of(client, gid, tokens["Bob"])["orders"] == []  # each seat sees its own
    before = client.get(f"/api/games/{gid}").json()
    for bad in (
        [{"kind": "buy-until", "corporation": "AFG"}],
        [{"kind": "auto-pass"}, {"kind": "auto-pass"}],
        [{"kind": "pass-round"}],
    ):
        refused = put_orders(client, gid, tokens["Ann"], bad)
        assert refused.status_code == 422 and refused.json()["rule"] == "standing order"
        assert orders_of(client, gid, tokens["Ann"])["orders"][0]["kind"] == "auto-pass"
    malformed = client.put(
        f"/api/games/{gid}/seat/orders", json={"orders": "all"}, headers=auth(tokens["Ann"])
    )
    assert malformed.status_code == 422
    after = client.get(f"/api/games/{gid}").json()
    assert after["state_hash"] == before["state_hash"] and after["index"] == before["index"]
    # nothing of the orders is in the public state (bots and spectators read that)
    assert "auto-pass" not in client.get(f"/api/games/{gid}").text
    cleared = put_orders(client, gid, tokens["Ann"], [])
    assert cleared.json()["orders"] == []
    assert cleared.json()["ended"] == [
        {"order": "Pass whenever Pass is my only choice", "why": "cancelled by Ann"}
    ]


def test_auto_pass_needs_no_click_and_is_logged_as_the_order(client: TestClient) -> None:
    gid, tokens = create(client)
    put_orders(client, gid, tokens["Ann"], [{"kind": "auto-pass"}])
    rng = random.Random(1)
    for _ in range(300):
        state = client.get(f"/api/games/{gid}").json()
        if state["acting_player"] == "Ann":
            legal = client.get(f"/api/games/{gid}/legal", headers=auth(tokens["Ann"])).json()
            assert [a["type"] for a in legal["actions"]] != ["pass"]  # never left to click
        move(client, gid, tokens, rng)
    made = [e for e in entries(client, gid) if e["order"]]
    assert made, "Ann's only-pass turns came and the order took them"
    assert all(e["order"] == "auto-pass" and e["seat"] == "Ann" for e in made)
    assert all(e["entry"]["type"] == "pass" for e in made)
    # the order's moves replay as the seat's own: the export is an ordinary game
    export = client.get(f"/api/games/{gid}/export").json()
    assert len(export["actions"]) == client.get(f"/api/games/{gid}").json()["index"]


def test_no_order_acts_after_an_undo_and_the_undone_order_is_cancelled(
    client: TestClient,
) -> None:
    gid, tokens = create(client)
    put_orders(client, gid, tokens["Ann"], [{"kind": "auto-pass"}])
    rng = random.Random(1)
    while not any(e["order"] for e in entries(client, gid)):
        move(client, gid, tokens, rng)
    last = entries(client, gid)[-1]
    assert last["order"] == "auto-pass"  # the order's pass is the last entry: Ann may undo it
    index = client.get(f"/api/games/{gid}").json()["index"]
    answer = client.post(
        f"/api/games/{gid}/actions",
        json={"index": index, "action": {"type": "undo"}},
        headers=auth(tokens["Ann"]),
    )
    assert answer.status_code == 200, answer.text
    state = client.get(f"/api/games/{gid}").json()
    assert state["acting_player"] == "Ann" and state["index"] == index + 1  # nothing acted
    shown = orders_of(client, gid, tokens["Ann"])
    assert shown["orders"] == []
    assert shown["ended"][-1]["why"] == "Ann took back its move"


def test_buy_until_on_the_server_is_cancelled_by_another_seats_trade(client: TestClient) -> None:
    gid, tokens = create(client)
    rng = random.Random(4)
    while True:  # on to a stock-round turn of Bob's or Cid's with a trade of a share
        state = client.get(f"/api/games/{gid}").json()
        actor = state["acting_player"]
        if state["round"]["kind"] == "stock" and actor != "Ann":
            legal = client.get(f"/api/games/{gid}/legal", headers=auth(tokens[actor])).json()
            trades = [a for a in legal["actions"] if a["type"] in ("buy_shares", "sell_shares")]
            if trades:
                break
        move(client, gid, tokens, rng)
    corp = trades[0]["corporation"]
    order = {"kind": "buy-until", "corporation": corp, "percent": 100}
    answer = put_orders(client, gid, tokens["Ann"], [order])
    assert answer.status_code == 200, answer.text
    assert orders_of(client, gid, tokens["Ann"])["orders"][0]["corporation"] == corp
    client.post(
        f"/api/games/{gid}/actions",
        json={"index": legal["index"], "action": trades[0]},
        headers=auth(tokens[actor]),
    )
    shown = orders_of(client, gid, tokens["Ann"])
    assert shown["orders"] == []
    assert shown["ended"][-1]["why"] == f"{actor} traded {corp}"


def anns_turn(fits: Callable[[Game], bool], seed: int = 7) -> Game:
    """A game of 1849 (the `create` game's players and seed) played by easy bots up to a
    turn of Ann's where `fits(game)`."""
    game = new_game("1849", PLAYERS["1849"], seed)
    while not (game.acting_player() == "Ann" and fits(game)):
        assert not game.state.finished and len(game.actions) < 3000
        game.apply(bot_action(game, len(game.actions), "easy"))
    return game


def in_stock_round(game: Game) -> bool:
    return game.state.round is not None and game.state.round.kind == "stock"


def stock_buy(game: Game) -> bool:
    return in_stock_round(game) and any(isinstance(a, BuyShares) for a in game.legal_actions())


def private_step(game: Game) -> bool:
    legal = game.legal_actions()
    return any(isinstance(a, BuyCompany) for a in legal) and all(
        isinstance(a, BuyCompany | Pass) for a in legal
    )


def up_to(client: TestClient, game: Game) -> tuple[str, dict[str, str]]:
    """The `create` game made live and played through the API by its seats to `game`'s
    position."""
    gid, tokens = create(client)
    for index, action in enumerate(game.actions):
        player = client.get(f"/api/games/{gid}").json()["acting_player"]
        post(client, gid, tokens[player], index, action.to_json())
    assert client.get(f"/api/games/{gid}").json()["acting_player"] == "Ann"
    return gid, tokens


def test_buy_until_acts_on_the_server_and_ends_at_its_percentage(client: TestClient) -> None:
    """Set on Ann's stock-round turn, buy-until buys her a share at once as her own move,
    logged as the order, and ends when she holds the percentage asked."""
    game = anns_turn(stock_buy)
    buy = next(a for a in game.legal_actions() if isinstance(a, BuyShares))
    wanted = game.state.shares.percent("Ann", buy.corporation) + 10
    gid, tokens = up_to(client, game)
    moves = game.actions
    order = {"kind": "buy-until", "corporation": buy.corporation, "percent": wanted}
    assert put_orders(client, gid, tokens["Ann"], [order]).status_code == 200
    made = [e for e in entries(client, gid)[len(moves) :] if e["order"]]
    assert made and made[0]["seat"] == "Ann" and made[0]["order"] == "buy-until"
    assert made[0]["entry"]["type"] == "buy_shares"
    assert made[0]["entry"]["corporation"] == buy.corporation
    shown = orders_of(client, gid, tokens["Ann"])
    assert shown["orders"] == []
    assert shown["ended"][-1]["why"] == f"Ann holds {wanted}% of {buy.corporation}"


def test_pass_round_passes_anns_turns_on_the_server_until_the_stock_round_ends(
    client: TestClient,
) -> None:
    """Set on Ann's stock-round turn, pass-round passes it and every later turn of hers in
    that stock round, each logged as the order; at her first turn after it, it ends and
    leaves her to choose."""
    game = anns_turn(in_stock_round)
    moves = game.actions
    gid, tokens = up_to(client, game)
    answer = put_orders(client, gid, tokens["Ann"], [{"kind": "pass-round"}])
    assert answer.status_code == 200, answer.text
    round_no = answer.json()["orders"][0]["stock_round"]
    rng = random.Random(5)
    for _ in range(400):
        state = client.get(f"/api/games/{gid}").json()
        if state["acting_player"] == "Ann":
            break
        move(client, gid, tokens, rng)
    # Ann was not asked again in that stock round
    assert state["acting_player"] == "Ann"
    assert state["round"]["kind"] != "stock" or state["round"]["stock_round"] > round_no
    anns = [e for e in entries(client, gid)[len(moves) :] if e["seat"] == "Ann"]
    assert anns and all(e["order"] == "pass-round" for e in anns)
    assert all(e["entry"]["type"] == "pass" for e in anns)
    shown = orders_of(client, gid, tokens["Ann"])
    assert shown["orders"] == []
    assert shown["ended"][-1]["why"] == "the stock round is over"


def test_pass_privates_passes_the_private_step_on_the_server_and_stays(
    client: TestClient,
) -> None:
    """Set at a corporation's end-of-turn step of buying privates (Ann its president),
    pass-privates passes it for her, logged as the order, and stays in place."""
    game = anns_turn(private_step)
    moves = game.actions
    gid, tokens = up_to(client, game)
    assert put_orders(client, gid, tokens["Ann"], [{"kind": "pass-privates"}]).status_code == 200
    made = entries(client, gid)[len(moves)]
    assert made["seat"] == "Ann" and made["order"] == "pass-privates"
    assert made["entry"]["type"] == "pass"
    assert [o["kind"] for o in orders_of(client, gid, tokens["Ann"])["orders"]] == ["pass-privates"]


GRACE = 1.0


def pass_only_after_anothers_move(seed: int = 7) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A game of 1849 (the `create` game's players and seed) played by random moves up to a
    move of Bob's or Cid's after which Ann's only choice is Pass: the moves before it, and
    that move (save format)."""
    game = new_game("1849", PLAYERS["1849"], seed)
    rng = random.Random(2)
    for _ in range(2000):
        mover = game.acting_player()
        action = choose(game, rng)
        if mover != "Ann":
            after = game.clone()
            after.apply(action)
            legal = after.legal_actions()
            if after.acting_player() == "Ann" and [type(a) for a in legal] == [Pass]:
                return [a.to_json() for a in game.actions], action.to_json()
        game.apply(action)
    raise AssertionError("no move of another's left Ann only Pass")


def post(client: TestClient, gid: str, token: str, index: int, action: dict[str, Any]) -> None:
    answer = client.post(
        f"/api/games/{gid}/actions", json={"index": index, "action": action}, headers=auth(token)
    )
    assert answer.status_code == 200, answer.text


@pytest.fixture
def graced(sqlite_url: str) -> Iterator[TestClient]:
    config = ServerConfig(database_url=sqlite_url, bot_delay=0.0, undo_grace=GRACE, **ROOMY)
    with TestClient(create_app(config)) as c:
        yield c


def up_to_the_move(client: TestClient) -> tuple[str, dict[str, str], dict[str, Any], str, int]:
    """A game at the move of Bob's or Cid's that leaves Ann only Pass, Ann holding
    auto-pass: the game, its tokens, the move, who makes it, and the log index."""
    before, move_ = pass_only_after_anothers_move()
    gid, tokens = create(client)
    for index, action in enumerate(before):
        post(client, gid, tokens[action["entity"]], index, action)
    mover = client.get(f"/api/games/{gid}").json()["acting_player"]
    assert mover != "Ann"
    assert put_orders(client, gid, tokens["Ann"], [{"kind": "auto-pass"}]).status_code == 200
    assert client.get(f"/api/games/{gid}").json()["index"] == len(before)  # nothing acted
    return gid, tokens, move_, mover, len(before)


def wait_for(client: TestClient, gid: str, index: int, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        state: dict[str, Any] = client.get(f"/api/games/{gid}").json()
        if state["index"] >= index or time.monotonic() > deadline:
            return state
        time.sleep(0.05)


def test_an_order_waits_out_anothers_undo_grace_then_acts(graced: TestClient) -> None:
    """Bob's (or Cid's) move leaves Ann only Pass: her auto-pass waits the undo grace, as a
    bot would, and then passes for her, logged as the order."""
    gid, tokens, move_, mover, index = up_to_the_move(graced)
    post(graced, gid, tokens[mover], index, move_)
    state = graced.get(f"/api/games/{gid}").json()
    assert state["index"] == index + 1 and state["acting_player"] == "Ann"
    assert state["undo"] == mover  # the mover may still take it back
    time.sleep(GRACE / 3)
    assert graced.get(f"/api/games/{gid}").json()["index"] == index + 1  # still waiting
    state = wait_for(graced, gid, index + 2, GRACE * 5)
    assert state["index"] == index + 2, "the order never acted after the grace"
    last = entries(graced, gid)[-1]
    assert last["seat"] == "Ann" and last["order"] == "auto-pass"
    assert last["entry"]["type"] == "pass"


def test_an_undo_within_the_grace_leaves_the_order_nothing_to_act_on(
    graced: TestClient,
) -> None:
    """The mover takes the move back within the grace: Ann's order never passes on the
    position the undo took away; the game waits for the mover, and Ann's order is still
    hers. The mover moves again: the order acts once that move's grace is over."""
    gid, tokens, move_, mover, index = up_to_the_move(graced)
    post(graced, gid, tokens[mover], index, move_)
    time.sleep(GRACE / 3)
    post(graced, gid, tokens[mover], index + 1, {"type": "undo", "entity": mover})
    time.sleep(GRACE * 2)  # well past the first move's grace
    state = graced.get(f"/api/games/{gid}").json()
    assert state["index"] == index + 2 and state["acting_player"] == mover
    assert not any(e["order"] for e in entries(graced, gid))
    assert [o["kind"] for o in orders_of(graced, gid, tokens["Ann"])["orders"]] == ["auto-pass"]
    post(graced, gid, tokens[mover], index + 2, move_)
    state = wait_for(graced, gid, index + 4, GRACE * 5)
    assert state["index"] == index + 4
    assert entries(graced, gid)[-1]["order"] == "auto-pass"


# ---------------------------------------------------------------------- in the terminal
def test_the_terminal_offers_the_same_orders_and_auto_pass_needs_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A hotseat game in the terminal: Ann types ``o auto-pass`` at her first turn; from then
    on she is never asked for a key where Pass is her only choice, and the screen says
    "(standing order)" where the order passed for her. A bad order is refused in words."""
    monkeypatch.chdir(tmp_path)
    rng = random.Random(1)
    typed_lines: list[str] = []

    def typed(game: Game) -> str:
        legal = game.legal_actions()
        if game.acting_player() == "Ann":
            if "o buy-until XYZ 50" not in typed_lines:
                typed_lines.append("o buy-until XYZ 50")
                return typed_lines[-1]
            if "o auto-pass" not in typed_lines:
                typed_lines.append("o auto-pass")
                return typed_lines[-1]
            assert [a.type for a in legal] != ["pass"], "Ann was asked where Pass was all"
        if len(game.actions) > 300:
            return "q"
        return str(legal.index(choose(game, rng)))

    screen = scripted(monkeypatch, typed)
    assert main(["play", "1849", "--players", "3", "--names", "Ann,Bob,Cid", "--seed", "7"]) == 0
    text = screen.getvalue()
    assert "buy-until needs a corporation" in text
    assert "Ann's standing order: Pass whenever Pass is my only choice" in text
    assert "(standing order)" in text
