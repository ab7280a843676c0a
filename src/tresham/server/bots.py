"""Bots in seats: when a bot's seat is to act, the server moves for it.

A bot's move is the choice of the bot of its seat's level (``bots/players.py``: ``random``,
``easy``, ``medium``), given a ``random.Random`` seeded from the game's seed and the log index,
so any server process picks the same move. A bot's move goes through the same path as a
person's (the log, the rules, the broadcast). The driver keeps at most one task per game; it
waits before each move so people can follow: ``delay`` seconds, or longer when a person has
just acted and may still take it back (the registry's `pause` says how long), and it moves
only if nothing happened while it waited (else it looks again). Its `move` thinks in the
server's threads (``TRESHAM_BOT_WORKERS=threads``) or, by default, queues the turn for a worker
process and waits for the move (``server/workers.py``).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable

from tresham.bots.players import get_bot
from tresham.core.actions import Action
from tresham.core.game import Game
from tresham.server.errors import Stale

log = logging.getLogger("tresham.server.bots")


def bot_rng(game: Game, index: int) -> random.Random:
    """The random numbers of a bot's move at log index `index` (the same in every process)."""
    return random.Random(f"tresham-bot:{game.seed}:{index}")


def bot_action(game: Game, index: int, level: str) -> Action:
    """The move of a bot of `level` in `game` at log index `index` (a SetupError for an
    unknown level)."""
    return get_bot(level).choose(game, bot_rng(game, index))


class BotDriver:
    """Moves for bots. `acting(game_id)` says which bot is to act now (None: no bot), from
    state that is safe to read at any time; `move(game_id)` makes that bot's move."""

    def __init__(
        self,
        acting: Callable[[str], str | None],
        move: Callable[[str], Awaitable[None]],
        pause: Callable[[str], tuple[int, float]],
    ) -> None:
        self.acting = acting
        self.move = move
        #: The game's log index now, and how long a bot waits before moving there.
        self.pause = pause
        self._running: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    def poke(self, game_id: str) -> None:
        """Start moving for the game's bots if one is to act (from the event loop)."""
        if game_id in self._running or self.acting(game_id) is None:
            return
        self._running.add(game_id)
        task = asyncio.get_running_loop().create_task(self._run(game_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _run(self, game_id: str) -> None:
        # The check of `acting` and leaving `_running` happen with no await between them, so
        # a poke after any change always finds either this loop still going or none.
        try:
            while self.acting(game_id) is not None:
                index, wait = self.pause(game_id)
                await asyncio.sleep(wait)
                if self.pause(game_id)[0] != index:
                    continue  # someone acted or took back meanwhile: look again
                try:
                    await self.move(game_id)
                except Stale:
                    continue
        except Exception:
            log.exception("the bots of game %s stopped", game_id)
        finally:
            self._running.discard(game_id)

    async def close(self) -> None:
        """Stop every bot task."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
