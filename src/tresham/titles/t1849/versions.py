"""1849's rules versions (`Title.rules_version`): each fix that changes the outcome of some action
log gets a number here, and the rules that differ ask `game.rules_version` against it, so a
save replays under the rules it was played by (docs/design.md, "Saves never change meaning")."""

from typing import Final

#: Deals need both sides (docs/rulings/1849.md, "Deals"): a train or private bought from
#: another person's company waits for the seller's answer; a free or forced acquisition
#: ends the taker's turn; and the other fixes of that change.
DEALS_VERSION: Final = 2

#: The "18xx.games" rule set proven against the site's own engine (issue 39): the loan
#: choice only in an operating round (ruling S9), a sale that needs the president's certificate
#: only leaving less than 20% (S10). The summary's rule set is unchanged.
SITE_PROVEN_VERSION: Final = 3

#: On 18xx.games a corporation never issues shares to cover its unpaid bond interest (ruling
#: V11: the site's EmergencyMoneyRaising offers the corporation no bundle); the summary's rule
#: set still lets it (V7).
DEBT_ISSUE_VERSION: Final = 4

#: The "18xx.games" rule set's second round of fixes from the differential test against the
#: site's engine (issue 39): the loan choice is deferred only when no corporation of the
#: operating round is left open (ruling S9 as the site's ``any_to_act?``), and the other
#: site rules found then (rulings S11-). The summary's rule set is unchanged.
SITE_ENGINE_VERSION: Final = 5

#: The "18xx.games" rule set's third round of fixes from the differential test (issue 39): a
#: lay's connection judged by the site's own walk (ruling S14), and the other site rules found
#: then (rulings S15-). The summary's rule set is unchanged.
SITE_CONNECTION_VERSION: Final = 6

#: The "18xx.games" rule set's fourth round of fixes from the differential test (issue 39): a
#: token placed only in a city the site's own walk reaches (ruling S15), and the other site
#: rules found then (rulings S16-). The summary's rule set is unchanged.
SITE_TOKEN_VERSION: Final = 7

#: The "18xx.games" rule set's fifth round of fixes from the differential test (issue 39): a
#: player who leaves the game keeps his cash (ruling S19), a corporation whose home token
#: the Messina earthquake destroyed sells no token of its first one left (S20), and a
#: bankruptcy sells the 20% last certificate where it makes the bundle with fewer certificates
#: (S21). The summary's rule set is unchanged.
SITE_DEPARTED_VERSION: Final = 8

#: The "18xx.games" rule set's sixth round of fixes from the differential test (issue 39): P1
#: taken free at L.0 ends the taker's turn, and the auction goes on with the player after him
#: (ruling S22), and the other site rules found then (rulings S23-). The summary's rule set
#: is unchanged.
SITE_TAKER_VERSION: Final = 9

#: The "18xx.games" rule set's seventh round of fixes from the differential test (issue 39):
#: the site rules found on the 300 games of numbers 300-399 (rulings S25-). The summary's rule
#: set is unchanged.
SITE_SEVENTH_VERSION: Final = 10
