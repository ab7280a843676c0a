"""Rate limits: how many requests of one kind a key (a client's address, a seat) may make in a
sliding window; a refusal is a 429 that says when to try again.

Each server process counts its own requests, in memory: with N processes behind a balancer a
key may make up to N times the limit. That is a choice, not an oversight (docs/design.md,
"Server"): the limits only slow a client down, what they guard is bounded by the database
anyway (a join takes a free seat, at most a title's few per game, under the database's
constraints), and a count shared through the database would add a write to every join and
chat line. A deployment that wants one exact limit balances by client address or limits at
its proxy.
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

from tresham.server.errors import TooMany

#: Past this many keys, the keys whose requests are all out of the window are forgotten.
PRUNE_AT = 10_000


class RateLimit:
    """At most `count` requests per key in any `window` seconds (`what` names them in the
    refusal)."""

    def __init__(
        self, what: str, count: int, window: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.what = what
        self.count = count
        self.window = window
        self.clock = clock
        self._seen: dict[str, deque[float]] = {}

    def check(self, key: str) -> None:
        """Count a request of `key`; raise TooMany (nothing counted) if it is over the
        limit."""
        now = self.clock()
        times = self._seen.setdefault(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        if len(times) >= self.count:
            wait = math.ceil(times[0] + self.window - now)
            raise TooMany(
                f"too many {self.what}: at most {self.count} in {self.window:g} seconds; "
                f"try again in {wait} s",
                "rate limit",
                retry_after=wait,
            )
        times.append(now)
        if len(self._seen) > PRUNE_AT:
            self._seen = {k: v for k, v in self._seen.items() if v and v[-1] > now - self.window}
