"""Bad input during random play (`tresham fuzz`): malformed and illegal actions must raise a
typed error (:class:`~tresham.core.errors.RuleError`) and leave the game exactly as it was.

Random games are played with the random bot. Before each of its moves, actions are made up
from the position and submitted the way the server and saves submit them (JSON through
:func:`~tresham.core.actions.action_from_json`, then :meth:`Game.apply`):

- a legal action with another entity (the wrong actor);
- a legal action with one field changed: out of range, negative, huge, an unknown or a
  wrong-kind id, a wrong JSON type (type confusion), a missing or an extra field;
- an action of a random type with plausible fields (the wrong step), including tile lays,
  tokens and runs that look legal but are not;
- things that are not actions at all.

Each is classified: **rejected** (a RuleError, with the state hash checked unchanged:
otherwise **state_changed**), **accepted** (it happened to be legal: play goes on from it),
or a **crash** (any other exception).
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tresham.bots.random_bot import choose
from tresham.core.actions import ACTION_TYPES, action_from_json
from tresham.core.errors import RuleError
from tresham.core.game import Game
from tresham.io.save import new_game

HUGE = 10**18
#: Wrong-type values for type confusion (each is wrong for some field type).
ODD_VALUES: tuple[Any, ...] = (None, True, 1.5, [], {}, "", "7", [1, 2], {"a": 1}, -1, 0, HUGE)
#: How many made-up actions are submitted before each bot move.
PER_MOVE = 3


@dataclass
class FuzzResult:
    """Totals of a fuzz run."""

    title: str
    tried: int = 0
    rejected: int = 0
    accepted: int = 0
    state_changed: int = 0
    crashes: int = 0
    games: int = 0
    seconds: float = 0.0
    samples: list[str] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The JSON summary line."""
        return {
            "title": self.title,
            "tried": self.tried,
            "rejected": self.rejected,
            "accepted": self.accepted,
            "state_changed": self.state_changed,
            "crashes": self.crashes,
            "games": self.games,
            "seconds": round(self.seconds, 3),
        }

    @property
    def ok(self) -> bool:
        return self.state_changed == 0 and self.crashes == 0


