"""1854's own decisions in a player's words: what each one is, what it costs and what follows.

Tunnels (§5.3.1) named by the hex and the sides they join, mail contracts (§5.12) with what
they earn, buying options (§6.4.1), retracted bids (§4), the Local Railways' mergers and
closures (§5.10); `words.py` adds the consequences it finds on a search copy. The answers to
1854's prompts (a shielded hex's permission, §5.3; a proposed merger, ruling ML1) are worded
by their prompts (`Prompt.words`, in `operating.py` and `major_local.py`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tresham.core.actions import Action
from tresham.core.display import FactTable
from tresham.titles.t1854 import mail, tunnels
from tresham.titles.t1854.actions import (
    BuildTunnel,
    BuyMailContract,
    BuyOption,
    CloseLocal,
    MergeLocals,
    PayOption,
    RetractBid,
)
from tresham.titles.t1854.state import state_of

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.titles.t1854.rules import Title1854


#: What the title's own trains do, in players' words (the depot's notes; §5.6, §5.9, Table 4).
TRAIN_NOTES = {
    "OE": (
        "Orient Express: 8 stations, and it alone may start at Paris (on through Zürich) or "
        "Constantinople (on through Budapest), with one of its company's stations on the "
        "route; sold beside the 8-train once the last 6-train is sold, 5 of each, and the "
        "first of either starts Phase 8"
    ),
    **{
        kind: (
            f"plus train: only a Local Railway runs it, to {kind[0]} large station"
            f"{'s' if kind[0] != '1' else ''} and any number of small ones; a Major Company may "
            "own one to sell it on, but it is not the train a Major Company must own"
        )
        for kind in ("1+", "2+", "3+")
    },
}


def tunnel_text(game: Game, action: BuildTunnel, words: Any) -> str:
    """§5.3.1: a tunnel through a hex, by its shape and the two sides it joins."""
    board = game.state.map.board
    gap = abs(action.a - action.b)
    shape = tunnels.SHAPE_NAMES[min(gap, 6 - gap)]
    return (
        f"Build a {shape} tunnel through {words.place(action.hex)}, from "
        f"{board.side(action.hex, action.a)} to {board.side(action.hex, action.b)}"
    )


def mail_text(title: Title1854, game: Game, corp: str, cost: int) -> str:
    """§5.12: the contract's price, its income now and at its best, and that it is kept."""
    income = mail.income(game, cost)
    money = title.money
    now = income.get(game.phase.name, 0)
    return (
        f"Buy a {money(cost)} mail contract: {corp} collects {money(now)} at the start of "
        f"each turn in this phase (up to {money(max(income.values()))} later), and keeps it "
        f"for good ({mail.left(game, cost)} left in the bank)"
    )


def mail_held(title: Title1854, game: Game, corp: str) -> list[str]:
    """§5.12: the contract `corp` holds and what it collects a turn now ([]: none)."""
    cost = mail.held(game, corp)
    if cost is None:
        return []
    now = mail.income(game, cost).get(game.phase.name, 0)
    return [
        f"Mail contract of {title.money(cost)}: collects {title.money(now)} at the start of "
        "each turn"
    ]


def option_text(title: Title1854, game: Game, action: BuyOption) -> str:
    """§6.4.1: a 20% share for half its price, counted as 10% until the rest is paid."""
    where = "the pool" if action.source == "pool" else f"{action.corporation}'s treasury"
    return (
        f"Buy a 20% share of {action.corporation} from {where} on option: pay for 10% now, "
        "the rest later at the same price (it counts as 10% until then)"
    )


def pay_option_text(title: Title1854, game: Game, player: str) -> str:
    """§6.4.1: the second 10% at the price paid for the first."""
    option = state_of(game).options.get(player)
    if option is None:
        return "Pay the rest of your option"
    return (
        f"Pay {title.money(option.price)} for the rest of your {option.corp} option (your "
        "share then counts as 20%)"
    )


def action_words(title: Title1854, game: Game, action: Action, words: Any) -> str | None:
    """1854's own actions in words (None: the common words apply)."""
    match action:
        case BuildTunnel():
            return tunnel_text(game, action, words)
        case BuyMailContract(entity=corp, cost=cost):
            return mail_text(title, game, corp, cost)
        case BuyOption():
            return option_text(title, game, action)
        case PayOption(entity=player):
            return pay_option_text(title, game, player)
        case RetractBid(company=co):
            return f"Take back your bid on {co} (the money is yours again)"
        case MergeLocals(entity=local, partner=partner):
            return f"Merge {local} with {partner} into a Major Local Railway"
        case CloseLocal(entity=local):
            return (
                f"Close {local}: its stations leave the map, its trains, money and mail "
                "contract the game, its certificate is void"
            )
    return None


def mail_table(title: Title1854, game: Game) -> FactTable:
    """§5.12: which company holds which mail contract and what it collects now."""
    money = title.money
    kinds = {
        int(k["cost"]): mail.income(game, int(k["cost"])) for k in title.data["mail_contracts"]
    }
    rows = tuple(
        (corp, money(cost), money(kinds[cost].get(game.phase.name, 0)))
        for corp, cost in state_of(game).mail.items()
    )
    left = ", ".join(f"{mail.left(game, cost)} of {money(cost)}" for cost in kinds)
    phases = "/".join(next(iter(kinds.values())))
    scales = "; ".join(
        f"{money(cost)}: {'/'.join(str(v) for v in income.values())}"
        for cost, income in kinds.items()
    )
    return FactTable(
        "mail",
        "Mail contracts",
        ("company", "contract", "collects each turn"),
        rows,
        f"Collected at the start of the company's turn, by phase ({phases}): {scales}. "
        f"Left in the bank: {left}.",
    )


def options_table(title: Title1854, game: Game) -> FactTable:
    """§6.4.1: the options bought and not yet paid for in full."""
    rows = tuple(
        (player, option.corp, title.money(option.price))
        for player, option in state_of(game).options.items()
    )
    return FactTable(
        "options",
        "Options not yet paid",
        ("player", "company", "still to pay"),
        rows,
        "A share bought on option counts as 10% until the rest is paid (§6.4.1).",
    )


def fact_tables(title: Title1854, game: Game) -> list[FactTable]:
    """The mail contracts and the options."""
    return [mail_table(title, game), options_table(title, game)]
