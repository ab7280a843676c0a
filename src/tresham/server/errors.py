"""The errors the API answers with: each has an HTTP status, a message, the rule (or the part
of the protocol) it is about and, where one field of the request is at fault, that field. The
app turns them into ``{"error", "rule"}`` bodies (plus ``"field"``), always through
:class:`SafeJSONResponse`, which can encode whatever a message repeats of the request."""

from __future__ import annotations

import json
import logging
import math
from typing import Any

from starlette.responses import JSONResponse

from tresham.core.errors import RuleError
from tresham.core.game_spec import SetupError

log = logging.getLogger("tresham.server")

#: The longest message and field an answer carries (both may repeat some of the request).
MAX_MESSAGE = 1000
MAX_FIELD = 200


def cut(text: str, limit: int) -> str:
    """`text`, cut to `limit` characters (an ellipsis marking the cut)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ApiError(Exception):
    """An answer other than success: `status`, a one-line `message`, the `rule` at fault, and
    the request's `field` at fault when there is one (``"players[2]"``, ``"seed"``)."""

    status = 400

    def __init__(
        self, message: str, rule: str = "request", field: str | None = None, **extra: Any
    ) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.field = field
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON body of the answer."""
        out: dict[str, Any] = {"error": cut(self.message, MAX_MESSAGE), "rule": self.rule}
        if self.field is not None:
            out["field"] = cut(self.field, MAX_FIELD)
        return {**out, **self.extra}


class BadRequest(ApiError):
    """The request is malformed or asks for something impossible (422)."""

    status = 422


class Forbidden(ApiError):
    """No valid seat token, or not this seat's turn (403)."""

    status = 403


class NotFound(ApiError):
    """No such game (404)."""

    status = 404


class Stale(ApiError):
    """The index posted is not the game's current index: someone acted first (409)."""

    status = 409


class Conflict(ApiError):
    """The game is not in the state the request needs: no free seat, the name is taken, it
    has started or has not (409)."""

    status = 409


class TooMany(ApiError):
    """Too many requests of one kind from one client or seat in a while (429)."""

    status = 429


class Unplayable(ApiError):
    """The stored game cannot be rebuilt by this server (another rules version) (410)."""

    status = 410


class TooLarge(ApiError):
    """The request body is over the limit (413)."""

    status = 413


class Unavailable(ApiError):
    """The database failed; nothing was changed (503)."""

    status = 503


def refused(exc: RuleError, prefix: str = "") -> BadRequest:
    """The 422 answer for what the engine refused: its message, its rule, and the field
    at fault of a game's set-up (:class:`SetupError`)."""
    field = exc.field if isinstance(exc, SetupError) else None
    return BadRequest(prefix + exc.message, exc.rule or "rules", field)


# ---------------------------------------------------------------------- the answers' encoding
_UNENCODABLE = b'{"error":"the answer could not be encoded","rule":"server"}'


def encode_json(content: Any) -> bytes:
    """`content` as JSON bytes, ASCII only (so a lone surrogate or any other character a
    message repeats is escaped, never an encoding error). This never raises: what JSON
    cannot hold (NaN, an object of no JSON type) is written as null or its text, and a
    value that cannot be written at all (a cycle) gives a fixed error body."""
    try:
        text = json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
        return text.encode("ascii")
    except (TypeError, ValueError, RecursionError):
        pass
    try:
        text = json.dumps(_scrub(content), ensure_ascii=True, allow_nan=False, default=str)
    except (TypeError, ValueError, RecursionError) as exc:
        log.error("an answer could not be encoded: %r", exc)
        return _UNENCODABLE
    log.warning("an answer held values JSON cannot (replaced)")
    return text.encode("ascii")


def _scrub(value: Any) -> Any:
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {str(k): _scrub(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_scrub(v) for v in value]
    return value


class SafeJSONResponse(JSONResponse):
    """The app's JSON answers (every route's and every error's): ASCII-only JSON that can
    always be encoded (:func:`encode_json`)."""

    def render(self, content: Any) -> bytes:
        return encode_json(content)


def error_response(error: ApiError) -> SafeJSONResponse:
    """The answer of an error (a refusal that says when to try again says it in a
    Retry-After header too)."""
    wait = error.extra.get("retry_after")
    headers = None if wait is None else {"Retry-After": str(max(1, int(wait)))}
    return SafeJSONResponse(error.body(), status_code=error.status, headers=headers)
