"""1854 §5.12 Mail Contracts: a company may, as the last action of its turn, buy one of the
two kinds (100 G or 200 G, six of each, Table 6); it owns at most one and never sells it. At
the start of each of its turns (§5.2) the bank pays the company the contract's income for the
phase (Table 5/6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tresham.core.actions import Action, Pass
from tresham.core.rounds.operating import OperatingRound, Step
from tresham.titles.t1854.actions import BuyMailContract
from tresham.titles.t1854.facts import rules_of
from tresham.titles.t1854.state import state_of

if TYPE_CHECKING:
    from tresham.core.game import Game

RULE = "1854 §5.12"


def _kinds(game: Game) -> list[dict[str, Any]]:
    kinds: list[dict[str, Any]] = rules_of(game).data["mail_contracts"]
    return kinds


def held(game: Game, corp: str) -> int | None:
    """The cost of the mail contract `corp` holds (None: none)."""
    return state_of(game).mail.get(corp)


def left(game: Game, cost: int) -> int:
    """How many mail contracts of the `cost` kind the bank still has."""
    count = next(int(k["count"]) for k in _kinds(game) if k["cost"] == cost)
    return count - sum(1 for c in state_of(game).mail.values() if c == cost)


def income(game: Game, cost: int) -> dict[str, int]:
    """Table 6: what a mail contract of the `cost` kind collects, by phase."""
    kind = next(k for k in _kinds(game) if k["cost"] == cost)
    return {phase: int(value) for phase, value in kind["income"].items()}


def collect(game: Game, corp: str) -> None:
    """§5.2: the turn begins with the income of the company's mail contract, if any."""
    cost = held(game, corp)
    if cost is None:
        return
    amount = income(game, cost)[game.phase.name]
    game.transfer("bank", corp, amount)
    game.log(f"{corp} collects {amount} G from its mail contract")


class MailStep(Step):
    """§5.12: buy a mail contract (not compulsory), at most one a company."""

    name = "mail"
    label = "buying a mail contract"
    rule = RULE

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        if held(game, corp) is not None:
            return []
        cash = game.state.corps[corp].cash
        buys: list[Action] = [
            BuyMailContract(corp, int(k["cost"]))
            for k in _kinds(game)
            if k["cost"] <= cash and left(game, int(k["cost"])) > 0
        ]
        return [*buys, Pass(corp)] if buys else []

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        if isinstance(action, BuyMailContract):
            game.transfer(corp, "bank", action.cost)
            state = state_of(game)
            state.mail[corp] = action.cost
            state.tallies.mail_contracts += 1
            game.log(f"{corp} buys a {action.cost} G mail contract")
        return True
