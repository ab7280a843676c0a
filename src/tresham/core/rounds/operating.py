"""The operating round: each floated corporation, in operating order, takes one turn made of
steps the title chooses and orders (lay track, place a token, run trains, pay or withhold,
issue shares, buy trains...). A step with nothing to decide is skipped.

What a corporation's turn has done so far is a typed record, :class:`Turn`: core's own facts
(started, ended, the trains' revenue) and, in a title's subclass, what its steps remember
(1883's tile lays, 1854's refused permissions...). The round makes a fresh record of the
title's class for each corporation. The state hash sees the record as the dictionary the turn
was before it had a class: a fact appears once it differs from its field's default, so every
state hash is unchanged.
"""

from __future__ import annotations

from dataclasses import MISSING, Field, dataclass, fields
from typing import TYPE_CHECKING, Any

from tresham.core.actions import Action
from tresham.core.errors import RuleError
from tresham.core.rounds.base import Round

if TYPE_CHECKING:
    from tresham.core.game import Game


@dataclass
class Turn:
    """What one corporation's turn has done so far. A title whose steps remember more
    declares a subclass with one field per fact (``titles/<t>/state.py``); a field's default
    is its value before the turn has done anything about it."""

    #: The title's start-of-turn hook has run.
    started: bool = False
    #: The turn is over (its steps done, or ended at once: the corporation closed).
    ended: bool = False
    #: The trains' revenue, as the run set it and events, the Co-operative's looting or a
    #: bus run changed it; None before the trains run.
    revenue: int | None = None

    def to_dict(self) -> dict[str, Any]:
        """Canonical form for hashing: the facts that differ from their defaults, under
        their field names."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value != _default(f):
                out[f.name] = value
        return out


def _default(f: Field[Any]) -> Any:
    """A dataclass field's default value (a fresh one for a factory's)."""
    return f.default if f.default_factory is MISSING else f.default_factory()


class Step:
    """One reusable part of a corporation's turn. Steps keep no state of their own; what a
    turn has done so far lives in `OperatingRound.turn`."""

    name = "step"
    #: What the step does, as players say it ("buying trains"): in the log and in errors.
    label = "this step"
    rule = "operating round"
    #: A step that never offers a choice and only settles something (logged by itself).
    silent = False

    def actions(self, game: Game, rnd: OperatingRound, corp: str) -> list[Action]:
        """Legal actions in this step (empty: the step is skipped)."""
        raise NotImplementedError

    def available(self, game: Game, rnd: OperatingRound, corp: str) -> bool:
        """Whether the step offers anything now (a step that does not is skipped). Steps
        whose choices are costly to list answer this without listing them."""
        return bool(self.actions(game, rnd, corp))

    def validate(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> None:
        """Raise RuleError unless legal. Default: the action must be listed."""
        if action not in self.actions(game, rnd, corp):
            raise RuleError(f"{action.describe()} is not legal now ({self.label})", self.rule)

    def process(self, game: Game, rnd: OperatingRound, corp: str, action: Action) -> bool:
        """Apply a validated action; return True when the step is complete."""
        raise NotImplementedError

    def skip(self, game: Game, rnd: OperatingRound, corp: str) -> None:
        """What happens when the step is skipped for lack of choices (default: nothing)."""


class OperatingRound(Round):
    """State of an operating round."""

    kind = "operating"

    def __init__(self, game: Game, order: list[str], steps: list[str], rule: str) -> None:
        self.rule = rule
        self.order = order
        self.steps = steps
        self.index = 0
        self.step = 0
        #: What the operating corporation's turn has done (the title's `Turn` record).
        self.turn: Turn = game.title.turn_record()
        self.done: list[str] = []

    # ------------------------------------------------------------------ helpers
    def corp(self) -> str:
        """The operating corporation."""
        return self.order[self.index]

    def current_step(self, game: Game) -> Step:
        """The step object now being played."""
        return game.title.step_objects[self.steps[self.step]]

    def anytime(self, game: Game) -> list[Action]:
        """Actions the title allows at any point of the turn (e.g. buying a private)."""
        return game.title.anytime_actions(game, self, self.corp())

    def active(self, game: Game) -> str:
        return game.title.step_actor(game, self, self.corp())

    def actions(self, game: Game) -> list[Action]:
        if self.finished(game):
            return []
        return self.current_step(game).actions(game, self, self.corp()) + self.anytime(game)

    def validate(self, game: Game, action: Action) -> None:
        """An action of an anytime kind is the title's to judge (`Title.anytime_validate`),
        any other the current step's."""
        if action.type in game.title.anytime_types:
            game.title.anytime_validate(game, self, self.corp(), action)
            return
        self.current_step(game).validate(game, self, self.corp(), action)

    def process(self, game: Game, action: Action) -> None:
        corp = self.corp()
        if action.type in game.title.anytime_types:
            game.title.anytime_process(game, self, corp, action)
            return
        if self.current_step(game).process(game, self, corp, action):
            self.step += 1

    def settle(self, game: Game) -> None:
        """Skip steps with nothing to decide; end turns; skip closed corporations."""
        while not self.finished(game):
            corp = self.corp()
            c = game.state.corps[corp]
            if c.closed or not c.floated or self.turn.ended:
                self._next_corp(game)
                continue
            if self.step == 0 and not self.turn.started:
                self.turn.started = True
                game.title.start_turn(game, self, corp)
                if game.state.pending or game.state.finished:
                    return
                continue
            if self.step >= len(self.steps):
                game.title.end_turn(game, self, corp)
                self._next_corp(game)
                if game.state.finished or game.state.pending:
                    return
                continue
            step = self.current_step(game)
            if step.available(game, self, corp):
                return
            if not step.silent:
                game.log(f"{corp} skips {step.label}")
            step.skip(game, self, corp)
            self.step += 1
            if game.state.pending or game.state.finished:
                return

    def end_turn_now(self) -> None:
        """End the operating corporation's turn at once (e.g. it closed)."""
        self.turn.ended = True

    def _next_corp(self, game: Game) -> None:
        self.done.append(self.order[self.index])
        self.index += 1
        self.step = 0
        self.turn = game.title.turn_record()

    def finished(self, game: Game) -> bool:
        return self.index >= len(self.order)

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "turn": self.turn.to_dict()}
