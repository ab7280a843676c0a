"""1883's Government Concessions: fulfilment, bonuses, deadlines and penalties (§5.6, §6.12).

A concession is fulfilled as soon as a route can be traced, from one of the owning
corporation's stations, through all its places in the order of the table (other cities may lie
between), by a train with no limit on stops that other corporations' full cities block (5.6.1).
The red FS track is not track a concession's route can use. The search is
depth-first over the owner's network of stop-to-stop chains, in both directions of the list,
from the list's first place (ruling R7: a route through the places in order with a station
anywhere on it exists exactly when one begins at the first place of one of the two orders;
rules version 1 began anywhere and often ran out of steps before finding a route).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from tresham.core.actions import Action, Choose
from tresham.core.graph import reach
from tresham.core.prompts import Prompt
from tresham.routes.network import Network, bits_of, network_of
from tresham.titles.t1883 import events
from tresham.titles.t1883.facts import DATA, PHASE_FACTS
from tresham.titles.t1883.state import state_of
from tresham.titles.t1883.track_rules import FS
from tresham.titles.t1883.versions import PRUNED_SEARCH_VERSION

if TYPE_CHECKING:
    from tresham.core.game import Game

RULE = "1883 §5.6"
BONUS_PROMPT = "concession_bonus"
TO_TREASURY = "treasury"
AS_DIVIDEND = "dividend"
#: Bound on the search's steps per check (deterministic; a position that needs more is not
#: treated as fulfilled, ruling R7).
MAX_STEPS = 200_000
#: The rules version from which the search begins at the first place (ruling R7).
ANCHORED_SEARCH_VERSION = 2


def facts(game: Game, number: str) -> dict[str, Any]:
    """The concession's row of the table (App. 3)."""
    row: dict[str, Any] = next(c for c in DATA["concessions"] if str(c["number"]) == number)
    return row


def connects(
    game: Game,
    corp: str,
    places: list[str],
    *,
    station: bool = True,
    reached: dict[str, set[str]] | None = None,
) -> bool:
    """Whether `corp`'s network holds a route through `places` (hexes) in order, from one of
    its stations when `station` is true. `reached` keeps each corporation's reached hexes
    between calls on the same map (the quick answer)."""
    reached = {} if reached is None else reached
    if corp not in reached:
        reached[corp] = {h for h, _n in reach(game.state.map, corp).nodes}
    if not reached[corp].issuperset(places):
        return False  # (the quick answer: the route network is built from what is reached)
    net = network_of(game.state.map, corp)
    anchored = game.rules_version >= ANCHORED_SEARCH_VERSION
    for ordered in (places, places[::-1]):
        targets = [{i for i, (h, _n) in enumerate(net.stops) if h == p} for p in ordered]
        if any(not t for t in targets):
            return False
        starts = sorted(targets[0]) if anchored else range(len(net.stops))
        prune = game.rules_version >= PRUNED_SEARCH_VERSION
        if _search(net, targets, station, starts, prune):
            return True
    return False


