"""What a game's id is made of, checked once at the edge: every route naming a game by id,
and every list of ids a body carries, is refused (404, or 422 for a body) unless the id could
be one, so no other string (a NUL, an unpaired surrogate, a path) reaches the database."""

from __future__ import annotations

import re
import secrets

from tresham.core.errors import quote
from tresham.server.errors import NotFound

GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def new_game_id() -> str:
    """A new game's id (12 hex digits)."""
    return secrets.token_hex(6)


def is_game_id(text: str) -> bool:
    """Whether `text` could be a game's id."""
    return GAME_ID.fullmatch(text) is not None


def check_game_id(game_id: str) -> str:
    """`game_id`, if it could be a game's id; else raise NotFound."""
    if not is_game_id(game_id):
        raise NotFound(f"no game {quote(game_id)}", "game")
    return game_id
