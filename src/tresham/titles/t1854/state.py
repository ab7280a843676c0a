"""What 1854 adds to the game state: one typed, documented field per fact.

``Title1854.setup`` makes a :class:`State1854` and sets it as ``GameState.title_state``; every
rule reads and writes it through :func:`state_of`. Deep copies (clones, checkpoints, a bot's
``search_copy``) copy it with the rest of the state.

The state hash sees these facts as ``extra``'s keys: :meth:`State1854.to_dict` gives exactly
the dictionary 1854 kept in ``GameState.extra`` before it had this class (the same keys, one
missing while its fact is absent, and the same values), so every state hash, and with it
every save and import check, is unchanged. The facts core keeps in ``extra`` for every title
(``types_bought``, ``bank_broke_in_sr``, ``final_set``) stay there.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tresham.core.rounds.operating import Turn

if TYPE_CHECKING:
    from tresham.core.actions import LayTile
    from tresham.core.game import Game
    from tresham.core.rounds.operating import OperatingRound


@dataclass
class Option:
    """§6.4.1 Buying Options: a player's options markers, on a 20% share bought for half its
    price (rulings O1-O4). The certificate is the player's; the second 10% is still owed."""

    #: The certificate the markers are on (ruling O3: never sold in its round, never handed
    #: over in a Director's exchange).
    cid: str
    #: Its company (a split of its shares ends the option, seed l.179, ruling O4).
    corp: str
    #: The price of 10% when it was bought: what the second 10% costs (§6.4.1 "at the same
    #: price").
    price: int
    #: The Share Buying Round it was bought in (``stock_round_no``): §6.4.1 "not sold in the
    #: round it was bought" (ruling O3).
    round: int

    def to_dict(self) -> dict[str, Any]:
        """The canonical form (hashed): the dictionary ``extra["options"]`` held."""
        return {"cid": self.cid, "corp": self.corp, "price": self.price, "round": self.round}