def _search(
    net: Network,
    targets: list[set[int]],
    station: bool,
    starts: Iterable[int],
    prune: bool = False,
) -> bool:
    """Depth-first from each of `starts`: a simple path (no stop or track used twice, passing
    only stops that may be passed) through a stop of each target set in order, and through a
    station of the corporation when `station` is true. At most `MAX_STEPS` steps in all.
    With `prune`, a step from which a place still to pass (or the station still needed)
    cannot be reached at all is not followed: the same answers, found in fewer steps."""
    steps = 0
    masks = [sum(1 << i for i in t) for t in targets]
    tokens = sum(1 << i for i, has in enumerate(net.token) if has)
    passable = sum(1 << i for i, ok in enumerate(net.passable) if ok)
    links = [
        [(w, net.chains[cid].mask) for cid, w, _fwd in adj if FS not in net.chains[cid].gauges]
        for adj in net.adj
    ]

    def spread(sources: int, visited: int, used: int) -> int:
        """The stops reached from the stops `sources` (a bitset) over stops not visited,
        through stops that may be passed, on track not used."""
        seen, found, frontier = visited | sources, 0, bits_of(sources)
        while frontier:
            for w, mask in links[frontier.pop()]:
                if seen >> w & 1 or used & mask:
                    continue
                seen |= 1 << w
                found |= 1 << w
                if passable >> w & 1:
                    frontier.append(w)
        return found

    def open_ahead(v: int, visited: int, used: int, k: int, token: bool) -> bool:
        """Whether the places still to pass can be reached from `v` one after another (each
        leg over stops not visited and track not used, leaving each place but the last from a
        stop that may be passed), and a station if one is still needed: a bound, not a
        route (the legs may share stops)."""
        around = spread(1 << v, visited, used)
        if station and not token and not around & tokens:
            return False
        for j in range(k, len(masks)):
            hits = around & masks[j]
            if j < len(masks) - 1:
                hits &= passable
            if not hits:
                return False
            if j < len(masks) - 1:
                around = spread(hits, visited, used)
        return True

    def dfs(v: int, first: bool, visited: int, used: int, k: int, token: bool) -> bool:
        nonlocal steps
        steps += 1
        if steps > MAX_STEPS:
            return False
        if k < len(targets) and v in targets[k]:
            k += 1
        token = token or net.token[v]
        if k == len(targets) and (token or not station):
            return True
        if not first and not net.passable[v]:
            return False
        if prune and not open_ahead(v, visited, used, k, token):
            return False
        for cid, w, _fwd in net.adj[v]:
            chain = net.chains[cid]
            mask = chain.mask
            if visited >> w & 1 or used & mask or FS in chain.gauges:
                continue
            if dfs(w, False, visited | 1 << w, used | mask, k, token):
                return True
        return False

    return any(dfs(s, True, 1 << s, 0, 0, False) for s in starts)


def after_lay(game: Game, corp: str) -> None:
    """5.6.1: after every lay, each owned concession now fulfilled pays its owner the bonus of
    the phase; an unowned one whose places the laying corporation's track now joins is
    removed from play (ruling R6)."""
    held = state_of(game).concessions
    reached: dict[str, set[str]] = {}  # the map does not change in this loop
    for number, status in held.status.items():
        if status.removed:
            continue
        places = [p["hex"] for p in facts(game, number)["route"]]
        owner = status.owner
        if owner is not None and connects(game, owner, places, reached=reached):
            level = PHASE_FACTS[game.phase.name]["concession_bonus"]
            bonus = int(facts(game, number)["bonus"][level])
            status.owner, status.removed, status.due = None, True, None
            held.fulfilled += 1
            game.log(f"{owner} fulfils Government Concession {number}: L.{bonus}")
            _offer_bonus(game, owner, bonus)
        elif owner is None and connects(game, corp, places, station=False, reached=reached):
            status.removed = True
            game.log(f"Government Concession {number} is joined unowned and leaves play")


def _offer_bonus(game: Game, corp: str, bonus: int) -> None:
    """5.6.1: the bonus goes to the treasury, unless the president plays a Political Support
    card to pay it to the stockholders as a dividend (12.3 without the cards: the president
    chooses freely). Bonuses of concessions fulfilled by the same lay wait in turn, each
    decided on its own (ruling R30)."""
    if _may_play_card(game, corp):
        held = state_of(game).concessions
        if held.bonus_waiting is None:
            held.bonus_waiting = {}
        waiting = held.bonus_waiting.setdefault(corp, [])
        waiting.append(bonus)
        if len(waiting) == 1:
            game.state.pending.insert(0, (BONUS_PROMPT, corp))
        return
    game.transfer("bank", corp, bonus)


def _may_play_card(game: Game, corp: str) -> bool:
    """Whether `corp`'s president may pay a bonus as a dividend now: holding a Political
    Support card (5.6.1), or always without the cards (12.3)."""
    pres = game.state.shares.president.get(corp)
    free = bool(game.options.get("no_events"))
    return pres is not None and (free or state_of(game).support.held.get(pres, 0) > 0)


