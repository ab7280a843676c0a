"""Open seats: a game made with seats left to fill, joined through its link, left before it
starts, and started by its host once the title's minimum is seated, or by itself when the
last seat is taken.

A waiting game is stored as any game is, with the seats taken so far and no players: it
cannot be played or watched until it starts (409). Anyone with its join link
(``/games/<id>/join``, no secret in it) picks a name and takes a free seat, getting that
seat's secret token; the database lets one join take one seat and one name, however the joins
race (``storage.py``). When the game starts, its seats are drawn by lot, seeded by the game's
seed so that the order is reproducible, and they become its players in that order, the first
drawn holding the priority: 1883 §2.1 (ruling R34) and 1854 §2.2 (ruling F1) draw seats so;
the 1849 summary names no order, and its ruling R30 draws them as the others do. No title
seats otherwise, so there is no title hook for it.

Whoever creates a game gets its host token: the host starts a waiting game, seats bots in it,
and says whether the game is listed for strangers (games are private by default; finished
ones are never listed) and whether its spectators may chat. Tokens travel only in the
``Authorization`` header or in a link's fragment, never in an address the server logs.

A seat may set a webhook of its own (``/api/games/<id>/seat/webhook``, with its token): the
server calls it on that seat's turns. Only the seat's token reads it back: a webhook's URL is
its receiver's secret.
"""

from __future__ import annotations

import hmac
import random
import secrets
from typing import Any

from tresham.bots.players import DEFAULT_LEVEL, get_bot
from tresham.core.errors import quote
from tresham.core.game_spec import SetupError, check_name, check_options, check_seed
from tresham.server.errors import ApiError, BadRequest, Conflict, Forbidden, NotFound
from tresham.server.live import seat_for_token, token_hash
from tresham.server.registry import Registry, game_url, seat_url
from tresham.server.storage import GameRecord, GameSummary, Hosting, SeatRecord, SeatRefused
from tresham.titles.registry import get_title


def join_url(base: str, game_id: str) -> str:
    """A game's join link (the lobby's page of that game)."""
    return f"{game_url(base, game_id)}/join"


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None: no such header)."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        return None
    return token.strip()


def token_seat(seats: list[SeatRecord], authorization: str | None) -> SeatRecord:
    """The seat of `seats` whose token the request carries (`Authorization: Bearer
    <token>`). Raises Forbidden."""
    token = bearer(authorization)
    if token is None:
        raise Forbidden("a seat token is needed: Authorization: Bearer <token>", "seat")
    seat = seat_for_token(seats, token)
    if seat is None:
        raise Forbidden("this is not a seat token of this game", "seat")
    return seat


def new_host(
    public: bool, spectator_chat: bool, seats_wanted: int | None = None, hints: bool = False
) -> tuple[str, Hosting]:
    """A new host token, and the hosting of a game it hosts (waiting for its seats to fill
    if `seats_wanted` is given; its seats may ask for hints if `hints`)."""
    token = secrets.token_urlsafe(24)
    hosting = Hosting(
        started=seats_wanted is None,
        seats_wanted=seats_wanted,
        public=public,
        spectator_chat=spectator_chat,
        host_hash=token_hash(token),
        hints=hints,
    )
    return token, hosting


def check_host(record: GameRecord, authorization: str | None) -> None:
    """Raise Forbidden unless the request carries the game's host token."""
    token = bearer(authorization)
    host = record.hosting.host_hash
    if token is None or host is None or not hmac.compare_digest(host, token_hash(token)):
        raise Forbidden(
            "only the game's host may do this: Authorization: Bearer <host token>", "host"
        )


def check_open_game(
    title_name: str, players: list[str | None], open_seats: int, seed: int, options: Any
) -> tuple[list[str], int]:
    """What a game with open seats is made from, checked as every game's is: the names given
    (distinct), and how many seats it has, within the title's range. Raises SetupError."""
    title = get_title(title_name)
    named: list[str] = []
    for i, name in enumerate(players):
        if name is None:
            continue
        where = f"players[{i}]"
        if check_name(name, where) in named:
            raise SetupError(f"player names must be distinct ({quote(name)} twice)", where)
        named.append(name)
    wanted = len(players) + open_seats
    lo, hi = title.player_range
    if not lo <= wanted <= hi:
        raise SetupError(f"{title.name} is for {lo}-{hi} players, not {wanted} seats", "players")
    check_seed(seed)
    check_options(title, options)
    return named, wanted


