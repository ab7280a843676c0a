"""Why a game ended: one enumeration for the engine, its log, the words, the API and the
saves. The values are the strings saved games, the API and 18xx.games exports carry
(``game_end_reason``), so a game ended before this enumeration reads the same."""

from __future__ import annotations

from enum import StrEnum


class EndReason(StrEnum):
    """An end of the game, as the rules name it."""

    #: The bank ran out of money, and the rounds it leaves were played out.
    BANK = "bank"
    #: A share price reached the end of the market (1849, 1883).
    STOCK_MARKET = "stock_market"
    #: A player went bankrupt.
    BANKRUPT = "bankrupt"
    #: Nothing can ever change again (1849 ruling R13, 1883 ruling R18).
    NO_PLAY = "no_play"
    #: A share price reached 1854's Game End space, and its operating round was played out.
    ENDGAME = "endgame"
    #: 18xx.games' limit: its stock round 100 ended (1849's "18xx.games" rule set, ruling
    #: S28); the value is the site's own name for it, "did not finish".
    TURN_LIMIT = "dnf"

    @property
    def words(self) -> str:
        """Why the game ended, in a player's words."""
        return _WORDS[self]


_WORDS: dict[EndReason, str] = {
    EndReason.BANK: "the bank ran out of money",
    EndReason.STOCK_MARKET: "a share price reached the end of the market",
    EndReason.BANKRUPT: "a player went bankrupt",
    EndReason.NO_PLAY: "nothing could change any more: no corporation runs, no private pays, "
    "and nobody can start a corporation",
    EndReason.ENDGAME: "a share price reached the Game End space",
    EndReason.TURN_LIMIT: "the game reached 18xx.games' limit of 100 stock rounds",
}
