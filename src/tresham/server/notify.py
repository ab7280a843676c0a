"""Cross-process news through PostgreSQL: each server process LISTENs on the log channel and
the chat channel, and hears of every log entry and chat line any process commits (``NOTIFY``
is sent by the storage in the same transaction, payload ``"<game id> <number>"``). It keeps one
connection, and reconnects with a back-off when it is lost; after a reconnect it calls
`on_reconnect` so the server re-reads every game and chat it has listeners for (it may have
missed news meanwhile)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping

import psycopg

log = logging.getLogger("tresham.server.notify")

News = Callable[[str, int], None]


def parse_payload(payload: str) -> tuple[str, int] | None:
    """`"<game id> <number>"` as (game id, number); None for anything else."""
    game_id, _, index = payload.partition(" ")
    if not game_id or not index.isdigit():
        return None
    return game_id, int(index)


class PgListener:
    """Listens on each channel of `handlers` and passes its news, (game id, number), to the
    channel's handler; `on_reconnect` is called after the connection was lost and came
    back."""

    def __init__(
        self,
        conninfo: str,
        handlers: Mapping[str, News],
        on_reconnect: Callable[[], None] | None = None,
    ) -> None:
        self.conninfo = conninfo
        self.handlers = dict(handlers)
        self.on_reconnect = on_reconnect
        self.ready = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self, wait: float = 10.0) -> None:
        """Start listening; waits until the first LISTEN is in place (at most `wait` s)."""
        self._task = asyncio.get_running_loop().create_task(self._run())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.ready.wait(), wait)
        if not self.ready.is_set():
            log.warning("not yet listening for PostgreSQL notifications; still trying")

    async def _run(self) -> None:
        delay = 0.2
        connected_before = False
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
            except psycopg.Error as exc:
                log.warning("LISTEN connection failed: %s", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                continue
            try:
                async with conn:
                    for channel in self.handlers:
                        await conn.execute(f"LISTEN {channel}")
                    self.ready.set()
                    delay = 0.2
                    if connected_before and self.on_reconnect is not None:
                        self.on_reconnect()
                    connected_before = True
                    async for note in conn.notifies():
                        news = parse_payload(note.payload)
                        handler = self.handlers.get(note.channel)
                        if news is not None and handler is not None:
                            handler(*news)
            except psycopg.Error as exc:
                log.warning("LISTEN connection lost: %s", exc)
                await asyncio.sleep(delay)

    async def stop(self) -> None:
        """Stop listening."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
