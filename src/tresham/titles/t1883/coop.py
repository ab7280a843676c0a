"""The CCFR Railway Co-operative (1883 §8.1) and its capitalisation (§8.2).

- It starts operating with its two home stations (Ciano and Reggio Emilia), two 2T and two
  2GT, and no money; each player holds a 10% share that cannot be traded (8.1.1, 8.1.5).
- Its presidency rotates left at the end of every OR among the players still holding their
  share; the first president is chosen at the end of the first SR (8.1.2).
- It lays a tile from each of its two home cities, pays no terrain, and builds, stations
  and runs only on or south of the FS Parma-Bologna line (8.1.3-8.1.4); it never issues,
  buys privates or concessions, and buys trains only from the bank; other corporations never
  buy its trains.
- It always pays out, unless its president loots it: the revenue goes to the president, the
  price moves left, and the president's share goes to the pool for half its value, ousting
  them from the presidency (8.1.6). With no player holding a share it is frozen (8.1.7).
- Trains by phase (8.1.5): the first 3T gives it a 3T for one of its 2T; the first 4T a 4T.
- The first 5T capitalises it (8.2): not frozen, it becomes a railway corporation with L.100
  and a 5T, its other trains and unowned shares go to the pool, and a president is chosen; frozen,
  it closes and may be floated like any other corporation, its stations staying on the map.

Its lays, one from each home city, and its free yellow tile in a hill or mountain hex (8.1.4,
ruling R9) are in ``operating.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tresham.core.actions import Action, Choose, Pass
from tresham.core.rounds.operating import OperatingRound, Step
from tresham.core.shares import POOL, treasury
from tresham.titles.t1883.facts import DATA
from tresham.titles.t1883.state import state_of

if TYPE_CHECKING:
    from tresham.core.game import Game

RULE = "1883 §8.1"
LOOT = "loot"
COOP_LAYS = 2
CAPITAL = 100


def is_coop(game: Game, corp: str) -> bool:
    """Whether `corp` is the Co-operative before its capitalisation."""
    return game.state.corps[corp].kind == "cooperative"


def holders(game: Game) -> list[str]:
    """Players still holding their Co-operative share, in seat order."""
    s = game.state
    coop = state_of(game).coop
    return [p.name for p in s.players if not p.bankrupt and s.shares.percent(p.name, coop)]


def frozen(game: Game) -> bool:
    """8.1.7: no player holds a Co-operative share."""
    return is_coop(game, state_of(game).coop) and not holders(game)


def set_president(game: Game, player: str | None) -> None:
    """The Co-operative's president acts for it (the president's certificate stays unsold)."""
    s = game.state
    state_of(game).coop_president = player
    s.shares.president[state_of(game).coop] = player


def rotate(game: Game) -> None:
    """8.1.2: at the end of every OR the presidency passes left to the next holder."""
    s = game.state
    if not is_coop(game, state_of(game).coop):
        return
    names = [p.name for p in s.players]
    current = state_of(game).coop_president
    held = holders(game)
    if not held:
        set_president(game, None)
        return
    start = names.index(current) if current in names else -1
    for k in range(1, len(names) + 1):
        candidate = names[(start + k) % len(names)]
        if candidate in held:
            set_president(game, candidate)
            return


def give_train(game: Game, kind: str) -> str | None:
    """Hand the Co-operative the bank's next unsold train of `kind` (8.1.5)."""
    s = game.state
    coop = state_of(game).coop
    train = next((t for t in s.depot.in_bank() if t.kind == kind), None)
    if train is None:
        return None
    train.owner = coop
    s.corps[coop].trains.append(train.tid)
    game.log(f"{coop} receives a {s.depot.name(train.tid)} train")
    return train.tid


def to_pool(game: Game, tid: str) -> None:
    s = game.state
    coop = state_of(game).coop
    s.corps[coop].trains.remove(tid)
    s.depot.trains[tid].owner = POOL
    game.log(f"{coop} puts its {s.depot.name(tid)} train in the pool")


