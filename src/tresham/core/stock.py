"""Share dealing shared by stock rounds and operating rounds: prices, buying, selling,
presidency changes, certificate limits.

Standard 18xx rules modelled here:
- a player's certificates (and privates, where the title says so) count toward a limit;
- a player may hold at most a capped percentage of one corporation (60% by default);
- the president is the holder of the largest share; a tie keeps the sitting president; a new
  president takes the president's certificate in exchange for certificates of the same size;
- shares sold go to the pool, which may hold at most a capped percentage (50% by default);
- the pool never holds the president's certificate.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from tresham.core.errors import RuleError
from tresham.core.shares import POOL, Certificate, ShareRegistry, treasury

if TYPE_CHECKING:
    from tresham.core.game import Game


_COUNTS = {1: "a", 2: "two", 3: "three", 4: "four"}


@dataclass(frozen=True)
class Handover:
    """A presidency changing hands by the certificate exchange: `new` takes the president's
    certificate (`percent`) from `old` and gives `given` for it."""

    corp: str
    old: str
    new: str
    given: tuple[Certificate, ...]
    percent: int

    def words(self, role: str = "president") -> str:
        """The log line: who presides now, and what was exchanged with whom ("Bob becomes
        president of AFG: Bob hands Ann two 10% certificates for the president's
        certificate (20%)"); `role` is the title's word (1854: "Director")."""
        kinds: dict[tuple[int, bool], int] = {}
        for c in self.given:
            kinds[(c.percent, c.last)] = kinds.get((c.percent, c.last), 0) + 1
        parts = [
            f"the {pct}% last certificate"
            if last and n == 1
            else f"{_COUNTS.get(n, str(n))} {pct}%{' last' if last else ''} "
            f"certificate{'s' if n > 1 else ''}"
            for (pct, last), n in sorted(kinds.items())
        ]
        return (
            f"{self.new} becomes {role} of {self.corp}: {self.new} hands {self.old} "
            f"{' and '.join(parts)} for the {role}'s certificate ({self.percent}%)"
        )


def bundle_price(game: Game, corp: str, percent: int) -> int:
    """Market value of `percent` of `corp` (the price is for its share unit, usually 10%)."""
    return game.state.market.price(corp) * percent // game.state.corps[corp].share_unit


def player_certs(game: Game, player: str) -> int:
    """How many certificates count toward `player`'s limit."""
    count = 0
    for cert in game.state.shares.held(player):
        corp = game.state.corps.get(cert.corp)
        if corp is None:
            continue
        if cert.corp in game.state.market and game.state.market.cell(cert.corp).has(
            "no_cert_limit"
        ):
            continue
        count += 1
    if game.title.privates_count_toward_limit:
        count += sum(1 for c in game.state.companies.values() if c.owner == player and not c.closed)
    return count


def update_president(
    game: Game, corp: str, previous: str | None, *, hand_over_last: bool = False
) -> str | None:
    """Re-decide the presidency after a transfer; exchange certificates on a change.

    The president changes only if another player now holds strictly more. Among equal
    largest holders, the first after the previous president in seat order wins. The new
    president hands over certificates worth the president's certificate (two 10%, or a
    certificate of the same size where it holds one; with `hand_over_last`, a "last"
    certificate of that size first), which go to the old president."""
    reg = game.state.shares
    names = [p.name for p in game.state.players]
    holdings = {n: reg.percent(n, corp) for n in names}
    current = reg.president[corp]
    cur_pct = holdings.get(current, 0) if current else 0
    best = max(holdings.values()) if holdings else 0
    if current is not None and cur_pct >= best:
        return current
    pres_cert = next(c for c in reg.corp_certs(corp) if c.president)
    if best < pres_cert.percent:
        if current is None:
            return None
        # no one can take the presidency: the current president keeps it
        return current
    start = names.index(previous) if previous in names else 0
    ordered = names[start + 1 :] + names[: start + 1]
    new = next(n for n in ordered if holdings[n] == best)
    if current is None:
        reg.president[corp] = new
        return new
    # exchange: the new president gives ordinary certificates worth the president's one
    given = _certs_worth(reg.held(new, corp), pres_cert.percent, prefer_last=hand_over_last)
    for c in given:
        reg.move(c.cid, current)
    reg.move(pres_cert.cid, new)
    reg.president[corp] = new
    handover = Handover(corp, current, new, tuple(given), pres_cert.percent)
    game.log(handover.words(game.title.president_word))
    return new


def _certs_worth(
    certs: list[Certificate], percent: int, *, prefer_last: bool = False
) -> list[Certificate]:
    """Choose ordinary certificates of `certs` adding up to `percent`: 10% certificates
    first, else one certificate of that size (with `prefer_last`: a "last" certificate of
    that size before anything else)."""
    ordinary = sorted((c for c in certs if not c.president), key=lambda c: (c.last, c.cid))
    if prefer_last:
        lasts = [c for c in ordinary if c.last and c.percent == percent]
        if lasts:
            return lasts[:1]
    out: list[Certificate] = []
    total = 0
    for c in ordinary:
        if c.last:
            continue
        if total + c.percent <= percent:
            out.append(c)
            total += c.percent
        if total == percent:
            return out
    same = [c for c in ordinary if c.percent == percent]
    if same:
        return same[:1]
    raise RuleError(
        "the new president cannot exchange for the president's certificate", "presidency"
    )


def sell_to_pool(game: Game, seller: str, corp: str, percent: int, last: bool) -> None:
    """`seller` sells `percent` of `corp` to the pool (bank pays market value).

    If the seller is the president and would then hold less than another player, that player
    first becomes president by the certificate exchange; the seller then sells ordinary
    certificates. If the exchange left the seller a 20% certificate where a 10% is sold, the
    20% goes to the pool and a 10% comes back from it (the president's share sold "as
    10%")."""
    value = bundle_price(game, corp, percent)
    names = [p.name for p in game.state.players]
    handover = move_sale_certs(game.state.shares, names, seller, corp, percent, last)
    if handover is not None:
        game.log(handover.words(game.title.president_word))
    game.transfer("bank", seller, value)


def move_sale_certs(
    reg: ShareRegistry,
    names: list[str],
    seller: str,
    corp: str,
    percent: int,
    last: bool,
    keep: Collection[str] = (),
) -> Handover | None:
    """Move the certificates of a sale to the pool (exchanging the presidency first where
    needed); returns the exchange, if the presidency changed. Certificates in `keep` are
    neither sold nor given in the exchange (e.g. shares bought on option and not yet paid).
    Raises RuleError if impossible."""
    handover = None
    if _exchange_first(reg, names, seller, corp, percent):
        handover = _hand_over_presidency(reg, names, seller, corp, keep)
    for cid, to in _sale_moves(reg, seller, corp, percent, last, keep):
        reg.move(cid, to)
    return handover


def _exchange_first(
    reg: ShareRegistry, names: list[str], seller: str, corp: str, percent: int
) -> bool:
    """Whether the sale makes the seller, its president, hold less than another player (the
    presidency is then exchanged before the sale)."""
    if reg.president[corp] != seller:
        return False
    remaining_after = reg.percent(seller, corp) - percent
    return any(reg.percent(o, corp) > remaining_after for o in names if o != seller)


def _sale_moves(
    reg: ShareRegistry, seller: str, corp: str, percent: int, last: bool, keep: Collection[str]
) -> list[tuple[str, str]]:
    """The certificate moves (certificate, to) of the sale itself: ordinary certificates to
    the pool, or a 20% one to the pool and a 10% back from it where the seller holds no 10%
    to make up the amount. Raises RuleError if impossible."""
    held = [c for c in reg.held(seller, corp) if c.cid not in keep]
    try:
        return [(c.cid, POOL) for c in choose_sale_certs(held, percent, last)]
    except RuleError:
        big = [c for c in held if not c.president and c.percent == percent + 10]
        back = [c for c in reg.held(POOL, corp) if c.percent == 10]
        if not big or not back:
            raise
        return [(big[0].cid, POOL), (back[0].cid, seller)]


def sale_possible(
    game: Game, seller: str, corp: str, percent: int, last: bool, keep: Collection[str] = ()
) -> bool:
    """Whether the certificates of such a sale can be found (a sale preceded by a presidency
    exchange is tried on a copy)."""
    reg = game.state.shares
    names = [p.name for p in game.state.players]
    try:
        if _exchange_first(reg, names, seller, corp, percent):
            move_sale_certs(reg.copy(only=corp), names, seller, corp, percent, last, keep)
        else:
            _sale_moves(reg, seller, corp, percent, last, keep)
    except RuleError:
        return False
    return True


def _hand_over_presidency(
    reg: ShareRegistry, names: list[str], seller: str, corp: str, keep: Collection[str] = ()
) -> Handover:
    """The president sells down: the largest other holder (nearest in seat order on ties)
    takes the president's certificate, giving ordinary certificates (not in `keep`) in
    exchange."""
    i = names.index(seller)
    ordered = names[i + 1 :] + names[:i]
    best = max(reg.percent(o, corp) for o in ordered)
    new = next(o for o in ordered if reg.percent(o, corp) == best)
    pres = next(c for c in reg.corp_certs(corp) if c.president)
    give = _certs_worth([c for c in reg.held(new, corp) if c.cid not in keep], pres.percent)
    for c in give:
        reg.move(c.cid, seller)
    reg.move(pres.cid, new)
    reg.president[corp] = new
    return Handover(corp, seller, new, tuple(give), pres.percent)


def choose_sale_certs(held: list[Certificate], percent: int, last: bool) -> list[Certificate]:
    """Pick ordinary certificates making up `percent` (with the 20% last one if `last`)."""
    ordinary = [c for c in held if not c.president]
    lasts = [c for c in ordinary if c.last]
    tens = [c for c in ordinary if not c.last]
    for use_last in (last, not last):
        if use_last and not lasts:
            continue
        out = [lasts[0]] if use_last else []
        total = sum(c.percent for c in out)
        for c in tens:
            if total + c.percent <= percent:
                out.append(c)
                total += c.percent
        if total == percent:
            return out
    raise RuleError(f"cannot make up {percent}% from the certificates held", "selling shares")


def sellable_bundles(game: Game, seller: str, corp: str, pool_cap: int) -> list[tuple[int, bool]]:
    """(percent, includes the last certificate) of every bundle `seller` may sell to the
    pool: the pool stays within `pool_cap`, and a president may sell down only if another
    player could take the presidency (holds at least the president's certificate's size)."""
    reg = game.state.shares
    held = reg.held(seller, corp)
    pool_pct = reg.percent(POOL, corp)
    ordinary = [c for c in held if not c.president]
    tens = sum(1 for c in ordinary if not c.last and c.percent == 10)
    lasts = [c for c in ordinary if c.last]
    is_pres = reg.president[corp] == seller
    total_held = sum(c.percent for c in held)
    pres_size = next((c.percent for c in reg.corp_certs(corp) if c.president), 20)
    others_best = max(
        (reg.percent(p.name, corp) for p in game.state.players if p.name != seller), default=0
    )
    out: list[tuple[int, bool]] = []
    for with_last in [False, True] if lasts else [False]:
        extra = lasts[0].percent if with_last else 0
        # a president selling below another holder also hands over the president's
        # certificate in exchange for ordinary ones, so ordinary shares available grow
        max_tens = tens + (pres_size // 10 if is_pres and others_best >= pres_size else 0)
        for n in range(0 if with_last else 1, max_tens + 1):
            pct = n * 10 + extra
            if pct == 0 or pool_pct + pct > pool_cap:
                continue
            after = total_held - pct
            if is_pres:
                if after < others_best:
                    if others_best < pres_size:
                        continue
                elif n > tens:
                    continue
            elif n > tens:
                continue
            if after < 0 or not sale_possible(game, seller, corp, pct, with_last):
                continue
            out.append((pct, with_last))
    return out


def treasury_certs(game: Game, corp: str) -> list[Certificate]:
    """The corporation's own certificates still in its treasury."""
    return game.state.shares.held(treasury(corp), corp)


def emergency_bundles(
    game: Game,
    seller: str,
    buyer: str,
    corps: Sequence[str],
    shortfall: int,
    pool_cap: int,
    *,
    keep: int = 0,
) -> list[tuple[str, int, bool]]:
    """(corporation, percent, includes the last certificate) of each sale a president may make
    to raise `shortfall` for the corporation `buyer` (the compulsory train purchase): only in
    `corps`, the pool within `pool_cap`, never giving up `buyer`'s presidency (nor holding less
    than `keep` of it), and never more than needed: a bundle only if no smaller one of that
    corporation would cover the shortfall."""
    s = game.state
    out: list[tuple[str, int, bool]] = []
    for sym in corps:
        held = s.shares.percent(seller, sym)
        if not held:
            continue
        others = max(
            (s.shares.percent(p.name, sym) for p in s.players if p.name != seller), default=0
        )
        bundles = [
            (pct, last)
            for pct, last in sorted(sellable_bundles(game, seller, sym, pool_cap))
            if sym != buyer or (held - pct >= others and held - pct >= keep)
        ]
        for pct, last in bundles:
            smaller = [bundle_price(game, sym, q) for q, _ in bundles if q < pct]
            if smaller and max(smaller) >= shortfall:
                break
            out.append((sym, pct, last))
    return out
