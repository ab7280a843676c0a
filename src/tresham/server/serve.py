"""`tresham serve`: bind the address, open the database, print where the server is, and run
it with uvicorn until interrupted.

Every log handler gets the :class:`Redact` filter: a token a client sends in a header (the
websocket library logs a handshake's headers at level debug) never reaches a log line.
"""

from __future__ import annotations

import logging
import re
import socket
import sys

import uvicorn

from tresham.server.app import create_app
from tresham.server.config import ServerConfig
from tresham.server.storage import Storage, StorageError

#: Where a log line may carry a credential: an Authorization header (the rest of its line is
#: hidden), a bearer token.
CREDENTIALS = (
    re.compile(r"(?i)(authorization[\"']?\s*[:=,]\s*)[^\r\n]*"),
    re.compile(r"(?i)(bearer\s+)[^\s\"',)]+"),
)


class Redact(logging.Filter):
    """Hides what follows ``Authorization:`` or ``Bearer`` in a log line."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        hidden = message
        for pattern in CREDENTIALS:
            hidden = pattern.sub(r"\1[hidden]", hidden)
        if hidden != message:
            record.msg, record.args = hidden, None
        return True


def redact_logs() -> None:
    """Put the Redact filter on every handler of every logger there is."""
    loggers = [logging.getLogger()]
    loggers += [
        x for x in logging.Logger.manager.loggerDict.values() if isinstance(x, logging.Logger)
    ]
    for logger in loggers:
        for handler in logger.handlers:
            if not any(isinstance(f, Redact) for f in handler.filters):
                handler.addFilter(Redact())


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: a free port)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    family, kind, proto, _name, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def address(sock: socket.socket) -> str:
    """The http:// address of a bound socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"


def serve(host: str = "127.0.0.1", port: int = 8000, db: str | None = None) -> int:
    """Run the server; returns the exit code."""
    try:
        config = ServerConfig.from_env(db)
        storage = Storage(config.database_url)
    except (StorageError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    try:
        sock = bind(host, port)
    except OSError as exc:
        storage.close()
        print(f"error: cannot listen on {host}:{port}: {exc.strerror}", file=sys.stderr)
        return 1
    print(f"tresham server: {address(sock)}/", flush=True)
    print(f"database: {storage.describe()}", flush=True)
    logging.basicConfig(
        level=config.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    app = create_app(config, storage)
    server = uvicorn.Server(
        uvicorn.Config(app, log_level=config.log_level, access_log=config.access_log, lifespan="on")
    )
    redact_logs()
    server.run(sockets=[sock])
    return 0
