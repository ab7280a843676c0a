"""The titles tresham plays, by name. The engine looks titles up here; it never names one.

Adding a title is one line of `_TITLES` (its package holds everything else).
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from types import ModuleType

from tresham.core.errors import quote
from tresham.core.game_spec import SetupError
from tresham.core.title import Title

#: Each title's class as ``"module:class"``, imported when the title is first played: a
#: title's modules load only when it is played.
_TITLES: dict[str, str] = {
    "1849": "tresham.titles.t1849.rules:Title1849",
    "1854": "tresham.titles.t1854.rules:Title1854",
    "1883": "tresham.titles.t1883.rules:Title1883",
}


def titles() -> list[str]:
    """Names of the playable titles."""
    return sorted(_TITLES)


def get_title(name: object) -> Title:
    """The title object for `name` (titles are immutable and shared); a SetupError (field
    "title") for anything else."""
    if not isinstance(name, str) or name not in _TITLES:
        raise SetupError(f"unknown title {quote(name)}; known: {', '.join(titles())}", "title")
    return _load(name)


@cache
def _load(name: str) -> Title:
    module, _, cls = _TITLES[name].partition(":")
    title = getattr(importlib.import_module(module), cls)()
    assert isinstance(title, Title), _TITLES[name]
    return title


def title_module(name: str, module: str) -> ModuleType | None:
    """The module `module` of title `name`'s own package (e.g. ``site_import``: a title
    offers a feature by holding its module), or None where the package has none."""
    package = _TITLES[name].partition(":")[0].rpartition(".")[0]
    if importlib.util.find_spec(f"{package}.{module}") is None:
        return None
    return importlib.import_module(f"{package}.{module}")
