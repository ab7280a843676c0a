"""The one check of a refused action: "Bad input gets a clear error and changes nothing"."""

from __future__ import annotations

from typing import Any

import pytest

from tresham.core.errors import RuleError
from tresham.core.game import Game


def rejected(
    g: Game, action: Any, rule: str = "", *, error: type[RuleError] = RuleError
) -> RuleError:
    """`action` raises `error`, which names a rule (containing `rule`, when given, in the
    rule or its message), and changes nothing: the same state hash, the same action log."""
    before = g.state_hash()
    count = len(g.actions)
    with pytest.raises(error) as info:
        g.apply(action)
    assert g.state_hash() == before
    assert len(g.actions) == count
    assert info.value.rule, "a refusal names the rule it applies"
    assert rule in info.value.rule or rule in str(info.value), (rule, str(info.value))
    return info.value
