"""Turn notifications: a game's webhook URL (set when it is made) is POSTed to when it becomes
a seat's turn (to answer an offer, when a corporation offers to buy what that seat's player
sells), and so is the seat's own webhook (set by the seat, from the table or the API,
``PUT /api/games/<id>/seat/webhook``), both checked by :func:`check_webhook_url`.

The body works for Discord (``content``) and Slack (``text``) incoming webhooks, and carries the
facts for other receivers under ``tresham``. Calls run in the background with a timeout and a
few retries (network errors, 429 and 5xx answers); a failing receiver is logged and forgotten:
it never holds up a game.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

log = logging.getLogger("tresham.server.webhooks")

MAX_URL = 2000


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
    url: str,
    offer: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The body sent when it becomes `player`'s turn; when that turn is to answer an offer
    (`offer`: its facts, tresham/offers.py, asking `player`), the body says so and carries the
    offer (event "offer")."""
    facts: dict[str, Any] = {
        "event": "turn",
        "game": game_id,
        "title": title,
        "player": player,
        "index": index,
        "url": url,
    }
    if offer is not None and offer.get("asked") == player:
        text = f"{player}: {offer['text']}; accept or decline it in {title} game {game_id} at {url}"
        facts.update({"event": "offer", "offer": offer})
    else:
        text = f"{player}: your turn in {title} game {game_id} at {url}"
    return {"content": text, "text": text, "tresham": facts}


@dataclass
class WebhookStats:
    """Counts of calls delivered and given up on (for tests and monitoring)."""

    delivered: int = 0
    failed: int = 0
    attempts: int = 0
    errors: list[str] = field(default_factory=list)


class WebhookSender:
    """Delivers webhook calls in background tasks."""

    def __init__(self, timeout: float, attempts: int, backoff: float) -> None:
        self.timeout = timeout
        self.attempts = max(1, attempts)
        self.backoff = backoff
        self.stats = WebhookStats()
        self._client: httpx.AsyncClient | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def send(self, url: str, body: dict[str, Any]) -> None:
        """Start delivering `body` to `url` (from the event loop); returns at once."""
        task = asyncio.get_running_loop().create_task(self._deliver(url, body))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _deliver(self, url: str, body: dict[str, Any]) -> None:
        if self._client is None:
            self._client = httpx.AsyncClient(timeout=self.timeout, follow_redirects=False)
        problem = "not tried"
        for attempt in range(self.attempts):
            if attempt:
                await asyncio.sleep(self.backoff * 2 ** (attempt - 1))
            self.stats.attempts += 1
            try:
                answer = await self._client.post(url, json=body)
            except (httpx.HTTPError, httpx.InvalidURL, ValueError) as exc:
                problem = f"{type(exc).__name__}: {exc}"
                continue
            if answer.is_success:
                self.stats.delivered += 1
                return
            problem = f"HTTP {answer.status_code}"
            if answer.status_code != 429 and answer.status_code < 500:
                break
        self.stats.failed += 1
        self.stats.errors.append(f"{url}: {problem}")
        del self.stats.errors[:-20]
        log.warning("webhook %s failed: %s", url, problem)

    async def close(self) -> None:
        """Stop pending deliveries and close connections."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()
            self._client = None
