"""The live games of one server process, and the one path by which entries join a log.

A game is loaded into memory when first asked for (its log replayed) and then kept: each new
entry is applied incrementally. Everything that reads or changes a game takes the game's lock
and works in a worker thread. A read first catches up with the stored log (another process
may have appended to it). A new entry is inserted at the game's next index and applied in
memory inside one transaction: the database's unique (game, index) key decides who acted
first, so a process whose game is behind the log can never append to it; its insert fails,
and it catches up before answering 409. An entry the rules refuse is never stored. After each
change the new entries are published to the game's websocket listeners, bots are given their
turn, and the game's webhook and the acting seat's own hear whose turn it is.

A game of bots only plays while someone watches it: a websocket on it, or a request about it
in the last `bot_idle` seconds; otherwise its bots pause (no work is done for it) until
someone looks again. After a restart such games stay paused until looked at. How many games
of bots only may be running when one more is made is bounded per address and in all
(:meth:`Registry.check_bot_room`, 429).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from tresham.bots.players import DEFAULT_LEVEL
from tresham.core.actions import Action
from tresham.core.errors import quote
from tresham.core.game import Game
from tresham.server.bots import BotDriver, bot_action
from tresham.server.commit import catch_up, commit_entry
from tresham.server.config import ServerConfig
from tresham.server.errors import ApiError, Conflict, NotFound, Stale, TooMany
from tresham.server.ids import check_game_id, new_game_id
from tresham.server.live import Entry, LiveGame, parse_entry, token_hash
from tresham.server.standing import Followed, Standing
from tresham.server.storage import (
    ChatLine,
    GameRecord,
    Hosting,
    SeatRecord,
    Storage,
)
from tresham.server.targets import AllowList, Targets, system_resolver
from tresham.server.view import public_state
from tresham.server.webhooks import WebhookSender, turn_message
from tresham.server.workers import WorkerBots

log = logging.getLogger("tresham.server")

T = TypeVar("T")


@dataclass(frozen=True)
class NewSeat:
    """A seat of a game just created: its player, its secret token (None for a bot), and a
    bot's level."""

    player: str
    token: str | None
    bot: bool
    level: str | None = None


def game_url(base: str, game_id: str) -> str:
    """The table's address of a game."""
    return f"{base.rstrip('/')}/games/{game_id}"


def seat_url(base: str, game_id: str, token: str) -> str:
    """A seat's link: the table's address with the seat token (in the fragment, which
    browsers never send to the server)."""
    return f"{game_url(base, game_id)}#seat={token}"