def on_first_purchase(game: Game, kind: str) -> None:
    """8.1.5 and 8.2: the Co-operative's trains by phase, and its capitalisation at the
    first 5T."""
    s = game.state
    coop = state_of(game).coop
    if not is_coop(game, coop):
        return
    if kind == "5":
        capitalise(game)
        return
    if frozen(game):
        return
    if kind == "3":
        twos = [t for t in s.corps[coop].trains if s.depot.trains[t].kind == "2"]
        if twos:
            to_pool(game, twos[0])
        give_train(game, "3")
    elif kind == "4":
        give_train(game, "4")


def capitalise(game: Game) -> None:
    """8.2: the Co-operative becomes a railway corporation (or closes when frozen)."""
    s = game.state
    coop = state_of(game).coop
    corp = s.corps[coop]
    was_frozen = frozen(game)
    corp.kind = "railway"
    for tid in list(corp.trains):
        to_pool(game, tid)
    if was_frozen:
        # 8.2.2: closed; its shares return to the initial offering; its stations stay
        game.transfer(coop, "bank", corp.cash)
        for cert in s.shares.corp_certs(coop):
            s.shares.move(cert.cid, treasury(coop))
        s.shares.president[coop] = None
        if coop in s.market:  # not when it had already closed in the Closed section (R12)
            s.market.remove(coop)
        corp.parred = corp.floated = False
        corp.par_price = 0
        game.log(f"{coop} was frozen: it closes and may be floated")
        return
    game.transfer("bank", coop, CAPITAL)
    give_train(game, "5")
    held = holders(game)
    president = held[0] if len(held) == 1 else _capital_president(game, held)
    pres_cert = next(c for c in s.shares.corp_certs(coop) if c.president)
    own = s.shares.held(president, coop)[0]
    s.shares.move(own.cid, POOL)
    s.shares.move(pres_cert.cid, president)
    s.shares.president[coop] = president
    for cert in s.shares.held(treasury(coop), coop):
        s.shares.move(cert.cid, POOL)
    over = state_of(game).pool_over_limit
    if s.shares.percent(POOL, coop) > 50 and coop not in over:
        over.append(coop)  # 8.2.1: even past 50%
    state_of(game).coop_president = None
    game.log(f"{coop} is capitalised; {president} is its president")


def _capital_president(game: Game, held: list[str]) -> str:
    """8.2.1: the holder with the fewest presidencies (SARSA's included); ties: fewest
    railway presidencies, fewest permanent trains, fewest trains in their corporations,
    fewest shares, least money, then a die."""
    s = game.state
    permanent = {t["name"] for t in DATA["trains"] if t["rusts_on"] is None}

    def key(name: str) -> tuple[int, int, int, int, int, int]:
        presided = [sym for sym, pres in s.shares.president.items() if pres == name]
        railways = [sym for sym in presided if s.corps[sym].kind == "railway"]
        trains = [t for sym in railways for t in s.corps[sym].trains]
        return (
            len(presided),
            len(railways),
            sum(1 for t in trains if s.depot.trains[t].kind in permanent),
            len(trains),
            len(s.shares.held(name)),
            game.player(name).cash,
        )

    best = min(key(n) for n in held)
    tied = [n for n in held if key(n) == best]
    return tied[0] if len(tied) == 1 else s.rng.permutation(tied)[0]


class LootStep(Step):
    """8.1.6: before paying out, the Co-operative's president may loot it."""

    name = "loot"
    label = "looting"
    rule = f"{RULE}.6"

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        if not is_coop(game, corp) or (rnd.turn.revenue or 0) <= 0:
            return []
        return [Choose(corp, LOOT), Pass(corp)]

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        if not isinstance(action, Choose):
            return True
        s = game.state
        president = state_of(game).coop_president
        assert president is not None  # 8.1.2: an active Co-operative has a president
        revenue = rnd.turn.revenue or 0
        game.transfer("bank", president, revenue)
        share = s.shares.held(president, corp)[0]
        s.shares.move(share.cid, POOL)
        game.transfer("bank", president, s.market.price(corp) // 2)
        game.log(f"{president} loots {corp} for L.{revenue} and is ousted")
        rnd.turn.revenue = 0  # nothing left to pay: the dividend step moves the price left
        return True
