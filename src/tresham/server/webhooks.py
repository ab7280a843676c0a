"""Turn notifications: a game's webhook URL (set when it is made) is POSTed to when it becomes
a seat's turn (to answer an offer, when a corporation offers to buy what that seat's player
sells), and so is the seat's own webhook (set by the seat, from the table or the API,
``PUT /api/games/<id>/seat/webhook``), both checked by :meth:`WebhookSender.problem`.

The body works for Discord (``content``) and Slack (``text``) incoming webhooks, and carries the
facts for other receivers under ``tresham``. What a player named (a player's, a company's
name) cannot ping a channel: the texts are neutralised for each receiver's mention syntax
(Discord's ``@everyone`` and ``<@id>``, which also get ``allowed_mentions`` none; Slack's
``<!channel>`` and ``<@id>``). The link in the text comes from the configured public URL only
(``TRESHAM_PUBLIC_URL``), never from what a request said the server's name was; without one
the message carries no link.

Calls run in the background, a few tries each (network errors, 429 and 5xx answers), each
try within one total deadline and reading at most MAX_ANSWER bytes of the answer; they go
only to public addresses (targets.py), checked when the webhook is set and again against the
address each call connects to. A failing receiver is logged and forgotten: it never holds up
a game. A webhook's URL is its receiver's secret (Discord's and Slack's carry their key in
the path), so logs and problems name it as :func:`shown` does: scheme, host and a
fingerprint.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpcore
import httpx

from tresham.server.targets import Refused, Targets

log = logging.getLogger("tresham.server.webhooks")

MAX_URL = 2000
#: How much of a receiver's answer is read (the rest is never read).
MAX_ANSWER = 16 * 1024
DEFAULT_PORTS = {"http": 80, "https": 443}
#: Where a zero-width space breaks a mention.
ZERO_WIDTH = "\u200b"


def shown(url: str) -> str:
    """How a webhook is named in logs and problems: its scheme, host and port, and a
    fingerprint of the whole URL (its path and query are its receiver's secret)."""
    parts = urlsplit(url)
    try:
        where = f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"
    except ValueError:
        where = "?"
    digest = hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{where} #{digest}"


def for_discord(text: str) -> str:
    """`text` with no mention Discord acts on: every ``@`` is followed by a zero-width space
    (so neither ``@everyone`` nor ``<@123>`` pings)."""
    return text.replace("@", "@" + ZERO_WIDTH)


def for_slack(text: str) -> str:
    """`text` with no Slack control sequence: ``&``, ``<`` and ``>`` escaped as Slack asks
    (so ``<!channel>`` and ``<@U1>`` are shown, not acted on), and ``@`` broken as for
    Discord."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return escaped.replace("@", "@" + ZERO_WIDTH)


def check_webhook_url(url: str) -> str | None:
    """Why `url` cannot be a webhook (None: it can): it must be an http:// or https:// URL
    of printable characters (no control characters, unpaired surrogates or spaces) with a
    host, that the HTTP client can call."""
    if len(url) > MAX_URL:
        return f"the webhook URL is too long (over {MAX_URL} characters)"
    if not url.isprintable() or any(c.isspace() for c in url):
        return "a webhook URL has no spaces, control characters or unpaired surrogates"
    try:
        parts = urlsplit(url)
        _port = parts.port  # a port out of range or not a number raises
        httpx.URL(url)
    except (ValueError, httpx.InvalidURL):
        return "the webhook is not a valid URL"
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "a webhook must be an http:// or https:// URL"
    return None


def turn_message(
    title: str,
    game_id: str,
    player: str,
    index: int,
    url: str | None,
    offer: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The body sent when it becomes `player`'s turn, linking to `url` (None: no link); when
    that turn is to answer an offer (`offer`: its facts, tresham/offers.py, asking `player`),
    the body says so and carries the offer (event "offer")."""
    facts: dict[str, Any] = {
        "event": "turn",
        "game": game_id,
        "title": title,
        "player": player,
        "index": index,
        "url": url,
    }
    where = f"{title} game {game_id}" + ("" if url is None else f" at {url}")
    if offer is not None and offer.get("asked") == player:
        text = f"{player}: {offer['text']}; accept or decline it in {where}"
        facts.update({"event": "offer", "offer": offer})
    else:
        text = f"{player}: your turn in {where}"
    return {
        "content": for_discord(text),
        "allowed_mentions": {"parse": []},
        "text": for_slack(text),
        "tresham": facts,
    }


@dataclass
class WebhookStats:
    """Counts of calls delivered and given up on, and the last problems (for tests and
    monitoring; each names its webhook as :func:`shown` does)."""

    delivered: int = 0
    failed: int = 0
    attempts: int = 0
    errors: list[str] = field(default_factory=list)


class GuardedBackend(httpcore.AsyncNetworkBackend):
    """Opens a webhook's connections: resolves the host once, checks every address
    (targets.py) and connects to the address checked, so what is called is what was
    checked (a name resolved again by the connection could answer otherwise). TLS is still
    for the host's name (httpcore sends it as SNI; the Host header is the URL's)."""

    def __init__(self, targets: Targets) -> None:
        self.targets = targets
        self.inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        try:
            addresses = await self.targets.addresses(host, port)
        except Refused as exc:
            raise httpcore.ConnectError(f"refused: {exc}") from None
        problem: Exception = httpcore.ConnectError(f"{host} has no address")
        for address in addresses:
            try:
                return await self.inner.connect_tcp(
                    address, port, timeout, local_address, socket_options
                )
            except httpcore.ConnectError as exc:
                problem = exc
        raise problem

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.ConnectError("webhooks are never called over a local socket")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


class WebhookSender:
    """Delivers webhook calls in background tasks. Each call (each attempt) has one total
    deadline, `timeout` seconds from connecting to the last byte read, and reads at most
    MAX_ANSWER bytes of the answer (only its status matters)."""

    def __init__(
        self, timeout: float, attempts: int, backoff: float, targets: Targets | None = None
    ) -> None:
        self.timeout = timeout
        self.attempts = max(1, attempts)
        self.backoff = backoff
        self.targets = targets or Targets()
        self.stats = WebhookStats()
        self._pool: httpcore.AsyncConnectionPool | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def problem(self, url: str) -> str | None:
        """Why `url` cannot be a webhook, its form or its host (None: it can)."""
        if problem := check_webhook_url(url):
            return problem
        parsed = httpx.URL(url)
        try:
            await self.targets.addresses(parsed.host, parsed.port or DEFAULT_PORTS[parsed.scheme])
        except Refused as exc:
            return f"a webhook must be a public address: {exc}"
        return None

    def send(self, url: str, body: dict[str, Any]) -> None:
        """Start delivering `body` to `url` (from the event loop); returns at once."""
        task = asyncio.get_running_loop().create_task(self._deliver(url, body))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, url: str, body: dict[str, Any]) -> None:
        problem = "not tried"
        content = json.dumps(body, ensure_ascii=True).encode()
        for attempt in range(self.attempts):
            if attempt:
                await asyncio.sleep(self.backoff * 2 ** (attempt - 1))
            self.stats.attempts += 1
            try:
                async with asyncio.timeout(self.timeout):
                    status = await self._call(url, content)
            except TimeoutError:
                problem = f"no answer within {self.timeout:g} s"
                continue
            except (httpcore.ConnectError, httpcore.NetworkError, httpcore.ProtocolError) as exc:
                problem = f"{type(exc).__name__}: {exc}"
                continue
            except (httpcore.TimeoutException, httpx.InvalidURL, ValueError, OSError) as exc:
                problem = type(exc).__name__
                continue
            if 200 <= status < 300:
                self.stats.delivered += 1
                return
            problem = f"HTTP {status}"
            if status != 429 and status < 500:
                break
        self.stats.failed += 1
        self.stats.errors.append(f"{shown(url)}: {problem}")
        del self.stats.errors[:-20]
        log.warning("webhook %s failed: %s", shown(url), problem)

    async def _call(self, url: str, content: bytes) -> int:
        """POST `content` to `url`; its status, having read at most MAX_ANSWER bytes."""
        if self._pool is None:
            self._pool = httpcore.AsyncConnectionPool(
                network_backend=GuardedBackend(self.targets), max_connections=20, retries=0
            )
        parsed = httpx.URL(url)
        target = httpcore.URL(
            scheme=parsed.raw_scheme, host=parsed.raw_host, port=parsed.port, target=parsed.raw_path
        )
        headers = [
            (b"Host", parsed.netloc),
            (b"Content-Type", b"application/json"),
            (b"Content-Length", str(len(content)).encode()),
            (b"User-Agent", b"tresham"),
        ]
        limits = dict.fromkeys(("connect", "read", "write", "pool"), self.timeout)
        async with self._pool.stream(
            "POST", target, headers=headers, content=content, extensions={"timeout": limits}
        ) as answer:
            read = 0
            async for chunk in answer.aiter_stream():
                read += len(chunk)
                if read >= MAX_ANSWER:
                    break
            return answer.status

    async def close(self) -> None:
        """Stop pending deliveries and close connections."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._pool is not None:
            await self._pool.aclose()
            self._pool = None