class Mutator:
    """Makes up bad actions for one position of a game."""

    def __init__(self, game: Game, rng: random.Random) -> None:
        self.game = game
        self.rng = rng
        s = game.state
        self.entities = [p.name for p in s.players] + list(s.corps) + ["bank", "nobody"]
        self.ids: list[Any] = [
            *s.corps,
            *s.companies,
            *list(s.map.board.hexes)[:20],
            *list(s.map.supply)[:20],
            *list(s.depot.trains)[:10],
            "ZZZ",
            "Z99-0",
        ]

    def value(self) -> Any:
        """A value of any kind: an id, a number in or far out of range, a wrong type."""
        r = self.rng.random()
        if r < 0.3:
            return self.rng.choice(self.ids)
        if r < 0.6:
            return self.rng.choice([-HUGE, -5, -1, 0, 1, 3, 6, 7, 15, 55, 999, HUGE])
        return self.rng.choice(ODD_VALUES)

    def wrong_actor(self, legal: dict[str, Any]) -> dict[str, Any]:
        others = [e for e in self.entities if e != legal.get("entity")]
        return {**legal, "entity": self.rng.choice(others)}

    def changed_field(self, legal: dict[str, Any]) -> dict[str, Any]:
        keys = [k for k in legal if k not in ("type", "entity")]
        out = dict(legal)
        r = self.rng.random()
        if not keys or r < 0.1:
            out[f"x{self.rng.randrange(9)}"] = self.value()  # an extra field
        elif r < 0.2:
            del out[self.rng.choice(keys)]  # a missing field
        else:
            key = self.rng.choice(keys)
            if isinstance(out[key], list) and out[key] and self.rng.random() < 0.5:
                out[key] = [self._mangle(v) for v in out[key]]
            else:
                out[key] = self.value()
        return out

    def _mangle(self, value: Any) -> Any:
        if isinstance(value, dict):
            inner = dict(value)
            if inner:
                inner[self.rng.choice(list(inner))] = self.value()
            return inner
        return self.value()

    def random_type(self, entity: str) -> dict[str, Any]:
        """An action of a random type with plausible-looking fields."""
        kind = self.rng.choice(sorted(ACTION_TYPES))
        cls = ACTION_TYPES[kind]
        out: dict[str, Any] = {"type": kind, "entity": entity}
        for f in dataclasses.fields(cls):
            if f.name == "entity":
                continue
            out[f.name] = self._plausible(f.name)
        return out

    def _plausible(self, name: str) -> Any:
        s = self.game.state
        rng = self.rng
        if name == "hex":
            return rng.choice(list(s.map.board.hexes))
        if name == "tile":
            return rng.choice(list(s.map.supply))
        if name in ("rotation", "city"):
            return rng.randrange(-1, 8)
        if name in ("corporation", "target"):
            return rng.choice(list(s.corps))
        if name == "company":
            return rng.choice(list(s.companies) or ["ZZZ"])
        if name == "train":
            return rng.choice(list(s.depot.trains))
        if name == "runs":
            hexes = list(s.map.board.hexes)
            stops = [f"{rng.choice(hexes)}-{rng.randrange(2)}" for _ in range(rng.randrange(1, 4))]
            track = [f"{rng.choice(hexes)}-{rng.randrange(3)}" for _ in range(rng.randrange(5))]
            train = rng.choice(list(s.depot.trains))
            return [{"train": train, "stops": stops, "track": track}]
        return self.value()

    def candidates(self, legal: list[dict[str, Any]], active: str) -> list[Any]:
        """PER_MOVE made-up submissions for this position."""
        out: list[Any] = []
        for _ in range(PER_MOVE):
            r = self.rng.random()
            if legal and r < 0.3:
                out.append(self.wrong_actor(self.rng.choice(legal)))
            elif legal and r < 0.7:
                out.append(self.changed_field(self.rng.choice(legal)))
            elif r < 0.95:
                out.append(self.random_type(active))
            else:
                out.append(
                    self.rng.choice([None, [], "pass", 7, {"type": "nope", "entity": active}])
                )
        return out


def submit(game: Game, data: Any, result: FuzzResult) -> None:
    """Submit one made-up action and classify what happens."""
    result.tried += 1
    before = game.state_hash()
    try:
        action = action_from_json(data)
        game.apply(action)
    except RuleError:
        result.rejected += 1
        if game.state_hash() != before:
            result.state_changed += 1
            _sample(result, f"state changed after rejecting {data!r}")
        return
    except Exception as exc:  # a crash: record it, the run goes on
        result.crashes += 1
        _sample(result, f"{type(exc).__name__}: {exc} on {data!r}")
        return
    result.accepted += 1


def _sample(result: FuzzResult, text: str) -> None:
    if len(result.samples) < 20:
        result.samples.append(text)


def fuzz(
    title: str,
    actions: int,
    seed: int,
    players: int,
    progress: Callable[[int], None] | None = None,
) -> FuzzResult:
    """Submit about `actions` made-up actions during random games of `title`."""
    result = FuzzResult(title)
    rng = random.Random(seed)
    start = time.perf_counter()
    names = [f"P{i + 1}" for i in range(players)]
    game_seed = seed
    while result.tried < actions:
        game = new_game(title, names, game_seed)
        result.games += 1
        game_seed += 1
        while not game.state.finished and result.tried < actions:
            before = game.state_hash()
            legal = [a.to_json() for a in game.legal_actions()]
            if game.state_hash() != before:  # asking what is legal must change nothing
                result.state_changed += 1
                _sample(result, f"listing the legal actions changed the state ({title})")
            active = game.active_entity() or ""
            for data in Mutator(game, rng).candidates(legal, active):
                submit(game, data, result)
                if progress:
                    progress(result.tried)
            if game.state.finished:
                break
            move = choose(game, rng)
            try:
                game.apply(move)
            except Exception as exc:  # a legal action that fails is a crash too
                result.crashes += 1
                _sample(result, f"legal {move.describe()} failed: {type(exc).__name__}: {exc}")
                break
    result.seconds = time.perf_counter() - start
    return result
