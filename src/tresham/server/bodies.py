"""Reading request bodies: the JSON itself, then the shape of what it holds.

A body is UTF-8 JSON with no NaN or Infinity, no number too long to read or too large for a
float, and no nesting deeper than :data:`MAX_DEPTH`; anything else is a 422 (``rule``
``"request"``). The body models check types and shape only; what a game is made from (its
title, players' names, seed and options) is checked by the engine (``core/game_spec.py``),
the one validation every way a game begins goes through. A problem names the field at fault
as the engine does: ``players[0]``, ``options.delay_ift``, ``bots[0].level``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from typing import Annotated, Any, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from tresham.bots.players import BOTS, DEFAULT_LEVEL
from tresham.core.errors import quote
from tresham.server.errors import BadRequest
from tresham.server.ids import is_game_id

#: How deeply a body's arrays and objects may nest (an 18xx.games export nests 7 deep).
MAX_DEPTH = 64

M = TypeVar("M", bound=BaseModel)


class BotSeat(BaseModel):
    """A seat the server plays: `{"player", "level"?}`, or just the player's name (the
    default level). The app checks that the player is one of the game's and the level a
    bot's (``bots/players.py``)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    player: str
    level: str | None = None
    _named: bool = PrivateAttr(default=False)

    @model_validator(mode="wrap")
    @classmethod
    def _from_name(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        if isinstance(value, str):
            seat = handler({"player": value})
            seat._named = True
            return seat
        if not isinstance(value, dict | BotSeat):
            raise PydanticCustomError(
                "bot_seat", 'a bot is a player\'s name or {"player": name, "level": level}'
            )
        return handler(value)

    def field(self, index: int, part: str) -> str:
        """The request's field of this seat's `part` (``bots[0]`` for a bare name)."""
        if self._named and part == "player":
            return f"bots[{index}]"
        return f"bots[{index}].{part}"


#: How a bot seat is written (the OpenAPI schema of an item of `bots`).
BOT_SEAT_SCHEMA: dict[str, Any] = {
    "anyOf": [
        {"type": "string", "description": "a player's name: a bot of the default level"},
        {
            "type": "object",
            "properties": {
                "player": {"type": "string"},
                "level": {"type": "string", "enum": list(BOTS), "default": DEFAULT_LEVEL},
            },
            "required": ["player"],
            "additionalProperties": False,
        },
    ]
}


class CreateGame(BaseModel):
    """`POST /api/games`. The engine checks the title, names, seed and options. A seat left
    to fill is a null in `players`, or one of `open_seats` more after them."""

    model_config = ConfigDict(extra="forbid", strict=True)
    title: str
    players: list[str | None] = Field(
        default_factory=list, description="the players' names; null: a seat left open"
    )
    open_seats: int = Field(default=0, ge=0, le=16, description="seats left open after these")
    public: bool = Field(default=False, description="listed for strangers to join or watch")
    spectator_chat: bool = Field(default=False, description="spectators may chat")
    seed: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    bots: list[Annotated[BotSeat, WithJsonSchema(BOT_SEAT_SCHEMA)]] = Field(
        default_factory=list,
        description=f'the seats the server plays: {{"player", "level"?}} or a player\'s name '
        f"(at the default level, {DEFAULT_LEVEL})",
    )
    webhook: str | None = None


class JoinGame(BaseModel):
    """`POST /api/games/{id}/join`: the name to sit under (checked as players' names are)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    name: str


class AddBot(BaseModel):
    """`POST /api/games/{id}/bots` (the host): a bot for a free seat."""

    model_config = ConfigDict(extra="forbid", strict=True)
    player: str
    level: str | None = None


class Listing(BaseModel):
    """`POST /api/games/{id}/listing` (the host): whether the game is listed for strangers,
    and whether spectators may chat (an absent field: unchanged)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    public: bool | None = None
    spectator_chat: bool | None = None


class PostChat(BaseModel):
    """`POST /api/games/{id}/chat`: a line of chat; a spectator (no seat token) names
    itself."""

    model_config = ConfigDict(extra="forbid", strict=True)
    text: str
    name: str | None = None


class SeatWebhook(BaseModel):
    """`PUT /api/games/{id}/seat/webhook` (a seat): the URL called when it becomes the
    seat's turn (null: none)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    url: str | None


class SeatOrders(BaseModel):
    """`PUT /api/games/{id}/seat/orders` (a seat): the seat's standing orders, each
    `{"kind": "auto-pass" | "pass-round" | "pass-privates"}` or `{"kind": "buy-until",
    "corporation", "percent"}`; [] cancels them all."""

    model_config = ConfigDict(extra="forbid", strict=True)
    orders: list[dict[str, Any]]


def _game_id(text: str) -> str:
    if not is_game_id(text):
        raise PydanticCustomError("game_id", "not a game's id (letters, digits, - and _)")
    return text


class GameIds(BaseModel):
    """`POST /api/games/mine`: the games a browser holds seats of (or hosts)."""

    model_config = ConfigDict(extra="forbid", strict=True)
    ids: list[Annotated[str, AfterValidator(_game_id)]] = Field(max_length=100)


class PostEntry(BaseModel):
    """`POST /api/games/{id}/actions`."""

    model_config = ConfigDict(extra="forbid", strict=True)
    index: int = Field(ge=0)
    action: dict[str, Any]


class _Refused(ValueError):
    """A JSON value the parser hooks refuse (the message says why)."""


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"the number {quote(text)} is too large")
    return value


def parse_json(raw: bytes) -> Any:
    """The JSON value of a body; a BadRequest (422) for anything but strict JSON."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadRequest(f"the body is not UTF-8 text (byte {exc.start} is not)") from None
    try:
        data = json.loads(text, parse_constant=_constant, parse_float=_float)
    except json.JSONDecodeError as exc:
        raise BadRequest(
            f"the body is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except _Refused as exc:
        raise BadRequest(f"the body is not JSON: {exc}") from None
    except RecursionError:
        raise BadRequest(f"the body nests arrays or objects over {MAX_DEPTH} deep") from None
    except ValueError:  # an integer of more digits than Python reads
        raise BadRequest("the body is not JSON that can be read: a number is too long") from None
    check_depth(data)
    return data


def check_depth(data: Any) -> None:
    """Refuse arrays and objects nested over MAX_DEPTH deep (without recursion)."""
    stack: list[tuple[Iterable[Any], int]] = [([data], 0)]
    while stack:
        values, depth = stack.pop()
        for value in values:
            if isinstance(value, dict | list):
                if depth + 1 > MAX_DEPTH:
                    raise BadRequest(f"the body nests arrays or objects over {MAX_DEPTH} deep")
                stack.append((value.values() if isinstance(value, dict) else value, depth + 1))


def validate(model: type[M], data: Any) -> M:
    """`data` (a parsed body) as `model`; a BadRequest naming the field at fault."""
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    for key in data:
        if key not in model.model_fields:
            known = ", ".join(model.model_fields)
            raise BadRequest(f"unknown field {quote(key)} (the fields: {known})", field=key)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise invalid(exc.errors(include_url=False, include_input=False)) from None


def invalid(errors: Sequence[Any]) -> BadRequest:
    """The answer for validation errors (pydantic's, or FastAPI's of a request): the first
    few problems, and the field of the first."""
    problems = []
    fields = []
    for err in errors[:5]:
        where = field_path(err.get("loc", ()))
        fields.append(where)
        message = str(err.get("msg", "invalid"))
        problems.append(f"{where}: {message}" if where else message)
    field = fields[0] if fields and fields[0] else None
    return BadRequest("; ".join(problems) or "the request is invalid", "request", field)


def field_path(loc: Iterable[Any]) -> str:
    """A validation error's location as the engine names fields: ``players[0]``,
    ``options.delay_ift`` (FastAPI's leading ``body`` left out)."""
    out = ""
    for i, part in enumerate(loc):
        if i == 0 and part == "body":
            continue
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def json_body(model: type[BaseModel], description: str) -> dict[str, Any]:
    """The OpenAPI request body of a route that reads its body itself (`openapi_extra`)."""
    return {
        "requestBody": {
            "required": True,
            "description": description,
            "content": {"application/json": {"schema": model.model_json_schema()}},
        }
    }
