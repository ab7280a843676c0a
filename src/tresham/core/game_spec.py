"""What a game is made from, checked once for every way a game begins.

A game is a title, its players' names, a seed and the title's options (`Game.__init__` checks
them all here, so creating a game on the server, importing a save or an 18xx.games export,
loading a save and the command line refuse exactly the same things):

- **names**: 1 to :data:`MAX_NAME` characters of printable text (no control characters, no
  unpaired surrogates), no space at either end, all different;
- **seed**: an integer from 0 to :data:`MAX_SEED` (what the database's BIGINT and the
  generators hold);
- **options**: only those the title declares (:class:`OptionSpec`), each of its declared type
  (``"false"`` is not a boolean) and, for text, one of its allowed values.

Every refusal is a :class:`SetupError` naming the `field` at fault (``"players[2]"``,
``"seed"``, ``"options.delay_ift"``), with what it repeats of the input escaped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tresham.core.errors import RuleError, quote
from tresham.core.rng import GENERATORS

if TYPE_CHECKING:
    from tresham.core.title import Title

MAX_NAME = 40
MAX_SEED = 2**63 - 1
RULE = "setup"


class SetupError(RuleError):
    """What a game is made from is refused; `field` names the part at fault."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message, RULE)
        self.field = field


@dataclass(frozen=True)
class OptionSpec:
    """An option a title offers: its name, type (bool or str), default, the allowed values of
    a text option, and what it does in a player's words."""

    name: str
    kind: type[bool] | type[str]
    default: bool | str
    description: str
    choices: tuple[str, ...] = ()

    def check(self, value: object) -> None:
        """Raise a SetupError unless `value` is of this option's type and allowed."""
        where = f"options.{self.name}"
        if self.kind is bool and not isinstance(value, bool):
            raise SetupError(f"option {self.name} is true or false, not {quote(value)}", where)
        if self.kind is str:
            if not isinstance(value, str):
                raise SetupError(f"option {self.name} is text, not {quote(value)}", where)
            if self.choices and value not in self.choices:
                raise SetupError(
                    f"option {self.name} is one of {', '.join(self.choices)}, not {quote(value)}",
                    where,
                )

    def to_dict(self) -> dict[str, Any]:
        """The option as the API lists it."""
        out: dict[str, Any] = {
            "name": self.name,
            "type": "boolean" if self.kind is bool else "text",
            "default": self.default,
            "description": self.description,
        }
        if self.choices:
            out["choices"] = list(self.choices)
        return out

    def parse(self, text: str) -> bool | str:
        """The value of a command-line ``NAME=TEXT``: ``true``/``false`` for a boolean."""
        if self.kind is bool:
            if text not in ("true", "false"):
                raise SetupError(
                    f"option {self.name} is true or false, not {quote(text)}",
                    f"options.{self.name}",
                )
            return text == "true"
        return text


#: The option every title has: which seeded generator the game draws from.
RNG_OPTION = OptionSpec(
    "rng",
    str,
    "tresham",
    "the game's random generator: tresham's own, or 18xx.games' (for imported games)",
    GENERATORS,
)


def check_name(name: object, where: str) -> str:
    """A player's name: printable text of 1 to MAX_NAME characters, no space at either end."""
    if not isinstance(name, str):
        raise SetupError(f"a player's name is text, not {quote(name)}", where)
    if not name or not name.strip():
        raise SetupError("a player's name may not be empty", where)
    if len(name) > MAX_NAME:
        raise SetupError(
            f"a player's name has at most {MAX_NAME} characters ({quote(name)} has {len(name)})",
            where,
        )
    if not name.isprintable():
        raise SetupError(
            f"a player's name is printable text, without control characters ({quote(name)})",
            where,
        )
    if name != name.strip():
        raise SetupError(
            f"a player's name may not begin or end with a space ({quote(name)})", where
        )
    return name


def check_players(title: Title, players: object) -> list[str]:
    """The players' names: a list of valid, distinct names, as many as the title takes."""
    if not isinstance(players, list | tuple):
        raise SetupError(f"the players are a list of names, not {quote(players)}", "players")
    lo, hi = title.player_range
    if not lo <= len(players) <= hi:
        raise SetupError(f"{title.name} is for {lo}-{hi} players, not {len(players)}", "players")
    names = [check_name(name, f"players[{i}]") for i, name in enumerate(players)]
    for i, name in enumerate(names):
        if name in names[:i]:
            raise SetupError(
                f"player names must be distinct ({quote(name)} twice)", f"players[{i}]"
            )
    return names


def check_seed(seed: object) -> int:
    """The seed: an integer from 0 to MAX_SEED."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SetupError(f"the seed is a whole number, not {quote(seed)}", "seed")
    if not 0 <= seed <= MAX_SEED:
        raise SetupError(f"the seed is a whole number from 0 to {MAX_SEED}, not {seed}", "seed")
    return seed


def check_options(title: Title, options: object) -> dict[str, Any]:
    """The options: a mapping of the title's declared options to values they allow."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise SetupError(f"the options are an object, not {quote(options)}", "options")
    declared = {spec.name: spec for spec in title.option_specs()}
    for name, value in options.items():
        spec = declared.get(name) if isinstance(name, str) else None
        if spec is None:
            known = ", ".join(sorted(declared))
            raise SetupError(
                f"{title.name} has no option {quote(name)} (its options: {known})",
                f"options.{name}" if isinstance(name, str) else "options",
            )
        spec.check(value)
    return dict(options)


def check_game(
    title: Title, players: object, seed: object, options: object
) -> tuple[list[str], int, dict[str, Any]]:
    """Everything a game is made from, checked: (names, seed, options)."""
    return check_players(title, players), check_seed(seed), check_options(title, options)


def parse_options(title: Title, pairs: list[str]) -> dict[str, Any]:
    """Command-line options: ``NAME`` switches a boolean option on, ``NAME=VALUE`` sets one
    (``true``/``false`` for a boolean); checked as every game's options are."""
    declared = {spec.name: spec for spec in title.option_specs()}
    out: dict[str, Any] = {}
    for pair in pairs:
        name, eq, text = pair.partition("=")
        spec = declared.get(name)
        if spec is None:
            check_options(title, {name: text})  # raises: no such option
            continue
        out[name] = spec.parse(text) if eq else True
    return check_options(title, out)
