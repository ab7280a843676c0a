"""Helpers of the server tests: a throwaway PostgreSQL cluster, `tresham serve` processes,
a webhook receiver, and playing legal moves through the API.

The PostgreSQL cluster lives in a temporary folder, listens on a free port of 127.0.0.1 only,
and is stopped and deleted after the tests. Run as root, it runs as the ``postgres`` user
(PostgreSQL refuses root). ``make test`` installs PostgreSQL (tools/ensure_postgres.sh); where
it is missing the PostgreSQL tests are skipped, except in CI (``CI`` set), where they fail.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import pwd
import queue
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]

#: The webhook hosts the tests' servers allow though they are not public: the tests' own
#: receivers listen on 127.0.0.1 (as an operator's local relay would).
LOCAL_RECEIVERS = ("127.0.0.1",)

#: The tests' servers' limits of games made and of games of bots only: the tests make many
#: games from one address (the limits' own tests set theirs).
ROOMY = {
    "create_limit": 100_000,
    "create_limit_all": 100_000,
    "bot_games_per_client": 1000,
    "bot_games": 1000,
}


# ---------------------------------------------------------------------- ports
def free_port() -> int:
    """A port nobody listens on now (the OS picks it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# ---------------------------------------------------------------------- PostgreSQL
def postgres_bindir() -> Path | None:
    """The folder of initdb/pg_ctl/postgres: Debian's newest, else the PATH's."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: [int(x) for x in re.findall(r"\d+", p)],
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).resolve().parent
    return None


class PgCluster:
    """A PostgreSQL server of the tests' own, on 127.0.0.1:`port`."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="tresham-pg-"))
        self.data = self.dir / "data"
        self.port = 0
        self.as_user: str | None = None
        if os.geteuid() == 0:
            try:
                entry = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("running as root, but there is no postgres user") from None
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
            self.as_user = "postgres"

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bindir / args[0]), *args[1:]]
        if self.as_user is not None:
            runuser = shutil.which("runuser") or "/usr/sbin/runuser"
            command = [runuser, "-u", self.as_user, "--", *command]
        return subprocess.run(
            command, cwd=self.dir, capture_output=True, text=True, timeout=120, check=False
        )

    def start(self) -> None:
        """initdb and start; raises RuntimeError with PostgreSQL's words if it fails."""
        done = self._run(
            "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
            "--no-sync",
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"initdb failed: {done.stderr.strip()}")
        problem = ""
        for _attempt in range(3):
            self.port = free_port()
            options = (
                f"-p {self.port} -c listen_addresses=127.0.0.1 -k {self.dir} "
                "-c fsync=off -c synchronous_commit=off -c full_page_writes=off "
                "-c max_connections=300"
            )
            started = self._run(
                "pg_ctl", "-D", str(self.data), "-l", str(self.dir / "log"), "-w", "-t", "60",
                "-o", options, "start",
            )  # fmt: skip
            if started.returncode == 0:
                return
            problem = started.stderr.strip() + " " + self.log_tail()
        raise RuntimeError(f"PostgreSQL did not start: {problem}")

    def log_tail(self) -> str:
        """The end of the server's log."""
        with contextlib.suppress(OSError):
            return (self.dir / "log").read_text()[-2000:]
        return ""

    def stop(self) -> None:
        """Stop the server and delete its files."""
        with contextlib.suppress(Exception):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        """The URL of one of its databases."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new, empty database; returns its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)


# ---------------------------------------------------------------------- server processes
class ServerProcess:
    """A `tresham serve` process on 127.0.0.1: on a free port, or on `port` (a server
    started again where the browsers that knew the old one look for it)."""

    def __init__(
        self,
        db_url: str,
        workdir: Path,
        extra_env: dict[str, str] | None = None,
        port: int = 0,
    ):
        self.db_url = db_url
        self.port = port
        self.workdir = workdir
        self.env = {
            **os.environ,
            "TRESHAM_BOT_DELAY": "0",
            "TRESHAM_UNDO_GRACE": "0",
            "TRESHAM_WEBHOOK_ALLOW": ",".join(LOCAL_RECEIVERS),
            **{f"TRESHAM_{key.upper()}": str(value) for key, value in ROOMY.items()},
            **(extra_env or {}),
        }
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        self.log = workdir / f"server-{uuid.uuid4().hex[:6]}.log"
        #: What it printed to standard output (its address, the access log), line by line.
        self.output: list[str] = []

    def start(self, timeout: float = 60.0) -> ServerProcess:
        """Start and wait until it answers."""
        command = [sys.executable, "-m", "tresham.cli", "serve", "--port", str(self.port)]
        command += ["--db", self.db_url]
        with self.log.open("w") as err:
            self.proc = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=err, text=True, env=self.env, cwd=ROOT
            )
        lines: queue.Queue[str] = queue.Queue()
        stdout = self.proc.stdout
        assert stdout is not None

        def read() -> None:
            for line in stdout:
                lines.put(line)
                self.output.append(line)

        threading.Thread(target=read, daemon=True).start()
        deadline = time.monotonic() + timeout
        while not self.url:
            try:
                line = lines.get(timeout=0.1)
            except queue.Empty:
                if self.proc.poll() is None and time.monotonic() < deadline:
                    continue
                self.kill()
                raise RuntimeError(f"the server did not start: {self.log.read_text()}") from None
            found = re.search(r"tresham server: (http://\S+?)/?$", line.strip())
            if found:
                self.url = found.group(1)
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{self.url}/api/health", timeout=2).status_code == 200:
                    return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"the server did not answer: {self.log.read_text()}")

    @property
    def ws_url(self) -> str:
        """The websocket base address."""
        return "ws://" + self.url.removeprefix("http://")

    def kill(self) -> None:
        """kill -9."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        """A clean stop (SIGTERM), else kill -9."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


