"""The reference files in ``../shared`` (beside the checkout) that some tests read.

They are read in place, never copied into the project (shared/README.md). A test that needs
one is marked with `needs_shared`: where the file is missing the test is skipped, except in
CI (``CI`` set), where it runs and fails on the missing file, as the PostgreSQL tests do.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
REFERENCE_1849 = SHARED / "reference" / "1849.json"
REFERENCE_1854 = SHARED / "reference" / "1854.json"
SITE_GAMES = SHARED / "reference" / "18xx-games"
EXPORT_27939 = SITE_GAMES / "1849" / "27939.json"
#: Exports kept in ``pending/`` (so that the suite did not import them before their options
#: played) that tresham now plays: tested with every export of ``<title>/``.
PENDING_PLAYED = (SITE_GAMES / "pending" / "1849" / "variants_test.json",)
VARIANTS_TEST = PENDING_PLAYED[0]
POSITIONS_1889 = SHARED / "reference" / "1889-routes" / "positions.json"


def needs_shared(path: Path) -> pytest.MarkDecorator:
    """Skip the test where `path` is missing from ../shared, unless running in CI."""
    missing = not path.exists() and not os.environ.get("CI")
    return pytest.mark.skipif(missing, reason=f"needs {path.relative_to(SHARED.parent)}")


def site_exports() -> list[Path]:
    """Every export in ``../shared/reference/18xx-games/<title>/`` (add files there and they
    are tested too), and those of ``pending/`` that now play (:data:`PENDING_PLAYED`)."""
    return sorted(SITE_GAMES.glob("*/*.json")) + [p for p in PENDING_PLAYED if p.exists()]
