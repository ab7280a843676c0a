"""The SEFTA merger of FMV and FSMMF (1883 §8.4, steps A-G).

From the first 4T, as the last action of its turn, FMV or FSMMF may merge with the other if
both presidents agree, a route joins a station of one to a station of the other, and both
have completed an OR. Then:
- A: SEFTA takes over both corporations' trains, port tokens, treasuries and concessions.
- B: its price (and par) is the sum of their prices, at most L.150, on the nearest value at or
  below it, in the rightmost column holding that value.
- C: from the active corporation's president clockwise, then the initial offering, then the
  pool: each president's certificate and each pair of 10% shares becomes a 10% SEFTA share;
  the first player to reach 20% receives SEFTA's president's certificate.
- D: each player's odd 10% share is converted for half a SEFTA share's price (rounded up,
  paid to SEFTA) or given up for the same amount from the bank; the largest holder then
  holds the president's certificate.
- E: if no player holds more than 10%, the active corporation's president buys another 10%
  (ruling R16 when they cannot).
- F: SEFTA's remaining shares stay in its initial offering; FMV and FSMMF leave the game.
- G: up to four of their stations become SEFTA's, Modena and Vignola first; the rest leave.
The merger closes the privates (3.4).

Variant 12.1 (option ``mandatory_sefta``): if it has not happened, the merger happens after the
turn of the corporation that bought the first 5T, connected or not, without consent, the
corporation with the higher share price active; SEFTA operates in that OR if neither FMV nor
FSMMF has; with either of them not in play, SEFTA leaves the game instead (ruling R28).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tresham.core.actions import Action, Choose, Pass
from tresham.core.entities import Corporation
from tresham.core.graph import reach
from tresham.core.prompts import Prompt, queue_discards
from tresham.core.rounds.operating import OperatingRound, Step
from tresham.core.shares import POOL, treasury
from tresham.core.stock import bundle_price, update_president
from tresham.titles.t1883.facts import BOARD, DATA, MARKET, PHASE_FACTS
from tresham.titles.t1883.privates import close_all
from tresham.titles.t1883.state import PortTokens, SeftaMerging, state_of

if TYPE_CHECKING:
    from tresham.core.game import Game

RULE = "1883 §8.4"
#: Prompts: the other director's consent to a merger (8.4); a player's odd share (step D).
CONSENT = "sefta_consent"
LEFTOVER = "sefta_leftover"
MERGE = "merge"
AGREE = "agree"
REFUSE = "refuse"
CONVERT = "convert"
DISCARD = "discard"


def facts(game: Game) -> dict[str, Any]:
    row: dict[str, Any] = next(c for c in DATA["corporations"] if c.get("merger_of"))
    return row


def partner(game: Game, corp: str) -> str | None:
    pair: list[str] = facts(game)["merger_of"]
    return next((c for c in pair if c != corp), None) if corp in pair else None


def can_merge(game: Game, corp: str) -> bool:
    """8.4's conditions, from `corp`'s turn."""
    s = game.state
    other = partner(game, corp)
    if other is None or facts(game)["sym"] in s.corps or state_of(game).sefta.removed:
        return False
    if not PHASE_FACTS[game.phase.name]["sefta_merger"]:
        return False
    for sym in (corp, other):
        c = s.corps[sym]
        if not c.floated or c.closed or c.operated < 1 or sym not in s.market:
            return False
    theirs = set(s.map.tokens_of(other))
    return bool(theirs & set(reach(s.map, corp).nodes))


class MergeStep(Step):
    """The merger as the last action of FMV's or FSMMF's turn (8.4)."""

    name = "merge"
    label = "the SEFTA merger"
    rule = RULE

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        return [Choose(corp, MERGE), Pass(corp)] if can_merge(game, corp) else []

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        if not isinstance(action, Choose):
            return True
        s = game.state
        other = partner(game, corp)
        assert other is not None
        mine, theirs = s.shares.president[corp], s.shares.president[other]
        assert mine is not None and theirs is not None
        state_of(game).sefta.active = corp
        if mine == theirs:
            merge(game, corp)
        else:
            s.pending.append((CONSENT, theirs))
        return True


def mandatory(game: Game, rnd: OperatingRound) -> None:
    """Variant 12.1, after the turn of the first 5T's buyer."""
    s = game.state
    sym = facts(game)["sym"]
    if sym in s.corps:
        return
    pair: list[str] = facts(game)["merger_of"]
    live = [c for c in pair if s.corps[c].floated and not s.corps[c].closed and c in s.market]
    if len(live) < len(pair):
        state_of(game).sefta.removed = True
        game.log(f"{sym} leaves the game: {' and '.join(pair)} are not both in play (12.1)")
        return
    active = s.market.operating_order(live)[0]
    ran = any(c in rnd.done or c == rnd.corp() for c in pair)
    game.log(f"The mandatory {sym} merger (12.1), {active} active")
    merge(game, active)
    if not ran:  # SEFTA operates in its formation round
        later = [*rnd.order[rnd.index + 1 :], sym]
        rnd.order[rnd.index + 1 :] = s.market.operating_order([c for c in later if c in s.market])


