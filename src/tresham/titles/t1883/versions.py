"""1883's rules versions (`Title.rules_version`): each fix that changes the outcome of some action
log gets a number here, and the rules that differ ask `game.rules_version` against it, so a
save replays under the rules it was played by (docs/design.md, "Saves never change meaning")."""

from typing import Final

#: Deals need both sides (docs/rulings/1883.md, "Deals"): a train or private bought from
#: another person's company waits for the seller's answer; a free or forced acquisition
#: ends the taker's turn; and the other fixes of that change.
DEALS_VERSION: Final = 3

#: The concession search skips a step from which a place still to pass cannot be reached
#: (docs/rulings/1883.md, R7): the same answers, found in far fewer steps, so a search that
#: the bound stopped before may now find its route.
PRUNED_SEARCH_VERSION: Final = 4

#: The 2GT limit holds after every change of a corporation's trains, not only when a new
#: train type is first bought (1883 §6.9.5, docs/rulings/1883.md R35): a 2T, 3T or 3bisT sold
#: to another corporation, lost to the War Effort or discarded sends the excess 2GT back.
GRAVITY_LIMIT_VERSION: Final = 5
