"""Every legal action in the words a player uses, with what it would do.

The browser table, the terminal and the bots' move lines all say an action the same way:
places by their town names ("Palermo (C1)"), trains by their names ("4H"), money in the
title's currency, a pass named for what it skips ("Lay no track"), the cheapest private of
an auction as a purchase, not a bid. Each choice also carries its consequences, found by
playing it on a search copy of the game and reading what changed: who pays or receives how
much (a tile's terrain cost, a token's fee, a share's price), the share prices that move,
presidencies that change hands, the dividend per share, a new phase and the trains it
rusts, companies that close, the end of the game. The copy's hidden order is drawn anew
(:meth:`Game.search_copy` with a seed), so no consequence reveals what no player knows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tresham.core.actions import (
    Action,
    Bankrupt,
    Bid,
    BuyCompany,
    BuyShares,
    BuyTrain,
    Choose,
    DiscardTrain,
    Dividend,
    IssueShares,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RedeemShares,
    RunRoutes,
    SellShares,
    UseCompany,
)
from tresham.core.end import EndReason
from tresham.core.errors import RuleError
from tresham.core.rounds.auction import WaterfallAuction
from tresham.core.rounds.operating import OperatingRound
from tresham.core.shares import POOL, treasury
from tresham.offers import answer_text, offer_facts

if TYPE_CHECKING:
    from tresham.core.game import Game, GameState

#: A step of a corporation's turn as players name it, and what passing in it means.
STEP_WORDS: dict[str, tuple[str, str]] = {
    "home": ("Place the home station", "Place no home station"),
    "merge": ("Merge", "Do not merge"),
    "bus": ("Buy a bus", "Buy no bus"),
    "track": ("Lay track", "Lay no track"),
    "token": ("Place a station", "Place no station"),
    "routes": ("Run trains", "Run no trains"),
    "gravity": ("Gravity railway", "Skip the gravity railway"),
    "events": ("Events", "Go on"),
    "loot": ("Loot", "Go on"),
    "dividend": ("Pay out or withhold", "Go on"),
    "issue": ("Issue or buy back shares", "Issue no shares"),
    "trains": ("Buy trains", "Buy no (more) trains"),
    "companies": ("Buy privates", "Buy no private"),
    "mail": ("Mail contract", "Go on"),
}

#: A choice's answer as a button says it, where its own word is not enough.
CHOICE_WORDS: dict[str, str] = {
    "loan": "Take a loan",
    "leave": "Leave the game (sell everything, keep no seat)",
    "accept": "Accept",
    "decline": "Decline",
}

#: How many lay choices (hex and tile) get their consequences worked out at most.
LAYS_PRICED = 400

#: An action's consequences: its effects, and its warnings (what it closes or ends).
Consequences = tuple[tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True)
class Choice:
    """A legal action as a player reads it: `text` (what it is), `effects` (what it would
    do, each one short sentence) and `warnings` (what it would end for good, said apart so
    that no one does it unawares: a corporation or a private that closes, the game's end).

    Where a table lets the player pick or name the price apart, the text comes in two parts
    too: `label`, the words without the price ("Buy a 4H from the bank", "Start AFG at"), and
    `detail`, the words the action adds to them ("for L.100", "L.100 in Palermo"); `text` is
    the two said together. `buys`: a bid that buys outright at its price (the cheapest private
    of a waterfall auction), shown as a purchase, not a bid."""

    text: str
    effects: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    label: str | None = None
    detail: str | None = None
    buys: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON data: ``{"text", "effects", "warnings", "label", "detail", "buys"}``."""
        return {
            "text": self.text,
            "effects": list(self.effects),
            "warnings": list(self.warnings),
            "label": self.label,
            "detail": self.detail,
            "buys": self.buys,
        }


def and_list(items: list[str]) -> str:
    """Items as a sentence lists them: "a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def or_name(state: GameState) -> str:
    """An operating round's short name, as 1849's and 1883's logs (and 18xx.games) give it:
    the stock round it follows, and its number in the set ("3.2")."""
    return f"{state.stock_round_no}.{state.or_in_set}"


def round_label(game: Game) -> str:
    """The round a player would name: "Auction", "Stock round 2", "Operating round 3.1"
    (in the title's own words: 1854's "Share Buying Round 2"), "First share round"; "Game
    over" once it is over."""
    state = game.state
    names = game.title.round_names
    if state.finished:
        return "Game over"
    rnd = state.round
    if rnd is None:
        return "Setting up"
    if rnd.kind == "stock":
        return f"{names['stock']} {state.stock_round_no}"
    if rnd.kind == "operating":
        return f"{names['operating']} {or_name(state)}"
    if rnd.kind == "auction":
        return "Auction"
    if rnd.kind in names:
        return names[rnd.kind]
    named = rnd.kind.replace("_", " ")
    return (named if "round" in named else f"{named} round").capitalize()


def bank_words(cash: int, broken: bool, money: Callable[[int], str]) -> str:
    """The bank's money as players read it; once broken, what it has paid beyond its last
    (never a negative amount)."""
    if cash < 0:
        return f"broken (it has paid {money(-cash)} beyond its last)"
    return money(cash) + (" (broken)" if broken else "")


def end_words(reason: EndReason | None) -> str:
    """Why a game ended, in words ("" while it goes on)."""
    return "" if reason is None else reason.words


class Words:
    """Names and sentences for one game's position."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.board = game.state.map.board

    # ------------------------------------------------------------------ names
    def money(self, amount: int) -> str:
        """An amount in the title's currency."""
        return self.game.title.money(amount)

    def place(self, coord: str) -> str:
        """A hex as players say it: "Palermo (C1)", or its coordinate alone."""
        return self.board.place(coord)

    def stop(self, stop: str) -> str:
        """A run's stop `"<hex>-<node>"` by its town's name."""
        return self.board.town(stop.rsplit("-", 1)[0])

    def train(self, tid: str) -> str:
        """A train by its name ("4H"; the variant it was bought as)."""
        return self.game.state.depot.name(tid)

    def holder(self, owner: str | None) -> str:
        """Where a train comes from: "the depot", "the pool", or a corporation."""
        if owner is None:
            return "the depot"
        if owner == POOL:
            return "the pool"
        return owner

    def city(self, coord: str, city: int) -> str:
        """A city of a hex: its town's name, and which of its cities when it has several."""
        cities = self.game.state.map.tile(coord).city_count
        return self.place(coord) + (f", city {city + 1} of {cities}" if cities > 1 else "")

    # ------------------------------------------------------------------ what it is
    def step(self) -> tuple[str, str]:
        """The step of the operating corporation's turn (label, and what a pass means);
        a pending prompt's question, else what it asks and why (as watchers read it);
        ("", "Pass") outside one."""
        rnd = self.game.state.round
        pending = self.game.state.pending
        if pending:
            kind, entity = pending[0]
            prompt = self.game.title.prompt(kind)
            return (prompt.question(self.game, entity) or prompt.why(self.game, entity), "Pass")
        if isinstance(rnd, OperatingRound):
            name = rnd.current_step(self.game).name
            return STEP_WORDS.get(name, (name.replace("_", " ").capitalize(), "Pass"))
        return ("", "Pass")

    def text(self, action: Action) -> str:
        """One action in words."""
        offer = offer_facts(self.game)
        if offer is not None and isinstance(action, Choose) and action.entity == offer["seller"]:
            return answer_text(offer, action.choice)
        pending = self.game.state.pending
        if pending:
            kind, entity = pending[0]
            said = self.game.title.prompt(kind).words(self.game, entity, action, self)
            if said is not None:
                return said
        own = self.game.title.action_words(self.game, action, self)
        if own is not None:
            return own
        m = self.money
        match action:
            case Pass():
                return self.pass_text()
            case Bid(company=co, price=price):
                if self.buys(action):
                    return f"Buy {co} for {m(price)}"
                return f"Bid {m(price)} on {co}"
            case Par() | BuyTrain() | BuyCompany():
                label, detail = self.priced(action)
                return f"{label} {detail}"
            case BuyShares(corporation=corp, source=source, percent=pct):
                where = "the pool" if source == POOL else f"{corp}'s treasury"
                return f"Buy {pct}% of {corp} from {where}"
            case SellShares(corporation=corp, percent=pct, last=last):
                return f"Sell {pct}% of {corp}" + (" (with the last certificate)" if last else "")
            case LayTile(hex=coord, tile=tile):
                return f"Lay tile {tile} on {self.place(coord)}"
            case PlaceToken(hex=coord, city=city):
                return f"Place a station in {self.city(coord, city)}"
            case RunRoutes(runs=runs):
                if not runs:
                    return "Run no trains"
                return "; ".join(
                    f"{self.train(r.train)}: " + " \N{EN DASH} ".join(self.stop(s) for s in r.stops)
                    for r in runs
                )
            case Dividend(kind=kind):
                return {"payout": "Pay out", "withhold": "Withhold", "half": "Pay half"}.get(
                    kind, kind.replace("_", " ").capitalize()
                )
            case DiscardTrain(train=tid):
                return f"Discard a {self.train(tid)}"
            case IssueShares(percent=pct):
                return f"Issue {pct}% to the pool"
            case RedeemShares(percent=pct):
                return f"Buy back {pct}% from the pool"
            case UseCompany(company=co, target=target):
                if not target:
                    return f"Use {co}"
                where = self.place(target) if target in self.board.hexes else target
                return f"Use {co} on {where}"
            case Choose(choice=choice):
                return CHOICE_WORDS.get(choice, choice.replace("_", " ").capitalize())
            case Bankrupt():
                return "Declare bankruptcy"
        return self.generic(action)

    def priced(self, action: Par | BuyTrain | BuyCompany) -> tuple[str, str]:
        """A priced action's words in two parts (`Choice.label` and `Choice.detail`): the
        words without the price, and the words the price (and a par's home) adds."""
        m = self.money
        match action:
            case Par(corporation=corp, price=price, home=home):
                return (f"Start {corp} at", m(price) + (f" in {self.place(home)}" if home else ""))
            case BuyTrain(train=tid, price=price, variant=variant):
                t = self.game.state.depot.trains.get(tid)
                source = self.holder(t.owner if t is not None else None)
                return (f"Buy a {variant or self.train(tid)} from {source}", f"for {m(price)}")
            case BuyCompany(company=co, price=price):
                owner = self.game.state.companies[co].owner
                return (f"Buy {co} from {owner}", f"for {m(price)}")

    def buys(self, action: Action) -> bool:
        """Whether `action` is a bid that buys outright: a bid on the cheapest private of a
        waterfall auction is its purchase at that price."""
        rnd = self.game.state.round
        return (
            isinstance(action, Bid)
            and isinstance(rnd, WaterfallAuction)
            and bool(rnd.unsold)
            and action.company == rnd.unsold[0]
        )

    @staticmethod
    def generic(action: Action) -> str:
        """A title's own action: its name and its values."""
        data = action.to_json()
        values = [
            str(v)
            for k, v in data.items()
            if k not in ("type", "entity") and v is not None and v != ""
        ]
        return " ".join([action.type.replace("_", " ").capitalize(), *values])

    def pass_text(self) -> str:
        """What a pass skips, in the step or round it is made in."""
        rnd = self.game.state.round
        if self.game.state.pending:
            return "Pass"
        if isinstance(rnd, OperatingRound):
            return self.step()[1]
        if isinstance(rnd, WaterfallAuction):
            return "Pass (the auction goes on)"
        if rnd is not None and rnd.kind == "stock":
            return "Pass (buy nothing more this turn)"
        return "Pass"

    # ------------------------------------------------------------------ what it does
    def choices(self, actions: list[Action]) -> list[Choice]:
        """Each action in words, with its consequences (none for bids, passes and runs:
        their text says it all; the lays' worked out once per hex and tile)."""
        priced: dict[tuple[str, str], Consequences] = {}
        out = []
        for action in actions:
            found: Consequences = ((), ())
            if isinstance(action, LayTile):
                key = (action.hex, action.tile)
                if key not in priced and len(priced) < LAYS_PRICED:
                    priced[key] = self.consequences(action)
                found = priced.get(key, found)
            elif not isinstance(action, Bid | Pass | RunRoutes):
                found = self.consequences(action)
            text = self.text(action)
            label = detail = None
            if isinstance(action, Par | BuyTrain | BuyCompany) and text == " ".join(
                parts := self.priced(action)
            ):
                label, detail = parts
            out.append(Choice(text, *found, label=label, detail=detail, buys=self.buys(action)))
        return out

    def effects(self, action: Action) -> tuple[str, ...]:
        """What `action` itself would change that players see (its warnings first)."""
        effects, warnings = self.consequences(action)
        return warnings + effects

    def consequences(self, action: Action) -> Consequences:
        """What `action` itself would change that players see, played on a search copy: its
        own effect, before the game moves on past steps with nothing to decide; the effects,
        and the warnings (what it closes or ends) apart."""
        game = self.game
        before = Snapshot.of(game)
        copy = game.search_copy(reseed=0)
        try:
            copy.title.process(copy, action)
        except RuleError:  # a title that refuses the action only once it is played
            return ((), ())
        asked = offer_facts(copy)
        if asked is not None and self.game.state.offer is None:
            return ((f"{asked['text']}: it waits for {asked['asked']}'s answer",), ())
        after = Snapshot.of(copy)
        warnings = before.closures(after, self, action)
        return (tuple(before.others(after, self, action)), tuple(warnings))


@dataclass(frozen=True)
class Snapshot:
    """What players watch in a position: cash, prices, presidents, shares, phase, trains,
    open companies and corporations, the end."""

    cash: dict[str, int]
    prices: dict[str, int]
    presidents: dict[str, str | None]
    holdings: dict[tuple[str, str], int]
    phase: str
    trains: dict[str, str | None]
    companies: frozenset[str]
    corps: frozenset[str]
    floated: frozenset[str]
    finished: bool

    @staticmethod
    def of(game: Game) -> Snapshot:
        """The snapshot of `game`'s position."""
        s = game.state
        cash = {p.name: p.cash for p in s.players}
        cash.update({sym: c.cash for sym, c in s.corps.items()})
        holders = [p.name for p in s.players] + [POOL] + [treasury(sym) for sym in s.corps]
        return Snapshot(
            cash=cash,
            prices={sym: s.market.price(sym) for sym in s.corps if sym in s.market},
            presidents=dict(s.shares.president),
            holdings={
                (who, sym): pct
                for who in holders
                for sym in s.corps
                if (pct := s.shares.percent(who, sym))
            },
            phase=game.phase.name,
            trains={tid: t.owner for tid, t in s.depot.trains.items()},
            companies=frozenset(sym for sym, co in s.companies.items() if not co.closed),
            corps=frozenset(sym for sym, c in s.corps.items() if not c.closed),
            floated=frozenset(sym for sym, c in s.corps.items() if c.floated),
            finished=s.finished,
        )

    def changes(self, after: Snapshot, words: Words, action: Action | None) -> list[str]:
        """The differences from this position to `after`, made by `action`, as sentences:
        what closes or ends first."""
        return self.closures(after, words, action) + self.others(after, words, action)

    def closing(self, after: Snapshot) -> list[str]:
        """The corporations that close: those that leave the game, and those that stop being
        floated (a title that lets one start again, as 1883 §5.8, keeps it in the game)."""
        return sorted((self.corps - after.corps) | (self.floated & after.corps - after.floated))

    def closures(self, after: Snapshot, words: Words, action: Action | None) -> list[str]:
        """What closes or ends: each corporation that closes, with the money and trains it
        loses and the shares its holders lose; each private that closes; the game's end."""
        m = words.money
        out: list[str] = []
        for sym in self.closing(after):
            why = words.game.title.why_closes(words.game, action, sym) if action else ""
            lost = []
            if (cash := self.cash.get(sym, 0) - after.cash.get(sym, 0)) > 0:
                lost.append(f"its {m(cash)}")
            gone = sorted(
                words.train(t)
                for t, owner in self.trains.items()
                if owner == sym and after.trains.get(t) != sym
            )
            if gone:
                lost.append(f"its train{'s' if len(gone) > 1 else ''} ({', '.join(gone)})")
            if shares := self.shares_lost(after, sym, action):
                lost.append(f"{and_list(shares)} of {sym}")
            closes = f"{sym} closes: {why}" if why else f"{sym} closes"
            out.append(closes + (f". Lost with it: {'; '.join(lost)}" if lost else ""))
        companies = words.game.state.companies
        for sym in sorted(self.companies - after.companies):
            name = companies[sym].name if sym in companies else ""
            out.append(
                f"The private {name} ({sym}) closes" if name else f"The private {sym} closes"
            )
        if after.finished and not self.finished:
            out.append("The game ends")
        return out

    def shares_lost(self, after: Snapshot, sym: str, action: Action | None) -> list[str]:
        """The shares of `sym` its players lose with it ("Bob's 30%"), other than those
        `action` sells."""
        out = []
        for (who, corp), was in sorted(self.holdings.items()):
            if corp != sym or who not in self.cash or who in self.presidents:
                continue  # not a player's
            lost = was - after.holdings.get((who, sym), 0)
            if isinstance(action, SellShares) and (action.entity, action.corporation) == (who, sym):
                lost -= action.percent
            if lost > 0:
                out.append(f"{who}'s {lost}%")
        return out

    def others(self, after: Snapshot, words: Words, action: Action | None) -> list[str]:
        """The differences other than what closes or ends: money, prices, floats,
        presidents, the phase, trains that leave the game (a dividend's money is said per
        share). A corporation that closes is not said to pay out what it loses."""
        m = words.money
        out: list[str] = []
        closing = set(self.closing(after))
        if isinstance(action, Dividend):
            out += self.dividend(after, words, action.entity)
        else:
            for who, was in self.cash.items():
                if who in closing:
                    continue
                now = after.cash.get(who, was)
                if now < was:
                    out.append(f"{who} pays {m(was - now)} ({m(was)} → {m(now)})")
                elif now > was:
                    out.append(f"{who} receives {m(now - was)} ({m(was)} → {m(now)})")
        for sym, was in self.prices.items():
            now = after.prices.get(sym, was)
            if now != was:
                out.append(
                    f"{sym}'s share price {'rises' if now > was else 'falls'}: {m(was)} → {m(now)}"
                )
        for sym in sorted(after.floated - self.floated):
            out.append(f"{sym} floats")
        for sym, old in self.presidents.items():
            new = after.presidents.get(sym)
            if new != old and new is not None and sym in after.corps:
                role = words.game.title.president_word
                out.append(f"{new} becomes {role} of {sym}" + (f" in {old}'s place" if old else ""))
        if after.phase != self.phase:
            out.append(f"Phase {after.phase} begins")
        rusted: dict[str, int] = {}
        for tid, owner in after.trains.items():
            if owner == "rusted" and self.trains.get(tid) != "rusted":
                rusted[words.train(tid)] = rusted.get(words.train(tid), 0) + 1
        for name, count in rusted.items():
            many = count > 1
            out.append(f"{count} {name} train{'s leave' if many else ' leaves'} the game")
        return out

    def dividend(self, after: Snapshot, words: Words, corp: str) -> list[str]:
        """A dividend's effect: what each 10% share of `corp` pays its holders, and what
        the corporation itself gains (its own and the pool's shares, or all it withholds)."""
        m = words.money
        out = []
        paid = {
            (after.cash[who] - self.cash[who]) * 10 / pct
            for (who, sym), pct in self.holdings.items()
            if sym == corp and who in self.cash and who not in self.presidents
        }
        if len(paid) == 1 and (amount := paid.pop()) > 0 and amount == int(amount):
            out.append(f"{m(int(amount))} per 10% share")
        gained = after.cash.get(corp, 0) - self.cash.get(corp, 0)
        if gained > 0:
            out.append(f"{corp} keeps {m(gained)}")
        return out
