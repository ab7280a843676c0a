"""The game: state, the action log, legal actions, atomic apply, undo/redo, clone, hash.

A game is a pure function of (title, options, seed, players, action log). `apply` validates an
action fully before changing anything; an illegal action raises a `RuleError` and leaves the
state exactly as it was. Should an unexpected failure happen half-way through a change, the
game rebuilds itself from its last checkpoint, so a half-applied action never survives.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Protocol

from tresham.core.actions import Action
from tresham.core.bank import Bank
from tresham.core.deals import Offer
from tresham.core.end import EndReason
from tresham.core.entities import Company, Corporation, Player
from tresham.core.errors import NotYourTurnError, RuleError
from tresham.core.game_spec import SetupError, check_game
from tresham.core.market import MarketState
from tresham.core.rng import GameRandom, make_rng
from tresham.core.shares import POOL, ShareRegistry
from tresham.core.track import MapState
from tresham.core.trains import Depot, Phase

if TYPE_CHECKING:
    from tresham.core.rounds.base import Round
    from tresham.core.title import Title

CHECKPOINT_EVERY = 25
#: Checkpoints older than the last `RECENT_CHECKPOINTS` actions are kept only every
#: `SPARSE_CHECKPOINT_EVERY` actions (a long game keeps few copies of its state; undoing far
#: back replays a few hundred actions).
RECENT_CHECKPOINTS = 100
SPARSE_CHECKPOINT_EVERY = 500


class TitleState(Protocol):
    """A title's own facts, as a typed record of the title's (``GameState.title_state``)."""

    def to_dict(self) -> dict[str, Any]:
        """The canonical form, hashed as keys of ``GameState.extra``."""
        ...


@dataclass
class GameState:
    """Everything that changes during a game. Deep-copying it clones the game."""

    players: list[Player]
    bank: Bank
    corps: dict[str, Corporation]
    companies: dict[str, Company]
    shares: ShareRegistry
    market: MarketState
    depot: Depot
    map: MapState
    rng: GameRandom
    phase_index: int = 0
    phases_reached: list[str] = field(default_factory=list)
    priority: int = 0
    round: Round | None = None
    stock_round_no: int = 0
    operating_round_no: int = 0
    or_in_set: int = 0
    ors_in_set: int = 1
    pending: list[tuple[str, str]] = field(default_factory=list)
    #: A deal waiting for the seller's answer (``core/deals.py``).
    offer: Offer | None = None
    finished: bool = False
    end_reason: EndReason | None = None
    end_trigger: str | None = None
    events: list[str] = field(default_factory=list)
    #: Which lines of `events` say that a round began (``Game.log_round``), by index: a
    #: reader of the log shows them as the rounds' headings. Not hashed, as `events` is not.
    round_lines: list[int] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    #: What the title adds to the state, as its own typed record (``Title.setup`` sets it;
    #: None for a title that keeps its facts in ``extra``). The hash reads its ``to_dict()``
    #: as keys of ``extra``, so moving a fact from ``extra`` into it changes no state hash.
    title_state: TitleState | None = None

    def canonical_extra(self) -> dict[str, Any]:
        """``extra`` with the title state's facts among its keys (for hashing)."""
        if self.title_state is None:
            return self.extra
        own = self.title_state.to_dict()
        assert own.keys().isdisjoint(self.extra), "a title fact is also in extra"
        return {**self.extra, **own}

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        """A deep copy; the event log's lines are immutable strings, so only its list is
        copied (the log grows with the game, and checkpoints copy the state often)."""
        new = copy.copy(self)
        memo[id(self)] = new
        for f in fields(self):
            value = getattr(self, f.name)
            copied = list(value) if f.name == "events" else copy.deepcopy(value, memo)
            setattr(new, f.name, copied)
        return new


#: Why an action that revealed hidden information is not undone (by the server's take-backs
#: and the terminal's; `Game.undo` itself undoes anything, so old logs replay).
REVEALED = (
    "the last action revealed what no player could know (a card drawn, a die cast, a tie "
    "broken by lot): it cannot be undone"
)


