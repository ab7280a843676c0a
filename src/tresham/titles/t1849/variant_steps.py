"""The operating-turn steps of 1849's optional rules (``variants.py``), placed as the site
places them: buying a station token, then an E-token, after the dividend; the bond's interest,
then issuing or repaying it, after buying trains and issuing shares (``rule_set.py``).

Interest the corporation cannot pay leaves its cash below zero, as on the site, and its
president is asked at once (the ``debt`` prompt) to cover it: the corporation may issue shares
(only as many as needed; never on 18xx.games, ruling V11), the president may pay the debt,
or sell shares as for a train (never this presidency) until they can; a president who cannot
raise it all pays what they have and the corporation closes, as for a train it cannot buy
(ruling V7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tresham.core.actions import Action, Bankrupt, IssueShares, Pass, SellShares
from tresham.core.errors import RuleError
from tresham.core.graph import reach
from tresham.core.prompts import Prompt
from tresham.core.rounds.operating import OperatingRound, Step
from tresham.core.shares import POOL
from tresham.core.stock import bundle_price
from tresham.titles.t1849 import map_glue, stale_graph, token_objects, variants
from tresham.titles.t1849.actions import (
    BuyEToken,
    BuyStationToken,
    IssueBond,
    PayDebt,
    RepayBond,
)
from tresham.titles.t1849.facts import rules_of
from tresham.titles.t1849.rule_set import (
    site_engine,
    site_fifth_round,
    site_rules,
    site_seventh_round,
)
from tresham.titles.t1849.site_graph import site_graph
from tresham.titles.t1849.steps import (
    POOL_CAP,
    ask_loan,
    emergency_sale,
    issue,
    issue_bundles,
    president_sales,
)
from tresham.titles.t1849.versions import DEBT_ISSUE_VERSION

if TYPE_CHECKING:
    from tresham.core.game import Game

DEBT: str = "debt"


# ====================================================================== station tokens
def offered_tokens(game: Game, corp: str) -> list[tuple[str, int, str]]:
    """(hex, city, seller) of the tokens the token-buying step shows `corp`: from phase 6H,
    with L.1, those in reach (:func:`tokens_in_reach`)."""
    if not variants.enabled(game, variants.BUY_TOKENS) or not variants.reached(
        game, variants.TOKENS_FROM
    ):
        return []
    if game.state.corps[corp].cash < 1:
        return []
    return tokens_in_reach(game, corp)


def tokens_in_reach(game: Game, corp: str) -> list[tuple[str, int, str]]:
    """(hex, city, seller) of the other corporations' tokens other than their home tokens, in
    a city `corp` reaches, on a tile where it has no token (the site's
    ``any_buyable_tokens_placed?``, whatever the phase and cash: while there is one, the
    site's step waits for an answer; with none it passes by itself). In the "18xx.games" rule
    set from rules version 5, the cities the site's own walk meets (ruling S11)."""
    s = game.state
    net = site_graph(s.map, corp).nodes if site_engine(game) else reach(s.map, corp).nodes
    out: list[tuple[str, int, str]] = []
    for (coord, node), held in sorted(s.map.tokens.items()):
        if (coord, node) not in net or s.map.has_token(corp, coord):
            continue
        for seller in held:
            sc = s.corps.get(seller) if seller is not None else None
            if seller is None or sc is None or seller == corp or sc.closed:
                continue
            if coord == token_home(game, seller):
                continue
            out.append((coord, node, seller))
    return out


def token_home(game: Game, corp: str) -> str | None:
    """The hex of the token `corp` may not sell (§14.1: its home token). In the "18xx.games"
    rule set from rules version `SITE_DEPARTED_VERSION` (ruling S20), where the Messina
    earthquake destroyed its home token (AFG's home in Messina: it lost a token there), that
    is its first token left on the map, as the site's ``tokens.first`` (random game 4 players
    seed 101: AFG, home in Messina, keeps its token in Catania and may sell the one it placed
    in Messina after the earthquake). From rules version 10 (ruling S25) that is the first of
    its tokens in the site's order (``token_objects.py``), which a token sold before the
    earthquake and placed again can head (random game 4 players seed 135: AFG, its token in
    Catania bought from it, places one in Trapani, which heads the order after the
    earthquake, before its token in Caltanissetta); where that first token is off the map
    (sold, not placed again), there is none."""
    c = game.state.corps[corp]
    lost = c.tokens < rules_of(game).charter_tokens(corp)
    if c.home == map_glue.EARTHQUAKE_HEX and lost and site_fifth_round(game):
        if site_seventh_round(game):
            first = token_objects.order(game, corp)[:1]
            return first[0][0] if first and first[0] is not None else None
        return c.placed[0][0] if c.placed else None
    return c.home


def buyable_tokens(game: Game, corp: str) -> list[tuple[str, int, str]]:
    """(hex, city, seller) of every token `corp` may buy (§14.1, as the site's
    ``can_replace_token?``): one offered, `corp` having a token of its own left, the seller
    keeping another token and having a president."""
    s = game.state
    if s.corps[corp].unplaced_tokens <= 0:
        return []
    return [
        (coord, node, seller)
        for coord, node, seller in offered_tokens(game, corp)
        if len(s.corps[seller].placed) >= 2 and s.shares.president.get(seller) is not None
    ]


class BuyTokenStep(Step):
    """§14.1: once a turn, buy another corporation's station token for L.1 up to the
    corporation's cash, paid to the seller, whose token goes back to its charter; the
    buyer's own token takes its slot. The step is played whenever the site shows it (some
    token offered), even when no purchase is possible, where only a pass is left (ruling
    V3)."""

    name = "buy_token"
    label = "buying a station from another corporation"
    rule = variants.RULE_TOKENS

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        if not offered_tokens(game, corp):
            return []
        cash = game.state.corps[corp].cash
        out: list[Action] = []
        for coord, node, seller in buyable_tokens(game, corp):
            out.append(BuyStationToken(corp, coord, node, seller, 1))
            if cash > 1:
                out.append(BuyStationToken(corp, coord, node, seller, cash))
        return [*out, Pass(corp)]

    def validate(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        if isinstance(action, BuyStationToken):
            if (action.hex, action.city, action.seller) not in buyable_tokens(game, corp):
                raise RuleError(
                    f"{corp} may not buy {action.seller}'s token in {action.hex}", self.rule
                )
            if not 1 <= action.price <= game.state.corps[corp].cash:
                raise RuleError("a station token costs L.1 up to the buyer's cash", self.rule)
            return
        super().validate(game, rnd, corp, action)

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        if isinstance(action, BuyStationToken):
            s = game.state
            key = (action.hex, action.city)
            slot = s.map.tokens[key].index(action.seller)
            s.map.remove_token(action.seller, *key)
            s.map.place_token(corp, action.hex, action.city, slot)
            token_objects.sold(game, action.seller, key)
            s.corps[action.seller].placed.remove(key)
            s.corps[corp].placed.append(key)
            token_objects.placed(game, corp, key)
            stale_graph.cleared(game)
            game.transfer(corp, action.seller, action.price)
            where = game.state.map.board.place(action.hex)
            game.log(f"{corp} buys {action.seller}'s token in {where} for L.{action.price}")
        return True


# ====================================================================== E-tokens
class ETokenStep(Step):
    """§14.3: from phase 12H a corporation without an E-token may buy one from the bank
    (``variants.e_token_cost``); only then may it buy E-trains."""

    name = "e_token"
    label = "the electric token"
    rule = variants.RULE_E

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        if not variants.enabled(game, variants.ELECTRIC) or not variants.reached(
            game, variants.E_TOKENS_FROM
        ):
            return []
        if variants.has_e_token(game, corp):
            return []
        if game.state.corps[corp].cash < variants.e_token_cost(game):
            return []
        return [BuyEToken(corp), Pass(corp)]

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        if isinstance(action, BuyEToken):
            cost = variants.e_token_cost(game)
            game.transfer(corp, "bank", cost)
            variants.record_e_token(game, corp)
            game.log(f"{corp} buys an E-token for L.{cost}")
        return True


# ====================================================================== bonds
class InterestStep(Step):
    """§14.2: a corporation whose bond is out pays L.50 interest each operating round, after
    buying trains and issuing shares; short of cash, it owes the rest (the ``debt``
    prompt)."""

    name = "interest"
    label = "the bond interest"
    rule = variants.RULE_BONDS
    silent = True

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        return []

    def skip(self, game: Game, rnd: OperatingRound, corp: str) -> None:
        if not variants.has_bond(game, corp):
            return
        game.transfer(corp, "bank", variants.INTEREST)
        game.log(f"{corp} pays L.{variants.INTEREST} interest for its bond")
        if game.state.corps[corp].cash < 0:
            game.state.pending.append((DEBT, corp))


class BondStep(Step):
    """§14.2: from phase 8H a corporation without a bond may issue it (L.500 from the bank,
    share price one column left); one whose bond is out may repay it with L.500 of its own
    (one column right). One or the other, once a turn."""

    name = "bond"
    label = "the bond"
    rule = variants.RULE_BONDS

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        if not variants.enabled(game, variants.BONDS):
            return []
        if variants.has_bond(game, corp):
            if game.state.corps[corp].cash >= variants.BOND:
                return [RepayBond(corp), Pass(corp)]
            return []
        if variants.reached(game, variants.BONDS_FROM):
            return [IssueBond(corp), Pass(corp)]
        return []

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        title = rules_of(game)
        if isinstance(action, IssueBond):
            game.transfer("bank", corp, variants.BOND)
            variants.set_bond(game, corp, True)
            game.log(f"{corp} issues its bond for L.{variants.BOND}")
            title.move_price(game, corp, "left")
        elif isinstance(action, RepayBond):
            game.transfer(corp, "bank", variants.BOND)
            variants.set_bond(game, corp, False)
            game.log(f"{corp} repays its bond for L.{variants.BOND}")
            title.move_price(game, corp, "right")
        return True


# ====================================================================== the debt prompt
class Debt(Prompt):
    """A corporation's unpaid interest (the site's emergency money raising), asked again
    while it still owes."""

    kind = DEBT
    rule = DEBT
    allows = frozenset({"cash"})

    def actions(self, game: Game, entity: str) -> list[Action]:
        return debt_actions(game, entity)

    def process(self, game: Game, entity: str, action: Action) -> None:
        debt_process(game, entity, action)

    def why(self, game: Game, entity: str) -> str:
        """§14.2 (rulings V7, V11): the interest the treasury could not pay."""
        pres = game.state.shares.president.get(entity) or entity
        kinds = {type(a) for a in debt_actions(game, entity)}
        ways = [
            words
            for kind, words in (
                (IssueShares, "it issues shares"),
                (PayDebt, f"{pres}, its president, pays it"),
                (SellShares, f"{pres}, its president, sells shares to pay it"),
                (Bankrupt, "it goes bankrupt"),
            )
            if kind in kinds
        ]
        owed = game.title.money(-game.state.corps[entity].cash)
        return (
            f"{entity} could not pay its bond interest and owes {owed}: {' or '.join(ways)} (§14.2)"
        )


def debt_actions(game: Game, corp: str) -> list[Action]:
    """The ways to cover `corp`'s unpaid interest: issue a bundle no larger than needed (not
    on 18xx.games, ruling V11), the president paying it all, the president's sales while
    they cannot; with none of these, bankruptcy."""
    s = game.state
    owed = -s.corps[corp].cash
    pres = s.shares.president[corp]
    assert pres is not None
    out: list[Action] = []
    if s.corps[corp].operated > 0 and not _no_debt_issue(game):
        pooled = s.shares.percent(POOL, corp)
        for bundle in issue_bundles(game, corp):
            percent = sum(x.percent for x in bundle)
            smallest = min(x.percent for x in bundle)
            if pooled + percent > POOL_CAP:
                continue
            if bundle_price(game, corp, percent) - bundle_price(game, corp, smallest) < owed:
                out.append(IssueShares(corp, percent))
    if game.player(pres).cash >= owed:
        out.append(PayDebt(corp))
    else:
        out.extend(president_sales(game, corp, pres, owed - game.player(pres).cash))
    if not out:
        out.append(Bankrupt(corp))
    return out


def _no_debt_issue(game: Game) -> bool:
    """Ruling V11: on 18xx.games (from rules version `DEBT_ISSUE_VERSION`) the corporation
    issues no shares for its unpaid interest."""
    return site_rules(game.options) and game.rules_version >= DEBT_ISSUE_VERSION


def debt_process(game: Game, corp: str, action: Action) -> None:
    """Apply one answer; ask again while the corporation still owes."""
    s = game.state
    pres = s.shares.president[corp]
    assert pres is not None
    if isinstance(action, IssueShares):
        issue(game, corp, action.percent)
    elif isinstance(action, SellShares):
        emergency_sale(game, pres, action)
    elif isinstance(action, PayDebt):
        owed = -s.corps[corp].cash
        game.transfer(pres, corp, owed)
        game.log(f"{pres} pays {corp}'s debt of L.{owed}")
    else:
        assert isinstance(action, Bankrupt)
        game.transfer(pres, corp, game.player(pres).cash)
        rules_of(game).close_corporation(game, corp)
        ask_loan(game, pres)
        return
    if s.corps[corp].cash < 0:
        s.pending.insert(0, (DEBT, corp))


def action_words(game: Game, action: Action, words: Any) -> str | None:
    """The optional rules' actions in a player's words (`words`: ``tresham.words.Words``);
    None for any other action."""
    money = words.money
    match action:
        case IssueBond():
            return f"Issue the bond for {money(variants.BOND)}"
        case RepayBond():
            return f"Repay the bond for {money(variants.BOND)}"
        case BuyStationToken(hex=coord, city=city, seller=seller, price=price):
            return f"Buy {seller}'s station in {words.city(coord, city)} for {money(price)}"
        case BuyEToken():
            return f"Buy an E-token for {money(variants.e_token_cost(game))}"
        case PayDebt():
            owed = -game.state.corps[action.entity].cash
            return f"The president pays {action.entity}'s debt of {money(owed)}"
    return None


VARIANT_STEPS: dict[str, Step] = {
    s.name: s for s in (BuyTokenStep(), ETokenStep(), InterestStep(), BondStep())
}
