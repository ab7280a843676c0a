"""Past positions of a game: the public state as it was served when the log had N entries.

A past position is rebuilt by replaying the log's first N entries exactly as the live game
applied them (:meth:`LiveGame.apply_row`: actions, undos and redos), so it has the same
`state_hash` and, field for field, the same public state as was served then: its `index` is
N, its `undo`/`redo` who could take back then, its `events` the lines shown then. No field is
about "now".

Replays go on from a copy of the nearest earlier position kept (one every
:data:`KEEP_EVERY` entries) or from the last position replayed, so stepping through the past
costs a few entries each; the last positions asked for are kept as JSON text.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from tresham.server.live import LiveGame
from tresham.server.storage import LogRow

#: A copy of the replay is kept every this many log entries.
KEEP_EVERY = 25
#: How many past positions' public states are kept as text.
STATES_KEPT = 32


class Past:
    """The past positions of one game (thread-safe: one replay at a time)."""

    def __init__(self, start: LiveGame) -> None:
        """`start`: the game with no log entries applied (it becomes this object's own)."""
        self._lock = threading.Lock()
        self._kept: dict[int, LiveGame] = {0: start.copy()}
        self._cursor = start
        self._texts: OrderedDict[int, str] = OrderedDict()

    def state_json(self, rows: list[LogRow], at: int) -> str:
        """The public state after the first `at` entries of `rows` (the log, at least `at`
        long), as JSON text."""
        with self._lock:
            text = self._texts.get(at)
            if text is not None:
                self._texts.move_to_end(at)
                return text
            replay = self._replay_to(rows, at)
            replay.refresh_snapshot()
            text = replay.snapshot_json
            self._texts[at] = text
            while len(self._texts) > STATES_KEPT:
                self._texts.popitem(last=False)
            return text

    def _replay_to(self, rows: list[LogRow], at: int) -> LiveGame:
        base = max(k for k in self._kept if k <= at)
        cursor = self._cursor
        if not base <= cursor.index <= at:
            cursor = self._kept[base].copy()
        while cursor.index < at:
            cursor.apply_row(rows[cursor.index])
            if cursor.index % KEEP_EVERY == 0 and cursor.index not in self._kept:
                self._kept[cursor.index] = cursor.copy()
        self._cursor = cursor
        return cursor


_MAKING = threading.Lock()


def past_of(live: LiveGame) -> Past:
    """The past positions of a live game (made on first use; kept with the game)."""
    with _MAKING:
        past = live.past
        if past is None:
            past = Past(LiveGame.rebuild(live.record, [], live.view))
            live.past = past
        return past
