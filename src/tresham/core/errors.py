"""Typed errors: every illegal action names the rule it breaks; what a message repeats of
the input is quoted safely (:func:`quote`)."""

#: How much of a refused value a message repeats.
QUOTE_LIMIT = 60


def quote(value: object) -> str:
    """`value` as a message may repeat it: Python's repr (which escapes control characters
    and unpaired surrogates), cut to :data:`QUOTE_LIMIT` characters."""
    text = repr(value)
    if not text.isascii():
        text = text.encode("ascii", "backslashreplace").decode("ascii")
    return text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 3] + "..."


class RuleError(Exception):
    """An action breaks a rule. `rule` names it, e.g. "1849 §Lay track"."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} [{self.rule}]" if self.rule else self.message


class NotYourTurnError(RuleError):
    """The entity that acted is not the one to act."""


class MalformedActionError(RuleError):
    """The action is not well formed (unknown type, missing or mistyped field)."""


class TrackError(RuleError):
    """A tile lay or token placement breaks a track rule."""


class RouteError(RuleError):
    """A run breaks a route rule."""
