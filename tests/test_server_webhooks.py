"""Webhooks a stranger sets cannot reach inside (server/targets.py, server/webhooks.py): every
kind of internal address is refused with a 422 that names it, when the webhook is set and
again at call time against the address connected to (a name resolving public when set and
private when called is refused), unless the operator's allow-list names it; the answer is read
up to a bound within one total deadline; messages cannot ping a channel and link only to the
configured public URL.

A loopback listener stands where a refused webhook would land: it must receive nothing. The
names resolve through a resolver the test controls (ServerConfig.resolver).
"""

from __future__ import annotations

import socket
import threading
import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from conftest_server import ROOMY, Receiver, auth, play
from tresham.server import ServerConfig, create_app
from tresham.server.targets import AllowList, Refused, Targets
from tresham.server.webhooks import MAX_ANSWER, shown

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

PLAYERS = ["Ann", "Bob", "Cid"]
PUBLIC = "93.184.215.14"  # a global unicast address (nothing is called there in these tests)


class FakeDns:
    """A resolver the test controls: each name answers the addresses it is given, in turn
    (the last one from then on); every lookup is counted."""

    def __init__(self, names: dict[str, list[list[str]]] | None = None) -> None:
        self.names = dict(names or {})
        self.lookups: list[str] = []

    async def __call__(self, host: str, port: int) -> list[str]:
        self.lookups.append(host)
        answers = self.names.get(host.lower())
        if not answers:
            raise OSError(f"{host}: no such name")
        return answers.pop(0) if len(answers) > 1 else answers[0]


