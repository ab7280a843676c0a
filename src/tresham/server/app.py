"""The HTTP and websocket API (FastAPI).

Every error is a JSON body ``{"error", "rule"}`` (plus ``"field"`` where one field of the
request is at fault) with its status (403 no seat token or not the seat's turn, 404 no such
game, 409 stale index, 413 body too large, 422 illegal or malformed, 503 database failure);
never a stack trace. Every JSON answer is ASCII-only (errors.SafeJSONResponse), so no input a
message repeats can make an answer fail. Bodies are read by ``bodies.py`` (strict JSON, then
their shape); what a game is made from is checked by the engine. A websocket for a game that
cannot be opened is accepted and closed at once with code 4000 + the HTTP status (4404: no
such game). See README.md, "Server", for the API.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import HTTPConnection

from tresham.bots.players import BOTS, DEFAULT_LEVEL, get_bot
from tresham.core.actions import Action
from tresham.core.errors import MalformedActionError, RuleError, quote
from tresham.core.game import Game
from tresham.core.game_spec import MAX_SEED, RNG_OPTION, SetupError
from tresham.core.rng import SiteRandom
from tresham.io.save import FORMAT, from_save, new_game
from tresham.server.api_docs import docs_page
from tresham.server.board_view import board_payload
from tresham.server.bodies import (
    AddBot,
    BotSeat,
    CreateGame,
    GameIds,
    JoinGame,
    Listing,
    PostChat,
    PostEntry,
    SeatOrders,
    SeatWebhook,
    invalid,
    json_body,
    parse_json,
    validate,
)
from tresham.server.chat import ChatRooms, saved_chat, site_chat
from tresham.server.claims import HINTED_CHANNEL
from tresham.server.config import ServerConfig
from tresham.server.errors import (
    ApiError,
    BadRequest,
    SafeJSONResponse,
    Stale,
    TooLarge,
    Unavailable,
    error_response,
    refused,
)
from tresham.server.headers import ASGIApp, Message, Receive, Scope, SecurityHeaders, Send
from tresham.server.hints import Hints
from tresham.server.history import game_history
from tresham.server.ids import check_game_id, new_game_id
from tresham.server.limits import RateLimit
from tresham.server.live import LiveGame, parse_entry, pump, token_hash
from tresham.server.notify import PgListener
from tresham.server.page import page, web_root
from tresham.server.past import past_of
from tresham.server.registry import Registry, seat_url
from tresham.server.review import Reviews
from tresham.server.seats import (
    Seats,
    check_open_game,
    describe,
    new_host,
    summary,
    token_seat,
)
from tresham.server.storage import (
    CHANNEL,
    CHAT_CHANNEL,
    HINT_CHANNEL,
    ChatLine,
    GameRecord,
    Hosting,
    SeatRecord,
    Storage,
)
from tresham.server.view import proposed_runs, shown_save
from tresham.titles.registry import get_title, titles
from tresham.words import Words

log = logging.getLogger("tresham.server")

IMPORT_PATH = "/api/games/import"


# ---------------------------------------------------------------------- body size limit
class BodyLimit:
    """Reads a request's body up to its limit before the app sees it; a larger body gets
    413 without being read further."""

    def __init__(self, app: ASGIApp, limit: int, import_limit: int) -> None:
        self.app = app
        self.limit = limit
        self.import_limit = import_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        limit = self.import_limit if scope["path"] == IMPORT_PATH else self.limit
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._too_large(scope, receive, send, limit)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await self._too_large(scope, receive, send, limit)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    @staticmethod
    async def _too_large(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        response = error_response(TooLarge(f"the request body is over {limit} bytes"))
        await response(scope, receive, send)


# ---------------------------------------------------------------------- the app
@dataclass
class Server:
    """What the routes use: the storage, the live games, their seats and chat, and the
    limits of joins and of games made (by one address, and by all)."""

    config: ServerConfig
    storage: Storage
    registry: Registry
    seats: Seats
    chat: ChatRooms
    joins: RateLimit
    creations: RateLimit
    creations_all: RateLimit
    hints: Hints
    reviews: Reviews

    def check_creation(self, request: Request) -> str:
        """Count a game made by the request's client; raise TooMany (429) if it is over
        the limits. Returns the client's address."""
        address = _address(request)
        self.creations.check(address)
        self.creations_all.check("all")
        return address