def seating_order(record: GameRecord) -> list[SeatRecord]:
    """The seats of a waiting game in their seating order, drawn by lot from its seed (every
    title's rule, or ruling, so far). Raises Conflict while fewer than the title's minimum
    are seated."""
    lo = get_title(record.title).player_range[0]
    if len(record.seats) < lo:
        raise Conflict(
            f"{record.title} needs at least {lo} players; {len(record.seats)} are seated",
            "seats",
        )
    seats = list(record.seats)
    random.Random(f"seating {record.seed}").shuffle(seats)
    return seats


def bots_only(record: GameRecord) -> bool:
    """Whether every seat taken so far is a bot's."""
    return all(s.bot for s in record.seats)


def refusal(exc: SeatRefused, game_id: str, name: str = "") -> ApiError:
    """The answer for what a waiting game refused."""
    if exc.reason == "missing":
        return NotFound(f"no game {quote(game_id)}", "game")
    if exc.reason == "started":
        return Conflict(f"game {game_id} has started: its seats are taken", "seats")
    if exc.reason == "full":
        return Conflict(f"game {game_id} has no free seat", "seats")
    if exc.reason == "name":
        return Conflict(f"{quote(name)} already sits at game {game_id}", "seats", "name")
    return Forbidden("this is not a seat token of this game", "seat")


def describe(record: GameRecord) -> dict[str, Any]:
    """A game's seating as the API gives it: its seats (taken so far, while it waits), how
    many it has, the title's minimum, and how it is hosted."""
    lo, hi = get_title(record.title).player_range
    wanted = record.hosting.seats_wanted or len(record.seats)
    return {
        "id": record.id,
        "title": record.title,
        "options": record.options,
        "started": record.hosting.started,
        "finished": record.finished,
        "seats": [
            {"player": s.player, "bot": s.bot, "level": s.bot_level if s.bot else None}
            for s in record.seats
        ],
        "seats_wanted": wanted,
        "open": wanted - len(record.seats) if not record.hosting.started else 0,
        "players_range": [lo, hi],
        "public": record.hosting.public,
        "spectator_chat": record.hosting.spectator_chat,
        "hints": record.hosting.hints,
    }


def summary(game: GameSummary, acting: str | None = None) -> dict[str, Any]:
    """A line of a game list: who sits there, how many seats are open, whose turn it is."""
    hosting = game.hosting
    wanted = hosting.seats_wanted or len(game.players)
    return {
        "id": game.id,
        "title": game.title,
        "players": game.players,
        "finished": game.finished,
        "started": hosting.started,
        "seats_wanted": wanted,
        "open": 0 if hosting.started else wanted - len(game.players),
        "public": hosting.public,
        "acting_player": acting,
    }