class Registry:
    """Live games by id, loaded on demand, with the bots and webhooks that follow them."""

    def __init__(self, storage: Storage, config: ServerConfig) -> None:
        self.storage = storage
        self.config = config
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        targets = Targets(AllowList.parse(config.webhook_allow), config.resolver or system_resolver)
        self.webhooks = WebhookSender(
            config.webhook_timeout, config.webhook_attempts, config.webhook_backoff, targets
        )
        #: Where bots think: worker processes (``server/workers.py``), or None: the
        #: server's own threads (``bot_workers`` None).
        self.workers = WorkerBots(self) if config.bot_workers is not None else None
        move = self._bot_move if self.workers is None else self.workers.move
        self.bots = BotDriver(self._acting_bot, move, self._bot_pause)
        self.standing = Standing(storage)
        self._loading: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self._tasks: set[asyncio.Task[None]] = set()
        self._executor = ThreadPoolExecutor(config.worker_threads, thread_name_prefix="tresham")

    async def close(self) -> None:
        """Stop bots, their workers, refreshes and webhook calls."""
        await self.bots.close()
        if self.workers is not None:
            await self.workers.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.webhooks.close()
        self._executor.shutdown(wait=True, cancel_futures=True)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run blocking work (the database, the engine) in the server's worker threads. They
        are few: the work is mostly Python, and more threads would only starve the event
        loop of the interpreter lock."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args))

    # ------------------------------------------------------------------ loading
    async def get(self, game_id: str, look: bool = True) -> LiveGame:
        """The live game (loaded from the log if need be); `look`: someone asks about it (a
        paused game of bots plays on). Raises NotFound or Unplayable."""
        live = await self._get(game_id)
        if look:
            live.seen = time.monotonic()
            self.bots.poke(game_id)
        return live

    async def _get(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is not None and not live.broken:
            self.games.move_to_end(game_id)
            return live
        check_game_id(game_id)
        lock = self._loading.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._loading[game_id] = lock
        async with lock:
            live = self.games.get(game_id)
            if live is None or live.broken:
                live = await self.run(self._load, game_id)
                self._remember(live)
                self.bots.poke(game_id)
        return live

    async def record(self, game_id: str) -> GameRecord:
        """The game's stored record (a waiting game's too). Raises NotFound."""
        found = await self.run(self.storage.game, check_game_id(game_id))
        if found is None:
            raise NotFound(f"no game {quote(game_id)}", "game")
        return found

    def _load(self, game_id: str) -> LiveGame:
        record = self.storage.game(game_id)
        if record is None:
            raise NotFound(f"no game {quote(game_id)}", "game")
        if not record.hosting.started:
            raise Conflict(
                f"game {game_id} has not started: {len(record.seats)} of "
                f"{record.hosting.seats_wanted} seats are taken",
                "seats",
            )
        return LiveGame.rebuild(record, self.storage.entries(game_id), public_state)

    def _remember(self, live: LiveGame) -> None:
        self.games[live.record.id] = live
        self.games.move_to_end(live.record.id)
        excess = len(self.games) - self.config.max_live_games
        for game_id, other in list(self.games.items()):
            if excess <= 0:
                break
            if other is not live and not other.subscribers and not other.lock.locked():
                del self.games[game_id]
                excess -= 1

    async def resume_bots(self) -> None:
        """Start the bot workers (if bots think in them) and load the unfinished games
        with bots (after a start), so their bots play on."""
        if self.workers is not None:
            await self.workers.start()
        for game_id in await self.run(self.storage.games_with_bots):
            try:
                await self.get(game_id, look=False)
            except ApiError as exc:
                log.warning("game %s not resumed: %s", game_id, exc.message)

    # ------------------------------------------------------------------ creating
    async def create(
        self,
        game: Game,
        *,
        bots: Mapping[str, str] | Iterable[str] | None = None,
        webhook: str | None = None,
        base_url: str | None = None,
        hosting: Hosting | None = None,
        chat: Iterable[ChatLine] = (),
        maker: str | None = None,
    ) -> tuple[LiveGame, list[NewSeat]]:
        """Store a game built here (new, or imported with its actions and chat) and make it
        live. `bots`: the level of each player a bot plays, or their names (the default
        level)."""
        levels = (
            dict(bots) if isinstance(bots, Mapping) else dict.fromkeys(bots or (), DEFAULT_LEVEL)
        )
        seats = [
            NewSeat(p, None, True, levels[p])
            if p in levels
            else NewSeat(p, secrets.token_urlsafe(24), False)
            for p in game.player_names
        ]
        record = GameRecord(
            id=new_game_id(),
            title=game.title.name,
            rules_version=game.rules_version,
            seed=game.seed,
            options=dict(game.options),
            players=list(game.player_names),
            seats=[
                SeatRecord(
                    s.player, None if s.token is None else token_hash(s.token), s.bot, s.level
                )
                for s in seats
            ],
            webhook=webhook,
            base_url=base_url,
            finished=game.state.finished,
            hosting=hosting or Hosting(),
        )
        live = await self.run(LiveGame.adopt, record, game, public_state)
        live.maker = maker
        live.seen = time.monotonic()
        await self.run(self.storage.create_game, record, live.rows, list(chat))
        self._remember(live)
        self.bots.poke(record.id)
        self._tell_turn(live, live.game.acting_player())
        return live, seats

    async def begin(self, game_id: str, maker: str | None = None) -> LiveGame:
        """Make a game live that has just started (its bots play, its webhook hears whose
        turn it is); `maker`: the address that started it."""
        live = await self.get(game_id)
        live.maker = maker
        self._tell_turn(live, live.game.acting_player())
        return live

    # ------------------------------------------------------------------ reading
    async def refresh(self, live: LiveGame) -> None:
        """Catch `live` up with the stored log (and publish what it learnt)."""
        await self.read(live, lambda: None)

    async def read(self, live: LiveGame, work: Callable[[], T], catch_up: bool = True) -> T:
        """Catch `live` up with the stored log (unless told not to), then run `work` on it
        (in a worker thread, with the game's lock held); publish what changed."""

        def run() -> T:
            if catch_up:
                self._catch_up(live)
            return work()

        async with live.lock:
            try:
                return await self.run(run)
            finally:
                live.publish()
                if self.workers is not None:
                    self.workers.changed(live)
                if live.broken:
                    self.games.pop(live.record.id, None)

    def _catch_up(self, live: LiveGame) -> None:
        catch_up(self.storage, live)

    def on_news(self, game_id: str, index: int) -> None:
        """Another process appended to a game's log (up to `index`): catch up if the game
        is live here."""
        live = self.games.get(game_id)
        if live is None or live.index >= index or live.refresh_pending:
            return
        live.refresh_pending = True
        self._spawn(self._refresh_news(live))

    def on_reconnect(self) -> None:
        """News may have been missed: catch up every game someone listens to."""
        for live in list(self.games.values()):
            if live.subscribers:
                self._spawn(self.refresh(live))

    async def _refresh_news(self, live: LiveGame) -> None:
        live.refresh_pending = False
        try:
            await self.refresh(live)
        except ApiError as exc:
            log.warning("game %s: %s", live.record.id, exc.message)

    def _spawn(self, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ appending
    async def submit(self, live: LiveGame, player: str, index: int, raw: Any) -> int:
        """Append an entry posted by `player`'s seat at `index`; returns the new index.
        Raises Stale, Forbidden, RuleError (422) or Unavailable."""

        def work() -> str | None:
            # No read before the insert: if another process appended first, the insert at
            # this index fails and the game catches up then. Only an index other than ours
            # may mean we are behind.
            if index != live.index:
                self._catch_up(live)
            if index != live.index:
                raise Stale(
                    f"the game is at index {live.index}, not {index}: someone acted first",
                    "index",
                    index=live.index,
                )
            return self._commit(live, player, parse_entry(raw, player))

        await self._committing(live, work)
        return index + 1

    async def _bot_move(self, game_id: str) -> None:
        live = await self.get(game_id, look=False)

        def work() -> str | None:
            bot = live.game.acting_player()
            level = live.bot_level(bot)
            if bot is None or level is None:
                return None
            action: Action = bot_action(live.game, live.index, level)
            return self._commit(live, bot, action)

        await self._committing(live, work)

    async def _committing(self, live: LiveGame, work: Callable[[], str | None]) -> None:
        """Run `work` (it appends an entry, or sets orders), then let the standing orders of
        whoever acts next act (server/standing.py); tell whose turn it is."""
        followed = Followed()

        def run() -> str | None:
            nonlocal followed
            turn_to = work()
            followed = self._follow_orders(live)
            if followed.acted:
                turn_to = live.game.acting_player()
            return turn_to

        turn_to = await self.read(live, run, catch_up=False)
        self._follow_later(live, followed)
        if turn_to is not None:
            self._tell_turn(live, turn_to)
        self.bots.poke(live.record.id)

    def _follow_orders(self, live: LiveGame, now: bool = False, waited: bool = False) -> Followed:
        """Let the standing orders follow the entries appended since they last did
        (server/standing.py), after the undo grace of another person's move unless `waited`
        (it has run out); worker thread, the game's lock held."""

        def commit(player: str, action: Action, order: str) -> None:
            self._commit(live, player, action, order)

        grace = 0.0 if waited else self.config.undo_grace
        return self.standing.follow(live, commit, now, grace)

    def _follow_later(self, live: LiveGame, followed: Followed) -> None:
        """If an order waits out another person's undo grace, let it act once the grace has
        run out (from the event loop)."""
        if followed.wait > 0:
            self._spawn(self._follow_after(live.record.id, followed))

    async def _follow_after(self, game_id: str, followed: Followed) -> None:
        """The undo grace has run out: the orders act, unless the log moved meanwhile (a
        move or a take-back: the move's own follow decides then, and after an undo nothing
        acts)."""
        await asyncio.sleep(followed.wait)
        try:
            live = await self.get(game_id, look=False)

            def run() -> str | None:
                self._catch_up(live)
                if live.index != followed.index:
                    return None
                acted = self._follow_orders(live, now=True, waited=True).acted
                return live.game.acting_player() if acted else None

            turn_to = await self.read(live, run, catch_up=False)
        except ApiError as exc:
            log.warning("game %s: standing orders did not act: %s", game_id, exc.message)
            return
        if turn_to is not None:
            self._tell_turn(live, turn_to)
        self.bots.poke(game_id)

    async def set_orders(self, live: LiveGame, player: str, raw: Any) -> dict[str, Any]:
        """Replace the standing orders of `player`'s seat (they may act at once, or once
        another person's undo grace has run out); returns what the seat is shown of them.
        Raises RuleError (nothing changed)."""
        followed = Followed()

        def work() -> str | None:
            nonlocal followed
            self._catch_up(live)
            self.standing.replace(live, player, raw)
            followed = self._follow_orders(live, now=True)
            return live.game.acting_player() if followed.acted else None

        turn_to = await self.read(live, work, catch_up=False)
        self._follow_later(live, followed)
        if turn_to is not None:
            self._tell_turn(live, turn_to)
        self.bots.poke(live.record.id)
        return await self.read(live, lambda: self.standing.view(live, player))

    async def follow_orders(self, live: LiveGame, index: int) -> None:
        """A bot worker's move was appended at log `index` (``server/workers.py``): let the
        standing orders of whoever acts next act, as after a move made here (unless the log
        went on meanwhile), and tell whose turn it is."""
        followed = Followed()

        def run() -> str | None:
            nonlocal followed
            self._catch_up(live)
            followed = self._follow_orders(live)
            if live.index != index + 1 and not followed.acted:
                return None  # the log went on: whoever appended there told the turn
            return live.game.acting_player()

        turn_to = await self.read(live, run, catch_up=False)
        self._follow_later(live, followed)
        if turn_to is not None:
            self._tell_turn(live, turn_to)

    def _commit(
        self, live: LiveGame, player: str, entry: Entry, order: str | None = None
    ) -> str | None:
        """Store and apply one entry (worker thread, lock held), made by `player`'s seat
        or, `order` given, by that seat's standing order of that kind: ``server/commit.py``."""
        return commit_entry(self.storage, live, player, entry, order)

    def _bot_pause(self, game_id: str) -> tuple[int, float]:
        """The game's log index, and how long a bot waits before it moves: the undo grace
        when the one who may take back the last entry is a person (their action gave the
        turn to a bot, and they may want it back), else the bot delay."""
        live = self.games.get(game_id)
        if live is None:
            return (-1, self.config.bot_delay)
        undoer = live.undo_seat()
        person = undoer is not None and not live.is_bot(undoer)
        wait = (
            max(self.config.bot_delay, self.config.undo_grace) if person else self.config.bot_delay
        )
        return (live.index, wait)

    def _acting_bot(self, game_id: str) -> str | None:
        live = self.games.get(game_id)
        if live is None or live.broken or not self.playing(live):
            return None
        return live.acting_bot()

    def playing(self, live: LiveGame) -> bool:
        """Whether the game's bots may play now: it has a person's seat, or someone watches
        it (a websocket, or a request in the last `bot_idle` seconds)."""
        if not live.bots_only or live.subscribers:
            return True
        return time.monotonic() - live.seen < self.config.bot_idle

    def check_bot_room(self, address: str) -> None:
        """Raise TooMany unless one more game of bots only may be made by `address`: fewer
        than `bot_games_per_client` of its games, and `bot_games` in all, are playing."""
        playing = [
            live
            for live in self.games.values()
            if live.bots_only and not live.game.state.finished and self.playing(live)
        ]
        mine = sum(1 for live in playing if live.maker == address)
        wait = math.ceil(self.config.bot_idle)
        for count, limit, whose in (
            (mine, self.config.bot_games_per_client, "yours"),
            (len(playing), self.config.bot_games, "in all"),
        ):
            if count >= limit:
                raise TooMany(
                    f"too many games of bots only are playing ({count} {whose}, at most "
                    f"{limit}); one nobody watches pauses after {self.config.bot_idle:g} s: "
                    f"try again in {wait} s",
                    "limits",
                    retry_after=wait,
                )

    def _tell_turn(self, live: LiveGame, player: str | None) -> None:
        """Tell the game's webhook and the seat's own that it is `player`'s turn (in the
        background: the URLs are read from the database, where any process may have set
        the seat's)."""
        if player is None or live.is_bot(player):
            return
        base = self.config.public_url
        snapshot = live.snapshot
        offer = snapshot.get("offer") if snapshot.get("acting_player") == player else None
        body = turn_message(
            live.record.title,
            live.record.id,
            player,
            live.index,
            None if base is None else game_url(base, live.record.id),
            offer,
        )
        self._spawn(self._send_turn(live.record.id, player, body))

    async def _send_turn(self, game_id: str, player: str, body: dict[str, Any]) -> None:
        try:
            urls = await self.run(self.storage.turn_webhooks, game_id, player)
        except Exception as exc:  # the database failed: nobody is told, the game goes on
            log.warning("game %s: webhooks not read: %r", game_id, exc)
            return
        for url in urls:
            self.webhooks.send(url, body)