def create_app(config: ServerConfig, storage: Storage | None = None) -> FastAPI:
    """The API app. It opens `storage` (or the configured database) when it starts and
    closes it when it stops."""
    holder: dict[str, Server] = {}

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = (
            storage
            if storage is not None
            else await asyncio.to_thread(Storage, config.database_url)
        )
        registry = Registry(store, config)
        window = config.rate_window
        holder["server"] = Server(
            config,
            store,
            registry,
            Seats(registry),
            ChatRooms(registry, RateLimit("chat lines", config.chat_limit, window)),
            RateLimit("joins", config.join_limit, window),
            RateLimit("games made", config.create_limit, config.create_window),
            RateLimit("games made on this server", config.create_limit_all, config.create_window),
            Hints(registry),
            Reviews(registry),
        )
        listener = None
        if store.is_postgres:
            chat = holder["server"].chat
            hints = holder["server"].hints

            def on_reconnect() -> None:
                registry.on_reconnect()
                chat.on_reconnect()
                hints.on_reconnect()

            listener = PgListener(
                store.conninfo(),
                {
                    CHANNEL: registry.on_news,
                    CHAT_CHANNEL: chat.on_news,
                    HINT_CHANNEL: hints.on_news,
                    HINTED_CHANNEL: hints.on_hinted,
                },
                on_reconnect,
            )
            await listener.start()
        await registry.resume_bots()
        try:
            yield
        finally:
            if listener is not None:
                await listener.stop()
            await holder["server"].chat.close()
            holder["server"].hints.close()
            holder["server"].reviews.close()
            await registry.close()
            store.close()

    app = FastAPI(
        title="tresham",
        summary="18xx games: the table's API",
        lifespan=lifespan,
        docs_url=None,
        openapi_url="/api/openapi.json",
        redoc_url=None,
        default_response_class=SafeJSONResponse,
        dependencies=[Depends(_known_game)],
    )
    app.state.holder = holder

    def server() -> Server:
        return holder["server"]

    _add_error_handlers(app)

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """Whether the server is up, and its database kind."""
        srv = server()
        return {"ok": True, "database": "postgresql" if srv.storage.is_postgres else "sqlite"}

    @app.get("/api/titles")
    async def list_titles() -> list[dict[str, Any]]:
        """The playable titles: how many players each takes, its rules version and the
        options a game of it may be given."""
        out = []
        for name in titles():
            title = get_title(name)
            lo, hi = title.player_range
            out.append(
                {
                    "title": name,
                    "players": [lo, hi],
                    "rules_version": title.rules_version,
                    "options": [spec.to_dict() for spec in title.option_specs()],
                }
            )
        return out

    @app.get("/api/bots")
    async def list_bots() -> dict[str, Any]:
        """The levels a bot seat may have, and the level of a bot named without one."""
        return {"levels": list(BOTS), "default": DEFAULT_LEVEL}

    @app.get("/api/games")
    async def list_games() -> list[dict[str, Any]]:
        """The most recent public games not finished (private ones are never listed)."""
        srv = server()
        rows = await srv.registry.run(lambda: srv.storage.list_games(public_only=True))
        return [summary(r) for r in rows]

    @app.post("/api/games/mine", openapi_extra=json_body(GameIds, "the games' ids"))
    async def my_games(request: Request) -> list[dict[str, Any]]:
        """The games of these ids (those whose seats a browser holds), with whose turn it
        is in each."""
        body = validate(GameIds, parse_json(await request.body()))
        return await server().seats.mine(body.ids)

    @app.post(
        "/api/games",
        status_code=201,
        openapi_extra=json_body(CreateGame, "the game: title, players, seed, options..."),
    )
    async def create_game(request: Request) -> dict[str, Any]:
        """Start a game; the answer holds each seat's secret link."""
        body = validate(CreateGame, parse_json(await request.body()))
        srv = server()
        # a seed of 63 random bits: what it decides (undrawn cards, dice) cannot be found by
        # trying every seed against what the game shows
        seed = body.seed if body.seed is not None else secrets.randbelow(MAX_SEED + 1)
        if body.open_seats or None in body.players:
            return await _waiting(srv, body, seed, request)
        players = [p for p in body.players if p is not None]
        game = await srv.registry.run(new_game, body.title, players, seed, body.options)
        bots = _bot_levels(body.bots, game.player_names)
        await _check_webhook(srv, body.webhook)
        if len(bots) == len(players):
            srv.registry.check_bot_room(_address(request))
        maker = srv.check_creation(request)
        host, hosting = new_host(body.public, body.spectator_chat, hints=body.hints)
        answer = await _created(
            srv, game, request, bots=bots, webhook=body.webhook, hosting=hosting, maker=maker
        )
        return {**answer, "host_token": host}

    @app.post(
        IMPORT_PATH,
        status_code=201,
        openapi_extra={
            "requestBody": {
                "required": True,
                "description": "a tresham save or an 18xx.games export",
                "content": {"application/json": {"schema": {"type": "object"}}},
            }
        },
    )
    async def import_game(request: Request) -> dict[str, Any]:
        """Start a game from a tresham save or an 18xx.games export (the file as the body),
        with its chat."""
        game, chat = await server().registry.run(_imported, await request.body())
        server().check_creation(request)
        host, hosting = new_host(False, False)
        answer = await _created(server(), game, request, hosting=hosting, chat=chat)
        return {**answer, "host_token": host}

    @app.get("/api/games/{game_id}")
    async def game_state(game_id: str, at: str | None = None) -> Response:
        """The public state; with `at=N`, as it was when the log had N entries (0: the
        start), replayed from the log (server/past.py)."""
        srv = server()
        live = await srv.registry.get(game_id)
        await srv.registry.refresh(live)
        if at is None:
            return _raw_json(live.snapshot_json)
        position = _log_position(at, live.index, "at")
        rows = live.rows
        text = await srv.registry.run(lambda: past_of(live).state_json(rows, position))
        return _raw_json(text)

    @app.get("/api/games/{game_id}/legal")
    async def legal(
        game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The legal actions of the seat (none when it is not the seat's turn), each in words
        with its consequences (`choices`, one per action: see tresham/words.py), the prices
        one may name for it instead of its own (`ranges`: [lowest, highest] or null), the step of
        the turn they belong to (`step`), and what the proposed runs earn when running
        trains is one of them (`routes`, else null)."""
        srv = server()
        live = await srv.registry.get(game_id)
        seat = _seat(live, authorization)

        def work() -> dict[str, Any]:
            actions: list[Action] = []
            if live.game.acting_player() == seat.player:
                actions = live.game.legal_actions()
            words = Words(live.game)
            return {
                "index": live.index,
                "actions": [a.to_json() for a in actions],
                "choices": [c.to_dict() for c in words.choices(actions)],
                "ranges": [live.game.title.price_range(live.game, a) for a in actions],
                "step": words.step()[0] if actions else "",
                "routes": proposed_runs(live.game, actions),
            }

        return await srv.registry.read(live, work)

    @app.post(
        "/api/games/{game_id}/actions",
        openapi_extra=json_body(PostEntry, "the index the action is for, and the action"),
    )
    async def post_action(
        game_id: str,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """Add an action (or {"type": "undo"} / {"type": "redo"}) at the current index."""
        srv = server()
        live = await srv.registry.get(game_id)
        seat = _seat(live, authorization)
        body = validate(PostEntry, parse_json(await request.body()))
        index = await srv.registry.submit(live, seat.player, body.index, body.action)
        return {"index": index}

    @app.post(
        "/api/games/{game_id}/check",
        openapi_extra=json_body(PostEntry, "the index the action is for, and the action"),
    )
    async def check_action(
        game_id: str,
        request: Request,
        authorization: Annotated[str | None, Header()] = None,
    ) -> dict[str, Any]:
        """Whether the seat's action would be legal now, without making it: `{"legal": true}`,
        or `{"legal": false, "error", "rule"}` with the engine's own reason (the table asks it
        of the runs a player composes before offering Run)."""
        srv = server()
        live = await srv.registry.get(game_id)
        seat = _seat(live, authorization)
        body = validate(PostEntry, parse_json(await request.body()))
        entry = parse_entry(body.action, seat.player)
        if not isinstance(entry, Action):
            raise MalformedActionError("only an action can be checked, not a take-back", "check")

        def work() -> dict[str, Any]:
            if body.index != live.index:
                raise Stale(
                    f"the game is at index {live.index}, not {body.index}",
                    "index",
                    index=live.index,
                )
            live.check_seat(seat.player, entry)
            try:
                live.game.check(entry)
            except RuleError as exc:
                return {"legal": False, "error": str(exc), "rule": exc.rule}
            return {"legal": True}

        return await srv.registry.read(live, work)

    @app.get("/api/games/{game_id}/log")
    async def game_log(game_id: str, since: str | None = None) -> dict[str, Any]:
        """Every log entry (from `since`, if given), undo and redo included, each with the
        round it was made in and the event lines it produced; `start_events`: the lines of
        the game's set-up."""
        srv = server()
        live = await srv.registry.get(game_id)

        def work() -> dict[str, Any]:
            start = 0 if since is None else _log_position(since, live.index, "since")
            return {
                "index": live.index,
                "start_events": list(live.chronicle.start_events),
                "entries": live.log_entries(start),
            }

        return await srv.registry.read(live, work)

    @app.get("/api/games/{game_id}/export")
    async def export(game_id: str) -> dict[str, Any]:
        """The save file (the actions in force), with the game's chat. While a game keeps
        secrets (its seed decides cards still to be drawn, dice still to be cast) its seed is
        withheld (null) until the game ends: the export of a finished game is complete."""
        srv = server()
        live = await srv.registry.get(game_id)
        save = await srv.registry.read(live, lambda: shown_save(live.game))
        chat = await srv.chat.lines(game_id)
        return {**save, "chat": [line.to_json() for line in chat]}

    @app.websocket("/api/games/{game_id}/ws")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        """The state, then a message for every new log entry."""
        srv = server()
        try:
            live = await srv.registry.get(game_id)
            await srv.registry.refresh(live)
        except (ApiError, SQLAlchemyError) as exc:
            # accepted first: a close during the handshake reaches the client as a bare 403
            error = exc if isinstance(exc, ApiError) else _database_error(exc)
            await websocket.accept()
            reason = error.message.encode("ascii", "backslashreplace")[:120].decode("ascii")
            await websocket.close(code=4000 + error.status, reason=reason)
            return
        await websocket.accept()
        sub = live.subscribe()
        try:
            await websocket.send_text(live.state_message())
            live.publish()
            await pump(websocket, sub)
        finally:
            live.unsubscribe(sub)

    @app.websocket("/api/games/{game_id}/chat/ws")
    async def chat_socket(websocket: WebSocket, game_id: str) -> None:
        """The game's chat: every line so far, then each new one."""
        await server().chat.serve(websocket, game_id)

    @app.websocket("/{path:path}")
    async def no_socket(websocket: WebSocket, path: str) -> None:
        """Any other websocket address: accepted, then closed with 4404 (a close during the
        handshake would reach the client as a bare 403)."""
        await websocket.accept()
        await websocket.close(code=4404, reason="no websocket here")

    @app.get("/api/games/{game_id}/board")
    async def board(game_id: str) -> dict[str, Any]:
        """The static drawing data of the game's board, tiles and market (board_view.py)."""
        srv = server()
        live = await srv.registry.get(game_id)
        return await srv.registry.read(live, lambda: board_payload(live.game))

    @app.get("/api/games/{game_id}/seat")
    async def seat(
        game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The player whose seat token the request carries."""
        live = await server().registry.get(game_id)
        return {"player": _seat(live, authorization).player}

    @app.get("/api/games/{game_id}/seat/webhook")
    async def seat_webhook(
        game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The webhook of the seat whose token the request carries (null: none)."""
        return await server().seats.webhook(game_id, authorization)

    @app.put(
        "/api/games/{game_id}/seat/webhook",
        openapi_extra=json_body(SeatWebhook, "the URL to call on the seat's turns, or null"),
    )
    async def set_seat_webhook(
        request: Request, game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Set or clear (null) the webhook the server calls when it becomes this seat's
        turn (Discord and Slack incoming webhooks read its message)."""
        body = validate(SeatWebhook, parse_json(await request.body()))
        return await server().seats.set_webhook(game_id, authorization, body.url)

    @app.get("/api/games/{game_id}/seat/orders")
    async def seat_orders(
        game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """The standing orders of the seat whose token the request carries (only that seat
        sees them), with the last few that ended and why."""
        srv = server()
        live = await srv.registry.get(game_id)
        player = _seat(live, authorization).player
        return await srv.registry.read(live, lambda: srv.registry.standing.view(live, player))

    @app.put(
        "/api/games/{game_id}/seat/orders",
        openapi_extra=json_body(SeatOrders, "the seat's standing orders ([]: none)"),
    )
    async def set_seat_orders(
        request: Request, game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Replace the standing orders of the seat whose token the request carries: they
        act as the seat's own actions (logged "(standing order)") whenever they apply, from
        now on; [] cancels them."""
        srv = server()
        live = await srv.registry.get(game_id)
        player = _seat(live, authorization).player
        body = validate(SeatOrders, parse_json(await request.body()))
        return await srv.registry.set_orders(live, player, body.orders)

    @app.get("/api/games/{game_id}/hint")
    async def game_hint(
        game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """What `hard` would do in the seat's place, on its turn, where the game's creator
        allows hints: the suggestion in words with its evaluation and the next best
        (server/hints.py). Every player sees that the seat asked (`/hints`)."""
        return await server().hints.hint(game_id, authorization)

    @app.get("/api/games/{game_id}/hints")
    async def hint_notes(game_id: str) -> dict[str, Any]:
        """Which seats were shown a hint, and when (the log index): "Ann asked for a hint"."""
        return {"notes": await server().hints.notes(game_id)}

    @app.get("/api/games/{game_id}/review")
    async def game_review(game_id: str) -> dict[str, Any]:
        """A finished game's review: each player's decisions where the search's choice would
        have gained most, or how far it is (server/review.py)."""
        return await server().reviews.review(game_id)

    @app.get("/api/games/{game_id}/history")
    async def history(game_id: str) -> dict[str, Any]:
        """Share prices and player worth after every operating round (history.py)."""
        srv = server()
        live = await srv.registry.get(game_id)
        return await srv.registry.read(live, lambda: game_history(live.game, live.chronicle))

    @app.get("/api/games/{game_id}/seating")
    async def seating(game_id: str) -> dict[str, Any]:
        """Who sits at the game (so far, while it waits for players), how many seats it has,
        and how it is hosted."""
        return describe(await server().seats.record(game_id))

    @app.post(
        "/api/games/{game_id}/join",
        status_code=201,
        openapi_extra=json_body(JoinGame, "the name to sit under"),
    )
    async def join(request: Request, game_id: str) -> dict[str, Any]:
        """Take a free seat of a waiting game: the answer holds the seat's token (409: no
        seat is free, or the name sits there already)."""
        srv = server()
        srv.joins.check(_address(request))
        body = validate(JoinGame, parse_json(await request.body()))
        base = srv.config.public_url or str(request.base_url)
        return await srv.seats.join(game_id, body.name, base)

    @app.post("/api/games/{game_id}/leave")
    async def leave(
        game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Free the seat whose token the request carries, before the game starts."""
        return await server().seats.leave(game_id, authorization)

    @app.post("/api/games/{game_id}/start")
    async def start(
        request: Request, game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Start a waiting game with the players seated (the host's token)."""
        return await server().seats.start(game_id, authorization, _address(request))

    @app.post(
        "/api/games/{game_id}/bots",
        status_code=201,
        openapi_extra=json_body(AddBot, "the bot's name and level"),
    )
    async def add_bot(
        request: Request, game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Seat a bot at a waiting game (the host's token)."""
        body = validate(AddBot, parse_json(await request.body()))
        return await server().seats.add_bot(
            game_id, authorization, body.player, body.level, _address(request)
        )

    @app.post(
        "/api/games/{game_id}/listing",
        openapi_extra=json_body(Listing, "whether the game is listed; whether spectators chat"),
    )
    async def listing(
        request: Request, game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Whether the game is listed for strangers and its spectators may chat (the host's
        token)."""
        body = validate(Listing, parse_json(await request.body()))
        return await server().seats.listing(
            game_id, authorization, body.public, body.spectator_chat
        )

    @app.get("/api/games/{game_id}/chat")
    async def chat_lines(game_id: str) -> dict[str, Any]:
        """Every line of the game's chat."""
        return {"lines": [line.to_json() for line in await server().chat.lines(game_id)]}

    @app.post(
        "/api/games/{game_id}/chat",
        status_code=201,
        openapi_extra=json_body(PostChat, "the line, and a spectator's name"),
    )
    async def post_chat(
        request: Request, game_id: str, authorization: Annotated[str | None, Header()] = None
    ) -> dict[str, Any]:
        """Write a line of chat: a seat (its token), or a spectator where the host allows."""
        body = validate(PostChat, parse_json(await request.body()))
        line = await server().chat.post(
            game_id, authorization, body.text, body.name, _address(request)
        )
        return line.to_json()

    @app.get("/api/docs", response_class=HTMLResponse, include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        """The API's docs, written by the server (api_docs.py)."""
        return HTMLResponse(docs_page(app.openapi()))

    @app.get("/", response_class=HTMLResponse)
    async def lobby() -> HTMLResponse:
        """The lobby: start a game, open one."""
        return HTMLResponse(page("lobby.html"))

    @app.get("/games/{game_id}", response_class=HTMLResponse)
    async def table(game_id: str) -> Response:
        """The browser table of a game (its seat token, if any, in the fragment); a game
        waiting for players sends the browser to its join page."""
        record = await server().seats.record(game_id)
        if not record.hosting.started:
            return RedirectResponse(f"/games/{game_id}/join", status_code=303)
        await server().registry.get(game_id)
        return HTMLResponse(page("table.html"))

    @app.get("/games/{game_id}/join", response_class=HTMLResponse)
    async def join_page(game_id: str) -> HTMLResponse:
        """A game's join link: the lobby, showing the game's seats and a name to sit under."""
        await server().seats.record(game_id)
        return HTMLResponse(page("lobby.html"))

    @app.get("/games/{game_id}/review", response_class=HTMLResponse)
    async def review_page(game_id: str) -> HTMLResponse:
        """A finished game's review (server/review.py)."""
        await server().registry.get(game_id)
        return HTMLResponse(page("review.html"))

    @app.get("/games/{game_id}/tiles", response_class=HTMLResponse)
    async def tile_sheet(game_id: str) -> HTMLResponse:
        """Every tile the game may lay, drawn at each rotation."""
        await server().registry.get(game_id)
        return HTMLResponse(page("tiles.html"))

    app.mount("/web", StaticFiles(directory=str(web_root())), name="web")
    app.add_middleware(GZipMiddleware, minimum_size=4096)
    app.add_middleware(BodyLimit, limit=config.max_body, import_limit=config.max_import_body)
    app.add_middleware(SecurityHeaders)
    return app


async def _known_game(connection: HTTPConnection) -> None:
    """Every route naming a game (``{game_id}``): 404 unless the id could be a game's, before
    anything reads the database (server/ids.py). A websocket's route checks it itself, to
    close the socket with 4404."""
    game_id = connection.path_params.get("game_id")
    if game_id is not None and connection.scope["type"] == "http":
        check_game_id(game_id)


async def _created(
    srv: Server,
    game: Game,
    request: Request,
    *,
    bots: dict[str, str] | None = None,
    webhook: str | None = None,
    hosting: Hosting | None = None,
    chat: list[ChatLine] | None = None,
    maker: str | None = None,
) -> dict[str, Any]:
    base = srv.config.public_url or str(request.base_url)
    live, seats = await srv.registry.create(
        game,
        bots=bots,
        webhook=webhook,
        base_url=base,
        hosting=hosting,
        chat=chat or (),
        maker=maker,
    )
    return {
        "id": live.record.id,
        "seats": [
            {
                "player": s.player,
                "bot": s.bot,
                "level": s.level,
                "token": s.token,
                "url": None if s.token is None else seat_url(base, live.record.id, s.token),
            }
            for s in seats
        ],
    }


async def _waiting(srv: Server, body: CreateGame, seed: int, request: Request) -> dict[str, Any]:
    """Store a game with seats left open: it waits for players to join. Strangers may take
    its seats, so a game whose seed would give away what no player may know (1883's cards)
    draws its own: a seed given is refused (422, field ``seed``)."""
    named, wanted = check_open_game(body.title, body.players, body.open_seats, seed, body.options)
    site_rng = body.options.get(RNG_OPTION.name) == SiteRandom.name
    if body.seed is not None or site_rng:
        probe = [f"seat {i + 1}" for i in range(wanted)]
        game = await srv.registry.run(new_game, body.title, probe, seed, body.options)
        if game.keeps_secrets() and body.seed is not None:
            raise BadRequest(
                f"a {body.title} game with open seats draws its own seed: the seed decides what "
                "no player may know (the cards to be drawn, the dice), and strangers will sit "
                "there",
                "seed",
                "seed",
            )
        if game.keeps_secrets():
            raise BadRequest(
                f"a {body.title} game with open seats does not take the 18xx.games generator: "
                "its 31 bits of state could be worked out from the first cards drawn, and with "
                "them the cards still to come",
                "options",
                "options",
            )
    bots = _bot_levels(body.bots, named)
    await _check_webhook(srv, body.webhook)
    srv.check_creation(request)
    host, hosting = new_host(body.public, body.spectator_chat, wanted, body.hints)
    tokens = {p: secrets.token_urlsafe(24) for p in named if p not in bots}
    record = GameRecord(
        id=new_game_id(),
        title=body.title,
        rules_version=get_title(body.title).rules_version,
        seed=seed,
        options=dict(body.options),
        players=[],
        seats=[
            SeatRecord(p, None, True, bots[p])
            if p in bots
            else SeatRecord(p, token_hash(tokens[p]))
            for p in named
        ],
        webhook=body.webhook,
        base_url=srv.config.public_url or str(request.base_url),
        hosting=hosting,
    )
    base = srv.config.public_url or str(request.base_url)
    return await srv.seats.create(record, host, base, tokens)


def _address(request: Request) -> str:
    """The client's address (what joins are counted by)."""
    return request.client.host if request.client is not None else "unknown"


#: What reading a malformed save or export may raise besides the engine's errors.
MALFORMED = (KeyError, TypeError, ValueError, AttributeError, IndexError, RecursionError)

#: Where the fields of a game made from an 18xx.games export come from in the export.
EXPORT_FIELDS = {"seed": "settings.seed", "options": "settings.optional_rules"}


def _bot_levels(bots: list[BotSeat], players: list[str]) -> dict[str, str]:
    """The level of each player the server's bots play: players of the game, each named
    once, each of a bot's level (the default where none is named)."""
    levels: dict[str, str] = {}
    for i, bot in enumerate(bots):
        name = bot.player
        if name not in players:
            raise BadRequest(
                f"bots must be players of the game, not {quote(name)}",
                "setup",
                bot.field(i, "player"),
            )
        if name in levels:
            raise BadRequest(
                f"a bot is named once, not {quote(name)} twice", "setup", bot.field(i, "player")
            )
        level = DEFAULT_LEVEL if bot.level is None else bot.level
        try:
            get_bot(level)
        except SetupError as exc:
            raise BadRequest(exc.message, "setup", bot.field(i, "level")) from None
        levels[name] = level
    return levels


def _imported(raw: bytes) -> tuple[Game, list[ChatLine]]:
    """The game of a tresham save or an 18xx.games export, from the body, and its chat
    (worker thread)."""
    from tresham.io.site_export import ImportFailure
    from tresham.io.site_import import import_export

    data = parse_json(raw)
    if not isinstance(data, dict):
        raise BadRequest("the body must be a tresham save or an 18xx.games export (an object)")
    if data.get("format") == FORMAT:
        try:
            game = from_save(data)
            return game, saved_chat(data, len(game.actions))
        except SetupError as exc:
            raise refused(exc, "the save cannot be set up: ") from None
        except RuleError as exc:
            raise BadRequest(
                f"the save does not replay: {exc.message}", exc.rule or "save format"
            ) from None
        except MALFORMED as exc:
            raise BadRequest(
                f"not a valid tresham save: {_described(exc)}", "save format"
            ) from None
    try:
        result = import_export(data)
        return result.game, site_chat(result.chat)
    except ImportFailure as exc:
        setup = exc.__context__
        if exc.action_id is None and isinstance(setup, SetupError):
            field = setup.field
            if field.startswith("players["):
                field += ".name"
            else:
                field = EXPORT_FIELDS.get(field.partition(".")[0], field)
            raise BadRequest(
                f"the export cannot be set up: {setup.message}", "setup", field
            ) from None
        raise BadRequest(f"not a tresham save, nor an importable export: {exc}", "import") from None
    except MALFORMED as exc:
        log.warning("a malformed export: %r", exc, exc_info=exc)
        raise BadRequest(
            f"not a tresham save, nor an importable export: {_described(exc)}", "import"
        ) from None


def _described(exc: Exception) -> str:
    """A refusal's reason, as a message may repeat it."""
    if isinstance(exc, RecursionError):
        return "it nests too deeply"
    return f"{type(exc).__name__}: {exc}"


def _seat(live: LiveGame, authorization: str | None) -> SeatRecord:
    """The seat whose token the request carries (`Authorization: Bearer <token>`)."""
    return token_seat(live.seats, authorization)


async def _check_webhook(srv: Server, url: str | None) -> None:
    """Raise BadRequest (field ``webhook``) unless `url` is None or can be a webhook."""
    if url is not None and (problem := await srv.registry.webhooks.problem(url)):
        raise BadRequest(problem, "webhook", "webhook")


LOG_POSITION = re.compile(r"[0-9]{1,18}")


def _log_position(text: str, length: int, field: str) -> int:
    """A position in a log of `length` entries, from a query parameter: 0 to `length`."""
    if not LOG_POSITION.fullmatch(text) or int(text) > length:
        raise BadRequest(
            f"{field} must be a log position from 0 to {length}, not {quote(text)}",
            "history",
            field,
        )
    return int(text)


def _raw_json(text: str) -> Response:
    return Response(content=text, media_type="application/json")


def _database_error(exc: SQLAlchemyError) -> Unavailable:
    log.error("database error: %s", exc)
    return Unavailable("the database is unavailable; nothing was changed", "storage")


def _add_error_handlers(app: FastAPI) -> None:
    def missing_page(request: Request, status: int) -> Response | None:
        """A page (not the API, not a static file) that a browser asks for (it accepts HTML)
        and that is not there gets a page a person can read, with the way back to the lobby;
        None for everything else (the API's JSON error)."""
        path = request.url.path
        wants_page = "text/html" in request.headers.get("accept", "")
        if status != 404 or not wants_page or path.startswith(("/api/", "/web/")):
            return None
        return HTMLResponse(page("missing.html"), status_code=404)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> Response:
        return missing_page(request, exc.status) or error_response(exc)

    @app.exception_handler(RuleError)
    async def rule_error(_request: Request, exc: RuleError) -> Response:
        return error_response(refused(exc))

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, exc: RequestValidationError) -> Response:
        return error_response(invalid(exc.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        missing = missing_page(request, exc.status_code)
        if missing is not None:
            return missing
        body = {"error": str(exc.detail), "rule": "request"}
        return SafeJSONResponse(body, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(SQLAlchemyError)
    async def database_error(_request: Request, exc: SQLAlchemyError) -> Response:
        return error_response(_database_error(exc))

    @app.exception_handler(Exception)
    async def crash(_request: Request, exc: Exception) -> Response:
        log.error("internal error: %r", exc, exc_info=exc)
        return SafeJSONResponse(
            {"error": "internal server error", "rule": "server"}, status_code=500
        )
