"""Chat: short lines that seats (and, where the host allows, spectators) write in a game.

Chat is kept beside the game, never in it: a line changes nothing in the game's state or its
hash, and is no entry of its log. Each line records the log index it was written at (so the
log view can place it), is stored with the game and exported with it (the save's ``"chat"``;
importing a save or an 18xx.games export, whose chat is its ``message`` actions, keeps it).
A line is 1 to :data:`MAX_CHAT` characters of printable text; each seat (or spectator's
address) may write a few lines in a while (``ServerConfig.chat_limit``). New lines reach the
game's chat listeners over ``/api/games/<id>/chat/ws`` (the game's own websocket carries the
game only), in every server process sharing a PostgreSQL database: the storage announces each
line with ``NOTIFY`` as it does log entries, and each process's room reads what it has not
sent (on SQLite, only the process that stored a line sends it live; another's listeners get
it when they reconnect). Whoever shows a line shows it as text (the table never reads it as
HTML).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from tresham.core.errors import quote
from tresham.core.game_spec import check_name
from tresham.server.errors import BadRequest, Forbidden, NotFound
from tresham.server.limits import RateLimit
from tresham.server.live import Subscriber, pump
from tresham.server.registry import Registry
from tresham.server.seats import bearer, token_seat
from tresham.server.storage import ChatLine, GameRecord, SeatRefused

log = logging.getLogger("tresham.server.chat")

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


@dataclass
class Room:
    """A game's chat listeners in this process, and the last line they were all sent (a
    room is caught up with the stored chat under its lock, so each line reaches each
    listener once and in order, whichever process stored it)."""

    listeners: set[Subscriber] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    last: int = -1
    #: The sockets using the room, those still joining included (the room goes with the
    #: last of them).
    sockets: int = 0


class ChatRooms:
    """A game's chat: posting (with its rate limit) and the listeners of each game. A line
    reaches the listeners of this process when it is stored here, and those of every other
    process through PostgreSQL's ``NOTIFY`` (:meth:`on_news`); each room then reads the lines
    it has not sent from the database."""

    def __init__(self, registry: Registry, limit: RateLimit) -> None:
        self.registry = registry
        self.storage = registry.storage
        self.limit = limit
        self.rooms: dict[str, Room] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def close(self) -> None:
        """Stop the catch-ups under way."""
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _record(self, game_id: str) -> GameRecord:
        return await self.registry.record(game_id)

    async def lines(self, game_id: str) -> list[ChatLine]:
        """Every line of a game's chat. Raises NotFound."""
        await self._record(game_id)
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
        record = await self._record(game_id)
        if bearer(authorization) is not None:
            seat = token_seat(record.seats, authorization)
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
        room = self.rooms.get(game_id)
        if room is not None:
            await self._catch_up(game_id, room)
        return stored

    def on_news(self, game_id: str, number: int) -> None:
        """A process stored chat line `number` of a game: send it (and any before it not yet
        sent) to this process's listeners of that game."""
        room = self.rooms.get(game_id)
        if room is not None and number > room.last:
            self._spawn(self._catch_up(game_id, room))

    def on_reconnect(self) -> None:
        """News may have been missed: catch every room up."""
        for game_id, room in list(self.rooms.items()):
            self._spawn(self._catch_up(game_id, room))

    def _spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _catch_up(self, game_id: str, room: Room, joining: Subscriber | None = None) -> None:
        """Send the room's listeners the stored lines they have not had; a `joining`
        listener first gets every line so far, then joins the room."""
        async with room.lock:
            start = 0 if joining is not None else room.last + 1
            try:
                lines = await self.registry.run(self.storage.chat, game_id, start)
            except Exception as exc:
                if joining is not None:
                    raise
                log.warning("game %s: chat not read: %r", game_id, exc)
                return
            fresh = [line for line in lines if line.index > room.last]
            if fresh:
                message = chat_message(fresh)
                for sub in list(room.listeners):
                    sub.offer(message)
                room.last = fresh[-1].index
            if joining is not None:
                joining.offer(chat_message(lines))
                room.listeners.add(joining)

    async def serve(self, websocket: WebSocket, game_id: str) -> None:
        """A chat listener's websocket: every line so far, then each new one. An unknown
        game's socket is accepted and closed with 4404."""
        await websocket.accept()
        try:
            await self._record(game_id)
        except NotFound as exc:
            await websocket.close(code=4404, reason=exc.message[:120])
            return
        sub = Subscriber()
        room = self.rooms.setdefault(game_id, Room())
        room.sockets += 1
        try:
            await self._catch_up(game_id, room, sub)
            await pump(websocket, sub)
        finally:
            room.listeners.discard(sub)
            room.sockets -= 1
            if not room.sockets and self.rooms.get(game_id) is room:
                del self.rooms[game_id]
