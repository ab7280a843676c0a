"""Certificates and who holds them.

A certificate has a size in percent; one per corporation is the president's certificate.
Titles may flag others (1849's 20% "last" certificate). Holders are named by strings: a player
name, ``treasury:<SYM>`` (the corporation's own unsold or issued-back shares), ``pool`` (the
bank pool) or ``reserve:<SYM>`` (not yet available).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

POOL = "pool"


def treasury(sym: str) -> str:
    """The holder name of a corporation's own treasury (initial offering)."""
    return f"treasury:{sym}"


@dataclass(frozen=True)
class Certificate:
    """One certificate: `cid` is `<SYM>_<index>`; index 0 is the president's."""

    cid: str
    corp: str
    percent: int
    president: bool = False
    last: bool = False


class ShareRegistry:
    """Every certificate and its holder. The sum per corporation is always 100%."""

    def __init__(self) -> None:
        self.certs: dict[str, Certificate] = {}
        self.holder: dict[str, str] = {}
        self.president: dict[str, str | None] = {}
        #: Each corporation's certificate ids in index order (kept with `certs`).
        self._by_corp: dict[str, list[str]] = {}

    def add_certificate(self, cert: Certificate, holder: str) -> None:
        """Issue one more certificate (e.g. the new shares of a split) to `holder`."""
        self.certs[cert.cid] = cert
        self.holder[cert.cid] = holder
        self._by_corp.setdefault(cert.corp, []).append(cert.cid)

    def resize(self, cid: str, percent: int) -> None:
        """Change the size of certificate `cid` (e.g. halved by a split)."""
        self.certs[cid] = replace(self.certs[cid], percent=percent)

    def add_corporation(self, sym: str, sizes: list[int], last_flag: bool, holder: str) -> None:
        """Create a corporation's certificates (sizes[0] is the president's)."""
        for i, pct in enumerate(sizes):
            cid = f"{sym}_{i}"
            cert = Certificate(
                cid, sym, pct, president=i == 0, last=last_flag and i == len(sizes) - 1 and i > 0
            )
            self.add_certificate(cert, holder)
        self.president[sym] = None

    def copy(self, only: str | None = None) -> ShareRegistry:
        """An independent copy (certificates are immutable and shared); with `only`, of that
        one corporation's certificates (e.g. to try a sale on)."""
        new = ShareRegistry()
        if only is None:
            new.certs = dict(self.certs)
            new.holder = dict(self.holder)
            new.president = dict(self.president)
            new._by_corp = {sym: list(cids) for sym, cids in self._by_corp.items()}
            return new
        cids = list(self._by_corp.get(only, ()))
        new._by_corp = {only: cids}
        new.certs = {cid: self.certs[cid] for cid in cids}
        new.holder = {cid: self.holder[cid] for cid in cids}
        new.president = {only: self.president.get(only)}
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> ShareRegistry:
        new = self.copy()
        memo[id(self)] = new
        return new

    def remove_corporation(self, sym: str) -> None:
        """Forget a corporation's certificates (closure)."""
        for cid in self._by_corp.pop(sym, []):
            del self.certs[cid]
            del self.holder[cid]
        self.president.pop(sym, None)

    def held(self, holder: str, corp: str | None = None) -> list[Certificate]:
        """Certificates held by `holder` (of one corporation, if given), in index order."""
        if corp is None:
            return [self.certs[cid] for cid, h in self.holder.items() if h == holder]
        return [
            self.certs[cid] for cid in self._by_corp.get(corp, ()) if self.holder[cid] == holder
        ]

    def percent(self, holder: str, corp: str) -> int:
        """The percentage of `corp` held by `holder`."""
        return sum(c.percent for c in self.held(holder, corp))

    def corp_certs(self, corp: str) -> list[Certificate]:
        """All certificates of a corporation."""
        return [self.certs[cid] for cid in self._by_corp.get(corp, ())]

    def holders(self, corp: str) -> dict[str, int]:
        """Holder -> percentage held, for one corporation."""
        out: dict[str, int] = {}
        for c in self.corp_certs(corp):
            h = self.holder[c.cid]
            out[h] = out.get(h, 0) + c.percent
        return out

    def move(self, cid: str, to: str) -> None:
        """Give certificate `cid` to `to`."""
        self.holder[cid] = to

    def to_dict(self) -> dict[str, object]:
        """Canonical form for hashing."""
        return {
            "holder": dict(sorted(self.holder.items())),
            "president": dict(sorted(self.president.items())),
        }
