"""The browser table's pages: plain HTML files of ``tresham/web`` (the lobby, a game's table,
the tile sheet, a finished game's review, the page of a game that is not there) whose ES
modules read the game id from the address and talk to the API."""

from __future__ import annotations

from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

PAGES = ("lobby.html", "table.html", "tiles.html", "missing.html", "review.html")


def web_root() -> Traversable:
    """The folder of the table's static files (package data)."""
    return resources.files("tresham").joinpath("web")


@cache
def page(name: str) -> str:
    """The HTML of one of `PAGES`."""
    if name not in PAGES:
        raise KeyError(name)
    return web_root().joinpath(name).read_text("utf-8")
