"""The 18xx.games import follows the site's own certificates (``titles/t1849/site_shares.py``).

Recorded case (``data/site_recorded/1849-swap-pool-buy.*``): a four-player game played by
tresham's random bot (seed 2, delay_ift), exported, and replayed by the site's engine
(``../shared/oracle``), whose state after every action is the states file. At action 73 IFT's
president P3 (the 20% president's certificate only) sells half of it: on the site that
certificate goes to the pool, the pool's first 10% (IFT_3) comes back to P3, P1 (IFT_2 and
IFT_1) becomes president and his two 10% certificates go to the pool, all moved by the site
itself. At action 75 P4 buys IFT_2, while IFT's treasury holds 10% certificates too. The import
used to fail there ("cannot tell where IFT_2 comes from"); following the site's certificates
it knows IFT_2 is in the pool, and every state line is the site's.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from tresham.core.shares import POOL, treasury
from tresham.io.site_import import StateDivergence, import_export
from tresham.io.site_states import parse_states

DATA = Path(__file__).parent / "data" / "site_recorded"
CASE = "1849-swap-pool-buy"


def recorded() -> tuple[dict[str, Any], list[dict[str, Any]]]:
    export: dict[str, Any] = json.loads((DATA / f"{CASE}.json").read_text())
    with gzip.open(DATA / f"{CASE}.states.jsonl.gz", "rt") as lines:
        return export, parse_states(lines.read().splitlines())


def test_certificate_the_site_moved_itself_is_bought_from_the_pool() -> None:
    export, states = recorded()
    assert export["actions"][-1] == {
        "id": 75,
        "type": "buy_shares",
        "entity": 4,
        "entity_type": "player",
        "shares": ["IFT_2"],
        "percent": 10,
    }
    result = import_export(export, states=states)
    assert result.first_divergence is None
    assert result.state_lines_compared == len(states) == 75
    reg = result.game.state.shares
    assert reg.percent(POOL, "IFT") == 10  # IFT_2 left the pool
    assert reg.percent(treasury("IFT"), "IFT") == 40  # IFT_5, IFT_6 and the 20% IFT_7 stay
    assert reg.percent("P4", "IFT") == 20


def test_the_same_buy_from_the_treasury_is_a_difference() -> None:
    """Naming a treasury certificate instead (IFT_5, never moved) takes it from the
    treasury: the site's states then differ, so the check above can fail."""
    export, states = recorded()
    export["actions"][-1]["shares"] = ["IFT_5"]
    reg = import_export(export).game.state.shares
    assert reg.percent(POOL, "IFT") == 20
    assert reg.percent(treasury("IFT"), "IFT") == 30
    with pytest.raises(StateDivergence):
        import_export(export, states=states)
