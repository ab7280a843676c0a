"""What a game's log says beyond its current state: the event lines each log entry produced,
the round each entry was made in, and each operating round's share prices, revenue and the
players' worth at its end (the table's charts, ``history.py``, read them from here).

The engine keeps only the present (its event log loses the lines of an action taken back), so
the live game records these facts as it applies each log entry. Each of them is a function
of the log up to that entry, so replaying the log (a restarted server, a past position)
records the same facts.

Operating rounds are those of the actions in force: an undo back into (or before) a round
forgets what was recorded of its end (or of the round), and replaying it forward records it
again.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tresham.words import Words, or_name, round_label

if TYPE_CHECKING:
    from tresham.core.actions import Action
    from tresham.core.game import Game, GameState


def _prices(game: Game) -> dict[str, int]:
    s = game.state
    return {sym: s.market.price(sym) for sym in s.corps if sym in s.market}


def _runs(game: Game) -> dict[str, int]:
    return {sym: len(corp.revenue_history) for sym, corp in game.state.corps.items()}


def _revenue_since(game: Game, runs_before: dict[str, int]) -> dict[str, int]:
    """What each corporation that ran since `runs_before` (its count of runs then) earned."""
    out = {}
    for sym, corp in game.state.corps.items():
        start = runs_before.get(sym, 0)
        if len(corp.revenue_history) > start:
            out[sym] = sum(corp.revenue_history[start:])
    return out


def _in_operating_round(state: GameState) -> bool:
    return state.round is not None and state.round.kind == "operating" and not state.finished


@dataclass(frozen=True)
class Before:
    """What the chronicle remembers of the position before an entry: how many event lines
    there were, the round's label and number (rounds begun with a heading), and the entry's
    action in the table's words (None for a take-back)."""

    lines: int
    round: str
    round_number: int
    said: str | None


@dataclass
class OperatingRoundMark:
    """An operating round as recorded: the prices and each corporation's count of runs
    (its revenue history's length) when it began and, once it is over, the prices and what
    each corporation earned in it."""

    name: str
    prices_before: dict[str, int]
    runs_before: dict[str, int]
    prices_after: dict[str, int] | None = None
    revenue: dict[str, int] | None = None
    #: Every player's worth (the title's raw score) when it ended.
    worth_after: dict[str, int] | None = None


