"""Which certificate is where on 18xx.games, for the export (``site_writer.py``) and the
import (``site_import.py``).

The site names the certificates an action moves, and its engine moves some by itself in an
order of its own: a holder's certificates are a list in the order received; at a change of
president the new president's first two 10% certificates (or his 20% last one) go to the old
president, or to the pool where the old one keeps less than 20%; the president's certificate
sold for half takes the pool's first 10% back; a corporation that closes has its certificates
back in index order; a bankruptcy sells the site's own bundles (:func:`bankruptcy_sales`).
:class:`SiteShares` keeps those lists as the site does, so that the export names certificates
the site's holder has and the import follows them; where tresham's holdings come to differ
from the lists in any other way, the lists follow tresham's, moving a holder's first
certificates.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tresham.core.actions import Action, Bankrupt, SellShares
from tresham.core.game import Game
from tresham.core.rounds.operating import OperatingRound
from tresham.core.shares import POOL, treasury
from tresham.titles.t1849.steps import STEP_OBJECTS, TrainStep


@dataclass
class SiteShares:
    """Each corporation's certificates by holder, in the order the site's holder has them."""

    lists: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    #: cid -> percent, and which certificate is the president's / the 20% last one
    percent: dict[str, int] = field(default_factory=dict)
    president: dict[str, str] = field(default_factory=dict)
    last: dict[str, str] = field(default_factory=dict)
    #: the swap the site offers after a president's change to the holder of a 20% last
    #: certificate: (corporation, where the 20% went, the new president)
    offered: tuple[str, str, str] | None = None
    #: certificates the site moved by itself (not named by an action): an import tells
    #: where such a one is only from where tresham holds it
    moved_by_site: set[str] = field(default_factory=set)

    @classmethod
    def of(cls, game: Game) -> SiteShares:
        """The lists at the start: every certificate in its corporation's treasury."""
        out = cls()
        for sym in game.state.corps:
            out.reset(game, sym)
        return out

    def reset(self, game: Game, sym: str) -> None:
        """`sym`'s certificates all in its treasury, in index order."""
        certs = sorted(game.state.shares.corp_certs(sym), key=lambda c: _index(c.cid))
        self.lists[sym] = {treasury(sym): [c.cid for c in certs]}
        self.moved_by_site -= {c.cid for c in certs}
        for c in certs:
            self.percent[c.cid] = c.percent
            if c.president:
                self.president[sym] = c.cid
            if c.last:
                self.last[sym] = c.cid

    def held(self, holder: str, sym: str) -> list[str]:
        """The holder's certificates of `sym`, in the site's order."""
        return self.lists[sym].get(holder, [])

    def share(self, holder: str, sym: str) -> int:
        return sum(self.percent[c] for c in self.held(holder, sym))

    def move(self, cid: str, to: str, *, by_site: bool = False) -> None:
        sym = cid.rpartition("_")[0]
        if by_site:
            self.moved_by_site.add(cid)
        for cids in self.lists[sym].values():
            if cid in cids:
                cids.remove(cid)
                break
        self.lists[sym].setdefault(to, []).append(cid)

    def change_president(self, sym: str, old: str, new: str, swap_to: str) -> None:
        """The site's presidency change (``G1849::SharePool#change_president``)."""
        incoming = self.held(new, sym)
        double = self.last.get(sym)
        if double in incoming:
            moving = [double]
            if sum(self.percent[c] for c in incoming) >= 40:
                self.offered = (sym, swap_to, new)
        else:
            moving = [c for c in incoming if c != double][:2]
        for cid in list(moving):
            self.move(cid, swap_to, by_site=True)
        self.move(self.president[sym], new, by_site=True)

    def moved(
        self, game: Game, certs: list[str], to: str, percent: int, seller: str, old: str | None
    ) -> None:
        """A share action named `certs` going to `to` for `percent`; `old` was the president
        before it. Then the site's own moves: a change of president, and the pool's first 10%
        back to the seller who sold half of the president's certificate."""
        if not certs:
            return
        sym = certs[0].rpartition("_")[0]
        for cid in certs:
            self.move(cid, to)
        new = game.state.shares.president.get(sym)
        players = {p.name for p in game.state.players}
        if old in players and new in players and new != old:
            assert old is not None and new is not None
            swap_to = old if self.share(old, sym) >= self.percent[self.president[sym]] else POOL
            self.change_president(sym, old, new, swap_to)
        if sum(self.percent[c] for c in certs) > percent and to == POOL:
            back = next(c for c in self.held(POOL, sym) if c != self.last.get(sym))
            self.move(back, seller, by_site=True)

    def sold(self, seller: str, action: SellShares) -> list[str]:
        """The seller's certificates a sale moves, as the site's bundles go: without the
        president's certificate where the others make the percent (the 20% last one where the
        sale names it), else the president's with the rest, or half of it alone."""
        sym, percent = action.corporation, action.percent
        pres, last = self.president.get(sym), self.last.get(sym)
        held = self.held(seller, sym)
        plain = [c for c in held if c not in (pres, last)]
        lasts = [c for c in held if c == last]
        if action.last and lasts:
            out = lasts + plain[: max(0, (percent - self.percent[lasts[0]]) // 10)]
        else:
            out = plain[: percent // 10]
        if sum(self.percent[c] for c in out) == percent:
            return out
        if pres in held:
            if percent == 10:
                return [pres]
            for with_last in (lasts if action.last else [], []):
                first = [pres, *with_last]
                rest = plain[: (percent - sum(self.percent[c] for c in first)) // 10]
                out = [*first, *rest]
                if sum(self.percent[c] for c in out) == percent:
                    return out
            if sum(self.percent[c] for c in held) - 10 == percent:
                # the site's partial bundle: every certificate held, the president's last, for
                # 10% less (`partial_bundles_for_presidents_share`; random game 5 players seed
                # 113: the president's and the last certificate, sold as 30%)
                return [*plain, *lasts, pres]
        raise ValueError(f"no certificates make {percent}% for {action.describe()}")

    def holder(self, cid: str) -> str | None:
        """Who holds the certificate on the site (None: a certificate not in the lists)."""
        for holder, cids in self.lists.get(cid.rpartition("_")[0], {}).items():
            if cid in cids:
                return holder
        return None

    def swap_double(self) -> None:
        """The old president takes two 10% certificates instead of the 20% last one."""
        if self.offered is None:
            return
        sym, holder, new = self.offered
        self.move(self.last[sym], new, by_site=True)
        tens = [c for c in self.held(new, sym) if self.percent[c] == 10][:2]
        for cid in tens:
            self.move(cid, holder, by_site=True)
        self.offered = None

    def follow(self, game: Game) -> None:
        """Make every holder's certificates the sizes tresham's are (the president's apart): a
        closed (reset) corporation from the start; otherwise certificates of a size move
        from holders with too many of it (their first ones) to those with too few."""
        reg = game.state.shares
        for sym in game.state.corps:
            if sym not in self.lists:
                self.reset(game, sym)
                continue
            if all(reg.holder[c.cid] == treasury(sym) for c in reg.corp_certs(sym)):
                if self.held(treasury(sym), sym) != sorted(self.percent_ids(sym), key=_index):
                    self.reset(game, sym)
                continue
            want: dict[tuple[str, str], int] = {}
            for cert in reg.corp_certs(sym):
                key = (reg.holder[cert.cid], self._kind(cert.cid, cert.percent, cert.president))
                want[key] = want.get(key, 0) + 1
            self._settle(sym, want)

    def percent_ids(self, sym: str) -> list[str]:
        return [c for cids in self.lists[sym].values() for c in cids]

    def _kind(self, cid: str, percent: int, president: bool) -> str:
        return "president" if president else f"{percent}"

    def _have(self, sym: str) -> dict[tuple[str, str], list[str]]:
        out: dict[tuple[str, str], list[str]] = {}
        pres = self.president.get(sym)
        for holder, cids in self.lists[sym].items():
            for cid in cids:
                kind = self._kind(cid, self.percent[cid], cid == pres)
                out.setdefault((holder, kind), []).append(cid)
        return out

    def _settle(self, sym: str, want: dict[tuple[str, str], int]) -> None:
        have = self._have(sym)
        for (holder, kind), n in want.items():
            short = n - len(have.get((holder, kind), []))
            for _ in range(short):
                giver = next(
                    (h, k)
                    for (h, k), cids in have.items()
                    if k == kind and len(cids) > want.get((h, k), 0)
                )
                cid = have[giver].pop(0)
                self.move(cid, holder, by_site=True)
                have.setdefault((holder, kind), []).append(cid)


def bankruptcy_sales(game: Game, action: Action) -> list[tuple[str, SellShares, str | None]]:
    """The president's sales of a corporation's bankruptcy (seller, sale, president before),
    read before it: the site sells its own bundles, whose certificates and presidency swaps
    the lists follow as for a sale named (random game 5 players seed 103: P5's half of AFG's
    president's certificate takes the pool's first 10% back)."""
    rnd = game.state.round
    if not isinstance(action, Bankrupt) or not isinstance(rnd, OperatingRound):
        return []
    step = STEP_OBJECTS.get(rnd.steps[rnd.step])
    if not isinstance(step, TrainStep):
        return []
    reg = game.state.shares
    seller = str(reg.president.get(action.entity))
    sales = step.bankruptcy_sales(game, action.entity)
    return [(seller, sale, reg.president.get(sale.corporation)) for sale in sales]


def _index(cid: str) -> int:
    return int(cid.rpartition("_")[2])


__all__ = ["POOL", "SiteShares"]
