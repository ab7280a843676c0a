"""Certificates and who holds them.

A certificate has a size in percent; one per corporation is the president's certificate.
Titles may flag others (1849's 20% "last" certificate). Holders are named by strings: a player
name, ``treasury:<SYM>`` (the corporation's own unsold or issued-back shares), ``pool`` (the
bank pool) or ``reserve:<SYM>`` (not yet available).
"""

from __future__ import annotations

from dataclasses import dataclass

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

    def add_corporation(self, sym: str, sizes: list[int], last_flag: bool, holder: str) -> None:
        """Create a corporation's certificates (sizes[0] is the president's)."""
        for i, pct in enumerate(sizes):
            cid = f"{sym}_{i}"
            cert = Certificate(
                cid, sym, pct, president=i == 0, last=last_flag and i == len(sizes) - 1 and i > 0
            )
            self.certs[cid] = cert
            self.holder[cid] = holder
        self.president[sym] = None

    def copy(self) -> ShareRegistry:
        """An independent copy (certificates are immutable and shared)."""
        new = ShareRegistry()
        new.certs = dict(self.certs)
        new.holder = dict(self.holder)
        new.president = dict(self.president)
        return new

    def remove_corporation(self, sym: str) -> None:
        """Forget a corporation's certificates (closure)."""
        for cid in [c for c, cert in self.certs.items() if cert.corp == sym]:
            del self.certs[cid]
            del self.holder[cid]
        self.president.pop(sym, None)

    def held(self, holder: str, corp: str | None = None) -> list[Certificate]:
        """Certificates held by `holder` (of one corporation, if given), in index order."""
        return [
            self.certs[cid]
            for cid, h in self.holder.items()
            if h == holder and (corp is None or self.certs[cid].corp == corp)
        ]

    def percent(self, holder: str, corp: str) -> int:
        """The percentage of `corp` held by `holder`."""
        return sum(c.percent for c in self.held(holder, corp))

    def corp_certs(self, corp: str) -> list[Certificate]:
        """All certificates of a corporation."""
        return [c for c in self.certs.values() if c.corp == corp]

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