@dataclass
class Mergers:
    """§3.1.2.1 (lost) and §5.10: the Local Railways' mergers into Major Local Railways while
    they are under way (``major_local.py``, rulings ML1, ML2)."""

    #: Ruling ML1: the Local Railway whose merger proposal waits for the partner's owner's
    #: answer (the ``merge_consent`` prompt); None when no answer is awaited.
    offer: str | None = None
    #: Ruling ML1 "a declined proposal is not offered again in that Operating Round" (and
    #: ML2: not again while Phase 6 is settled): each (proposer, partner) declined, in order.
    #: Cleared as each Operating Round and the Phase 6 settling begins and when it ends;
    #: None before the game's first Operating Round.
    declined: list[tuple[str, str]] | None = None
    #: Ruling ML2 (§5.10 Phase 6 "Local Railways must either merge ... or close"): the Local
    #: Railways still to settle, in ascending order, the first being asked; None except while
    #: Phase 6 is being settled.
    fates: list[str] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The canonical form (hashed): the keys ``extra`` held, each absent while None."""
        out: dict[str, Any] = {}
        if self.offer is not None:
            out["merge_offer"] = self.offer
        if self.declined is not None:
            out["merge_declined"] = [[proposer, partner] for proposer, partner in self.declined]
        if self.fates is not None:
            out["fates"] = self.fates
        return out


@dataclass
class Tallies:
    """What a simulation summary counts (``tallies.py``); no rule reads them."""

    #: §3.1.2.1: Local Railways merged into a Major Local Railway.
    local_mergers: int = 0
    #: §5.12: mail contracts bought.
    mail_contracts: int = 0
    #: §5.3, ruling T10: medium-sized cities promoted.
    medium_promotions: int = 0
    #: §5.3, ruling T10: double small cities upgraded.
    double_city_upgrades: int = 0

    def to_dict(self) -> dict[str, int]:
        """The canonical form (hashed): ``extra["counts"]``, which held a count only once it
        was at least one."""
        counts = {
            "local_mergers": self.local_mergers,
            "mail_contracts": self.mail_contracts,
            "medium_promotions": self.medium_promotions,
            "double_city_upgrades": self.double_city_upgrades,
        }
        return {key: n for key, n in counts.items() if n}


@dataclass
class State1854:
    """1854's own facts, beyond the state every title shares."""

    #: §3.2.1 Share Splitting: the Major Companies whose shares have split, in the order they
    #: split; how many there are picks the column of §6.5's Table 7 (the share limit).
    split: list[str] = field(default_factory=list)
    #: §4 "the player immediately to the left of the last player to make a purchase is given
    #: the Priority Deal card": the last player to buy a private certificate (None before).
    last_purchaser: str | None = None
    #: §6.4.1 Buying Options: each player's unpaid option (ruling O1: one at a time), by
    #: player; a player's entry goes when the rest is paid, the share is sold or it splits.
    options: dict[str, Option] = field(default_factory=dict)
    #: §5.12 Mail Contracts: the cost (100 or 200 G) of the contract each company holds
    #: (at most one, never sold; a merger keeps one, ruling ML3).
    mail: dict[str, int] = field(default_factory=dict)
    #: §4, §6.4, ruling F8: the private certificates left unsold by the first Share Buying
    #: Round, top first: later bought only at face value, and nothing else is bought while
    #: any is for sale. None until the first Share Buying Round ends.
    unsold_privates: list[str] | None = None
    #: §5.3 "When all the Local Railways have either closed or been converted to Major
    #: Local Railways ... all the tiles on the extra map are removed": whether that has
    #: happened (it happens once).
    extra_map_cleared: bool = False
    #: §8 "if a share price marker reaches the Game End space ... only the current Operating
    #: Round is completed" (ruling M1): whether a marker has reached it.
    endgame: bool = False
    #: §5.3, ruling T2: the yellow tile a company asks to lay on a shielded hex, while the
    #: guarding company's Director answers (the permission prompt); None otherwise.
    shield_request: LayTile | None = None
    #: §5.10, ruling ML7: "If a Major Local Railway buys one of the 4-trains that are now
    #: available to them, all the 2-trains are finally scrapped": whether that has happened.
    twos_scrapped: bool = False
    #: The Local Railways' mergers while under way (rulings ML1, ML2).
    mergers: Mergers = field(default_factory=Mergers)
    #: The simulation's counts (``tallies.py``).
    tallies: Tallies = field(default_factory=Tallies)

    def to_dict(self) -> dict[str, Any]:
        """The canonical form (hashed): the keys 1854 kept in ``GameState.extra``. The facts
        that start absent are left out while they are absent (None, False, no count), as
        their keys were."""
        out: dict[str, Any] = {
            "split": self.split,
            "last_purchaser": self.last_purchaser,
            "options": {player: opt.to_dict() for player, opt in self.options.items()},
            "mail": self.mail,
        }
        if self.unsold_privates is not None:
            out["unsold_privates"] = self.unsold_privates
        if self.extra_map_cleared:
            out["extra_map_cleared"] = True
        if self.endgame:
            out["endgame"] = True
        if self.shield_request is not None:
            ask = self.shield_request.to_json()
            out["shield_request"] = {k: v for k, v in ask.items() if k != "type"}
        if self.twos_scrapped:
            out["twos_scrapped"] = True
        out.update(self.mergers.to_dict())
        counts = self.tallies.to_dict()
        if counts:
            out["counts"] = counts
        return out


def state_of(game: Game) -> State1854:
    """1854's state in `game`."""
    s = game.state.title_state
    assert isinstance(s, State1854), "not a game of 1854"
    return s


@dataclass
class Turn1854(Turn):
    """What a corporation's turn of 1854 remembers beyond core's facts."""

    #: Its tile was laid with a guard's permission (ruling T2): the turn's lay is made.
    laid: bool = False
    #: The guarded hexes whose permission was refused this turn (ruling T2: not asked again).
    refused: list[str] = field(default_factory=list)


def turn_of(rnd: OperatingRound) -> Turn1854:
    """The turn record of an operating round of 1854."""
    turn = rnd.turn
    assert isinstance(turn, Turn1854), "not a turn of 1854"
    return turn
