"""The titles tresham plays, by name. The engine looks titles up here; it never names one."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from tresham.core.errors import quote
from tresham.core.game_spec import SetupError
from tresham.core.title import Title


# Each title is imported inside its loader: a title's modules load only when it is played.
def _load_1849() -> Title:
    from tresham.titles.t1849.rules import Title1849

    return Title1849()


def _load_1854() -> Title:
    from tresham.titles.t1854.rules import Title1854

    return Title1854()


def _load_1883() -> Title:
    from tresham.titles.t1883.rules import Title1883

    return Title1883()


_FACTORIES: dict[str, Callable[[], Title]] = {
    "1849": _load_1849,
    "1854": _load_1854,
    "1883": _load_1883,
}


def titles() -> list[str]:
    """Names of the playable titles."""
    return sorted(_FACTORIES)


def get_title(name: object) -> Title:
    """The title object for `name` (titles are immutable and shared); a SetupError (field
    "title") for anything else."""
    if not isinstance(name, str) or name not in _FACTORIES:
        raise SetupError(f"unknown title {quote(name)}; known: {', '.join(titles())}", "title")
    return _load(name)


@cache
def _load(name: str) -> Title:
    return _FACTORIES[name]()
