"""A game's review: each player's decisions where `hard`'s choice would have gained most.

The game is replayed from its set-up. At every decision a player made (a position with more
than one legal action), `hard` (``bots/search.py``) chooses within `work` units; where its
choice differs from the player's, both are played out on the same samples (common random
numbers, :meth:`SearchBot.values`, `work` units shared) and the *gain* is how much higher the
player's standing (their expected worth less the best opponent's, ``bots/evaluate.py``) comes
out after the search's choice than after their own. Each player's decisions of largest gain
are listed, in the player's words. As with hints (``bots/hints.py``), every decision is worked
out on a copy whose hidden order is drawn anew, seeded by the position, so a review of a game
still being played reads nothing of its future. An estimate by playouts to the end of the
next set of operating rounds: a gain is a measure of how much the search preferred its
choice, not a certainty.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tresham.bots.hints import hint_seed
from tresham.bots.search import SearchBot, work_units
from tresham.core.game import Game
from tresham.io.save import new_game
from tresham.words import Words, round_label

#: A review's budget per decision (units): for the search, and again for the comparison.
REVIEW_WORK = work_units(100)
#: How many decisions a review lists per player.
TOP = 5


@dataclass(frozen=True)
class Missed:
    """A decision where the search's choice plays out better than the player's: the log
    entry it was (1: the first), the round, who decided (and for which entity), both
    choices in words with their evaluations, and the gain (best less chosen)."""

    entry: int
    round: str
    player: str
    entity: str
    chosen: str
    best: str
    chosen_value: float
    best_value: float

    @property
    def gain(self) -> float:
        return self.best_value - self.chosen_value

    def to_dict(self, money: Callable[[int], str]) -> dict[str, Any]:
        """JSON data, the gain also in the title's money."""
        return {
            "entry": self.entry,
            "round": self.round,
            "player": self.player,
            "entity": self.entity,
            "chosen": self.chosen,
            "best": self.best,
            "chosen_value": round(self.chosen_value),
            "best_value": round(self.best_value),
            "gain": round(self.gain),
            "gain_text": money(round(self.gain)),
        }


@dataclass
class Review:
    """Each player's decisions of largest gain (best first), how many decisions were
    reviewed, and the budget per decision."""

    players: dict[str, list[Missed]]
    decisions: int
    work: int
    money: Callable[[int], str] = field(repr=False, default=str)

    def to_dict(self) -> dict[str, Any]:
        """JSON data."""
        return {
            "players": {
                p: [m.to_dict(self.money) for m in missed] for p, missed in self.players.items()
            },
            "decisions": self.decisions,
            "work": self.work,
        }

    def lines(self) -> list[str]:
        """The review as a terminal prints it."""
        out = [f"{self.decisions} decisions reviewed at {self.work} work units each."]
        for player, missed in self.players.items():
            out.append("")
            out.append(f"{player}:")
            if not missed:
                out.append("  no decision where the search's choice plays out better")
            for m in missed:
                who = "" if m.entity == player else f" for {m.entity}"
                out.append(
                    f"  entry {m.entry} ({m.round}){who}: {m.chosen}; the search: {m.best} "
                    f"(+{self.money(round(m.gain))})"
                )
        return out


def review(
    game: Game,
    work: int = REVIEW_WORK,
    top: int = TOP,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The review of `game`'s actions in force (module docstring); `progress(done, total)`
    after each action."""
    replay = new_game(
        game.title.name, game.player_names, game.seed, game.options, game.rules_version
    )
    actions = list(game.actions)
    found: dict[str, list[Missed]] = {p: [] for p in game.player_names}
    decisions = 0
    bot = SearchBot("review", work)
    for i, action in enumerate(actions):
        player = replay.acting_player()
        if player in found and len(replay.legal_actions()) > 1:
            decisions += 1
            weighed = _weigh(replay, bot, i, action)
            if weighed is not None:
                found[player].append(weighed)
        replay.apply(action)
        if progress is not None:
            progress(i + 1, len(actions))
    for missed in found.values():
        missed.sort(key=lambda m: (-m.gain, m.entry))
        del missed[top:]
    return Review(found, decisions, work, game.title.money)


def _weigh(game: Game, bot: SearchBot, index: int, action: Any) -> Missed | None:
    """The decision at `index` if the search's choice plays out better than `action`."""
    seed = hint_seed(game)
    shown = game.search_copy(reseed=seed)
    best = bot.rank(shown, random.Random(seed)).choice
    if best == action:
        return None
    best_value, chosen_value = bot.values(shown, [best, action], seed)
    if best_value is None or chosen_value is None or best_value <= chosen_value:
        return None
    words = Words(game)
    return Missed(
        entry=index + 1,
        round=round_label(game),
        player=game.acting_player() or "",
        entity=game.active_entity() or "",
        chosen=words.text(action),
        best=words.text(best),
        chosen_value=chosen_value,
        best_value=best_value,
    )
