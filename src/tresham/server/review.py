"""A finished game's review at the table: ``GET /api/games/{id}/review`` (and the page
``/games/{id}/review``) lists each player's decisions where `hard`'s choice would have gained
most (``bots/review.py``), as ``tresham review SAVE`` does.

A review replays the whole game with a search at every decision: minutes of work. The first
ask starts it in a process of its own (started afresh, from the game's save), watched by a
thread of its own (:data:`REVIEW_THREADS`: reviews queue), so it never takes the server's
event loop, the threads that serve moves or the interpreter they share; each ask answers
how far it is
(``{"status": "working", "done", "total"}``) until it is done (``{"status": "done",
"review"}``). Done reviews are kept in memory (:data:`KEPT`), by game. Only a finished game is
reviewed (409 before: a review of a game being played would be advice to its players).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from tresham.bots.review import REVIEW_WORK, review
from tresham.io.save import from_save, to_save
from tresham.server.errors import Conflict
from tresham.server.registry import Registry

#: The threads that review games (one: reviews queue).
REVIEW_THREADS = 1
#: How many reviews are kept.
KEPT = 32
#: A review's process tells how far it is every this many actions.
PROGRESS_EVERY = 10


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
        self._processes: set[BaseProcess] = set()

    def close(self) -> None:
        """Stop the reviews (one under way is dropped, its process ended)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
        for process in list(self._processes):
            process.kill()

    async def review(self, game_id: str) -> dict[str, Any]:
        """The game's review, or how far it is (started by the first ask)."""
        registry = self.registry
        live = await registry.get(game_id)
        job = self._jobs.get(game_id)
        if job is not None:
            return job.answer()

        def position() -> dict[str, Any]:
            if not live.game.state.finished:
                raise Conflict("a game is reviewed once it is over", "review")
            return to_save(live.game)

        save = await registry.read(live, position)
        job = self._jobs.get(game_id)  # another ask may have started it meanwhile
        if job is None:
            job = self._jobs[game_id] = Job(len(save["actions"]))
            while len(self._jobs) > KEPT:
                self._jobs.popitem(last=False)
            asyncio.get_running_loop().run_in_executor(self._executor, self._run, job, save)
        return job.answer()

    def _run(self, job: Job, save: dict[str, Any]) -> None:
        """Work the review out in a process of its own, and follow it (in the review
        thread)."""
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe(duplex=False)
        work = self._work or REVIEW_WORK
        process = context.Process(target=_reviewed, args=(save, work, theirs), daemon=True)
        self._processes.add(process)
        try:
            process.start()
            theirs.close()
            while True:
                try:
                    kind, value = ours.recv()
                except EOFError:
                    kind, value = "failed", "the review stopped"
                with job.lock:
                    if kind == "progress":
                        job.done = value
                        continue
                    if kind == "done":
                        job.result = value
                    else:
                        job.error = value
                break
        finally:
            ours.close()
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join()
            self._processes.discard(process)


def _reviewed(save: dict[str, Any], work: int, out: Connection) -> None:
    """A review's process: the game of `save` reviewed, how far it is and then the review
    sent on `out` (``("progress", n)``, then ``("done", review)`` or ``("failed", why)``)."""

    def progress(done: int, total: int) -> None:
        if done % PROGRESS_EVERY == 0 or done == total:
            out.send(("progress", done))

    try:
        result = review(from_save(save), work, progress=progress).to_dict()
    except Exception as exc:  # a review that fails says so
        out.send(("failed", f"the review failed: {type(exc).__name__}"))
    else:
        out.send(("done", result))
    finally:
        out.close()
