"""The server's side of bot workers: bots think in worker processes, never in the server.

With ``bot_workers`` set (``TRESHAM_BOT_WORKERS``, default 2 for ``tresham serve``), the bot
driver (``server/bots.py``) still decides *when* a bot moves (its delay, the undo grace, a
game of bots only paused while nobody watches it: ``Registry.playing``), but instead of
thinking it *queues* the turn in the database (``server/claims.py``) and waits for the move to
arrive as any other process's move arrives (``Registry.on_news``, then the game's listeners
get it). A worker process takes the turn (``server/bot_worker.py``). With PostgreSQL the
workers may run anywhere (``tresham bot-worker --db postgresql://...``); the server also starts
`bot_workers` of its own on its machine (0: none, all run elsewhere). With SQLite the server
starts its pool of `bot_workers` local processes, wakes them through a pipe when it queues a
turn, and hears of their moves from their standard output. A local worker that dies is started
again; the turn it held is claimed again once its lease runs out.

The server that queued a turn (the first to queue it, if several server processes share the
game) does what a server does after a move it made: the standing orders of whoever acts next
act (``server/standing.py``), and the webhooks hear when the turn is a person's. A queued move that
does not arrive within :data:`PATIENCE` seconds makes the server read the log (news may have
been missed) and queue again (a no-op while the turn is queued), so nothing waits forever on a
lost notification.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from tresham.server.claims import queue_turn

if TYPE_CHECKING:
    from tresham.server.live import LiveGame
    from tresham.server.registry import Registry

log = logging.getLogger("tresham.server.workers")

#: How long the server waits for a queued bot move before it reads the log itself.
PATIENCE = 2.0
#: How often the local pool looks for workers that died.
SUPERVISE_EVERY = 0.5
#: How long the server waits at its start for its local workers to be ready (seconds).
READY_WAIT = 60.0


class LocalPool:
    """`count` ``tresham bot-worker`` processes on this machine, started again when they die.
    `report`: they tell of each move on their standard output (SQLite), passed to `on_news`;
    `nice`: their lower priority; `hold`: the test hook of the first worker started
    (``bot_worker.py``)."""

    def __init__(
        self,
        db_url: str,
        count: int,
        *,
        lease: float,
        report: bool,
        nice: int = 10,
        hold: str | None = None,
    ) -> None:
        self.db_url = db_url
        self.count = count
        self.lease = lease
        self.report = report
        self.nice = nice
        self.hold = hold
        self.procs: list[subprocess.Popen[str]] = []
        self._wakes: list[int] = []
        self._ready: list[threading.Event] = []
        self._task: asyncio.Task[None] | None = None
        self._news: dict[str, Callable[[str, int], None]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    async def start(
        self, on_news: Callable[[str, int], None], on_hinted: Callable[[str, int], None]
    ) -> None:
        """Start the workers and watch over them."""
        self._news = {"moved": on_news, "hinted": on_hinted}
        self._loop = asyncio.get_running_loop()
        for slot in range(self.count):
            self.procs.append(self._spawn(slot))
        await asyncio.to_thread(self._wait_ready)
        self._task = self._loop.create_task(self._supervise())

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + READY_WAIT
        for ready in self._ready:
            if not ready.wait(max(0.0, deadline - time.monotonic())):
                log.warning("a bot worker is not ready after %g s; going on", READY_WAIT)
                return

    def _spawn(self, slot: int) -> subprocess.Popen[str]:
        read, write = os.pipe()
        os.set_blocking(write, False)
        command = [sys.executable, "-m", "tresham.cli", "bot-worker", "--db", self.db_url]
        command += ["--lease", str(self.lease), "--nice", str(self.nice), "--wake-fd", str(read)]
        if self.report:
            command.append("--report")
        if self.hold is not None and slot == 0:
            command += ["--hold", self.hold]
            self.hold = None  # the hook holds once: a worker started again does not
        try:
            proc = subprocess.Popen(
                command, stdout=subprocess.PIPE, text=True, pass_fds=(read,), close_fds=True
            )
        finally:
            os.close(read)
        if slot < len(self._wakes):
            with contextlib.suppress(OSError):
                os.close(self._wakes[slot])
            self._wakes[slot] = write
        else:
            self._wakes.append(write)
        ready = threading.Event()
        self._ready.append(ready)
        threading.Thread(target=self._read, args=(proc, ready), daemon=True).start()
        return proc

    def _read(self, proc: subprocess.Popen[str], ready: threading.Event) -> None:
        """Pass a worker's news to the server (its own thread)."""
        assert proc.stdout is not None
        loop = self._loop
        for line in proc.stdout:
            if line.strip() == "ready":
                ready.set()
                continue
            word, _, rest = line.strip().partition(" ")
            game_id, _, index = rest.partition(" ")
            handler = self._news.get(word)
            if handler is not None and index.isdigit() and loop is not None:
                with contextlib.suppress(RuntimeError):  # the loop closed
                    loop.call_soon_threadsafe(handler, game_id, int(index))

    async def _supervise(self) -> None:
        while True:
            await asyncio.sleep(SUPERVISE_EVERY)
            for slot, proc in enumerate(self.procs):
                code = proc.poll()
                if code is not None:
                    log.warning("bot worker %d exited (%s); starting another", proc.pid, code)
                    self.procs[slot] = self._spawn(slot)

    def wake(self) -> None:
        """Tell every worker a turn was queued (a byte on its pipe; a full pipe already has
        its wake-up)."""
        for fd in self._wakes:
            with contextlib.suppress(BlockingIOError, BrokenPipeError, OSError):
                os.write(fd, b"x")

    async def close(self) -> None:
        """Stop the workers (SIGTERM, then SIGKILL after 5 s)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()

        def reap() -> None:
            for proc in self.procs:
                try:
                    proc.wait(5)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(5)

        await asyncio.to_thread(reap)
        for fd in self._wakes:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._wakes.clear()


class WorkerBots:
    """Queues the bot turns of `registry`'s games for worker processes, and waits for their
    moves (see the module's docstring)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        config = registry.config
        self.pool: LocalPool | None = None
        if config.bot_workers:
            self.pool = LocalPool(
                config.database_url,
                config.bot_workers,
                lease=config.bot_lease,
                report=not registry.storage.is_postgres,
                nice=config.bot_nice,
                hold=config.bot_hold,
            )
        self._events: dict[str, asyncio.Event] = {}
        #: The index of each game's turn that this process queued (it tells the webhooks).
        self._queued: dict[str, int] = {}
        #: Told when a local worker has worked out a hint (game id, index): ``server/hints.py``.
        self.on_hinted: Callable[[str, int], None] = lambda _game, _index: None

    async def start(self) -> None:
        """Start the local workers, if any."""
        if self.pool is not None:
            await self.pool.start(self.registry.on_news, lambda g, i: self.on_hinted(g, i))

    def wake(self) -> None:
        """Tell the local workers, if any, that work was queued (a turn or a hint asked)."""
        if self.pool is not None:
            self.pool.wake()

    async def close(self) -> None:
        """Stop the local workers."""
        if self.pool is not None:
            await self.pool.close()

    def changed(self, live: LiveGame) -> None:
        """A game's published log grew (from the event loop): wake whoever waits for it."""
        event = self._events.get(live.record.id)
        if event is not None:
            event.set()

    async def move(self, game_id: str) -> None:
        """Queue the turn of the bot to act in the game, and wait (at most :data:`PATIENCE`
        seconds) for its move to be published here."""
        registry = self.registry
        live = await registry.get(game_id, look=False)
        snapshot = live.snapshot
        bot = live.acting_bot()
        level = live.bot_level(bot)
        index = snapshot.get("index")
        if bot is None or level is None or not isinstance(index, int):
            return
        if await registry.run(queue_turn, registry.storage, game_id, index, bot, level):
            self._queued[game_id] = index
            self.wake()
        event = self._events.setdefault(game_id, asyncio.Event())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PATIENCE
        try:
            while _index(live) <= index and not live.broken:
                event.clear()
                remaining = deadline - loop.time()
                if remaining <= 0:
                    await registry.refresh(live)  # news may have been missed
                    break
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), remaining)
        finally:
            self._events.pop(game_id, None)
        if _index(live) > index and self._queued.get(game_id) == index:
            del self._queued[game_id]
            await registry.follow_orders(live, index)


def _index(live: LiveGame) -> int:
    """The game's log length as of its last snapshot (safe to read without the lock)."""
    index = live.snapshot.get("index")
    return index if isinstance(index, int) else -1
