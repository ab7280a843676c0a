"""Issue 35: a title needs, outside its own folder, only its registry line. Counted by
`tools/title_reach.py` (code lines naming the title; comments and docstrings aside)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tresham.io.site_import import ImportFailure, adapter_for
from tresham.io.site_writer import ExportFailure, writer_for
from tresham.titles.registry import title_module, titles

TOOL = Path(__file__).resolve().parent.parent / "tools" / "title_reach.py"
REGISTRY = "src/tresham/titles/registry.py"
#: 1849's optional feature of its own beyond play: the comparison with the site's engine
#: (io/oracle.py plays random 1849 games; the export command's help says it writes 1849). The
#: 18xx.games import and export find a title's own `site_import`/`site_writer` modules.
SITE_ONLY = {
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
    # the comparison with the site's engine names 1849 in code
    assert any(path == "src/tresham/io/oracle.py" for path, _ in reach("1849"))


def test_the_site_import_and_export_are_the_titles_own_modules() -> None:
    """A title offers the 18xx.games import and export by holding `site_import` and
    `site_writer` modules in its package: 1849 has both, 1883 and 1854 neither, and asking
    for theirs fails clearly."""
    module = title_module("1849", "site_import")
    assert module is not None and adapter_for("1849") is module.ADAPTER
    assert writer_for("1849") is not None
    for title in ("1854", "1883"):
        assert title_module(title, "site_import") is None
        with pytest.raises(ImportFailure, match=f"no 18xx.games import for {title}"):
            adapter_for(title)
        with pytest.raises(ExportFailure, match=f"no 18xx.games export for {title}"):
            writer_for(title)
