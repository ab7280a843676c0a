"""A finished game's review at the table: ``GET /api/games/{id}/review`` (and the page
``/games/{id}/review``) lists each player's decisions where `hard`'s choice would have gained
most (``bots/review.py``), as ``tresham review SAVE`` does.

A review replays the whole game with a search at every decision: minutes of work. The first
ask starts it, in a thread of its own (:data:`REVIEW_THREADS`: reviews queue), never in the
event loop or the threads that serve moves; each ask answers how far it is
(``{"status": "working", "done", "total"}``) until it is done (``{"status": "done",
"review"}``). Done reviews are kept in memory (:data:`KEPT`), by game. Only a finished game is
reviewed (409 before: a review of a game being played would be advice to its players).
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tresham.bots.review import REVIEW_WORK, review
from tresham.core.game import Game
from tresham.server.errors import Conflict
from tresham.server.registry import Registry

#: The threads that review games (one: reviews queue).
REVIEW_THREADS = 1
#: How many reviews are kept.
KEPT = 32


@dataclass
class Job:
    """A review being worked out, or done (`result`), or failed (`error`)."""

    total: int
    done: int = 0
    result: dict[str, Any] | None = None
    error: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def answer(self) -> dict[str, Any]:
        """How far it is, as the API gives it."""
        with self.lock:
            if self.error is not None:
                return {"status": "failed", "error": self.error}
            if self.result is not None:
                return {"status": "done", "review": self.result}
            return {"status": "working", "done": self.done, "total": self.total}


class Reviews:
    """The reviews of a registry's finished games."""

    def __init__(self, registry: Registry, work: int | None = None) -> None:
        self.registry = registry
        self._work = work
        self._executor = ThreadPoolExecutor(REVIEW_THREADS, thread_name_prefix="tresham-review")
        self._jobs: OrderedDict[str, Job] = OrderedDict()

    def close(self) -> None:
        """Stop the review thread (a review under way is dropped)."""
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def review(self, game_id: str) -> dict[str, Any]:
        """The game's review, or how far it is (started by the first ask)."""
        registry = self.registry
        live = await registry.get(game_id)
        job = self._jobs.get(game_id)
        if job is not None:
            return job.answer()

        def position() -> Game:
            if not live.game.state.finished:
                raise Conflict("a game is reviewed once it is over", "review")
            return live.game.search_copy()

        game = await registry.read(live, position)
        job = self._jobs.get(game_id)  # another ask may have started it meanwhile
        if job is None:
            job = self._jobs[game_id] = Job(len(game.actions))
            while len(self._jobs) > KEPT:
                self._jobs.popitem(last=False)
            asyncio.get_running_loop().run_in_executor(self._executor, self._run, job, game)
        return job.answer()

    def _run(self, job: Job, game: Game) -> None:
        """Work the review out (in the review thread)."""

        def progress(done: int, _total: int) -> None:
            with job.lock:
                job.done = done

        try:
            result = review(game, self._work or REVIEW_WORK, progress=progress).to_dict()
        except Exception as exc:  # a review that fails says so; the server goes on
            with job.lock:
                job.error = f"the review failed: {type(exc).__name__}"
            return
        with job.lock:
            job.result = result