class Consent(Prompt):
    """8.4: the other director agrees to the proposed SEFTA merger or refuses it."""

    kind = CONSENT
    rule = CONSENT

    def actions(self, game: Game, entity: str) -> list[Action]:
        player = entity
        return [Choose(player, AGREE), Choose(player, REFUSE)]

    def process(self, game: Game, entity: str, action: Action) -> None:
        player = entity
        assert isinstance(action, Choose)
        sefta = state_of(game).sefta
        corp, sefta.active = sefta.active, None
        assert corp is not None  # 8.4: the consent answers a proposed merger
        if action.choice == AGREE:
            merge(game, corp)
        else:
            game.log(f"{player} refuses the SEFTA merger")

    def why(self, game: Game, entity: str) -> str:
        """8.4: the active corporation's president proposes; both presidents must agree."""
        corp = state_of(game).sefta.active
        if corp is None:
            return ""
        proposer = game.state.shares.president.get(corp) or corp
        return (
            f"{proposer} proposes, in {corp}'s turn, to merge FMV and FSMMF into SEFTA: "
            f"{entity}, the other president, agrees or refuses (8.4)"
        )

    def words(self, game: Game, entity: str, action: Action, words: Any) -> str | None:
        return _said(action, CONSENT_WORDS)


class Leftover(Prompt):
    """Step D for one player's odd share: convert it into SEFTA for half its price, or
    give it up for half its price from the bank."""

    kind = LEFTOVER
    rule = LEFTOVER

    def actions(self, game: Game, entity: str) -> list[Action]:
        player = entity
        sefta = facts(game)["sym"]
        s = game.state
        half = -(-s.market.price(sefta) // 2)
        can = game.player(player).cash >= half and any(
            c.percent == 10 for c in s.shares.held(treasury(sefta), sefta)
        )
        return (
            [Choose(player, CONVERT), Choose(player, DISCARD)] if can else [Choose(player, DISCARD)]
        )

    def process(self, game: Game, entity: str, action: Action) -> None:
        player = entity
        assert isinstance(action, Choose)
        s = game.state
        sefta = facts(game)["sym"]
        half = -(-s.market.price(sefta) // 2)
        if action.choice == CONVERT:
            cert = next(c for c in s.shares.held(treasury(sefta), sefta) if c.percent == 10)
            game.transfer(player, sefta, half)
            s.shares.move(cert.cid, player)
            game.log(f"{player} converts a share into SEFTA for L.{half}")
        else:
            game.transfer("bank", player, half)
            game.log(f"{player} gives up a share for L.{half}")
        if not self.asked(game):
            _finish(game)

    def why(self, game: Game, entity: str) -> str:
        """8.4 step D: an odd FMV or FSMMF share converted or discarded, at half a SEFTA
        share's value (rounded up) either way."""
        sefta = facts(game)["sym"]
        half = game.title.money(-(-game.state.market.price(sefta) // 2))
        convert = Choose(entity, CONVERT) in self.actions(game, entity)
        choice = f"pays {half} to convert it into {sefta}, or" if convert else "must"
        return (
            f"{entity} holds an odd FMV or FSMMF share after the {sefta} merger: {entity} "
            f"{choice} gives it up for {half} from the bank (8.4 step D)"
        )

    def words(self, game: Game, entity: str, action: Action, words: Any) -> str | None:
        return _said(action, LEFTOVER_WORDS)


#: The consent's answers in a player's words.
CONSENT_WORDS = {
    AGREE: "Agree to merge FMV and FSMMF into SEFTA",
    REFUSE: "Refuse the SEFTA merger",
}
#: An odd share's answers in a player's words.
LEFTOVER_WORDS = {
    CONVERT: "Pay half a SEFTA share's price for a SEFTA share for your odd share",
    DISCARD: "Give up your odd share for half a SEFTA share's price",
}


def _said(action: Action, said: dict[str, str]) -> str | None:
    """A `Choose` answer in the words `said` gives its choice (None for any other)."""
    return said.get(action.choice) if isinstance(action, Choose) else None


#: The SEFTA merger's prompts, registered by the title (``Title.prompts``).
PROMPTS: tuple[Prompt, ...] = (Consent(), Leftover())


def merge(game: Game, active: str) -> None:
    """Steps A-C, then D's prompts (F, G and the checks follow them)."""
    s = game.state
    st = state_of(game)
    f = facts(game)
    sym = f["sym"]
    pair: list[str] = f["merger_of"]
    other = partner(game, active)
    assert other is not None
    # A
    corp = Corporation(
        sym, f["name"], kind="railway", tokens=len(f["token_costs"]), home=f["homes"][0]
    )
    s.corps[sym] = corp
    s.shares.add_corporation(sym, f["shares"], False, treasury(sym))
    for old in pair:
        c = s.corps[old]
        game.transfer(old, sym, c.cash)
        for tid in list(c.trains):
            s.depot.trains[tid].owner = sym
        corp.trains += c.trains
        c.trains = []
        entry = st.ports.pop(old, None)
        if entry:
            mine = st.ports.setdefault(sym, PortTokens(0))
            mine.unplaced += entry.unplaced
            mine.placed += [h for h in entry.placed if h not in mine.placed]
        for status in st.concessions.status.values():
            if status.owner == old:
                status.owner = sym
    # B
    value = min(int(f["max_value"]), sum(s.market.price(c) for c in pair))
    cells = [c for c in MARKET.cells.values() if c.price <= value]
    top = max(c.price for c in cells)
    cell = max((c for c in cells if c.price == top), key=lambda c: c.pos[1])
    s.market.place(sym, cell.pos)
    corp.parred = corp.floated = True
    corp.par_price = cell.price
    corp.operated = 1
    game.log(f"SEFTA forms at L.{cell.price}")
    # C
    names = [p.name for p in s.players]
    pres = s.shares.president[active]
    start = names.index(pres) if pres in names else 0
    holders = [names[(start + k) % len(names)] for k in range(len(names))]
    leftovers: list[str] = []
    president_given = False
    for holder in [*holders, treasury(active), treasury(other), POOL]:
        certs = [c for old in pair for c in s.shares.held(holder, old)]
        tens = [c for c in certs if not c.president]
        units = sum(1 for c in certs if c.president) + len(tens) // 2
        if holder in names and len(tens) % 2:
            leftovers.append(holder)
        target = holder if holder in names else (POOL if holder == POOL else treasury(sym))
        if holder in names and not president_given and units >= 2:
            s.shares.move(f"{sym}_0", holder)
            s.shares.president[sym] = holder
            president_given = True
            units -= 2
        free = [c for c in s.shares.held(treasury(sym), sym) if not c.president]
        for cert in free[:units]:
            s.shares.move(cert.cid, target)
    buyer = s.shares.president[active]  # E's buyer, before F
    for old in pair:  # F: FMV and FSMMF leave the game
        s.shares.remove_corporation(old)
        s.market.remove(old)
        c = s.corps[old]
        c.closed, c.floated, c.parred = True, False, False
    st.sefta.merging = SeftaMerging(pair, buyer)
    if s.shares.percent(POOL, sym) > 50:  # ruling R17: the pool's pairs convert regardless
        st.pool_over_limit.append(sym)
    for player in leftovers:
        s.pending.append((LEFTOVER, player))
    queue_discards(game, [sym])  # 6.9.4; 2GT do not count (6.9.5)
    if not leftovers:
        _finish(game)


def _finish(game: Game) -> None:
    """D's presidency check, E and G; the privates close."""
    s = game.state
    f = facts(game)
    sym = f["sym"]
    st = state_of(game)
    merging = st.sefta.merging
    assert merging is not None  # merge() began D-G
    st.sefta.merging = None
    pair, active_president = merging.pair, merging.buyer
    update_president(game, sym, s.shares.president[sym])
    names = [p.name for p in s.players]
    if all(s.shares.percent(n, sym) <= 10 for n in names):
        buyer = active_president or s.shares.president[sym]
        free = [c for c in s.shares.held(treasury(sym), sym) if c.percent == 10]
        price = bundle_price(game, sym, 10)
        if buyer is not None and free and game.player(buyer).cash >= price:
            game.transfer(buyer, sym, price)
            s.shares.move(free[0].cid, buyer)
            update_president(game, sym, s.shares.president[sym])
    if s.shares.president[sym] is None:
        best = max(names, key=lambda n: s.shares.percent(n, sym))
        s.shares.president[sym] = best
        s.shares.move(f"{sym}_0", best)
    # G
    homes = BOARD.home_cities[sym]
    cities: list[tuple[str, int]] = []
    for old in pair:
        cities += [c for c in s.map.tokens_of(old) if c not in cities]
    cities.sort(key=lambda c: (c not in homes, c))
    for old in pair:
        s.map.remove_all_tokens(old)
        s.map.release_reservation(old)
    for coord, node in cities[: int(f["max_station_exchange"])]:
        s.map.place_token(sym, coord, node, beyond_slots=True)  # it replaces a station (R29)
        s.corps[sym].placed.append((coord, node))
    if not all(c.closed for c in s.companies.values()):
        close_all(game)
    st.sefta.mergers += 1
    game.log(f"FMV and FSMMF have merged into {sym}; the privates close")
