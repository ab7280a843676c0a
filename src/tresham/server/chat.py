"""Chat: short lines that seats (and, where the host allows, spectators) write in a game.

Chat is kept beside the game, never in it: a line changes nothing in the game's state or its
hash, and is no entry of its log. Each line records the log index it was written at (so the
log view can place it), is stored with the game and exported with it (the save's ``"chat"``;
importing a save or an 18xx.games export, whose chat is its ``message`` actions, keeps it).
A line is 1 to :data:`MAX_CHAT` characters of printable text; each seat (or spectator's
address) may write a few lines in a while (``ServerConfig.chat_limit``). New lines reach the
game's chat listeners over ``/api/games/<id>/chat/ws`` (the game's own websocket carries the
game only). Whoever shows a line shows it as text (the table never reads it as HTML).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterable
from typing import Any

import anyio
from fastapi import WebSocket, WebSocketDisconnect

from tresham.core.errors import quote
from tresham.core.game_spec import check_name
from tresham.server.errors import BadRequest, Forbidden, NotFound
from tresham.server.limits import RateLimit
from tresham.server.live import Subscriber, seat_for_token
from tresham.server.registry import Registry
from tresham.server.seats import bearer
from tresham.server.storage import ChatLine, SeatRefused

#: The longest line of chat.
MAX_CHAT = 500


def check_text(text: str, field: str = "text") -> str:
    """A line of chat: printable text of 1 to MAX_CHAT characters (spaces at its ends
    dropped). Raises BadRequest."""
    line = text.strip()
    if not line:
        raise BadRequest("a chat line may not be empty", "chat", field)
    if len(line) > MAX_CHAT:
        raise BadRequest(
            f"a chat line has at most {MAX_CHAT} characters, not {len(line)}", "chat", field
        )
    if not line.isprintable():
        raise BadRequest("a chat line is printable text, without control characters", "chat", field)
    return line


def cleaned(text: str) -> str:
    """An imported line as this server keeps chat: control characters made spaces, cut to
    MAX_CHAT characters (an import keeps what was said rather than refuse the game)."""
    line = "".join(c if c.isprintable() else " " for c in text).strip()
    return line[:MAX_CHAT] or "…"


def saved_chat(data: dict[str, Any], actions: int) -> list[ChatLine]:
    """The chat of a tresham save (its ``"chat"``: ``[{"player", "text", "at"?,
    "spectator"?}]``, as the export writes it). Raises BadRequest naming the line at fault."""
    raw = data.get("chat", [])
    if not isinstance(raw, list):
        raise BadRequest("the save's chat is a list of lines", "save format", "chat")
    lines = []
    for i, item in enumerate(raw):
        where = f"chat[{i}]"
        if not isinstance(item, dict):
            raise BadRequest(f"{where} is not a chat line", "save format", where)
        player, text, at = item.get("player"), item.get("text"), item.get("at", actions)
        if not isinstance(player, str) or not isinstance(text, str):
            raise BadRequest(f"{where} needs a player and a text", "save format", where)
        if isinstance(at, bool) or not isinstance(at, int):
            raise BadRequest(f"{where}.at is a log index", "save format", f"{where}.at")
        spectator = item.get("spectator", False) is True
        check_name(player, f"{where}.player")
        lines.append(ChatLine(i, player, cleaned(text), min(max(at, 0), actions), spectator))
    return lines


def site_chat(messages: Iterable[tuple[str, str, int]]) -> list[ChatLine]:
    """The chat of an 18xx.games export: (player, text, actions in force then) each."""
    return [ChatLine(i, player, cleaned(text), at) for i, (player, text, at) in enumerate(messages)]


def chat_message(lines: Iterable[ChatLine]) -> str:
    """A chat websocket message: ``{"type": "chat", "lines": [...]}``."""
    return json.dumps({"type": "chat", "lines": [line.to_json() for line in lines]})


class ChatRooms:
    """A game's chat: posting (with its rate limit) and the listeners of each game."""

    def __init__(self, registry: Registry, limit: RateLimit) -> None:
        self.registry = registry
        self.storage = registry.storage
        self.limit = limit
        self.listeners: dict[str, set[Subscriber]] = {}

    async def lines(self, game_id: str) -> list[ChatLine]:
        """Every line of a game's chat. Raises NotFound."""
        record = await self.registry.run(self.storage.game, game_id)
        if record is None:
            raise NotFound(f"no game {quote(game_id)}", "game")
        return await self.registry.run(self.storage.chat, game_id)

    async def post(
        self,
        game_id: str,
        authorization: str | None,
        text: str,
        name: str | None,
        address: str,
    ) -> ChatLine:
        """Store a line from the seat whose token the request carries (or from a spectator
        named `name`, where the game allows) and send it to the listeners."""
        record = await self.registry.run(self.storage.game, game_id)
        if record is None:
            raise NotFound(f"no game {quote(game_id)}", "game")
        token = bearer(authorization)
        if token is not None:
            seat = seat_for_token(record.seats, token)
            if seat is None:
                raise Forbidden("this is not a seat token of this game", "seat")
            if name is not None and name != seat.player:
                raise BadRequest("a seat writes under its player's name", "chat", "name")
            author, spectator, key = seat.player, False, f"{game_id} seat {seat.player}"
        else:
            if not record.hosting.spectator_chat:
                raise Forbidden("only the players may chat in this game", "chat")
            if name is None:
                raise BadRequest("a spectator names itself to chat", "chat", "name")
            author = check_name(name, "name")
            if any(s.player == author for s in record.seats):
                raise BadRequest(f"{quote(author)} is a player's name", "chat", "name")
            spectator, key = True, f"{game_id} address {address}"
        line = check_text(text)
        self.limit.check(key)
        at = 0
        if record.hosting.started:
            at = (await self.registry.get(game_id)).index
        try:
            stored = await self.registry.run(
                self.storage.add_chat, game_id, ChatLine(0, author, line, at, spectator)
            )
        except SeatRefused:
            raise NotFound(f"no game {quote(game_id)}", "game") from None
        self.publish(game_id, [stored])
        return stored

    def publish(self, game_id: str, lines: list[ChatLine]) -> None:
        """Send lines to the game's chat listeners (from the event loop)."""
        message = chat_message(lines)
        for sub in list(self.listeners.get(game_id, ())):
            sub.offer(message)

    async def serve(self, websocket: WebSocket, game_id: str) -> None:
        """A chat listener's websocket: every line so far, then each new one. An unknown
        game's socket is accepted and closed with 4404."""
        await websocket.accept()
        try:
            lines = await self.lines(game_id)
        except NotFound as exc:
            await websocket.close(code=4404, reason=exc.message[:120])
            return
        sub = Subscriber()
        self.listeners.setdefault(game_id, set()).add(sub)
        try:
            await websocket.send_text(chat_message(lines))
            async with anyio.create_task_group() as tasks:

                async def forward() -> None:
                    while (message := await sub.queue.get()) is not None:
                        await websocket.send_text(message)
                    tasks.cancel_scope.cancel()

                async def drain() -> None:
                    with contextlib.suppress(WebSocketDisconnect):
                        while (await websocket.receive())["type"] != "websocket.disconnect":
                            pass
                    tasks.cancel_scope.cancel()

                tasks.start_soon(forward)
                tasks.start_soon(drain)
        finally:
            room = self.listeners.get(game_id, set())
            room.discard(sub)
            if not room:
                self.listeners.pop(game_id, None)
