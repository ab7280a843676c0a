"""`tresham bot-worker`: a process that takes bot turns from the database and moves for them.

The server never thinks for a bot in its own threads (unless told to, ``TRESHAM_BOT_WORKERS=
threads``): when a bot is to act it queues the turn (``server/claims.py``), and a worker
claims it, brings its own copy of the game up to date from the log, chooses the move
(``server/bots.py: bot_action``, the same choice whatever process makes it), and stores it
through the one path a person's move takes (``server/commit.py``: the seat's right, the
rules, the log row, the history): a move the rules refuse is never stored, and a worker whose
copy is behind the log gets :class:`Stale` and drops the turn. The move reaches the servers
as any other process's does: ``NOTIFY`` on PostgreSQL; on SQLite the worker says so on its
standard output (``moved <game id> <log length>``), which the server that started it reads.

A worker also works out the hints players ask for at the table (``server/hints.py``), from
their own queue (``claims.HINTS``), before any bot turn (a person is waiting): at the ask's
position, the seat still to act there, it stores ``bots/hints.py``'s hint in the ask's row
(announced as a move is: ``NOTIFY`` on :data:`claims.HINTED_CHANNEL`, or ``hinted <game id>
<index>`` on its standard output); an ask the game has moved past is dropped.

A worker renews its claim's lease while it thinks (a thread, every third of the lease); a
worker that dies mid-thought stops renewing it, and once it runs out any worker claims the
turn again. The log's unique (game, index) key makes the move land once whatever happens:
two workers that both think (one hung past its lease) store one move, the other gets Stale.

A worker waits for work on PostgreSQL's ``LISTEN`` (:data:`claims.BOT_CHANNEL`), on SQLite
on a pipe from the server that started it, or by looking every `poll` seconds; it looks every
`poll` seconds in any case, for claims whose lease ran out. A worker started by a server (the
pipe) says ``ready`` on its standard output once it can take turns, and stops when the server
goes (the pipe closes). It runs at a lower priority (`nice`) than the server, so that a
person's move never waits for a bot's thinking. Any number of workers, on any machines
sharing one PostgreSQL database, share the work.

`hold` is a hook for tests: the worker's first turn (or hint) is thought through and then
held, its claim renewed, never stored, until the worker is killed; the worker writes
``"<pid> <game id> <index>"`` to that file when it holds.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import signal
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from tresham.bots.hints import hint
from tresham.core.errors import RuleError
from tresham.server import claims
from tresham.server.bots import bot_action
from tresham.server.claims import Claim
from tresham.server.commit import catch_up, commit_entry
from tresham.server.errors import ApiError, Stale, Unavailable
from tresham.server.live import LiveGame
from tresham.server.storage import Storage, StorageError
from tresham.words import Words

log = logging.getLogger("tresham.server.bot_worker")

#: How many games a worker keeps in memory (the least recently played go first).
CACHED_GAMES = 32


class Wake(Protocol):
    """How a worker waits for a turn to be queued."""

    def drain(self) -> None:
        """Forget the wake-ups so far (before looking for a turn)."""
        ...

    def wait(self, timeout: float) -> None:
        """Wait until a turn may have been queued since the last `drain`, or `timeout`."""
        ...


class Sleep:
    """Waits by sleeping (nothing tells this worker of new turns)."""

    def drain(self) -> None:
        pass

    def wait(self, timeout: float) -> None:
        time.sleep(timeout)


class ServerGone(Exception):
    """The server that started this worker has gone (its end of the wake pipe closed)."""


class PipeWake:
    """Waits on a pipe the server that started this worker writes a byte to after it queues
    a turn. When the server goes (killed, too), the pipe closes, and the worker stops:
    :class:`ServerGone`."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        os.set_blocking(fd, False)

    def drain(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while True:
                if not os.read(self.fd, 4096):
                    raise ServerGone("the server that started this worker has gone")

    def wait(self, timeout: float) -> None:
        select.select([self.fd], [], [], timeout)


class PgWake:
    """Waits for ``NOTIFY`` on the bot channel (a connection of its own; lost, it is made
    again at the next wait, which sleeps meanwhile). A worker started by a server still
    watches its pipe (`parent`), to stop when the server goes."""

    def __init__(self, conninfo: str, parent: PipeWake | None = None) -> None:
        self.conninfo = conninfo
        self.parent = parent
        self.conn: Any = None
        self._connect()

    def _connect(self) -> None:
        import psycopg

        try:
            self.conn = psycopg.connect(self.conninfo, autocommit=True)
            self.conn.execute(f"LISTEN {claims.BOT_CHANNEL}")
        except psycopg.Error as exc:
            log.warning("LISTEN connection failed: %s", exc)
            self.conn = None

    def _notes(self, timeout: float, stop_after: int | None) -> None:
        import psycopg

        if self.conn is None:
            self._connect()
            if self.conn is None:
                time.sleep(timeout)
                return
        try:
            for _note in self.conn.notifies(timeout=timeout, stop_after=stop_after):
                pass
        except psycopg.Error as exc:
            log.warning("LISTEN connection lost: %s", exc)
            with contextlib.suppress(Exception):
                self.conn.close()
            self.conn = None

    def drain(self) -> None:
        if self.parent is not None:
            self.parent.drain()
        self._notes(0.0, None)

    def wait(self, timeout: float) -> None:
        self._notes(timeout, 1)


@dataclass
class Options:
    """A worker's settings: its claims' `lease` (seconds), how often it looks for turns
    whatever it hears (`poll`), the test hook `hold`, and `report`: whom to tell of each
    move stored and hint worked out (None: nobody; the database announces them on
    PostgreSQL): ``report("moved", game id, log length)``, ``report("hinted", game id,
    index)``."""

    lease: float = 10.0
    poll: float = 1.0
    hold: Path | None = None
    report: Callable[[str, str, int], None] | None = None


def bare_view(live: LiveGame) -> dict[str, Any]:
    """A worker's games show nothing to anyone: their snapshot is the index alone."""
    return {"index": live.index}


class BotWorker:
    """Takes bot turns from `storage` and moves for them (see the module's docstring)."""

    def __init__(self, storage: Storage, options: Options, wake: Wake | None = None) -> None:
        self.storage = storage
        self.options = options
        self.wake: Wake = wake or Sleep()
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self.moves = 0
        self._held = False

    def run(self, stop: threading.Event | None = None) -> None:
        """Take turns until `stop` is set (or forever)."""
        stop = stop or threading.Event()
        while not stop.is_set():
            self.wake.drain()
            try:
                worked = self.step()
            except Exception as exc:  # the database failed: look again later
                log.warning("no turn taken: %r", exc)
                worked = False
            if not worked:
                self.wake.wait(self.options.poll)

    def step(self) -> bool:
        """Claim one hint asked and work it out, else one turn and play it (a person waits
        for a hint); False if neither was waiting."""
        held = claims.claim(self.storage, self.options.lease, claims.HINTS)
        if held is None:
            held = claims.claim(self.storage, self.options.lease)
        if held is None:
            return False
        with self._renewing(held):
            if held.queue == claims.HINTS:
                self.take_hint(held)
            else:
                self.take(held)
        return True

    def take(self, held: Claim) -> None:
        """Play a claimed turn: move, or drop it if it is stale; mark it failed if its bot
        or its game cannot play."""
        try:
            live = self._live(held.game_id)
            if not _still(live, held) or live.bot_level(held.player) is None:
                claims.finish(self.storage, held)  # someone acted, or took back, first
                return
            action = bot_action(live.game, live.index, held.level)
            self._hold_here(held)
            commit_entry(self.storage, live, held.player, action)
        except Stale:
            claims.finish(self.storage, held)
            return
        except Unavailable as exc:  # the database failed: the lease runs out, and a worker
            log.warning("game %s: %s", held.game_id, exc.message)  # tries again
            return
        except (ApiError, RuleError) as exc:
            self.games.pop(held.game_id, None)
            log.error("game %s: the bot of %s cannot move: %s", held.game_id, held.player, exc)
            claims.fail(self.storage, held, str(exc))
            return
        except Exception as exc:
            self._give_up(held, f"the bot of {held.player} failed", exc)
            return
        if live.broken:
            self.games.pop(held.game_id, None)
        claims.finish(self.storage, held)
        self.moves += 1
        if self.options.report is not None:
            self.options.report("moved", held.game_id, live.index)

    def take_hint(self, held: Claim) -> None:
        """Work out a claimed hint and store it; drop the ask if the game moved on (or is
        over, or another is to act there), and give it up if it cannot be worked out."""
        try:
            live = self._live(held.game_id)
            if not _still(live, held):
                claims.finish(self.storage, held)
                return
            given = hint(live.game).to_dict(Words(live.game))
            self._hold_here(held)
        except Unavailable as exc:
            log.warning("game %s: %s", held.game_id, exc.message)
            return
        except Exception as exc:
            self._give_up(held, f"the hint for {held.player} failed", exc)
            return
        if claims.store_hint(self.storage, held, given) and self.options.report is not None:
            self.options.report("hinted", held.game_id, held.index)

    def _give_up(self, held: Claim, what: str, exc: Exception) -> None:
        """A claimed turn or ask raised `exc`: log it with `what` went wrong, forget this
        worker's copy of the game, and mark the claim failed."""
        self.games.pop(held.game_id, None)
        log.exception("game %s: %s", held.game_id, what)
        claims.fail(self.storage, held, repr(exc))

    def _live(self, game_id: str) -> LiveGame:
        """This worker's copy of the game, brought up to date with the log."""
        live = self.games.get(game_id)
        if live is None or live.broken:
            record = self.storage.game(game_id)
            if record is None or not record.hosting.started:
                raise ApiError(f"no game {game_id} to play", "game")
            live = LiveGame.rebuild(record, self.storage.entries(game_id), bare_view)
            self.games[game_id] = live
        else:
            catch_up(self.storage, live)
        self.games.move_to_end(game_id)
        while len(self.games) > CACHED_GAMES:
            self.games.popitem(last=False)
        return live

    @contextlib.contextmanager
    def _renewing(self, held: Claim) -> Iterator[None]:
        """Renew the claim's lease every third of it while the block runs."""
        done = threading.Event()

        def renew() -> None:
            while not done.wait(self.options.lease / 3):
                try:
                    if not claims.renew(self.storage, held, self.options.lease):
                        return  # queued anew or claimed again: nothing more to hold
                except Exception as exc:
                    log.warning("game %s: the lease was not renewed: %r", held.game_id, exc)

        thread = threading.Thread(target=renew, daemon=True, name="lease")
        thread.start()
        try:
            yield
        finally:
            done.set()
            thread.join()

    def _hold_here(self, held: Claim) -> None:
        """The test hook: hold the first turn, thought through, until killed."""
        if self.options.hold is None or self._held:
            return
        self._held = True
        with self.options.hold.open("a") as out:
            out.write(f"{os.getpid()} {held.game_id} {held.index}\n")
        while True:
            time.sleep(3600)


def _still(live: LiveGame, held: Claim) -> bool:
    """Whether the game is where the claim found it: at its log index, not over, its player
    to act."""
    game = live.game
    return (
        live.index == held.index and not game.state.finished and game.acting_player() == held.player
    )


def report_line(what: str, game_id: str, index: int) -> None:
    """Tell the server that started this worker of a move (``moved <game id> <log length>``)
    or a hint worked out (``hinted <game id> <index>``): a line on standard output."""
    print(f"{what} {game_id} {index}", flush=True)


def run_worker(
    db: str,
    *,
    lease: float = 10.0,
    poll: float = 1.0,
    nice: int = 10,
    hold: str | None = None,
    wake_fd: int | None = None,
    report: bool = False,
) -> int:
    """`tresham bot-worker`: take bot turns from the database until stopped; the exit
    code."""
    from tresham.server.config import resolve_database_url

    logging.basicConfig(
        level=os.environ.get("TRESHAM_LOG_LEVEL", "warning").upper(),
        format="%(asctime)s %(levelname)s %(name)s[%(process)d]: %(message)s",
    )
    try:
        storage = Storage(resolve_database_url(db))
        claims.ensure_table(storage)
    except StorageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    parent = None if wake_fd is None else PipeWake(wake_fd)
    wake: Wake = PgWake(storage.conninfo(), parent) if storage.is_postgres else parent or Sleep()
    options = Options(
        lease=lease,
        poll=min(poll, lease / 2),
        hold=None if hold is None else Path(hold),
        report=report_line if report else None,
    )
    print(f"tresham bot worker: database {storage.describe()}", file=sys.stderr, flush=True)
    if wake_fd is not None:  # started by a server, which waits until its workers are ready
        from tresham.titles.registry import get_title, titles

        for name in titles():
            get_title(name)
        print("ready", flush=True)
    stop = threading.Event()

    def stopping(_signum: int, _frame: object) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stopping)
    try:
        BotWorker(storage, options, wake).run(stop)
    except (KeyboardInterrupt, ServerGone):
        pass
    finally:
        storage.close()
    return 0
