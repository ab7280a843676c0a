"""Issue 35: a title needs, outside its own folder, only its registry line. Counted by
`tools/title_reach.py` (code lines naming the title; comments and docstrings aside)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from tresham.titles.registry import titles

TOOL = Path(__file__).resolve().parent.parent / "tools" / "title_reach.py"
REGISTRY = "src/tresham/titles/registry.py"
#: 1849's optional features of its own beyond play: the 18xx.games import and export, and
#: the comparison with the site's engine (io/oracle.py), each one line naming the title.
SITE_ONLY = {
    "src/tresham/io/site_import.py",
    "src/tresham/io/site_writer.py",
    "src/tresham/io/oracle.py",
    "src/tresham/cli.py",
}


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("title_reach", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_title_needs_only_its_registry_line_outside_its_folder() -> None:
    reach = _tool().reach
    counted = 0
    for title in titles():
        lines = reach(title)
        in_registry = [line for path, line in lines if path == REGISTRY]
        assert len(in_registry) == 1, (title, lines)
        assert {path for path, _ in lines} <= {REGISTRY, *SITE_ONLY}, (title, lines)
        counted += 1
    assert counted == 3
    assert {path for path, _ in reach("1854")} == {REGISTRY}


def test_the_count_sees_a_title_named_in_code_but_not_in_a_docstring_or_comment() -> None:
    reach = _tool().reach
    # core/board.py names 1849 and 1883 in its docstrings only
    assert not any(path.endswith("core/board.py") for path, _ in reach("1883"))
    # the 18xx.games import's adapter table names 1849 in code
    assert any(path == "src/tresham/io/site_import.py" for path, _ in reach("1849"))