class Bonus(Prompt):
    """A fulfilled concession's bonus (5.6.1): the president's choice, the treasury or a
    dividend while the president may play a card; a dividend pays the stockholders, the
    initial offering's and the pool's shares paying the treasury; no price move (ruling
    R25)."""

    kind = BONUS_PROMPT
    rule = BONUS_PROMPT

    def actions(self, game: Game, entity: str) -> list[Action]:
        corp = entity
        out: list[Action] = [Choose(corp, TO_TREASURY)]
        if _may_play_card(game, corp):
            out.append(Choose(corp, AS_DIVIDEND))
        return out

    def process(self, game: Game, entity: str, action: Action) -> None:
        corp = entity
        assert isinstance(action, Choose)
        s = game.state
        all_waiting = state_of(game).concessions.bonus_waiting
        assert all_waiting is not None
        waiting = all_waiting[corp]
        _pay_bonus(game, corp, waiting.pop(0), as_dividend=action.choice == AS_DIVIDEND)
        if waiting and _may_play_card(game, corp):
            s.pending.insert(0, (BONUS_PROMPT, corp))  # the next bonus of the same lay
            return
        del all_waiting[corp]
        for rest in waiting:  # no card left for them
            game.log(f"{corp} receives the next bonus, L.{rest}, in its treasury")
            _pay_bonus(game, corp, rest, as_dividend=False)

    def why(self, game: Game, entity: str) -> str:
        """5.6.1: the bonus of a fulfilled concession, and the president's two ways to pay it."""
        waiting = (state_of(game).concessions.bonus_waiting or {}).get(entity, [])
        pres = game.state.shares.president.get(entity)
        if not waiting or pres is None:
            return ""
        card = "" if game.options.get("no_events") else " with a Political Support card"
        return (
            f"{entity} fulfilled a concession: {pres} puts its {game.title.money(waiting[0])} "
            f"bonus in the treasury, or pays it as a dividend{card} (5.6.1)"
        )

    def words(self, game: Game, entity: str, action: Action, words: Any) -> str | None:
        """Where the bonus goes, and what it costs to pay it to the shareholders."""
        if not isinstance(action, Choose):
            return None
        waiting = (state_of(game).concessions.bonus_waiting or {}).get(entity, [])
        bonus = game.title.money(waiting[0]) if waiting else "the bonus"
        if action.choice == AS_DIVIDEND:
            return f"Play a Political Support card: pay {bonus} to the shareholders"
        return f"Put {bonus} in {entity}'s treasury"


#: The concessions' prompt, registered by the title (``Title.prompts``).
PROMPTS: tuple[Prompt, ...] = (Bonus(),)


def _pay_bonus(game: Game, corp: str, bonus: int, *, as_dividend: bool) -> None:
    """Pay one bonus into the treasury, or as a dividend (playing a card, 5.6.1)."""
    s = game.state
    if not as_dividend:
        game.transfer("bank", corp, bonus)
        return
    pres = s.shares.president[corp]
    assert pres is not None
    if not game.options.get("no_events"):
        cards = state_of(game).support
        cards.held[pres] -= 1
        cards.supply += 1
        game.log(f"{pres} plays a Political Support card: the bonus is paid as a dividend")
    paid = 0
    for p in s.players:
        share = bonus * s.shares.percent(p.name, corp) // 100
        game.transfer("bank", p.name, share)
        paid += share
    game.transfer("bank", corp, bonus - paid)


def end_of_operating_round(game: Game) -> None:
    """6.12: each owned concession's deadline moves down; one that runs out goes back to the
    pool and its owner pays twice its cost, the president adding what the treasury lacks,
    selling shares if need be, and going bankrupt if even that is short (6.9.6, ruling R8);
    owners in share-price order."""
    s = game.state
    every = state_of(game).concessions.status
    owned = [n for n, st in every.items() if st.owner is not None]
    owners = {every[n].owner for n in owned}
    for corp in s.market.operating_order([c for c in owners if c is not None and c in s.market]):
        for number in owned:
            status = every[number]
            if status.owner != corp:
                continue
            assert status.due is not None  # owned: a deadline runs (6.12)
            status.due -= 1
            penalty = 2 * int(facts(game, number)["cost"])
            if status.due == 1:  # said the operating round before, not only when it is due
                places = " - ".join(p["name"] for p in facts(game, number)["route"])
                game.log(
                    f"{corp} has one operating round left to join {places} (Government "
                    f"Concession {number}), or pays L.{penalty}"
                )
            if status.due > 0:
                continue
            status.owner, status.due = None, None
            game.log(f"{corp} fails Government Concession {number}: penalty L.{penalty}")
            c = s.corps[corp]
            pres = s.shares.president[corp]
            paid = min(penalty, c.cash)
            game.transfer(corp, "bank", paid)
            if penalty > paid and pres is not None:
                events.owe(game, pres, penalty - paid, corp)


def remove_unsold(game: Game) -> None:
    """5.6.2: when the first 8T is sold, every unsold concession leaves play."""
    for status in state_of(game).concessions.status.values():
        if status.owner is None:
            status.removed = True
