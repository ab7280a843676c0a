"""`hard`: a search player for every title, built on `medium`.

At a real decision (more than one sensible option: `medium`'s own choice and its next best
candidates of a bid, a start, a purchase or sale of shares or a pass, outside operating
rounds, see :data:`SEARCHED`; a corporation's actions, a prompt's answer or a single legal
action are `medium`'s to play), `hard`
plays each candidate forward on search copies (:meth:`Game.search_copy`), every seat played
by a fast rule-of-thumb player (:data:`PLAYOUT`: `easy`'s rules without its noise), and
values the position each reaches by the player's standing (``bots/evaluate.py``: its expected
worth less the best opponent's, `evaluate.standing`; `SearchBot.value` may be another, such
as the fitted weights' `evaluate.fitted_standing`, which predict the winner better but have
not yet made `hard` win more: ``benchmarks/hard.py --value fitted``).

The budget is spent by successive halving: in each of :data:`STAGES` stages the candidates
left share an equal part of the budget left, each playing on from where it stopped (but
never past the end of the next set of operating rounds after this round, :data:`HORIZON`),
and the better half go on to the next stage (at least two, to the last; `medium`'s choice
always goes on). Candidates are compared where their playouts are alike: at the deepest
round boundary (a stock or operating round begun, or the game's end) every sample of the
stage reached (``_compare``), never where each was cut off, which may fall just after one
candidate's corporations ran and just before its rival's did. The best of the
last stage is played if it plays out better than `medium`'s choice by :data:`MARGIN` of the
player's worth (else `medium`'s choice), so the search changes `medium`'s choice only for
one that plays out clearly better. What players cannot know is drawn anew in every sample
(``search_copy(reseed=...)``: 1883's undrawn event cards and its dice), so the search never
reads the real future. With a budget of :data:`SAMPLED_WORK` or more, each candidate is
played in two samples (their seeds shared by all candidates: common random numbers) while
they differ; where the first stage's two samples of every candidate come out alike, the
title has left nothing to chance and the second samples are dropped.

The budget is counted in work units, never in wall time: one unit per action played on a
search copy, :data:`LAY_UNITS` more where a tile may be laid (listing the lays is most of a
playout's time). A decision depends only on the position, the bot's random numbers and the
budget. A budget in time (``hard:250ms``) is converted at the title's rate,
`Title.search_units_per_second` (a unit of 1883 or 1854 costs about twice one of 1849;
``benchmarks/hard.py --calibrate`` measures them and prints the decision times).
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tresham.bots import evaluate
from tresham.bots.heuristic import MEDIUM, SURE, HeuristicBot, Scored
from tresham.core import deals
from tresham.core.actions import (
    Action,
    Bid,
    BuyShares,
    BuyTrain,
    Dividend,
    IssueShares,
    LayTile,
    Par,
    Pass,
    SellShares,
)
from tresham.core.game import Game
from tresham.core.game_spec import SetupError
from tresham.core.rounds.operating import OperatingRound
from tresham.core.rounds.stock import StockRound
from tresham.core.title import Title

#: The kinds of action whose candidates `hard` plays forward, outside operating rounds (a
#: corporation's trains, dividends and issues follow `medium`'s rules, which plan for trains
#: beyond any horizon a playout reaches).
SEARCHED = (Bid, Par, BuyShares, SellShares, Pass)
#: The kinds of a corporation's money decision a bot with ``operating=True`` also plays
#: forward in operating rounds: a dividend, a train, an issue of shares, or none of them.
SEARCHED_OPERATING = (Dividend, BuyTrain, IssueShares, Pass)
#: Candidates the rules score below this (a pass scores 0) are not played out: a sale of a
#: corporation that earns, a purchase that spends its reserve for trains.
FLOOR = 0.0
#: How much better (a share of the player's worth) another candidate must play out than
#: `medium`'s choice to be played instead.
MARGIN = 0.02
#: How many candidates a decision compares (`medium`'s choice and its best others).
WIDTH = 4
#: The stages of successive halving.
STAGES = 3
#: Playouts stop at the start of this many-th stock round after the decision's.
HORIZON = 2
#: The budget (units) from which every candidate is played in two samples.
SAMPLED_WORK = 300
#: Work units per second of budget where no title is named (each title has its own rate,
#: `Title.search_units_per_second`, so that a searched decision's processor time stays near
#: its budget: a unit of 1883 or 1854 costs about twice one of 1849).
UNITS_PER_SECOND = 800
#: The budget of `hard` named without one, in milliseconds.
DEFAULT_MS = 1000
#: The extra work units of a playout action where a tile may be laid (listing the lays is
#: most of a playout's time); any other action is one unit.
LAY_UNITS = 8

#: The playout policy for every seat: `easy`'s rules of thumb, without noise.
PLAYOUT = HeuristicBot("playout", noise=0.0, lookahead=False, build_width=1, optimize=False)


#: A place in a game where rounds meet: its stock and operating round counters.
Pair = tuple[int, int]
#: Beyond every boundary: where a finished game's end standing holds.
BEYOND: Pair = (2**62, 2**62)


@dataclass
class _Sample:
    """A search copy of one candidate, played on stage by stage, and the player's standing at
    each round boundary it reached (:attr:`marks`: where a round counter moved on, or the
    game ended) and where its last stage stopped (:attr:`end`; -inf: the playout failed)."""

    game: Game
    marks: list[tuple[Pair, float]] = field(default_factory=list)
    end: float = -math.inf

    def deepest(self) -> Pair:
        """The last boundary it reached (:data:`BEYOND`: the game is over, and its end
        standing holds at any boundary beyond)."""
        return BEYOND if self.game.state.finished else self.marks[-1][0]

    def at(self, target: Pair) -> float:
        """The standing at the last boundary it reached at or before `target` (where it
        stopped, if none)."""
        return next((v for pair, v in reversed(self.marks) if pair <= target), self.end)


@dataclass
class _Arm:
    """A candidate and its samples: search copies played on stage by stage."""

    action: Action
    rank: int
    samples: list[_Sample] = field(default_factory=list)
    #: Its samples' comparable standings after the last stage it was played in.
    values: list[float] = field(default_factory=list)
    #: The last stage it was played in (-1: not yet).
    stage: int = -1

    def value(self) -> float:
        return sum(self.values) / len(self.values) if self.values else -math.inf


def _pair(game: Game) -> Pair:
    return (game.state.stock_round_no, game.state.operating_round_no)


def _compare(arms: list[_Arm]) -> None:
    """Give each arm's samples values that compare alike: the standing at the deepest round
    boundary every sample reached (a finished game's end standing for any boundary beyond),
    so no candidate looks better for being cut off just after its corporations ran and
    before its rivals' did; where some sample reached no boundary, where each stopped."""
    played = [x for a in arms for x in a.samples if x.end > -math.inf]
    if played and all(x.marks for x in played):
        deepest = min(x.deepest() for x in played)
        for arm in arms:
            arm.values = [x.at(deepest) if x.end > -math.inf else x.end for x in arm.samples]
        return
    for arm in arms:
        arm.values = [x.end for x in arm.samples]


@dataclass(frozen=True)
class Candidate:
    """One of a decision's candidates: `rank` is its place in `medium`'s order (0: its own
    choice), `score` the rules' score, `value` what it played out to (the player's standing
    at the end of its samples: :attr:`SearchBot.value`; None: not played out), and `stage` the
    last stage of the search it reached (-1: not played out)."""

    action: Action
    rank: int
    score: float
    value: float | None = None
    stage: int = -1


@dataclass(frozen=True)
class Ranking:
    """What `hard` makes of a decision: its `choice` (what :meth:`SearchBot.choose` plays),
    and the candidates best first (those the search kept longest, by value, then the
    rules' order). `searched`: whether the candidates were played out."""

    choice: Action
    candidates: tuple[Candidate, ...]
    searched: bool


@dataclass
class SearchBot:
    """`medium`'s candidates played forward within a budget of `work` units."""

    name: str
    work: int
    base: HeuristicBot = field(default_factory=lambda: MEDIUM)
    width: int = WIDTH
    #: How a position is valued for the player: their standing (module docstring).
    value: Callable[[Game, str], float] = evaluate.standing
    #: Whether a corporation's money decisions (:data:`SEARCHED_OPERATING`) are searched too.
    operating: bool = False
    #: The budget as a time in milliseconds (a level such as ``hard:250ms``), converted at
    #: each decision at the title's rate (:func:`work_units`) in place of `work`; None: the
    #: budget is `work`.
    ms: float | None = None

    def units(self, game: Game) -> int:
        """The work units of a decision in `game`: :attr:`work`, or :attr:`ms` at the
        title's rate."""
        return self.work if self.ms is None else work_units(self.ms, game.title)

    def choose(self, game: Game, rng: random.Random) -> Action:
        """The bot's action for the entity to act."""
        return self.rank(game, rng).choice

    def rank(self, game: Game, rng: random.Random) -> Ranking:
        """The bot's action and the candidates it weighed, with their values (a decision
        the search leaves to `medium`: its choice and its next best by the rules' scores,
        not played out)."""
        pick, scored = self.base.decide(game, rng)
        cands = self.candidates(game, pick, scored)
        if len(cands) < 2:
            rest = [a for _, _, a in scored if a != pick][: self.width - 1]
            listed = (Candidate(a, i, _score_of(scored, a)) for i, a in enumerate([pick, *rest]))
            return Ranking(pick, tuple(listed), False)
        choice, arms = self._halve(game, cands, rng.getrandbits(32))
        ranked = tuple(
            Candidate(
                a.action,
                a.rank,
                _score_of(scored, a.action),
                None if a.stage < 0 else a.value(),
                a.stage,
            )
            for a in arms
        )
        return Ranking(choice, ranked, any(c.stage >= 0 for c in ranked))

    def candidates(self, game: Game, pick: Action, scored: list[Scored]) -> list[Action]:
        """`pick` first, then the best-scored others the rules score at :data:`FLOOR` or
        more, of the kinds searched (none where the rules' best is sure, at `SURE` or more: a
        plan beyond the horizon, such as starting a corporation at the par that pays for its
        trains) (none when `pick` is not of them); in an operating round none, unless the bot
        searches a corporation's money decisions (`operating`) and this is one; never a deal
        that waits for another player's answer."""
        kinds: tuple[type[Action], ...] = SEARCHED
        if isinstance(game.state.round, OperatingRound):
            if not self.operating or not any(
                isinstance(a, SEARCHED_OPERATING[:-1]) for _, _, a in scored
            ):
                return []
            kinds = SEARCHED_OPERATING
        if not isinstance(pick, kinds) or (scored and scored[0][0] >= SURE):
            return []
        out: list[Action] = [pick]
        for score, _, action in scored:
            if len(out) >= self.width:
                break
            if (
                score >= FLOOR
                and action != pick
                and isinstance(action, kinds)
                and deals.offer_for(game, action) is None
            ):
                out.append(action)
        return out

    def search(self, game: Game, cands: list[Action], seed: int) -> Action:
        """Successive halving of `cands` (module docstring); `seed` seeds the samples."""
        return self._halve(game, cands, seed)[0]

    def _halve(self, game: Game, cands: list[Action], seed: int) -> tuple[Action, list[_Arm]]:
        """The action successive halving of `cands` chooses, and every candidate that could
        be played, best first (those kept longest first, each stage's by value)."""
        me = game.acting_player() or ""
        root = _RoundMark.of(game)
        work = self.units(game)
        samples = 2 if work >= SAMPLED_WORK else 1
        arms: list[_Arm] = []
        for rank, action in enumerate(cands):
            arm = _Arm(action, rank)
            for j in range(samples):
                copy = game.search_copy(reseed=seed + j)
                try:
                    copy.apply_known(action)
                except Exception:
                    break  # a candidate that fails on a copy is not one
                sample = _Sample(copy)
                if copy.state.finished or _pair(copy) != (root.stock, root.operating):
                    sample.marks.append((_pair(copy), self.value(copy, me)))
                arm.samples.append(sample)
            else:
                arms.append(arm)
        if not arms or arms[0].rank != 0:
            return cands[0], arms
        margin = MARGIN * abs(evaluate.worth(game).get(me, 0.0))
        left = work
        dropped: list[_Arm] = []
        for stage in range(STAGES):
            share = left // ((STAGES - stage) * sum(len(a.samples) for a in arms))
            for arm in arms:
                arm.stage = stage
                for sample in arm.samples:
                    used = _play_on(sample.game, root, share, self._marker(sample, me))
                    left -= max(0, used)
                    sample.end = -math.inf if used < 0 else self.value(sample.game, me)
            if stage == 0 and all(len({x.end for x in a.samples}) == 1 for a in arms):
                for arm in arms:  # nothing left to chance: one sample is enough
                    del arm.samples[1:]
            _compare(arms)
            arms.sort(key=lambda a: (-a.value(), a.rank))
            kept = arms[: max(2, math.ceil(len(arms) / 2))]
            dropped = [a for a in arms[len(kept) :] if a.rank != 0] + dropped
            arms = kept + [a for a in arms[len(kept) :] if a.rank == 0]
        pick = next(a for a in arms if a.rank == 0)
        ranked = sorted(arms, key=lambda a: (-a.value(), a.rank)) + dropped
        if arms[0].value() < pick.value() + margin:
            return pick.action, ranked  # not clearly better than `medium`'s choice
        return arms[0].action, ranked

    def _marker(self, sample: _Sample, me: str) -> Callable[[Game], None]:
        """What notes `me`'s standing in `sample` at each round boundary its playout
        crosses."""

        def crossed(copy: Game) -> None:
            sample.marks.append((_pair(copy), self.value(copy, me)))

        return crossed

    def values(self, game: Game, actions: list[Action], seed: int) -> list[float | None]:
        """What each of `actions` plays out to for the player to act (their standing), the
        budget shared equally, on the same samples (seeded from `seed`: common random
        numbers), to the horizon; None for one that fails on a copy. For a hint's
        alternatives and a review (the search itself halves, :meth:`rank`)."""
        me = game.acting_player() or ""
        root = _RoundMark.of(game)
        work = self.units(game)
        samples = 2 if work >= SAMPLED_WORK else 1
        share = work // max(1, samples * len(actions))
        out: list[float | None] = []
        for action in actions:
            got: list[float] = []
            for j in range(samples):
                copy = game.search_copy(reseed=seed + j)
                try:
                    copy.apply_known(action)
                except Exception:
                    break
                used = _play_on(copy, root, share)
                if used < 0:
                    break
                got.append(self.value(copy, me))
            out.append(sum(got) / len(got) if len(got) == samples else None)
        return out


def _score_of(scored: list[Scored], action: Action) -> float:
    """The rules' score of `action` (0: not scored, as a single legal action is not)."""
    return next((sc for sc, _, a in scored if a == action), 0.0)


@dataclass(frozen=True)
class _RoundMark:
    """Where a decision is: its round's kind and the round counters."""

    kind: type
    stock: int
    operating: int

    @classmethod
    def of(cls, game: Game) -> _RoundMark:
        s = game.state
        return cls(type(s.round), s.stock_round_no, s.operating_round_no)


def _beyond(game: Game, root: _RoundMark) -> bool:
    """Whether `game` is over or past :data:`HORIZON` from `root`: the start of the second
    stock round after it (the end of the next set of operating rounds)."""
    s = game.state
    return s.finished or (
        isinstance(s.round, StockRound) and s.stock_round_no >= root.stock + HORIZON
    )


def _play_on(
    game: Game, root: _RoundMark, budget: int, crossed: Callable[[Game], None] | None = None
) -> int:
    """Play `game` on with :data:`PLAYOUT` for every seat until `budget` work units are
    spent or it is past the horizon, telling `crossed` of each round boundary it crosses (a
    round counter moved on, or the game ended); the units spent (-1: the playout failed, and
    the copy is not to be valued)."""
    rng = random.Random(0)  # PLAYOUT draws nothing: it has no noise
    used = 0
    while used < budget and not _beyond(game, root):
        before = _pair(game)
        try:
            action, scored = PLAYOUT.decide(game, rng)
            cost = 1 + (LAY_UNITS if any(isinstance(a, LayTile) for _, _, a in scored) else 0)
            if used + cost > budget:
                break
            game.apply_known(action)
        except Exception:
            return -1
        used += cost
        if crossed is not None and (game.state.finished or _pair(game) != before):
            crossed(game)
    return used


#: A level naming its budget: ``hard:250ms``, ``hard:1s``, ``hard:1.5s``.
LEVEL = re.compile(r"hard(?::(\d+(?:\.\d+)?)(ms|s))?")


def budget_ms(level: str) -> float | None:
    """The budget in milliseconds of a `hard` level (None: not a `hard` level); a
    SetupError (field "bots") for a budget of nothing."""
    m = LEVEL.fullmatch(level)
    if m is None:
        return None
    if m.group(1) is None:
        return float(DEFAULT_MS)
    ms = float(m.group(1)) * (1000 if m.group(2) == "s" else 1)
    if ms <= 0:
        raise SetupError(f"bot level {level}: the budget must be more than 0", "bots")
    return ms


def work_units(ms: float, title: Title | None = None) -> int:
    """The work units (actions on search copies) of a budget of `ms` milliseconds in
    `title` (None: at :data:`UNITS_PER_SECOND`)."""
    rate = UNITS_PER_SECOND if title is None else title.search_units_per_second
    return max(1, round(ms * rate / 1000))


def hard(level: str) -> SearchBot | None:
    """The `hard` bot of this level (None: not a `hard` level): its budget a time,
    converted at each decision's title's rate."""
    ms = budget_ms(level)
    return None if ms is None else SearchBot(level, work_units(ms), ms=ms)
