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
- A hint is worked out where the bots think, never in the event loop, the threads that serve
  moves or the interpreter they share, within a fixed budget of work units
  (``bots/hints.HINT_WORK``). Where bots think in worker processes (``server/workers.py``:
  the server's own pool, and on PostgreSQL any ``tresham bot-worker`` sharing the database),
  the server *asks* for the hint in the database (``claims.ask_hint``), a worker claims the
  ask before any bot turn, works the hint out from the game's log and stores it in the ask's
  row (``server/bot_worker.py``), and the server reads it from there: woken by the worker's
  news (``NOTIFY`` on ``claims.HINTED_CHANNEL``; on SQLite the local worker's ``hinted``
  line), and reading the row every :data:`LOOK_EVERY` seconds in any case. A worker killed
  mid-hint loses nothing (its claim runs out and another takes the ask); no hint within
  :data:`WAIT` seconds (no worker running) is a 503, to be asked again. Where bots think in
  the server's threads (``TRESHAM_BOT_WORKERS=threads``, as in-process tests run), a hint is
  worked out in a process of the server's own (:data:`HINT_PROCESSES`, started at the first
  hint, at a lower priority than the server), sent the game's save (taken under the game's
  lock), which keeps the games it has hinted (:data:`CACHED_GAMES`), bringing one up to date
  by the actions added since (rebuilt from the save after a take-back); a hint process that
  dies is started again and the hint asked again once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import multiprocessing
import os
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from tresham.bots.hints import hint
from tresham.core.actions import action_from_json
from tresham.core.game import Game
from tresham.io.save import from_save, to_save
from tresham.server import claims
from tresham.server.errors import Conflict, Forbidden, Unavailable
from tresham.server.registry import Registry
from tresham.server.seats import token_seat
from tresham.words import Words

log = logging.getLogger("tresham.server")

#: The processes that work hints out (one: hints queue rather than crowd the machine).
HINT_PROCESSES = 1
#: How much lower a hint process's priority is than the server's (``os.nice``).
NICENESS = 5
#: How many games a hint process keeps up to date for the next hint.
CACHED_GAMES = 16
#: How many worked-out hints are kept (by game and position) for a repeated ask.
KEPT = 256
#: How often the server reads an asked hint's row while it waits (news may be missed).
LOOK_EVERY = 0.5
#: How long the server waits for a worker to work a hint out (seconds).
WAIT = 60.0


class Hints:
    """The hints of a registry's games."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._pool: ProcessPoolExecutor | None = None
        self._kept: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        #: The last note of each game sent to this process's listeners.
        self._sent: dict[str, int] = {}
        self._sending = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        #: The asks this process waits for a worker to work out, by game and index.
        self._waiting: dict[tuple[str, int], asyncio.Event] = {}
        if registry.workers is not None:
            registry.workers.on_hinted = self.on_hinted

    def close(self) -> None:
        """Stop the hint process (a hint being worked out is dropped) and the deliveries."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
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

        def position() -> tuple[int, dict[str, Any] | None]:
            game = live.game
            if game.state.finished:
                raise Conflict("the game is over: there is nothing to hint", "hints")
            acting = game.acting_player()
            if acting != seat.player:
                raise Forbidden(
                    f"it is {acting}'s turn, not {seat.player}'s: a hint is for the seat to act",
                    "turn order",
                )
            return live.index, None if registry.workers is not None else to_save(game)

        index, save = await registry.read(live, position)
        key = (game_id, index)
        given = self._kept.get(key)
        if given is not None:
            return {"index": index, "hint": given, "note": None}
        if save is None:
            given = await self._from_workers(game_id, index, seat.player)
        else:
            given = await self._worked_out(game_id, save)
        self._kept[key] = given
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        note = await registry.run(registry.storage.add_hint_note, game_id, seat.player, index)
        await self._deliver(game_id)
        return {"index": index, "hint": given, "note": note.to_json()}

    async def _worked_out(self, game_id: str, save: dict[str, Any]) -> dict[str, Any]:
        """The hint at the position of `save`, from the hint process (started again, and
        asked again once, if it died)."""
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            if self._pool is None:
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(
                    HINT_PROCESSES, mp_context=context, initializer=_lower_priority
                )
            try:
                return await loop.run_in_executor(self._pool, _hinted, game_id, save)
            except BrokenProcessPool:
                log.warning("game %s: the hint process died (attempt %d)", game_id, attempt)
                self._pool.shutdown(wait=False, cancel_futures=True)
                self._pool = None
        raise Conflict("the hint could not be worked out; ask again", "hints")

    async def _from_workers(self, game_id: str, index: int, player: str) -> dict[str, Any]:
        """The hint `player` asks for at log `index`, from the bot workers (module docstring):
        asked (again, if it was given up before), then waited for."""
        registry = self.registry
        storage = registry.storage
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        key = (game_id, index)
        event = self._waiting.setdefault(key, asyncio.Event())
        asked = False
        try:
            while True:
                event.clear()
                row = await registry.run(claims.hint_asked, storage, game_id, index)
                if row is not None and row.hint is not None:
                    return row.hint
                if asked and row is None:
                    raise Conflict("the game moved on before the hint was worked out", "hints")
                if asked and row is not None and row.failed is not None:
                    raise Conflict(f"the hint could not be worked out: {row.failed}", "hints")
                if not asked:
                    if await registry.run(claims.ask_hint, storage, game_id, index, player):
                        assert registry.workers is not None
                        registry.workers.wake()
                    asked = True
                remaining = deadline - loop.time()
                if remaining <= 0:
                    raise Unavailable("no bot worker has worked the hint out yet; ask again")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), min(LOOK_EVERY, remaining))
        finally:
            if self._waiting.get(key) is event:
                del self._waiting[key]

    def on_hinted(self, game_id: str, index: int) -> None:
        """A worker stored the hint asked in a game at log `index`: wake its waiter here."""
        event = self._waiting.get((game_id, index))
        if event is not None:
            event.set()

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


#: The hint process's games (by game id) and their actions as saved, the last hinted last.
_games: OrderedDict[str, tuple[Game, list[Any]]] = OrderedDict()


def _lower_priority() -> None:
    """A hint process's start: below the server's priority."""
    os.nice(NICENESS)


def _hinted(game_id: str, save: dict[str, Any]) -> dict[str, Any]:
    """The hint at the position of `save` as the API gives it (in the hint process)."""
    game = _up_to_date(game_id, save)
    return hint(game).to_dict(Words(game))


def _up_to_date(game_id: str, save: dict[str, Any]) -> Game:
    """The game of `save`: the kept one brought up to date when its actions begin the
    save's (the same game, moved on), else rebuilt from the save."""
    actions = save["actions"]
    kept = _games.pop(game_id, None)
    if kept is not None and actions[: len(kept[1])] == kept[1] and _same_game(kept[0], save):
        game, done = kept
        game.apply_all(action_from_json(raw) for raw in actions[len(done) :])
    else:
        game = from_save(save)
    _games[game_id] = (game, list(actions))
    while len(_games) > CACHED_GAMES:
        _games.popitem(last=False)
    return game


def _same_game(game: Game, save: dict[str, Any]) -> bool:
    """Whether `save` is of `game` (its title, players, seed, options and rules)."""
    mine = to_save(game)
    return all(mine[k] == save.get(k) for k in mine if k != "actions")
