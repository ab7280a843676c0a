"""The server's settings: where the database is, and the knobs of bots, webhooks and limits.

The database is named by a URL: ``--db`` on the command line, else ``TRESHAM_DATABASE_URL``,
else an SQLite file in the data folder (``TRESHAM_DATA_DIR``, else
``$XDG_DATA_HOME/tresham``, else ``~/.local/share/tresham``). ``postgresql://`` URLs are used
through SQLAlchemy with psycopg 3.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from tresham.server.targets import AllowList, Resolver

SQLITE_FILE = "tresham.sqlite3"


def data_dir() -> Path:
    """The folder of the default SQLite database (not created here)."""
    explicit = os.environ.get("TRESHAM_DATA_DIR")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "tresham"


def default_database_url() -> str:
    """The SQLite file in the data folder, as a URL."""
    return f"sqlite:///{data_dir() / SQLITE_FILE}"


def resolve_database_url(given: str | None = None) -> str:
    """The database URL to use: `given`, else ``TRESHAM_DATABASE_URL``, else the default."""
    return given or os.environ.get("TRESHAM_DATABASE_URL") or default_database_url()


def _env_float(name: str, default: float) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number, not {raw!r}") from None


LOG_LEVELS = ("debug", "info", "warning", "error")


def _log_level(name: str) -> str:
    level = os.environ.get(name, "warning").lower()
    if level not in LOG_LEVELS:
        raise ValueError(f"{name} must be one of {', '.join(LOG_LEVELS)}, not {level!r}")
    return level


#: How many bot worker processes `tresham serve` starts unless told.
DEFAULT_BOT_WORKERS = 2


def _bot_workers(name: str) -> int | None:
    """A number of bot workers (0 or more), or ``threads`` (None: bots think in the
    server's threads)."""
    raw = os.environ.get(name, "").strip().lower()
    if raw == "":
        return DEFAULT_BOT_WORKERS
    if raw == "threads":
        return None
    if not raw.isdigit():
        raise ValueError(f"{name} must be a number of workers or 'threads', not {raw!r}")
    return int(raw)


def _allowed(name: str) -> tuple[str, ...]:
    entries = tuple(x.strip() for x in os.environ.get(name, "").split(",") if x.strip())
    try:
        AllowList.parse(entries)
    except ValueError as exc:
        raise ValueError(f"{name}: {exc}") from None
    return entries


@dataclass(frozen=True)
class ServerConfig:
    """Everything a server process needs to know.

    `bot_delay`: seconds a bot waits before it moves (so people can follow); `undo_grace`:
    seconds it waits instead when a person has just acted and may still undo. `webhook_timeout`
    and `webhook_attempts`: each webhook try's total deadline and how often it is tried;
    `webhook_backoff` is the wait before the first retry (doubled after each). `max_body` and
    `max_import_body`: the largest request bodies accepted (imports carry whole games).
    `max_live_games`: idle games beyond this many are dropped from memory (reloaded from the
    log when asked for again). `public_url`: the address put in seat links (default: the
    address a request came to) and in webhook messages (default: none, the message has no
    link: a request's Host header is the requester's word, not the server's).
    `webhook_allow`: the hosts (names, networks) a webhook may reach though they are not
    public (server/targets.py; default none); `resolver`: what resolves webhook hosts (None:
    the system's; tests give their own). `log_level` and `access_log`: what `tresham serve`
    logs: messages from this level up (standard error), and a line per request (the access
    log, standard output: method, path and status; tokens travel only in headers, never in a
    path). `worker_threads`: how many threads run the database and engine work. `join_limit`
    and `chat_limit`: how many joins one address, and how many chat lines one seat (or
    spectator's address), may send in `rate_window` seconds. `create_limit` and
    `create_limit_all`: how many games one address, and all together, may make (or import)
    in `create_window` seconds. `bot_games_per_client` and `bot_games`: how many games whose
    every seat is a bot may be running (not paused) for one address, and in all, when one
    more is made; `bot_idle`: seconds after which a game of bots only that nobody watches (no
    websocket, no request about it) is paused, until someone looks again. `bot_workers`: how
    many bot worker processes the server starts (``server/workers.py``; 0: none here, the
    turns wait for ``tresham bot-worker`` processes elsewhere, PostgreSQL only); None: bots
    think in the server's own threads, as before workers (``TRESHAM_BOT_WORKERS=threads``;
    what in-process tests use). `bot_lease`: seconds a worker's claim on a turn lasts unless
    renewed (a dead worker's turn is taken again after at most this). `bot_nice`: how much
    lower the local workers' priority is than the server's. `bot_hold`: a test hook, see
    ``server/bot_worker.py``.
    """

    database_url: str
    bot_delay: float = 0.5
    undo_grace: float = 3.0
    webhook_timeout: float = 5.0
    webhook_attempts: int = 3
    webhook_backoff: float = 0.5
    max_body: int = 256 * 1024
    max_import_body: int = 32 * 1024 * 1024
    max_live_games: int = 1000
    public_url: str | None = None
    worker_threads: int = 2
    join_limit: int = 10
    chat_limit: int = 5
    rate_window: float = 10.0
    webhook_allow: tuple[str, ...] = ()
    resolver: Resolver | None = None
    log_level: str = "warning"
    access_log: bool = False
    create_limit: int = 10
    create_limit_all: int = 120
    create_window: float = 60.0
    bot_games_per_client: int = 2
    bot_games: int = 8
    bot_idle: float = 60.0
    bot_workers: int | None = None
    bot_lease: float = 10.0
    bot_nice: int = 10
    bot_hold: str | None = None

    @classmethod
    def from_env(cls, database_url: str | None = None) -> ServerConfig:
        """Settings from the environment (``TRESHAM_BOT_DELAY``, ``TRESHAM_UNDO_GRACE``,
        ``TRESHAM_PUBLIC_URL``, ``TRESHAM_WORKER_THREADS``, ``TRESHAM_WEBHOOK_ALLOW``: a
        comma-separated list, ``TRESHAM_LOG_LEVEL``, ``TRESHAM_ACCESS_LOG``: 1 for on,
        ``TRESHAM_CREATE_LIMIT``, ``TRESHAM_CREATE_LIMIT_ALL``, ``TRESHAM_BOT_GAMES``,
        ``TRESHAM_BOT_GAMES_PER_CLIENT``, ``TRESHAM_BOT_IDLE``, ``TRESHAM_BOT_WORKERS``: a
        number, default 2, or ``threads``, ``TRESHAM_BOT_LEASE``, ``TRESHAM_BOT_NICE``,
        ``TRESHAM_BOT_HOLD``)."""
        return cls(
            database_url=resolve_database_url(database_url),
            bot_delay=_env_float("TRESHAM_BOT_DELAY", 0.5),
            undo_grace=_env_float("TRESHAM_UNDO_GRACE", 3.0),
            public_url=os.environ.get("TRESHAM_PUBLIC_URL") or None,
            worker_threads=max(1, int(_env_float("TRESHAM_WORKER_THREADS", 2))),
            webhook_allow=_allowed("TRESHAM_WEBHOOK_ALLOW"),
            log_level=_log_level("TRESHAM_LOG_LEVEL"),
            access_log=os.environ.get("TRESHAM_ACCESS_LOG", "") not in ("", "0"),
            create_limit=int(_env_float("TRESHAM_CREATE_LIMIT", 10)),
            create_limit_all=int(_env_float("TRESHAM_CREATE_LIMIT_ALL", 120)),
            bot_games_per_client=int(_env_float("TRESHAM_BOT_GAMES_PER_CLIENT", 2)),
            bot_games=int(_env_float("TRESHAM_BOT_GAMES", 8)),
            bot_idle=_env_float("TRESHAM_BOT_IDLE", 60.0),
            bot_workers=_bot_workers("TRESHAM_BOT_WORKERS"),
            bot_lease=_env_float("TRESHAM_BOT_LEASE", 10.0),
            bot_nice=int(_env_float("TRESHAM_BOT_NICE", 10)),
            bot_hold=os.environ.get("TRESHAM_BOT_HOLD") or None,
        )