class Game:
    """One game of a title. `legal_actions()` and `apply()` are the whole protocol."""

    def __init__(
        self,
        title: Title,
        players: list[str],
        seed: int = 0,
        options: dict[str, Any] | None = None,
        rules_version: int | None = None,
    ) -> None:
        players, seed, options = check_game(title, players, seed, options)
        if rules_version is None:
            rules_version = title.rules_version
        if rules_version != title.rules_version and rules_version not in title.older_rules:
            raise RuleError(
                f"{title.name} rules version {rules_version} is not played here (this tresham "
                f"plays version {title.rules_version})",
                "setup",
            )
        self.title = title.for_rules(rules_version)
        #: The title's rules version this game is played under (`Title.older_rules`).
        self.rules_version = rules_version
        self.player_names = list(players)
        self.seed = seed
        self.options: dict[str, Any] = options
        self.actions: list[Action] = []
        self.undone: list[Action] = []
        #: The numbers (1: the first action) of the actions in force that revealed hidden
        #: information: drew from the generator, or changed what the title keeps unknown.
        self.revealing: set[int] = set()
        #: How many event lines the last action applied wrote itself; the lines after them
        #: are what followed it (the next step, round or turn begun).
        self.own_lines = 0
        self.state = self.title.setup(self)
        taken = {"bank", POOL} | set(self.state.corps)
        for i, name in enumerate(players):
            if name in taken:
                raise SetupError(
                    f"the player name {name} already names a corporation or the bank here",
                    f"players[{i}]",
                )
        self._checkpoints: dict[int, GameState] = {0: copy.deepcopy(self.state)}
        #: While `apply_all` runs: the number of actions the log will have at its end.
        self._replay_end: int | None = None
        #: A bot's search copy (`search_copy`): no checkpoints, no undo.
        self._search = False
        self._advance()
        self._checkpoints[0] = copy.deepcopy(self.state)

    # ----------------------------------------------------------------- accessors
    def new_rng(self) -> GameRandom:
        """The game's seeded generator, of the kind the options name (``rng``; default
        ``"tresham"``). Titles call this once, in setup."""
        return make_rng(str(self.options.get("rng", "tresham")), self.seed)

    @property
    def phase(self) -> Phase:
        """The current phase."""
        return self.title.phases[self.state.phase_index]

    def player(self, name: str) -> Player:
        """The player called `name`."""
        for p in self.state.players:
            if p.name == name:
                return p
        raise RuleError(f"no player named {name!r}", "setup")

    def corp(self, sym: str) -> Corporation:
        """The corporation with symbol `sym`."""
        try:
            return self.state.corps[sym]
        except KeyError:
            raise RuleError(f"no corporation {sym!r}", "setup") from None

    def transfer(self, payer: str, payee: str, amount: int) -> None:
        """Move `amount` from `payer` to `payee` (names: player, corporation, "bank")."""
        if amount == 0:
            return
        for name, delta in ((payer, -amount), (payee, amount)):
            if name == "bank":
                if delta < 0:
                    self.state.bank.pay_out(-delta)
                else:
                    self.state.bank.take_in(delta)
            elif name in self.state.corps:
                self.state.corps[name].cash += delta
            else:
                self.player(name).cash += delta

    def log(self, text: str) -> None:
        """Record a line of the game's event log."""
        self.state.events.append(text)

    def log_round(self, text: str) -> None:
        """Record the line that says a round began (its heading, e.g. "Stock round 2"),
        marked as one in ``GameState.round_lines``."""
        self.state.round_lines.append(len(self.state.events))
        self.state.events.append(text)

    # ----------------------------------------------------------------- protocol
    def active_entity(self) -> str | None:
        """The player or corporation to act next (None when the game is over)."""
        if self.state.finished:
            return None
        return self.title.active_entity(self)

    def acting_player(self) -> str | None:
        """The player who decides the next action (a corporation's president)."""
        entity = self.active_entity()
        if entity is None:
            return None
        return self.title.controller(self, entity)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the entity to act (parameterised actions: representatives
        at the ends of their legal ranges; see each step)."""
        if self.state.finished:
            return []
        return self.title.legal_actions(self)

    def check(self, action: Action) -> None:
        """Raise `RuleError` (naming the rule) unless `action` is legal now; changes nothing
        (e.g. whether a set of runs a player is composing may be run)."""
        if self.state.finished:
            raise RuleError("the game is over", "game end")
        active = self.active_entity()
        if action.entity != active and not self.title.may_act_out_of_turn(self, action):
            raise NotYourTurnError(f"it is {active}'s turn, not {action.entity}'s", "turn order")
        self.title.validate(self, action)

    def apply(self, action: Action) -> None:
        """Validate `action` fully and apply it atomically; raises `RuleError` if illegal."""
        self.check(action)
        if self._search:
            self.title.process(self, action)
            self._advance()
            self.actions.append(action)
            return
        hidden = self._hidden()
        written = len(self.state.events)
        try:
            self.title.process(self, action)
            written = len(self.state.events) - written
            self._advance()
        except BaseException:
            self.state = self._rebuild(len(self.actions))
            raise
        self.own_lines = written
        self.actions.append(action)
        self.undone.clear()
        done = len(self.actions)
        if self._hidden() != hidden:
            self.revealing.add(done)
        if done % CHECKPOINT_EVERY == 0:
            end = self._replay_end
            if end is None or self._kept(done, end):
                self._checkpoints[done] = copy.deepcopy(self.state)
            old = done - RECENT_CHECKPOINTS - CHECKPOINT_EVERY
            if old > 0 and not self._kept(old, done):
                self._checkpoints.pop(old, None)

    def apply_all(self, actions: Iterable[Action]) -> None:
        """Apply `actions` in order, each as :meth:`apply` does (validated and atomic; the
        first illegal one raises, the ones before it stay applied). A checkpoint that would
        be dropped before the end of the list is never made, so a long log (a save being
        loaded) is replayed with only the checkpoints the game keeps."""
        todo = list(actions)
        self._replay_end = len(self.actions) + len(todo)
        try:
            for action in todo:
                self.apply(action)
        finally:
            self._replay_end = None

    def _hidden(self) -> tuple[int, object]:
        """What an action that reveals hidden information changes: the generator's draws,
        and what the title keeps unknown."""
        return (self.state.rng.draws, self.title.unknown(self))

    def revealed(self) -> bool:
        """Whether the last action in force revealed hidden information (a card drawn, a die
        cast: its player has seen what no one could know, so taking it back would let them
        choose again knowing it)."""
        return len(self.actions) in self.revealing

    def keeps_secrets(self) -> bool:
        """Whether the seed would give away what the rules keep unknown (`Title.unknown`):
        while the game runs it is not shown to anyone."""
        return not self.state.finished and self.title.unknown(self) is not None

    @staticmethod
    def _kept(at: int, count: int) -> bool:
        """Whether the checkpoint after `at` actions is kept once the log has `count`
        (the policy of `RECENT_CHECKPOINTS` and `SPARSE_CHECKPOINT_EVERY`)."""
        recent_after = count - RECENT_CHECKPOINTS - CHECKPOINT_EVERY
        return at % SPARSE_CHECKPOINT_EVERY == 0 or at > recent_after

    def _advance(self) -> None:
        """Let the rounds move on until someone must act or the game ends."""
        self.title.advance(self)

    # ----------------------------------------------------------------- undo / replay
    def _rebuild(self, count: int) -> GameState:
        """The state after the first `count` actions, from the nearest checkpoint; the recent
        checkpoints on the way are made again (so that undoing on stays cheap)."""
        base = max(k for k in self._checkpoints if k <= count)
        saved_actions = self.actions
        self.state = copy.deepcopy(self._checkpoints[base])
        for done, action in enumerate(saved_actions[base:count], start=base + 1):
            self.title.process(self, action)
            self._advance()
            if done % CHECKPOINT_EVERY == 0 and done >= count - RECENT_CHECKPOINTS:
                self._checkpoints.setdefault(done, copy.deepcopy(self.state))
        return self.state

    def undo(self) -> Action:
        """Take back the last action; it can be redone until another action is applied."""
        if self._search:
            raise RuleError("a search copy keeps no undo", "undo")
        if not self.actions:
            raise RuleError("nothing to undo", "undo")
        last = self.actions[-1]
        self.state = self._rebuild(len(self.actions) - 1)
        self.revealing.discard(len(self.actions))
        self.actions.pop()
        for k in [k for k in self._checkpoints if k > len(self.actions)]:
            del self._checkpoints[k]
        self.undone.append(last)
        return last

    def redo(self) -> Action:
        """Re-apply the last undone action."""
        if not self.undone:
            raise RuleError("nothing to redo", "redo")
        action = self.undone.pop()
        keep = list(self.undone)
        self.apply(action)
        self.undone = keep
        return action

    def clone(self) -> Game:
        """An independent copy of this game: its own state, log and undo history. The title
        (immutable), the frozen action records and the checkpoints' saved states (never
        changed once made: a rebuild copies them) are shared."""
        new = copy.copy(self)
        new.player_names = list(self.player_names)
        new.options = dict(self.options)
        new.actions = list(self.actions)
        new.undone = list(self.undone)
        new.revealing = set(self.revealing)
        new.state = copy.deepcopy(self.state)
        new._checkpoints = dict(self._checkpoints)
        return new

    def search_copy(self, reseed: int | None = None) -> Game:
        """A cheap copy for a bot to explore: the state is copied (with the map's cached
        answers, which a copy shares until its map changes), the title and the action records
        are shared, and there is no undo: no checkpoints are made, and a failure inside
        :meth:`apply` leaves the copy to be thrown away. With `reseed`, what the players
        cannot know is drawn anew: the generator is reseeded and the title re-randomises
        its hidden order (:meth:`Title.hide_unknown`, e.g. 1883's undrawn event cards), so a
        search never reads the real future."""
        new = copy.copy(self)
        new.actions = list(self.actions)
        new.undone = []
        new.revealing = set()
        new.state = copy.deepcopy(self.state, {id(self.state.map): self.state.map.copy(True)})
        new._checkpoints = {}
        new._search = True
        if reseed is not None:
            new.state.rng = make_rng(new.state.rng.name, reseed)
            self.title.hide_unknown(new, random.Random(reseed))
        return new

    def apply_known(self, action: Action) -> None:
        """Apply an action the caller knows to be legal now (one of `legal_actions()`),
        without checking it again: for a bot's search, on a :meth:`search_copy`."""
        if not self._search:
            raise RuleError("apply_known is for search copies; use apply", "search")
        self.title.process(self, action)
        self._advance()
        self.actions.append(action)

    # ----------------------------------------------------------------- inspection
    def to_dict(self) -> dict[str, Any]:
        """A canonical dictionary of the whole state (for hashing and comparison)."""
        s = self.state
        return {
            "players": [vars(p) for p in s.players],
            "bank": vars(s.bank),
            "corps": {k: vars(v) for k, v in sorted(s.corps.items())},
            "companies": {k: vars(v) for k, v in sorted(s.companies.items())},
            "shares": s.shares.to_dict(),
            "market": s.market.to_dict(),
            "trains": {k: vars(v) for k, v in sorted(s.depot.trains.items())},
            "map": s.map.to_dict(),
            "phase": s.phase_index,
            "priority": s.priority,
            "round": s.round.to_dict() if s.round is not None else None,
            "numbers": [s.stock_round_no, s.operating_round_no, s.or_in_set, s.ors_in_set],
            "pending": s.pending,
            "offer": s.offer.to_dict() if s.offer is not None else None,
            "finished": [s.finished, s.end_reason, s.end_trigger],
            "extra": s.canonical_extra(),
            "rng": s.rng.fingerprint(),
        }

    def state_hash(self) -> str:
        """A hash of the canonical state: equal states have equal hashes."""
        blob = json.dumps(self.to_dict(), sort_keys=True, default=_json_default)
        return hashlib.sha256(blob.encode()).hexdigest()


def _json_default(value: object) -> object:
    if isinstance(value, set | frozenset):
        return sorted(value, key=str)
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if hasattr(value, "__dict__"):
        return vars(value)
    return str(value)
