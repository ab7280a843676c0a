"""Prompts: decisions the rules put to one entity before anything else goes on (a pending
``(kind, entity)`` in ``GameState.pending``), as registered objects. A prompt has a kind, its
legal answers, their validation (membership in them, unless it says otherwise), their
processing, their answers' words and the rule it applies, exactly as a round's step does; a
title lists the prompts it uses (``Title.prompts``), each mechanism module exporting its own,
and the dispatch in ``core/title.py`` (and in ``tresham.words`` for the words) finds a pending
prompt's object by its kind.

Two prompts belong to every title and are written once here:

- :data:`DISCARD`, the train limit: a corporation over its phase's limit gives trains back to
  the pool, one answer at a time, until it is within it. The titles' differences are hooks:
  which trains count (``Title.counts_toward_limit``: 1883's 2GT do not, §6.9.5) and how the
  log says it (``Title.discard_log``).
- :data:`deals.OFFER`, a deal waiting for the seller's answer (``core/deals.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from tresham.core import deals
from tresham.core.actions import Action, DiscardTrain
from tresham.core.errors import RuleError
from tresham.core.shares import POOL

if TYPE_CHECKING:
    from tresham.core.game import Game

#: The prompt kind of a corporation over its train limit.
DISCARD = "discard"


class Prompt:
    """One kind of prompt (see the module's docstring)."""

    kind: ClassVar[str] = ""
    #: The rule a refused answer names.
    rule: ClassVar[str] = ""
    #: The limits an entity may be beyond while this prompt waits for it, the prompt being
    #: how it comes back within them: "trains" (over its train limit), "cash" (below zero).
    allows: ClassVar[frozenset[str]] = frozenset()

    def asked(self, game: Game) -> list[str]:
        """The entities this prompt waits for, the first to answer first."""
        return [entity for kind, entity in game.state.pending if kind == self.kind]

    def actions(self, game: Game, entity: str) -> list[Action]:
        """The legal answers of `entity`."""
        raise NotImplementedError

    def validate(self, game: Game, entity: str, action: Action) -> None:
        """Raise RuleError unless `action` is a legal answer (default: one listed)."""
        if action not in self.actions(game, entity):
            raise RuleError(
                f"{action.describe()} does not answer the {self.kind} prompt", self.rule
            )

    def process(self, game: Game, entity: str, action: Action) -> None:
        """Apply a validated answer (the prompt is popped before this is called)."""
        raise NotImplementedError

    def question(self, game: Game, entity: str) -> str:
        """Why `entity` is asked, in a player's words, shown above its answers ("": the
        answers say it all)."""
        return ""

    def why(self, game: Game, entity: str) -> str:
        """What `entity` is asked, and why, as every table says it to those who watch
        (`entity` named, not "you"; "": the table just waits)."""
        return ""

    def words(self, game: Game, entity: str, action: Action, words: Any) -> str | None:
        """A listed answer in a player's words (`words`: the game's ``tresham.words.Words``,
        for its names of places, trains and money); None: the common wording serves."""
        return None


class Discard(Prompt):
    """Over the train limit: give a train that counts toward it back to the pool; asked
    again while still over it."""

    kind = DISCARD
    rule = DISCARD
    allows = frozenset({"trains"})

    def actions(self, game: Game, entity: str) -> list[Action]:
        trains = game.state.corps[entity].trains
        title = game.title
        return [DiscardTrain(entity, t) for t in trains if title.counts_toward_limit(game, t)]

    def process(self, game: Game, entity: str, action: Action) -> None:
        assert isinstance(action, DiscardTrain)
        s = game.state
        s.corps[entity].trains.remove(action.train)
        s.depot.trains[action.train].owner = POOL
        train = s.depot.name(action.train)
        game.log(game.title.discard_log.format(corp=entity, train=train))
        if over_limit(game, entity):
            s.pending.insert(0, (DISCARD, entity))

    def why(self, game: Game, entity: str) -> str:
        """How far over its limit the corporation is, and what it must do."""
        held = game.title.trains_toward_limit(game, entity)
        limit = game.phase.limit(game.state.corps[entity].kind)
        return (
            f"{entity} holds {held} trains, over its limit of {limit} in phase "
            f"{game.phase.name}: it gives one back to the pool"
        )


def over_limit(game: Game, corp: str) -> bool:
    """Whether `corp` holds more trains that count toward its limit than its phase allows."""
    kind = game.state.corps[corp].kind
    return game.title.trains_toward_limit(game, corp) > game.phase.limit(kind)


def queue_discards(game: Game, corps: Iterable[str]) -> None:
    """Prompt each of `corps` that is over its train limit (in that order) to discard,
    once: after a phase change, a merger, a purchase that lowers the limit."""
    pending = game.state.pending
    for sym in corps:
        if over_limit(game, sym) and (DISCARD, sym) not in pending:
            pending.append((DISCARD, sym))


class Answer(Prompt):
    """A deal waiting for the seller's answer: accept or decline (``core/deals.py``). An
    accepted deal is carried out by the round, as the buyer's action it was."""

    kind = deals.OFFER
    rule = "negotiated deal"

    def actions(self, game: Game, entity: str) -> list[Action]:
        return deals.answers(game, entity)

    def validate(self, game: Game, entity: str, action: Action) -> None:
        if action not in self.actions(game, entity):
            raise RuleError(f"{entity} must accept or decline the offer first", self.rule)

    def process(self, game: Game, entity: str, action: Action) -> None:
        deal = deals.answer(game, action)
        if deal is not None:
            assert game.state.round is not None
            game.state.round.process(game, deal)


#: The prompts of every title, by kind.
COMMON: dict[str, Prompt] = {p.kind: p for p in (Discard(), Answer())}
