"""1849's optional rules (AAG rulebook §14), as 18xx.games plays them: the options, what each
adds to the game's state, and their prices. The steps that play them are in
``variant_steps.py``; each decision is a ruling in ``docs/rulings/1849.md`` (V1-V9).

- ``acquiring_station_tokens`` (§14.1): from phase 6H a corporation may, once a turn after its
  dividend, buy another corporation's station token (not a home token) in a city its network
  reaches and where it has no token, for L.1 up to its cash, paid to that corporation.
- ``bonds`` (§14.2): from phase 8H a corporation without a bond may issue its single L.500
  bond (share price one column left), and repay it for L.500 (one column right); while it is
  out the corporation pays L.50 interest every operating round; at the game's end each
  player loses L.100 per share (10%) held of a corporation whose bond is still out.
- ``electric_dreams`` (§14.3): six E-trains (L.550, any distance, standard and dual track
  only, twice the value of Messina, Palermo, Catania and Siracusa), sold from phase 12H, and
  only to a corporation that has bought an E-token: the first costs L.1,100 in phase 12H and
  L.800 later, each one after it L.800 in phase 12H and L.550 later. The rulebook plays it
  only with the other two variants; so does the site, and so does tresham (setup refuses it
  alone).

Their state is ``State1849.variants`` (``state.py``), read and written only here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from tresham.core.game_spec import SetupError
from tresham.titles.t1849.state import Variants, state_of
from tresham.titles.t1849.track_rules import E_TRAIN

if TYPE_CHECKING:
    from tresham.core.game import Game

BUY_TOKENS: Final = "acquiring_station_tokens"
BONDS: Final = "bonds"
ELECTRIC: Final = "electric_dreams"
NAMES: Final = (BUY_TOKENS, BONDS, ELECTRIC)

RULE_TOKENS: Final = "1849 §14.1 Acquiring station tokens"
RULE_BONDS: Final = "1849 §14.2 Bonds"
RULE_E: Final = "1849 §14.3 Electric dreams"

#: The phases from which each variant's actions are offered (the site's events).
TOKENS_FROM: Final = "6H"
BONDS_FROM: Final = "8H"
E_TOKENS_FROM: Final = "12H"

BOND: Final = 500
INTEREST: Final = 50
#: Lost at the end per 10% share held of a corporation whose bond is out.
BOND_PENALTY_PER_SHARE: Final = 100
#: E-token prices: (first, later) x (in phase 12H, after it).
E_TOKEN_FIRST: Final = {"12H": 1100, "later": 800}
E_TOKEN_LATER: Final = {"12H": 800, "later": 550}


def check_options(options: dict[str, Any]) -> None:
    """§14.3 "can be used only with the other variant rules": electric_dreams needs both."""
    if options.get(ELECTRIC) and not (options.get(BONDS) and options.get(BUY_TOKENS)):
        raise SetupError(
            "option electric_dreams is played with bonds and acquiring_station_tokens "
            "(1849 §14.3): switch those on too",
            f"options.{ELECTRIC}",
        )


def enabled(game: Game, name: str) -> bool:
    """Whether the optional rule `name` is played."""
    return bool(game.options.get(name))


def initial(options: dict[str, Any]) -> Variants | None:
    """The variants' starting state (None: no variant played, so nothing is added)."""
    if not any(options.get(n) for n in NAMES):
        return None
    return Variants()


def _state(game: Game) -> Variants:
    """The variants' state; only asked for when one of them is played."""
    data = state_of(game).variants
    assert data is not None, "no optional rule is played"
    return data


def reached(game: Game, phase: str) -> bool:
    """Whether `phase` has been reached."""
    return phase in game.state.phases_reached


# ---------------------------------------------------------------------------- bonds
def has_bond(game: Game, corp: str) -> bool:
    """Whether `corp`'s bond is out."""
    return enabled(game, BONDS) and corp in _state(game).bonds


def set_bond(game: Game, corp: str, out: bool) -> None:
    """Record `corp`'s bond as issued (`out`) or repaid."""
    bonds = _state(game).bonds
    if out:
        bonds.append(corp)
    else:
        bonds.remove(corp)


def bond_penalty(game: Game, player: str) -> int:
    """L.100 per 10% `player` holds of each corporation whose bond is out (the site's
    ``player_value``)."""
    if not enabled(game, BONDS):
        return 0
    reg = game.state.shares
    return sum(
        BOND_PENALTY_PER_SHARE * (reg.percent(player, corp) // 10) for corp in _state(game).bonds
    )


# ---------------------------------------------------------------------------- E-tokens
def has_e_token(game: Game, corp: str) -> bool:
    """Whether `corp` has bought an E-token."""
    return enabled(game, ELECTRIC) and corp in _state(game).e_tokens


def may_own(game: Game, corp: str, kind: str) -> bool:
    """Whether `corp` may buy a train of `kind`: an E-train only with an E-token."""
    return kind != E_TRAIN or has_e_token(game, corp)


def e_token_cost(game: Game) -> int:
    """The E-token's price now."""
    prices = E_TOKEN_LATER if _state(game).e_token_sold else E_TOKEN_FIRST
    return prices["12H"] if game.phase.name == "12H" else prices["later"]


def record_e_token(game: Game, corp: str) -> None:
    """`corp` has bought an E-token."""
    data = _state(game)
    data.e_tokens.append(corp)
    data.e_token_sold = True


def forget(game: Game, corp: str) -> None:
    """A closing corporation starts again without bond or E-token (the site resets it)."""
    data = state_of(game).variants
    if data is None:
        return
    for held in (data.bonds, data.e_tokens):
        if corp in held:
            held.remove(corp)
