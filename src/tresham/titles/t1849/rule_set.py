"""1849's two rule sets, chosen by the ``rule_set`` option.

- ``"summary"`` (default): ``1849-summary.txt`` is the spec.
- ``"18xx.games"``: how 18xx.games plays 1849 where it differs from the summary (rule details
  §11; each difference is a ruling in ``docs/rulings/1849.md``, S1-S7). Imported games use it;
  a native game may choose it too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from tresham.core.errors import RuleError
from tresham.titles.t1849.versions import (
    SITE_CONNECTION_VERSION,
    SITE_DEPARTED_VERSION,
    SITE_ENGINE_VERSION,
    SITE_PROVEN_VERSION,
    SITE_SEVENTH_VERSION,
    SITE_TAKER_VERSION,
    SITE_TOKEN_VERSION,
)

if TYPE_CHECKING:
    from tresham.core.game import Game

SUMMARY: Final = "summary"
SITE: Final = "18xx.games"
RULE_SETS: Final = (SUMMARY, SITE)

# The summary's step order and the site's (ruling S4: issuing comes after buying trains).
STEPS_SUMMARY: Final = ("track", "token", "routes", "dividend", "issue", "trains", "companies")
STEPS_SITE: Final = ("track", "token", "routes", "dividend", "trains", "issue", "companies")
# The optional rules' steps (``variant_steps.py``), where the site plays them: buying a token
# and an E-token after the dividend; the bond's interest, then the bond, before the last
# chance to buy a private.
AFTER_DIVIDEND: Final = (("acquiring_station_tokens", "buy_token"), ("electric_dreams", "e_token"))
BEFORE_COMPANIES: Final = (("bonds", "interest"), ("bonds", "bond"))
# Ruling S2: the site lays brown tiles from the first 10H (the summary: 12H).
SITE_BROWN_FROM: Final = "10H"
# Ruling S28: the site ends the game as the stock round of this number ends.
SITE_TURN_LIMIT: Final = 100


def rule_set(options: dict[str, Any]) -> str:
    """The rule set the options name; raises a setup error for an unknown one."""
    name = str(options.get("rule_set", SUMMARY))
    if name not in RULE_SETS:
        raise RuleError(f"unknown 1849 rule set {name!r}; one of {', '.join(RULE_SETS)}", "setup")
    return name


def site_rules(options: dict[str, Any]) -> bool:
    """Whether the game plays by 18xx.games' rules."""
    return rule_set(options) == SITE


def site_proven(game: Game) -> bool:
    """Whether the game plays the "18xx.games" rule set as proven against the site's engine
    (from rules version `SITE_PROVEN_VERSION`; earlier saves replay as they were played)."""
    return site_rules(game.options) and game.rules_version >= SITE_PROVEN_VERSION


def site_engine(game: Game) -> bool:
    """Whether the game plays the "18xx.games" rule set with the second round of fixes from
    the site's engine (from rules version `SITE_ENGINE_VERSION`)."""
    return site_rules(game.options) and game.rules_version >= SITE_ENGINE_VERSION


def site_connection(game: Game) -> bool:
    """Whether the game plays the "18xx.games" rule set with the third round of fixes from the
    site's engine (from rules version `SITE_CONNECTION_VERSION`)."""
    return site_rules(game.options) and game.rules_version >= SITE_CONNECTION_VERSION


def site_fourth_round(game: Game) -> bool:
    """Whether the game plays the "18xx.games" rule set with the fourth round of fixes from the
    site's engine (from rules version `SITE_TOKEN_VERSION`)."""
    return site_rules(game.options) and game.rules_version >= SITE_TOKEN_VERSION


def site_fifth_round(game: Game) -> bool:
    """Whether the game plays the "18xx.games" rule set with the fifth round of fixes from the
    site's engine (from rules version `SITE_DEPARTED_VERSION`)."""
    return site_rules(game.options) and game.rules_version >= SITE_DEPARTED_VERSION


def operating_steps(options: dict[str, Any]) -> tuple[str, ...]:
    """The steps of an operating turn: the rule set's, with those of the optional rules
    played (none when no option is on, so such games play as before)."""
    steps = list(STEPS_SITE if site_rules(options) else STEPS_SUMMARY)
    after = [step for option, step in AFTER_DIVIDEND if options.get(option)]
    before = [step for option, step in BEFORE_COMPANIES if options.get(option)]
    at = steps.index("dividend") + 1
    steps[at:at] = after
    at = steps.index("companies")
    steps[at:at] = before
    return tuple(steps)


def site_sixth_round(game: Game) -> bool:
    """Whether the game plays the "18xx.games" rule set with the sixth round of fixes from the
    site's engine (from rules version `SITE_TAKER_VERSION`)."""
    return site_rules(game.options) and game.rules_version >= SITE_TAKER_VERSION


def site_seventh_round(game: Game) -> bool:
    """Whether the game plays the "18xx.games" rule set with the seventh round of fixes from the
    site's engine (from rules version `SITE_SEVENTH_VERSION`)."""
    return site_rules(game.options) and game.rules_version >= SITE_SEVENTH_VERSION