class Seats:
    """Joining, leaving and starting the waiting games of a registry."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self.storage = registry.storage

    async def record(self, game_id: str) -> GameRecord:
        """The game's stored record. Raises NotFound."""
        return await self.registry.record(game_id)

    async def create(
        self,
        record: GameRecord,
        host: str,
        base: str,
        tokens: dict[str, str],
    ) -> dict[str, Any]:
        """Store a waiting game (its named seats taken, with these `tokens`); the answer
        holds its join link, its host token and the named seats' links."""
        await self.registry.run(self.storage.create_game, record, [])
        return {
            "id": record.id,
            "started": False,
            "host_token": host,
            "join_url": join_url(base, record.id),
            "open_seats": (record.hosting.seats_wanted or 0) - len(record.seats),
            "seats": [
                {
                    "player": s.player,
                    "bot": s.bot,
                    "level": s.bot_level,
                    "token": tokens.get(s.player),
                    "url": seat_url(base, record.id, tokens[s.player])
                    if s.player in tokens
                    else None,
                }
                for s in record.seats
            ],
        }

    async def join(self, game_id: str, name: str, base: str) -> dict[str, Any]:
        """Seat `name` at a waiting game; the answer holds the seat's token and link, and
        whether the game has started (it starts when the last seat is taken)."""
        check_name(name, "name")
        token = secrets.token_urlsafe(24)
        record = await self._take(game_id, SeatRecord(name, token_hash(token)))
        started = await self._start_if_full(record)
        return {
            "id": game_id,
            "player": name,
            "token": token,
            "url": seat_url(base, game_id, token),
            "started": started,
        }

    async def add_bot(
        self,
        game_id: str,
        authorization: str | None,
        player: str,
        level: str | None,
        address: str = "",
    ) -> dict[str, Any]:
        """Seat a bot (the host's request, from `address`) at a waiting game; a bot that
        would start a game of bots only must find room for one (Registry.check_bot_room)."""
        waiting = await self.record(game_id)
        check_host(waiting, authorization)
        if len(waiting.seats) + 1 >= (waiting.hosting.seats_wanted or 0) and bots_only(waiting):
            self.registry.check_bot_room(address)
        check_name(player, "player")
        chosen = DEFAULT_LEVEL if level is None else level
        try:
            get_bot(chosen)
        except SetupError as exc:
            raise BadRequest(exc.message, "setup", "level") from None
        record = await self._take(game_id, SeatRecord(player, None, True, chosen))
        started = await self._start_if_full(record, address)
        return {"id": game_id, "player": player, "level": chosen, "started": started}

    async def leave(self, game_id: str, authorization: str | None) -> dict[str, Any]:
        """Free the seat whose token the request carries (before the game starts)."""
        token = bearer(authorization)
        if token is None:
            raise Forbidden("a seat token is needed: Authorization: Bearer <token>", "seat")
        try:
            player = await self.registry.run(self.storage.leave_seat, game_id, token_hash(token))
        except SeatRefused as exc:
            raise refusal(exc, game_id) from None
        return {"id": game_id, "left": player}

    async def start(
        self, game_id: str, authorization: str | None, address: str = ""
    ) -> dict[str, Any]:
        """Start a waiting game (the host's request, from `address`) with the players
        seated (a game of bots only must find room: Registry.check_bot_room)."""
        waiting = await self.record(game_id)
        check_host(waiting, authorization)
        if bots_only(waiting):
            self.registry.check_bot_room(address)
        record = await self._start(game_id, address)
        return {"id": game_id, "started": True, "players": record.players}

    async def listing(
        self,
        game_id: str,
        authorization: str | None,
        public: bool | None,
        spectator_chat: bool | None,
    ) -> dict[str, Any]:
        """Change (the host's request) whether a game is listed and its spectators chat."""
        check_host(await self.record(game_id), authorization)
        await self.registry.run(self.storage.set_listing, game_id, public, spectator_chat)
        return describe(await self.record(game_id))

    async def webhook(self, game_id: str, authorization: str | None) -> dict[str, Any]:
        """The webhook of the seat whose token the request carries (only that seat sees it:
        a webhook's URL is its receiver's secret)."""
        seat = token_seat((await self.record(game_id)).seats, authorization)
        url = await self.registry.run(self.storage.seat_webhook, game_id, seat.player)
        return {"player": seat.player, "webhook": url}

    async def set_webhook(
        self, game_id: str, authorization: str | None, url: str | None
    ) -> dict[str, Any]:
        """Set (None: clear) the webhook of the seat whose token the request carries; it is
        checked as a game's webhook is."""
        seat = token_seat((await self.record(game_id)).seats, authorization)
        if url is not None and (problem := await self.registry.webhooks.problem(url)):
            raise BadRequest(problem, "webhook", "url")
        try:
            await self.registry.run(self.storage.set_seat_webhook, game_id, seat.player, url)
        except SeatRefused as exc:  # the seat was left meanwhile
            raise refusal(exc, game_id) from None
        return {"player": seat.player, "webhook": url}

    async def mine(self, ids: list[str]) -> list[dict[str, Any]]:
        """The games of `ids` (those a browser holds seats of), with whose turn it is."""
        games = await self.registry.run(
            lambda: self.storage.list_games(len(ids), ids=ids) if ids else []
        )
        out = []
        for game in games:
            acting = None
            if game.hosting.started and not game.finished:
                try:
                    live = await self.registry.get(game.id, look=False)
                    await self.registry.refresh(live)
                    acting = live.snapshot.get("acting_player")
                except ApiError:
                    pass  # a game this server cannot play is listed without a turn
            out.append(summary(game, acting))
        return out

    async def _take(self, game_id: str, seat: SeatRecord) -> GameRecord:
        try:
            return await self.registry.run(self.storage.join_seat, game_id, seat)
        except SeatRefused as exc:
            raise refusal(exc, game_id, seat.player) from None

    async def _start_if_full(self, record: GameRecord, maker: str | None = None) -> bool:
        if len(record.seats) < (record.hosting.seats_wanted or 0):
            return False
        try:
            await self._start(record.id, maker)
        except Conflict:  # someone left, or another join started it, meanwhile
            return (await self.record(record.id)).hosting.started
        return True

    async def _start(self, game_id: str, maker: str | None = None) -> GameRecord:
        try:
            record = await self.registry.run(self.storage.start_game, game_id, seating_order)
        except SeatRefused as exc:
            raise refusal(exc, game_id) from None
        await self.registry.begin(game_id, maker)
        return record