class Listener:
    """A loopback TCP listener counting every connection it accepts (a refused webhook must
    make none)."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(50)
        self.sock.settimeout(0.1)
        self.port = int(self.sock.getsockname()[1])
        self.accepted = 0
        self._stop = threading.Event()
        self.thread = threading.Thread(target=self._accept, daemon=True)
        self.thread.start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except (TimeoutError, OSError):
                continue
            self.accepted += 1
            conn.close()

    def close(self) -> None:
        self._stop.set()
        self.thread.join(2)
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    found = Listener()
    yield found
    found.close()


def make_client(db_url: str, dns: FakeDns | None = None, **config: Any) -> TestClient:
    settings: dict[str, Any] = {
        "bot_delay": 0.0,
        "undo_grace": 0.0,
        "webhook_timeout": 1.0,
        "webhook_attempts": 1,
        "webhook_backoff": 0.01,
        "resolver": dns or FakeDns(),
        **ROOMY,
        **config,
    }
    return TestClient(create_app(ServerConfig(database_url=db_url, **settings)))


def server_of(client: TestClient) -> Any:
    return client.app.state.holder["server"]  # type: ignore[attr-defined]


def create(client: TestClient, **extra: Any) -> Any:
    return client.post("/api/games", json={"title": "1849", "players": PLAYERS, "seed": 7, **extra})


def wait_for(check: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check() and time.monotonic() < deadline:
        time.sleep(0.02)


#: Hosts of every internal kind, as the URL spells them, and the word the refusal names.
REFUSED = [
    ("127.0.0.1", "loopback"),
    ("127.1", "loopback"),
    ("2130706433", "loopback"),
    ("0x7f.1", "loopback"),
    ("017700000001", "loopback"),
    ("[::1]", "loopback"),
    ("[::ffff:127.0.0.1]", "loopback"),
    ("[::ffff:7f00:1]", "loopback"),
    ("localhost", "local name"),
    ("LocalHost.", "local name"),
    ("app.localhost", "local name"),
    ("metadata.google.internal", "local name"),
    ("printer.local", "local name"),
    ("0.0.0.0", "unspecified"),
    ("0", "unspecified"),
    ("[::]", "unspecified"),
    ("10.0.0.1", "private"),
    ("172.16.0.1", "private"),
    ("192.168.1.1", "private"),
    ("[::ffff:192.168.1.1]", "private"),
    ("169.254.169.254", "link-local"),
    ("[fe80::1]", "link-local"),
    ("[fd00::1]", "unique-local"),
    ("[fc00::1]", "unique-local"),
    ("224.0.0.1", "multicast"),
    ("[ff02::1]", "multicast"),
    ("240.0.0.1", "reserved"),
    ("255.255.255.255", "reserved"),
    ("100.64.0.1", "shared"),
    ("192.0.2.1", "private"),
    ("[2001:db8::1]", "private"),
    ("[2002:7f00:1::]", "loopback"),
    # names resolving to internal addresses (FakeDns below)
    ("inside.example", "private"),
    ("both.example", "loopback"),
    ("v6inside.example", "unique-local"),
    ("nowhere.example", "does not resolve"),
]

DNS = {
    "inside.example": [["10.1.2.3"]],
    "both.example": [[PUBLIC, "127.0.0.1"]],
    "v6inside.example": [["fd12::1"]],
}


@pytest.mark.parametrize(("host", "kind"), REFUSED)
def test_a_webhook_to_an_internal_address_is_refused(
    sqlite_url: str, listener: Listener, host: str, kind: str
) -> None:
    """Set as a game's webhook, or as a seat's, every internal host is refused (422, field
    webhook/url, naming why), nothing is stored, and nothing is called."""
    dns = FakeDns({k: list(v) for k, v in DNS.items()})
    url = f"http://{host}:{listener.port}/hook"
    with make_client(sqlite_url, dns) as client:
        answer = create(client, webhook=url)
        assert answer.status_code == 422, answer.text
        body = answer.json()
        assert body["field"] == "webhook" and body["rule"] == "webhook"
        assert "public address" in body["error"] and kind in body["error"]
        assert client.get("/api/games").json() == []
        made = create(client).json()
        token = made["seats"][0]["token"]
        put = client.put(
            f"/api/games/{made['id']}/seat/webhook", json={"url": url}, headers=auth(token)
        )
        assert put.status_code == 422 and put.json()["field"] == "url", put.text
        assert kind in put.json()["error"]
        got = client.get(f"/api/games/{made['id']}/seat/webhook", headers=auth(token)).json()
        assert got["webhook"] is None
        time.sleep(0.1)
    assert listener.accepted == 0


def test_a_name_public_when_set_and_private_when_called_is_not_called(
    sqlite_url: str, listener: Listener
) -> None:
    """DNS rebinding: the name resolves to a public address when the webhook is set, then to
    the listener's loopback address; the call resolves once, finds loopback, and connects
    nowhere (the failure names the reason, not the URL's path)."""
    dns = FakeDns({"rebind.example": [[PUBLIC], ["127.0.0.1"]]})
    url = f"http://rebind.example:{listener.port}/secret-path?key=s3cret"
    with make_client(sqlite_url, dns) as client:
        answer = create(client, webhook=url)
        assert answer.status_code == 201, answer.text
        stats = server_of(client).registry.webhooks.stats
        wait_for(lambda: stats.failed >= 1)
        assert stats.failed == 1 and stats.delivered == 0
        assert dns.lookups.count("rebind.example") == 2  # set time, call time
        (error,) = stats.errors
        assert "loopback" in error and "rebind.example" in error
        assert "secret-path" not in error and "s3cret" not in error
    assert listener.accepted == 0


def test_the_allow_list_lets_named_hosts_and_networks_through(
    sqlite_url: str, listener: Listener
) -> None:
    """An operator's relay beside the server: allowed by name (whatever it resolves to; the
    call goes to the address resolved, with the name in its Host header) or by network; any
    other internal host is still refused."""
    receiver = Receiver()
    dns = FakeDns({"relay.lan": [["127.0.0.1"]], "other.lan": [["127.0.0.1"]]})
    try:
        allow = ("relay.lan", "127.0.0.0/8", "fd00::/8")
        with make_client(sqlite_url, dns, webhook_allow=allow) as client:
            by_name = f"http://relay.lan:{receiver.port}/hook"
            assert create(client, webhook=by_name).status_code == 201
            assert receiver.next_call()["tresham"]["event"] == "turn"
            assert receiver.hosts == [f"relay.lan:{receiver.port}"]
            by_network = f"http://127.0.0.1:{receiver.port}/hook"
            assert create(client, webhook=by_network).status_code == 201
            assert receiver.next_call()["tresham"]["event"] == "turn"
            # other.lan resolves to an allowed network: allowed as that address is
            assert create(client, webhook=f"http://other.lan:{receiver.port}/").status_code == 201
            receiver.next_call()
            for refused in ("http://10.0.0.1/", "http://[fe80::1]/", "http://localhost/"):
                answer = create(client, webhook=refused)
                assert answer.status_code == 422, refused
            assert create(client, webhook=f"http://[::1]:{listener.port}/").status_code == 422
    finally:
        receiver.close()
    assert listener.accepted == 0


def test_targets_read_numeric_spellings_as_the_resolver_does() -> None:
    """Every spelling inet_aton reads as 127.0.0.1 is refused as loopback; a name made only
    of hex letters is a name (looked up), not an address."""
    import asyncio

    dns = FakeDns({"deadbeef": [[PUBLIC]]})
    targets = Targets(AllowList(), dns)
    for spelling in ("127.0.0.1", "127.1", "127.0.1", "2130706433", "0x7f000001", "0177.1"):
        with pytest.raises(Refused, match="loopback"):
            asyncio.run(targets.addresses(spelling, 80))
    assert asyncio.run(targets.addresses("deadbeef", 80)) == [PUBLIC]
    assert asyncio.run(targets.addresses(PUBLIC, 80)) == [PUBLIC]
    with pytest.raises(ValueError, match="not a host name or network"):
        AllowList.parse(["relay lan"])


# ---------------------------------------------------------------------- the answer
class SlowServer:
    """A loopback HTTP receiver that answers 200 and then `body` forever: `mode` "flood"
    sends as fast as the socket takes, "trickle" one byte every 0.2 s; it counts what it
    sent."""

    def __init__(self, mode: str) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(10)
        self.port = int(self.sock.getsockname()[1])
        self.mode = mode
        self.sent = 0
        self.closed_at: float | None = None
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        conn, _ = self.sock.accept()
        with conn:
            conn.recv(65536)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000000000\r\n\r\n")
            chunk = b"x" * 65536 if self.mode == "flood" else b"x"
            try:
                while self.sent < 1_000_000_000:
                    conn.sendall(chunk)
                    self.sent += len(chunk)
                    if self.mode == "trickle":
                        time.sleep(0.2)
            except OSError:
                self.closed_at = time.monotonic()

    def close(self) -> None:
        self.sock.close()


def test_the_answer_is_read_up_to_a_bound(sqlite_url: str) -> None:
    """A receiver answering an endless body: the server reads a bounded part (what the
    receiver manages to push is the bound plus the sockets' buffers) and closes."""
    flood = SlowServer("flood")
    try:
        with make_client(sqlite_url, webhook_allow=("127.0.0.1",)) as client:
            assert create(client, webhook=f"http://127.0.0.1:{flood.port}/").status_code == 201
            stats = server_of(client).registry.webhooks.stats
            wait_for(lambda: stats.delivered + stats.failed >= 1)
            assert stats.delivered == 1
            wait_for(lambda: flood.closed_at is not None)
            assert flood.closed_at is not None
            assert MAX_ANSWER < 64 * 1024 and flood.sent < 32 * 1024 * 1024
    finally:
        flood.close()


def test_a_trickling_answer_ends_at_the_total_deadline(sqlite_url: str) -> None:
    """A receiver sending one byte every 0.2 s never lets a read time out; the call still
    ends when its total deadline (1 s) passes."""
    trickle = SlowServer("trickle")
    try:
        with make_client(sqlite_url, webhook_allow=("127.0.0.1",)) as client:
            started = time.monotonic()
            assert create(client, webhook=f"http://127.0.0.1:{trickle.port}/").status_code == 201
            stats = server_of(client).registry.webhooks.stats
            wait_for(lambda: stats.failed >= 1)
            took = time.monotonic() - started
            assert stats.failed == 1 and "no answer within 1 s" in stats.errors[0]
            assert took < 4.0
            wait_for(lambda: trickle.closed_at is not None)
            assert trickle.closed_at is not None and trickle.closed_at - started < 5.0
    finally:
        trickle.close()


# ---------------------------------------------------------------------- the message
def test_names_cannot_ping_and_links_come_from_the_public_url(sqlite_url: str) -> None:
    """Players named to ping a whole channel (Discord's @everyone and <@id>, Slack's
    <!channel>) are shown but cannot ping; the link is the configured public URL's, whatever
    Host the request that made the game named; without one, no link."""
    receiver = Receiver()
    players = ["@everyone", "<!channel>", "<@123456>"]
    try:
        with make_client(
            sqlite_url, webhook_allow=("127.0.0.1",), public_url="https://tables.example/"
        ) as client:
            body = {"title": "1849", "players": players, "seed": 7, "webhook": receiver.url}
            made = client.post("/api/games", json=body, headers={"Host": "evil.example"})
            assert made.status_code == 201, made.text
            call = receiver.next_call()
            acting = call["tresham"]["player"]
            assert acting in players
            assert call["allowed_mentions"] == {"parse": []}
            for text in (call["content"], call["text"]):
                assert "@everyone" not in text and "<@1" not in text and "<!channel>" not in text
                assert "evil.example" not in text
                assert f"https://tables.example/games/{made.json()['id']}" in text
            assert call["tresham"]["url"] == f"https://tables.example/games/{made.json()['id']}"
        with make_client(sqlite_url, webhook_allow=("127.0.0.1",)) as client:
            made = client.post(
                "/api/games",
                json={"title": "1849", "players": PLAYERS, "webhook": receiver.url},
                headers={"Host": "evil.example"},
            )
            call = receiver.next_call()
            assert call["tresham"]["url"] is None and "evil" not in call["content"]
            assert call["content"].endswith(f"1849 game {made.json()['id']}")
    finally:
        receiver.close()


def test_a_webhook_is_shown_without_its_secret() -> None:
    url = "https://discord.com/api/webhooks/123/SeCrEt?thread_id=9"
    text = shown(url)
    assert text.startswith("https://discord.com #") and "SeCrEt" not in text and "123" not in text
    assert shown("https://user:pw@hooks.example:8443/x").startswith("https://hooks.example:8443 #")
    assert shown(url) != shown(url + "0")


def test_a_game_plays_on_while_its_webhook_is_refused(sqlite_url: str) -> None:
    dns = FakeDns({"flip.example": [[PUBLIC], ["10.0.0.7"]]})
    with make_client(sqlite_url, dns) as client:
        made = create(client, webhook="http://flip.example/h").json()
        tokens = {s["player"]: s["token"] for s in made["seats"]}
        assert play(client, made["id"], tokens, 5) == 5
