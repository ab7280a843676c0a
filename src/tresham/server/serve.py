"""`tresham serve`: bind the address, open the database, print where the server is, and run
it with uvicorn until interrupted."""

from __future__ import annotations

import socket
import sys

import uvicorn

from tresham.server.app import create_app
from tresham.server.config import ServerConfig
from tresham.server.storage import Storage, StorageError


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
    app = create_app(config, storage)
    server = uvicorn.Server(
        uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    )
    server.run(sockets=[sock])
    return 0