@dataclass
class Chronicle:
    """The facts of a log, entry by entry (see the module's docstring)."""

    #: The event lines the game's set-up wrote, before any entry.
    start_events: tuple[str, ...] = ()
    #: Per log entry: the event lines it produced (none for an undo).
    events: list[tuple[str, ...]] = field(default_factory=list)
    #: Per log entry: the round it was made in (`round_label` before it).
    rounds: list[str] = field(default_factory=list)
    #: Per log entry: how many rounds had begun with a heading before it (the length of
    #: ``GameState.round_lines``): the entries of one round share it.
    round_numbers: list[int] = field(default_factory=list)
    #: Per log entry: which of its event lines say a round began (``Game.log_round``).
    headings: list[tuple[int, ...]] = field(default_factory=list)
    #: Per log entry: its action in the words the table offered it (None for a take-back).
    said: list[str | None] = field(default_factory=list)
    #: Per log entry: how many of its event lines its action wrote itself (the first ones;
    #: the others are what followed it); 0 for a take-back.
    own: list[int] = field(default_factory=list)
    #: The operating rounds of the actions in force, by number.
    operating: dict[int, OperatingRoundMark] = field(default_factory=dict)
    #: The share prices and every player's worth before any entry.
    start_prices: dict[str, int] = field(default_factory=dict)
    start_worth: dict[str, int] = field(default_factory=dict)

    @classmethod
    def begin(cls, game: Game) -> Chronicle:
        """The chronicle of a game with no entries yet."""
        out = cls(
            start_events=tuple(game.state.events),
            start_prices=_prices(game),
            start_worth=dict(game.title.raw_scores(game)),
        )
        out.settle(game)
        return out

    def copy(self) -> Chronicle:
        """An independent copy (the recorded lines are shared: they never change)."""
        return Chronicle(
            self.start_events,
            list(self.events),
            list(self.rounds),
            list(self.round_numbers),
            list(self.headings),
            list(self.said),
            list(self.own),
            copy.deepcopy(self.operating),
            self.start_prices,
            self.start_worth,
        )

    def before(self, game: Game, action: Action | None) -> Before:
        """What to remember before an entry is applied (`action`: its action, already
        checked legal; None for a take-back)."""
        said = Words(game).text(action) if action is not None else None
        s = game.state
        return Before(len(s.events), round_label(game), len(s.round_lines), said)

    def after(self, game: Game, before: Before) -> None:
        """Record the entry just applied (`before`: what :meth:`before` gave)."""
        count = before.lines
        s = game.state
        self.events.append(tuple(s.events[count:]) if len(s.events) > count else ())
        self.rounds.append(before.round)
        self.round_numbers.append(before.round_number)
        self.headings.append(tuple(i - count for i in s.round_lines if i >= count))
        self.said.append(before.said)
        self.own.append(game.own_lines if before.said is not None else 0)
        self.settle(game)

    def entry(self, index: int) -> dict[str, Any]:
        """Log entry `index` as the tables show it: ``{"round", "round_number", "events",
        "headings", "said", "lines", "own"}``: the round it was made in (its label, and its
        number: entries of one round share it), all the event lines it produced, those of
        them that say a round began (the engine marks them), its action's words, the lines
        to show under it (without the headings: the next round's heading says them) and how
        many of the first of these its action wrote itself (0: the words say the action, the
        lines what followed)."""
        events = self.events[index]
        own = self.own[index]
        headings = self.headings[index]
        shown = [i for i in range(len(events)) if i not in headings]
        return {
            "round": self.rounds[index],
            "round_number": self.round_numbers[index],
            "events": list(events),
            "headings": [events[i] for i in headings],
            "said": self.said[index],
            "lines": [events[i] for i in shown],
            "own": sum(1 for i in shown if i < own),
        }

    def settle(self, game: Game) -> None:
        """Bring the operating rounds up to date with the position: forget what the actions
        in force no longer reach, mark the round begun, and the rounds just ended."""
        s = game.state
        number = s.operating_round_no
        running = _in_operating_round(s)
        for n in list(self.operating):
            if n > number:
                del self.operating[n]
            elif n == number and running:
                self.operating[n].prices_after = None
                self.operating[n].revenue = None
                self.operating[n].worth_after = None
        if running and number not in self.operating:
            self.operating[number] = OperatingRoundMark(or_name(s), _prices(game), _runs(game))
        for n, mark in self.operating.items():
            if mark.prices_after is None and (n < number or not running):
                mark.prices_after = _prices(game)
                mark.revenue = _revenue_since(game, mark.runs_before)
                mark.worth_after = dict(game.title.raw_scores(game))

    def operating_rounds(self, game: Game) -> list[dict[str, Any]]:
        """The operating rounds so far, the current one last: ``{"number", "name", "done",
        "prices_before", "prices", "revenue"}`` (`number`: counting every operating round;
        `name`: as :func:`or_name`; `prices`: at its end, or now; `revenue`: what each
        corporation that ran in it earned, in all)."""
        out = []
        for n in sorted(self.operating):
            mark = self.operating[n]
            prices, revenue = mark.prices_after, mark.revenue
            done = prices is not None and revenue is not None
            if prices is None or revenue is None:
                prices, revenue = _prices(game), _revenue_since(game, mark.runs_before)
            out.append(
                {
                    "number": n,
                    "name": mark.name,
                    "done": done,
                    "prices_before": dict(mark.prices_before),
                    "prices": dict(prices),
                    "revenue": dict(revenue),
                }
            )
        return out
