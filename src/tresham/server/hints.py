"""Hints at the table: ``GET /api/games/{id}/hint`` with a seat's token, on that seat's turn,
answers what `hard` would do there (``bots/hints.py``), in the player's words, with its
evaluation and the next best candidates.

- Hints are off unless the game's creator allowed them (``"hints": true`` when the game is
  made, stored with the game: ``Hosting.hints``); asked for in a game without them, on
  another seat's turn, or once the game is over, a hint is refused (403, 403, 409) and
  nothing is noted.
- A hint is no action of the game: its log and state (and so its state hash and any replay)
  are untouched. That a seat was shown one is noted beside the log (``storage.py``:
  ``tresham_hint_notes``, at the log index it was shown at) for every player to see:
  ``GET /api/games/{id}/hints`` lists the notes ("Ann asked for a hint") and each new one is
  sent to the game's websocket listeners (``{"type": "note"}``), in every server process (on
  PostgreSQL a note is announced on ``HINT_CHANNEL`` as log entries are on ``CHANNEL``); the
  table shows them in its log after the entry they follow. A seat asking again at the same
  position gets the same hint (hints are reproducible: ``bots/hints.py``), noted once.
- A hint is worked out on a copy of the game (taken under the game's lock, worked on without
  it), in a thread of its own (:data:`HINT_THREADS`), never in the event loop or the threads
  that serve moves, within a fixed budget of work units (``bots/hints.HINT_WORK``).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tresham.bots.hints import hint
from tresham.core.game import Game
from tresham.server.errors import Conflict, Forbidden
from tresham.server.registry import Registry
from tresham.server.seats import token_seat
from tresham.words import Words

log = logging.getLogger("tresham.server")

#: The threads that work hints out (one: hints queue rather than crowd the moves' threads).
HINT_THREADS = 1
#: How many worked-out hints are kept (by game and position) for a repeated ask.
KEPT = 256


class Hints:
    """The hints of a registry's games."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._executor = ThreadPoolExecutor(HINT_THREADS, thread_name_prefix="tresham-hint")
        self._kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        #: The last note of each game sent to this process's listeners.
        self._sent: dict[str, int] = {}
        self._sending = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    def close(self) -> None:
        """Stop the hint thread (a hint being worked out is dropped) and the deliveries."""
        self._executor.shutdown(wait=False, cancel_futures=True)
        for task in list(self._tasks):
            task.cancel()

    async def hint(self, game_id: str, authorization: str | None) -> dict[str, Any]:
        """The hint for the seat whose token the request carries (module docstring):
        ``{"index", "hint", "note"}``."""
        registry = self.registry
        live = await registry.get(game_id)
        seat = token_seat(live.seats, authorization)
        if not live.record.hosting.hints:
            raise Forbidden("hints are off in this game: its creator did not allow them", "hints")

        def position() -> tuple[int, Game]:
            game = live.game
            if game.state.finished:
                raise Conflict("the game is over: there is nothing to hint", "hints")
            acting = game.acting_player()
            if acting != seat.player:
                raise Forbidden(
                    f"it is {acting}'s turn, not {seat.player}'s: a hint is for the seat to act",
                    "turn order",
                )
            return live.index, game.search_copy()

        index, copy = await registry.read(live, position)
        key = (game_id, index)
        given = self._kept.get(key)
        if given is not None:
            return {"index": index, "hint": given, "note": None}
        loop = asyncio.get_running_loop()
        given = await loop.run_in_executor(self._executor, _worked_out, copy)
        self._kept[key] = given
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        note = await registry.run(registry.storage.add_hint_note, game_id, seat.player, index)
        await self._deliver(game_id)
        return {"index": index, "hint": given, "note": note.to_json()}

    def on_news(self, game_id: str, number: int) -> None:
        """A process stored hint note `number` of a game: send it (and any before it not yet
        sent) to this process's listeners of that game."""
        live = self.registry.games.get(game_id)
        if live is not None and live.subscribers and number > self._sent.get(game_id, -1):
            self._spawn(self._deliver(game_id))

    def on_reconnect(self) -> None:
        """News may have been missed: send what every listened game has not had."""
        for game_id, live in list(self.registry.games.items()):
            if live.subscribers:
                self._spawn(self._deliver(game_id))

    def _spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, game_id: str) -> None:
        """Send the game's listeners in this process the notes they have not had (each once,
        whichever process stored it)."""
        async with self._sending:
            live = self.registry.games.get(game_id)
            if live is None:
                return
            sent = self._sent.get(game_id, -1)
            try:
                notes = await self.registry.run(self.registry.storage.hint_notes, game_id, sent + 1)
            except Exception as exc:
                log.warning("game %s: hint notes not read: %r", game_id, exc)
                return
            for note in notes:
                message = json.dumps({"type": "note", "note": note.to_json()})
                for sub in list(live.subscribers):
                    sub.offer(message)
            if notes:
                self._sent[game_id] = notes[-1].index

    async def notes(self, game_id: str) -> list[dict[str, Any]]:
        """Every hint note of the game, as the API gives them."""
        registry = self.registry
        await registry.get(game_id)
        notes = await registry.run(registry.storage.hint_notes, game_id)
        return [n.to_json() for n in notes]


def _worked_out(game: Game) -> dict[str, Any]:
    """The hint at `game`'s position as the API gives it (in the hint thread)."""
    return hint(game).to_dict(Words(game))
