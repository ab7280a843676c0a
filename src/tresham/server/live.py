"""A game kept in memory by the server, and what a log entry is.

A log entry is a save-format action, or a take-back: ``{"type": "undo", "entity": P}`` or
``{"type": "redo", "entity": P}`` where P is the player whose seat asked for it. The log is
append-only; replaying it (actions through ``Game.apply``, take-backs through ``Game.undo`` and
``Game.redo``) gives the same game every time, so a restarted server rebuilds exactly the
state it had.

Take-back limits: only the seat that made the last action in force may undo it (and so on
back, as long as the actions were its own); only that seat may redo what it undid, and only
until any other entry is added; a finished game cannot be undone; imported actions cannot be
undone; an action that revealed hidden information (``Game.revealed``: a card drawn, a die
cast, a tie broken by lot) cannot be undone, since its player would choose again knowing what
no one could know (docs/rulings/1883.md, R36). A stored log that undid one before this limit
replays as it was.

All methods that touch the game run with the game's lock held (in a worker thread); the public
state is recomputed there and published as one immutable snapshot that any thread may read.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio
from starlette.websockets import WebSocket, WebSocketDisconnect

from tresham.core.actions import Action, action_from_json
from tresham.core.errors import MalformedActionError, NotYourTurnError, RuleError
from tresham.core.game import REVEALED, Game
from tresham.io.save import new_game
from tresham.server.chronicle import Chronicle
from tresham.server.errors import Forbidden, Unplayable
from tresham.server.storage import GameRecord, LogRow, SeatRecord

if TYPE_CHECKING:
    from tresham.server.past import Past

TAKE_BACKS = ("undo", "redo")
SUBSCRIBER_QUEUE = 256


def token_hash(token: str) -> str:
    """How a seat token is stored (tokens themselves are never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def seat_for_token(seats: list[SeatRecord], token: str) -> SeatRecord | None:
    """The seat of `seats` whose token this is (every seat compared, in constant time)."""
    digest = token_hash(token)
    found = None
    for seat in seats:
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
            found = seat
    return found


@dataclass(frozen=True)
class TakeBack:
    """An undo or redo asked for by the seat of `entity`."""

    kind: str
    entity: str

    def to_json(self) -> dict[str, Any]:
        """The log entry."""
        return {"type": self.kind, "entity": self.entity}


Entry = Action | TakeBack


def parse_entry(raw: Any, seat: str | None = None) -> Entry:
    """A log entry from its JSON; a take-back posted without `entity` is the seat's own.
    Raises MalformedActionError."""
    if isinstance(raw, dict) and raw.get("type") in TAKE_BACKS:
        extra = set(raw) - {"type", "entity"}
        if extra:
            raise MalformedActionError(
                f"{raw['type']}: unknown fields {sorted(extra)}", "save format"
            )
        entity = raw.get("entity", seat)
        if not isinstance(entity, str) or (seat is not None and entity != seat):
            raise MalformedActionError(
                f"{raw['type']}: entity must be the posting seat's player", "save format"
            )
        return TakeBack(str(raw["type"]), entity)
    return action_from_json(raw)


class Subscriber:
    """A websocket listener: a bounded queue of JSON messages (None ends it). A listener too
    slow to keep up is dropped rather than slowing the game."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(SUBSCRIBER_QUEUE)
        self.dropped = False

    def offer(self, message: str) -> None:
        """Queue a message (from the event loop)."""
        if self.dropped:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped = True
            self.queue.get_nowait()
            self.queue.put_nowait(None)


async def pump(websocket: WebSocket, sub: Subscriber) -> None:
    """Send a listener's messages over its (accepted) websocket until the client goes or the
    listener is dropped, too slow to keep up: its socket is then closed with 1013 ("try
    again later"). What the client sends is ignored."""
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
    if sub.dropped:
        with contextlib.suppress(Exception):
            await websocket.close(code=1013, reason="too slow: reconnect")


class LiveGame:
    """One game in memory: the engine's game, the log, who made each action in force (for
    the take-back rules), what each entry produced (its chronicle), the public state
    snapshot and the websocket subscribers."""

    def __init__(
        self, record: GameRecord, game: Game, view: Callable[[LiveGame], dict[str, Any]]
    ) -> None:
        self.record = record
        self.game = game
        self.rows: list[LogRow] = []
        self.actors: list[str | None] = []
        self.undone_actors: list[str | None] = []
        #: The log rows of the actions in force, and of those undone (last undone last).
        self.action_rows: list[LogRow] = []
        self.undone_rows: list[LogRow] = []
        #: How many entries the standing orders have followed (server/standing.py): those
        #: replayed when the game is loaded are never followed again.
        self.followed = 0
        #: When the last entry was applied here (time.monotonic(); -inf: before this process
        #: loaded the game), from which a standing order waits out the undo grace.
        self.moved_at = -math.inf
        self.chronicle = Chronicle.begin(game)
        self.lock = asyncio.Lock()
        self.subscribers: set[Subscriber] = set()
        self.published = 0
        self.refresh_pending = False
        self.broken = False
        #: Its past positions (server/past.py), once asked for.
        self.past: Past | None = None
        #: When someone last asked about it (time.monotonic(); -inf: nobody yet), and the
        #: address that made it (games of bots only count against it: registry.py).
        self.seen = -math.inf
        self.maker: str | None = None
        self._view = view
        self._snapshot: tuple[dict[str, Any], str] = ({}, "{}")

    @classmethod
    def rebuild(
        cls, record: GameRecord, rows: list[LogRow], view: Callable[[LiveGame], dict[str, Any]]
    ) -> LiveGame:
        """Set the game up from its record and replay its log. Raises Unplayable."""
        try:
            game = new_game(
                record.title, record.players, record.seed, record.options, record.rules_version
            )
        except RuleError as exc:
            raise Unplayable(f"game {record.id} cannot be set up: {exc}", "rules version") from None
        live = cls(record, game, view)
        live.apply_rows(rows)
        live.published = live.followed = live.index
        live.moved_at = -math.inf
        return live

    @classmethod
    def adopt(
        cls, record: GameRecord, game: Game, view: Callable[[LiveGame], dict[str, Any]]
    ) -> LiveGame:
        """A new live game around a game built here (new, or imported: its actions become
        the first log entries, made by no seat, replayed here as a restart would, so that
        each entry's facts are recorded)."""
        if game.actions:
            rows = [LogRow(i, a.to_json(), None) for i, a in enumerate(game.actions)]
            return cls.rebuild(record, rows, view)
        live = cls(record, game, view)
        live.refresh_snapshot()
        live.published = live.index
        return live

    def copy(self) -> LiveGame:
        """An independent copy of the game and its log (for a replay that goes on from
        here: its subscribers, lock and publishing are its own)."""
        other = LiveGame(self.record, self.game.clone(), self._view)
        other.rows = list(self.rows)
        other.actors = list(self.actors)
        other.undone_actors = list(self.undone_actors)
        other.action_rows = list(self.action_rows)
        other.undone_rows = list(self.undone_rows)
        other.chronicle = self.chronicle.copy()
        other.published = other.followed = other.index
        return other

    # ------------------------------------------------------------------ the log
    @property
    def index(self) -> int:
        """How many log entries are applied (the index the next entry gets)."""
        return len(self.rows)

    @property
    def seats(self) -> list[SeatRecord]:
        """The game's seats, in player order."""
        return self.record.seats

    def apply_rows(self, rows: list[LogRow]) -> None:
        """Apply stored entries (a replay or a catch-up), then refresh the snapshot."""
        for row in rows:
            if row.index != self.index:
                raise Unplayable(
                    f"game {self.record.id}: log entry {row.index} follows {self.index - 1}",
                    "log",
                )
            try:
                self.apply_row(row)
            except RuleError as exc:
                raise Unplayable(
                    f"game {self.record.id}: log entry {row.index} no longer replays: {exc}",
                    "log",
                ) from None
        if rows or not self.snapshot:
            self.refresh_snapshot()

    def apply_row(self, row: LogRow, entry: Entry | None = None) -> None:
        """Apply one entry to the game (atomically: a RuleError changes nothing); `entry`
        is the row's entry already parsed, if it is at hand."""
        if entry is None:
            entry = parse_entry(row.entry)
        if isinstance(entry, TakeBack):
            before = self.chronicle.before(self.game, None)
            if entry.kind == "undo":
                self.game.undo()
                self.undone_actors.append(self.actors.pop())
                self.undone_rows.append(self.action_rows.pop())
            else:
                self.game.redo()
                self.actors.append(self.undone_actors.pop())
                self.action_rows.append(self.undone_rows.pop())
        else:
            self.game.check(entry)  # its words are said before it is applied, if legal
            before = self.chronicle.before(self.game, entry)
            self.game.apply(entry)
            self.actors.append(row.seat)
            self.undone_actors.clear()
            self.action_rows.append(row)
            self.undone_rows.clear()
        self.chronicle.after(self.game, before)
        self.rows.append(row)
        self.moved_at = time.monotonic()

    def log_entries(self, start: int = 0, stop: int | None = None) -> list[dict[str, Any]]:
        """The log entries from `start` (to `stop`), as the API gives them: ``{"index",
        "entry", "seat", "order"}`` and the chronicle's facts of it (``Chronicle.entry``:
        ``"round", "events", "said", "lines", "own"``); `order`: the kind of the seat's
        standing order that made it, or null."""
        chronicle = self.chronicle
        return [
            {
                "index": row.index,
                "entry": row.entry,
                "seat": row.seat,
                **chronicle.entry(row.index),
                "order": row.order,
            }
            for row in self.rows[start:stop]
        ]

    # ------------------------------------------------------------------ seats and rules
    @property
    def bots_only(self) -> bool:
        """Whether a bot holds every seat."""
        return all(s.bot for s in self.seats)

    def is_bot(self, player: str | None) -> bool:
        """Whether a bot holds this player's seat."""
        return any(s.bot and s.player == player for s in self.seats)

    def bot_level(self, player: str | None) -> str | None:
        """The level of the bot holding this player's seat (None: no bot holds it)."""
        return next((s.bot_level for s in self.seats if s.bot and s.player == player), None)

    def undo_seat(self) -> str | None:
        """The player who may undo now (None: nobody)."""
        if self.game.state.finished or not self.actors or self.game.revealed():
            return None
        return self.actors[-1]

    def undo_gone(self) -> str | None:
        """The player who made the last action and may not undo it because it revealed
        hidden information (None: there is no such player)."""
        if self.game.state.finished or not self.actors or not self.game.revealed():
            return None
        return self.actors[-1]

    def redo_seat(self) -> str | None:
        """The player who may redo now (None: nobody)."""
        if self.game.state.finished or not self.undone_actors:
            return None
        return self.undone_actors[-1]

    def controls(self, player: str, entity: str) -> bool:
        """Whether `player` decides for `entity` (itself, or a corporation it presides)."""
        if entity == player:
            return True
        return self.game.state.shares.president.get(entity) == player

    def check_seat(self, player: str, entry: Entry) -> None:
        """Raise Forbidden if this seat may not post `entry` now, or RuleError if the
        take-back rules refuse it. (The engine checks the action itself.)"""
        if isinstance(entry, TakeBack):
            if self.game.state.finished:
                raise RuleError("the game is over", entry.kind)
            if entry.kind == "undo" and self.undo_gone() is not None:
                raise RuleError(REVEALED, "undo")
            allowed = self.undo_seat() if entry.kind == "undo" else self.redo_seat()
            if allowed is None:
                if entry.kind == "undo" and self.actors:
                    raise RuleError("imported actions cannot be undone", "undo")
                raise RuleError(f"nothing to {entry.kind}", entry.kind)
            if allowed != player:
                raise Forbidden(
                    f"only {allowed}, who made the last action, may {entry.kind}", entry.kind
                )
            return
        acting = self.game.acting_player()
        if acting is None or acting == player or self.controls(player, entry.entity):
            return
        raise Forbidden(f"it is {acting}'s turn, not {player}'s", "turn order")

    def apply_posted(self, row: LogRow, entry: Entry) -> bool:
        """Apply `entry`, posted by the seat `row.seat` (after `check_seat`) as `row`;
        returns whether the game is now over. Raises Forbidden or RuleError (nothing
        changed)."""
        try:
            self.apply_row(row, entry)
        except NotYourTurnError as exc:
            if self.game.acting_player() != row.seat:
                raise Forbidden(exc.message, exc.rule) from None
            raise
        return self.game.state.finished

    # ------------------------------------------------------------------ public state
    @property
    def view(self) -> Callable[[LiveGame], dict[str, Any]]:
        """What makes the public state of the game."""
        return self._view

    @property
    def snapshot(self) -> dict[str, Any]:
        """The public state as of the last change (do not modify it)."""
        return self._snapshot[0]

    @property
    def snapshot_json(self) -> str:
        """The same, as JSON text."""
        return self._snapshot[1]

    def refresh_snapshot(self) -> None:
        """Recompute the public state (after the game changed); it is replaced in one step,
        so a reader never sees half of two versions."""
        snapshot = self._view(self)
        self._snapshot = (snapshot, json.dumps(snapshot, separators=(",", ":")))

    def acting_bot(self) -> str | None:
        """The bot to act now, from the snapshot (safe without the lock)."""
        snapshot = self.snapshot
        acting = snapshot.get("acting_player")
        if isinstance(acting, str) and self.is_bot(acting) and not snapshot.get("finished"):
            return acting
        return None

    def subscribe(self) -> Subscriber:
        """A new websocket listener."""
        sub = Subscriber()
        self.subscribers.add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        """Forget a listener (it was watching until now)."""
        self.subscribers.discard(sub)
        self.seen = time.monotonic()

    def publish(self) -> list[LogRow]:
        """Send the entries not yet published to every listener (from the event loop);
        returns them."""
        if self.published >= self.index:
            return []
        new = self.rows[self.published : self.index]
        entries = self.log_entries(self.published, self.index)
        self.published = self.index
        head = json.dumps({"type": "log", "index": self.index, "entries": entries})
        message = head[:-1] + ', "state": ' + self.snapshot_json + "}"
        for sub in list(self.subscribers):
            sub.offer(message)
        return new

    def state_message(self) -> str:
        """The first message a listener gets: the whole public state."""
        snapshot, text = self._snapshot
        head = json.dumps({"type": "state", "index": snapshot.get("index", 0)})
        return head[:-1] + ', "state": ' + text + "}"
