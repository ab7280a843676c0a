"""The errors the API answers with: each has an HTTP status, a message and the rule (or the
part of the protocol) it is about. The app turns them into ``{"error", "rule"}`` bodies."""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """An answer other than success: `status`, a one-line `message`, the `rule` at fault."""

    status = 400

    def __init__(self, message: str, rule: str = "request", **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.extra = extra

    def body(self) -> dict[str, Any]:
        """The JSON body of the answer."""
        return {"error": self.message, "rule": self.rule, **self.extra}


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


class Unplayable(ApiError):
    """The stored game cannot be rebuilt by this server (another rules version) (410)."""

    status = 410


class TooLarge(ApiError):
    """The request body is over the limit (413)."""

    status = 413


class Unavailable(ApiError):
    """The database failed; nothing was changed (503)."""

    status = 503
