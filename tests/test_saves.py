"""Saves never break: every sample save (tests/data/save_samples/, one per title, rules version and
save-format version, written by tools/make_sample_saves.py) still loads, replaying every
action with full validation, to the same position."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from save_facts import facts
from tresham.core.errors import MalformedActionError
from tresham.io.save import VERSION, from_save
from tresham.titles.registry import get_title

SAVES = Path(__file__).parent / "data" / "save_samples"
EXPECTED = json.loads((SAVES / "expected.json").read_text())
SAMPLES = sorted(p.name for p in SAVES.glob("*.json") if p.name != "expected.json")


def test_every_sample_has_its_facts() -> None:
    assert SAMPLES and set(SAMPLES) == set(EXPECTED)
    assert any(name.endswith(f"-v{VERSION}.json") for name in SAMPLES)


@pytest.mark.parametrize("name", SAMPLES)
def test_sample_save_loads_to_the_same_position(name: str) -> None:
    data = json.loads((SAVES / name).read_text())
    game = from_save(data)
    assert facts(game) == EXPECTED[name]


def test_other_rules_version_is_refused() -> None:
    """A save played under another rules version is refused, not replayed differently."""
    data = json.loads((SAVES / SAMPLES[0]).read_text())
    data["rules_version"] = get_title(data["title"]).rules_version + 1
    with pytest.raises(MalformedActionError, match="rules version"):
        from_save(data)


def test_unknown_format_version_is_refused() -> None:
    data = json.loads((SAVES / SAMPLES[0]).read_text())
    data["version"] = VERSION + 1
    with pytest.raises(MalformedActionError, match="unsupported save version"):
        from_save(data)
