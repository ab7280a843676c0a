"""Typed errors: every illegal action names the rule it breaks."""


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
