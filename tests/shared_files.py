"""The reference files some tests read: the 18xx.games exports that travel with the project,
and the rest of ``../shared`` (beside the checkout).

The exports and their states (``tests/data/18xx-games/``: tobymao/18xx's MIT licence and the
source of each file beside them) are copies, as ``shared/README.md`` allows, so a clone
anywhere runs the real-game tests. Everything else is read in place, never copied. A test that
needs one of those is marked with `needs_shared`: where the file is missing the test is
skipped, except in CI (``CI`` set), where it runs and fails on the missing file, as the
PostgreSQL tests do.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[2] / "shared"
REFERENCE_1849 = SHARED / "reference" / "1849.json"
REFERENCE_1854 = SHARED / "reference" / "1854.json"
#: The project's copies of the real 18xx.games exports (same layout as ``../shared``).
SITE_GAMES = Path(__file__).resolve().parent / "data" / "18xx-games"
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
    """Every export in ``tests/data/18xx-games/<title>/`` (add files there and they are
    tested too), and those of ``pending/`` that now play (:data:`PENDING_PLAYED`)."""
    return sorted(SITE_GAMES.glob("*/*.json")) + [p for p in PENDING_PLAYED if p.exists()]
