"""A hint: what `hard` (``bots/search.py``) would do in the acting player's place, in that
player's words, with its evaluation and the next best candidates.

- The suggestion is the search's own choice (:meth:`SearchBot.rank`, so a hint and a `hard`
  bot in that seat agree), made within a fixed budget of :data:`HINT_WORK` work units: a hint
  takes about as long as a ``hard:500ms`` move, whatever the position.
- Its evaluation is the player's *standing* where the candidate plays out to (their expected
  worth less the best opponent's, as `hard` values it: ``bots/evaluate.py``), at the end of
  the next set of operating rounds at most. Where the search leaves a decision to `medium`'s
  rules (a corporation's turn, a prompt), the candidates are played out for the hint alone, the
  budget shared equally (:meth:`SearchBot.values`); candidates the search set aside in an
  early stage have no comparable value and say so.
- A hint never reads what no player knows: everything is worked out on a copy of the game
  whose hidden order is drawn anew (``Game.search_copy(reseed=...)``: 1883's undrawn event
  cards and its dice), seeded by the position only (how many actions are in force and who
  acts), never by the game's own seed; asking again at the same position gives the same
  hint.
- A hint is advice, never an action: it changes nothing in the game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from tresham.bots.search import Ranking, SearchBot, work_units
from tresham.core.actions import Action
from tresham.core.game import Game
from tresham.words import Words

#: A hint's budget in work units (what `hard:500ms` spends on a move).
HINT_WORK = work_units(500)
#: How many candidates a hint names besides its suggestion.
ALTERNATIVES = 3


@dataclass(frozen=True)
class Advised:
    """A candidate as a hint gives it: the action, its words, and its evaluation (the
    player's standing it plays out to; None: set aside early, or not played out)."""

    action: Action
    text: str
    value: float | None

    def to_dict(self, words: Words) -> dict[str, Any]:
        """JSON data: ``{"action", "text", "value", "value_text"}``."""
        return {
            "action": self.action.to_json(),
            "text": self.text,
            "value": None if self.value is None else round(self.value),
            "value_text": standing_words(self.value, words),
        }


@dataclass(frozen=True)
class Hint:
    """What `hard` suggests to `player` (acting for `entity`), its alternatives best first,
    and the player's standing now; `searched`: the search itself played the candidates out
    (else `medium`'s rules chose, and they were played out for the hint)."""

    player: str
    entity: str
    suggestion: Advised
    alternatives: tuple[Advised, ...]
    standing: float
    searched: bool = False
    only: bool = False  #: the only legal action

    def to_dict(self, words: Words) -> dict[str, Any]:
        """JSON data, every amount also in words."""
        return {
            "player": self.player,
            "entity": self.entity,
            "suggestion": self.suggestion.to_dict(words),
            "alternatives": [a.to_dict(words) for a in self.alternatives],
            "standing": round(self.standing),
            "standing_text": standing_words(self.standing, words),
            "searched": self.searched,
            "only": self.only,
            "text": self.text(words),
        }

    def text(self, words: Words) -> str:
        """The hint as one paragraph a player reads."""
        who = self.player if self.entity == self.player else f"{self.player} ({self.entity})"
        if self.only:
            return f"Hint for {who}: {self.suggestion.text} (the only choice)."
        said = f"Hint for {who}: {self.suggestion.text}"
        if self.suggestion.value is not None:
            said += f" ({standing_words(self.suggestion.value, words)})"
        if self.alternatives:
            others = "; ".join(
                a.text + ("" if a.value is None else f" ({standing_words(a.value, words)})")
                for a in self.alternatives
            )
            said += f". Next best: {others}"
        return said + "."


def standing_words(value: float | None, words: Words) -> str:
    """A standing in words: "ahead of the best rival by L.120" ("" for None)."""
    if value is None:
        return "set aside early"
    amount = words.money(abs(round(value)))
    if round(value) == 0:
        return "level with the best rival"
    return f"{'ahead of' if value > 0 else 'behind'} the best rival by {amount}"


def hint_seed(game: Game) -> int:
    """The seed of a hint at this position: how many actions are in force and who acts
    (never the game's seed, nor anything hidden)."""
    return random.Random(f"tresham-hint:{len(game.actions)}:{game.active_entity()}").getrandbits(32)


def hint(game: Game, work: int = HINT_WORK, seed: int | None = None) -> Hint:
    """`hard`'s hint for the player to act now (see the module docstring). Raises
    RuntimeError when nobody is to act (the game is over)."""
    player = game.acting_player()
    if player is None or game.state.finished:
        raise RuntimeError("nobody is to act")
    seed = hint_seed(game) if seed is None else seed
    shown = game.search_copy(reseed=seed)  # the hidden order drawn anew: nothing leaks
    bot = SearchBot("hint", work)
    rng = random.Random(seed)
    ranking = bot.rank(shown, rng)
    words = Words(game)
    entity = game.active_entity() or player
    legal = game.legal_actions()
    if len(legal) == 1:
        only = Advised(legal[0], words.text(legal[0]), None)
        return Hint(player, entity, only, (), bot.value(game, player), only=True)
    values = _values(bot, shown, ranking, seed)
    cands = [
        Advised(c.action, words.text(c.action), values[i]) for i, c in enumerate(ranking.candidates)
    ]
    first = next(i for i, c in enumerate(cands) if c.action == ranking.choice)
    suggestion = cands.pop(first)
    return Hint(
        player,
        entity,
        suggestion,
        tuple(cands[:ALTERNATIVES]),
        bot.value(game, player),
        ranking.searched,
    )


def _values(bot: SearchBot, game: Game, ranking: Ranking, seed: int) -> list[float | None]:
    """Each candidate's evaluation: the search's own values for those it kept to its last
    stage (comparable: played as deep), else each candidate played out for the hint."""
    if ranking.searched:
        last = max(c.stage for c in ranking.candidates)
        return [c.value if c.stage == last else None for c in ranking.candidates]
    return bot.values(game, [c.action for c in ranking.candidates], seed)
