"""The one path by which an entry joins a game's log: a person's move posted to the server,
a bot's move made in the server's threads, and a bot's move made by a worker process
(``server/bot_worker.py``) all go through :func:`commit_entry`, so each gets the same checks
(the seat's right to post it, the rules), the same history (the log row, the chronicle, the
state hash) and the same announcement (PostgreSQL's ``NOTIFY``, which every server process
hears and passes on to its websocket listeners).

The entry is inserted at the game's next index and applied in memory inside one transaction:
the database's unique (game, index) key decides who acted first, so a copy of a game that is
behind the log can never append to it; its insert fails, it catches up, and the poster gets
:class:`Stale` (409). An entry the rules refuse is never stored.
"""

from __future__ import annotations

import logging

from tresham.core.errors import RuleError
from tresham.server.errors import ApiError, Stale, Unavailable
from tresham.server.live import Entry, LiveGame
from tresham.server.storage import IndexTaken, LogRow, Storage

log = logging.getLogger("tresham.server")


def catch_up(storage: Storage, live: LiveGame) -> None:
    """Apply the stored entries `live` lacks (a copy that no longer replays is marked
    broken, and the error raised)."""
    rows = storage.entries(live.record.id, live.index)
    try:
        live.apply_rows(rows)
    except ApiError:
        live.broken = True
        raise


def commit_entry(
    storage: Storage, live: LiveGame, player: str, entry: Entry, order: str | None = None
) -> str | None:
    """Store and apply one entry made by `player`'s seat or, `order` given, by that seat's
    standing order of that kind (the game's lock held, in a worker thread or a worker
    process); returns who acts next if that changed (None: it did not, or the game is
    over). Raises Forbidden, RuleError, Stale or Unavailable (nothing stored)."""
    live.check_seat(player, entry)
    before = live.game.acting_player()
    row = LogRow(live.index, entry.to_json(), player, order)
    applied = False

    def apply() -> bool:
        nonlocal applied
        finished = live.apply_posted(row, entry)
        applied = True
        return finished

    try:
        storage.append(live.record.id, row, apply)
    except IndexTaken:
        catch_up(storage, live)
        raise Stale(
            f"someone acted first: the game is at index {live.index}",
            "index",
            index=live.index,
        ) from None
    except (RuleError, ApiError):
        raise
    except Exception as exc:
        if applied:
            live.broken = True
        log.error("game %s: storing entry %d failed: %r", live.record.id, row.index, exc)
        raise Unavailable("the database failed; nothing was changed", "storage") from None
    live.refresh_snapshot()
    after = live.game.acting_player()
    return after if after != before else None