# ---------------------------------------------------------------------- webhook receiver
class Receiver:
    """A webhook receiver on 127.0.0.1: records every JSON body POSTed to it (and its Host
    header, in `hosts`), and answers the first `fail_first` of them with a 500."""

    def __init__(self, fail_first: int = 0) -> None:
        self.calls: queue.Queue[dict[str, Any]] = queue.Queue()
        self.hosts: list[str | None] = []
        calls = self.calls
        hosts = self.hosts
        failures = [fail_first]

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                hosts.append(self.headers.get("Host"))
                length = int(self.headers.get("Content-Length", "0"))
                calls.put(json.loads(self.rfile.read(length)))
                failing = failures[0] > 0
                failures[0] -= 1
                self.send_response(500 if failing else 204)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = int(self.server.server_address[1])
        self.url = f"http://127.0.0.1:{self.port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def next_call(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next call received."""
        return self.calls.get(timeout=timeout)

    def close(self) -> None:
        """Stop receiving."""
        self.server.shutdown()
        self.server.server_close()


@contextlib.contextmanager
def silent_receiver() -> Iterator[str]:
    """A webhook URL whose server accepts connections and never answers."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(50)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/hook"
    finally:
        sock.close()


# ---------------------------------------------------------------------- playing through the API
def auth(token: str) -> dict[str, str]:
    """The header of a seat token."""
    return {"Authorization": f"Bearer {token}"}


def play(client: Any, game_id: str, tokens: dict[str, str], moves: int, seed: int = 0) -> int:
    """Make `moves` moves, each a legal action of the acting seat chosen at random (seeded);
    returns the index reached. `client` is an httpx-like client whose base URL is the
    server."""
    rng = random.Random(seed)
    index = -1
    for _ in range(moves):
        state = client.get(f"/api/games/{game_id}").json()
        token = tokens[state["acting_player"]]
        legal = client.get(f"/api/games/{game_id}/legal", headers=auth(token)).json()
        answer = client.post(
            f"/api/games/{game_id}/actions",
            json={"index": legal["index"], "action": rng.choice(legal["actions"])},
            headers=auth(token),
        )
        assert answer.status_code == 200, answer.text
        index = answer.json()["index"]
    return index


def play_until_turn(
    client: Any, game_id: str, tokens: dict[str, str], player: str, seed: int = 0
) -> int:
    """Make legal moves (as `play`, one seed a move from `seed` on) until it is `player`'s
    turn; returns the next seed."""
    while client.get(f"/api/games/{game_id}").json()["acting_player"] != player:
        play(client, game_id, tokens, 1, seed=seed)
        seed += 1
    return seed


# ---------------------------------------------------------------------- kill -9 during a burst
def burst_until_killed(
    server: ServerProcess, game_id: str, tokens: dict[str, str], moves: int, seed: int
) -> dict[int, Any]:
    """Post legal moves (chosen at random, seeded) as fast as they go from another thread,
    and kill -9 the server once `moves` of them were acknowledged (or 30 s passed, or the game
    ended); returns the acknowledged moves by index. Raises what the posting thread met,
    other than the server going away."""
    acknowledged: dict[int, Any] = {}
    errors: list[BaseException] = []
    over = threading.Event()

    def burst() -> None:
        rng = random.Random(seed)
        with httpx.Client(base_url=server.url, timeout=5) as client:
            try:
                while True:
                    state = client.get(f"/api/games/{game_id}").json()
                    if state["finished"]:
                        over.set()
                        return
                    token = tokens[state["acting_player"]]
                    legal = client.get(f"/api/games/{game_id}/legal", headers=auth(token)).json()
                    action = rng.choice(legal["actions"])
                    answer = client.post(
                        f"/api/games/{game_id}/actions",
                        json={"index": legal["index"], "action": action},
                        headers=auth(token),
                    )
                    if answer.status_code == 200:
                        acknowledged[legal["index"]] = action
            except httpx.HTTPError:
                return  # the server is gone
            except BaseException as exc:
                errors.append(exc)

    thread = threading.Thread(target=burst)
    thread.start()
    deadline = time.monotonic() + 30
    while len(acknowledged) < moves and time.monotonic() < deadline and not over.is_set():
        time.sleep(0.01)
    server.kill()
    thread.join(30)
    if errors:
        raise errors[0]
    return dict(acknowledged)


def problems_after_restart(
    client: httpx.Client, game_id: str, acknowledged: dict[int, Any]
) -> list[str]:
    """What is wrong with a game after a restart (nothing, if the list is empty): each index
    must be logged once, every acknowledged move at its index, and the exported log must
    replay to the game the server shows."""
    from tresham.io.save import from_save

    out: list[str] = []
    entries = client.get(f"/api/games/{game_id}/log").json()["entries"]
    logged = {e["index"]: e["entry"] for e in entries}
    if len(logged) != len(entries):
        out.append(f"duplicated: {len(entries) - len(logged)} indexes logged twice")
    lost = sorted(i for i, action in acknowledged.items() if logged.get(i) != action)
    if lost:
        out.append(f"lost: acknowledged moves {lost} are not in the log as posted")
    replayed = from_save(client.get(f"/api/games/{game_id}/export").json())
    if client.get(f"/api/games/{game_id}").json()["state_hash"] != replayed.state_hash():
        out.append("mismatched: the log does not replay to the game shown")
    return out
