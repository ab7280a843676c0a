"""1854's rules versions (`Title.rules_version`): each fix that changes the outcome of some action
log gets a number here, and the rules that differ ask `game.rules_version` against it, so a
save replays under the rules it was played by (docs/design.md, "Saves never change meaning")."""

from typing import Final

#: Deals need both sides (docs/rulings/1854.md, "Deals"): a train or private bought from
#: another person's company waits for the seller's answer; a free or forced acquisition
#: ends the taker's turn; and the other fixes of that change.
DEALS_VERSION: Final = 3

#: The rulebook's own edition (docs/rulings/1854.md, D6): new games play on the original
#: (2002) board and its 125 tiles, with medium-sized cities and double small cities; saves of
#: the versions before it replay on the revised board they were played on.
ORIGINAL_BOARD_VERSION: Final = 4
