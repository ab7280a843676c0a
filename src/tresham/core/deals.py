"""Negotiated deals: both sides must agree.

A corporation may buy a train from another corporation, or a private company from its owner,
at a price the two sides agree (e.g. "at any price agreed between the two Corporations'
Presidents"; "at a mutually agreed price between half to double face value"; "the purchase
price is freely negotiable"). The buyer proposes: its ordinary `BuyTrain` or `BuyCompany`
action names the item and the price, and is validated in full as always. Then:

- when the seller is controlled by the same person as the buyer (or the title's rules, such as
  a rule set replaying another site, do not ask: `Title.deals_need_consent`), the deal is
  carried out at once;
- otherwise the deal waits as an :class:`Offer` in `GameState.offer`, visible to everyone,
  and the seller (a corporation, answered by its president, or a player) is prompted at once:
  `Choose(seller, "accept")` carries the buyer's action out exactly as proposed (nothing has
  changed since it was validated), `Choose(seller, "decline")` changes nothing but the log.

The prompt is answered before anyone else acts, so an offer never outlives the turn in which
it was made, and both answers are always legal, so an offer can never block the game.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from tresham.core.actions import Action, BuyCompany, BuyTrain, Choose

if TYPE_CHECKING:
    from tresham.core.game import Game

#: The prompt kind of an offer waiting for the seller's answer.
OFFER = "offer"
ACCEPT = "accept"
DECLINE = "decline"


@dataclass(frozen=True)
class Offer:
    """A proposed deal waiting for the seller's answer."""

    #: The buying corporation.
    buyer: str
    #: Who owns the item: a corporation or a player.
    seller: str
    #: The buyer's proposal, carried out as it is if the seller accepts.
    action: BuyTrain | BuyCompany

    @property
    def item(self) -> str:
        """The train's id or the private company's symbol."""
        return self.action.train if isinstance(self.action, BuyTrain) else self.action.company

    @property
    def price(self) -> int:
        """The price the buyer offers."""
        return self.action.price

    def to_dict(self) -> dict[str, object]:
        """The offer as the views and the state hash show it."""
        return {
            "buyer": self.buyer,
            "seller": self.seller,
            "kind": "train" if isinstance(self.action, BuyTrain) else "company",
            "item": self.item,
            "price": self.price,
        }


def seller_of(game: Game, action: Action) -> str | None:
    """Who sells in `action`, if it is a purchase from another corporation or from a private's
    owner (not from the bank or the pool)."""
    s = game.state
    owner: str | None = None
    if isinstance(action, BuyTrain):
        train = s.depot.trains.get(action.train)
        owner = train.owner if train is not None and train.owner in s.corps else None
    elif isinstance(action, BuyCompany):
        company = s.companies.get(action.company)
        owner = company.owner if company is not None else None
    return owner if owner is not None and owner != action.entity else None


def offer_for(game: Game, action: Action) -> Offer | None:
    """The offer `action` makes, if it is a deal whose seller must be asked: another person
    controls the seller and the title asks for consent."""
    if not isinstance(action, BuyTrain | BuyCompany):
        return None
    seller = seller_of(game, action)
    if seller is None or not game.title.deals_need_consent(game):
        return None
    asked = game.title.controller(game, seller)
    if asked is None or asked == game.title.controller(game, action.entity):
        return None
    return Offer(action.entity, seller, action)


def propose(game: Game, offer: Offer) -> None:
    """Put the offer to the seller, before anything else happens."""
    s = game.state
    s.offer = offer
    s.pending.insert(0, (OFFER, offer.seller))
    asked = game.title.controller(game, offer.seller)
    who = offer.seller if asked == offer.seller else f"{offer.seller} ({asked})"
    price = game.title.money(offer.price)
    game.log(f"{offer.buyer} offers {price} to {who} for {item_words(game, offer)}")


def answers(game: Game, seller: str) -> list[Action]:
    """The seller's two answers."""
    return [Choose(seller, ACCEPT), Choose(seller, DECLINE)]


def answer(game: Game, action: Action) -> BuyTrain | BuyCompany | None:
    """Close the offer with the seller's answer (already validated); returns the buyer's
    action to carry out when it is accepted."""
    s = game.state
    offer = s.offer
    assert offer is not None and isinstance(action, Choose)
    s.offer = None
    if action.choice == ACCEPT:
        game.log(f"{offer.seller} accepts")
        return offer.action
    game.log(f"{offer.seller} declines {offer.buyer}'s offer for {item_words(game, offer)}")
    return None


def item_words(game: Game, offer: Offer) -> str:
    """The item as players name it: "its 4H train", or the private company's symbol."""
    if isinstance(offer.action, BuyTrain):
        return f"its {game.state.depot.name(offer.item)} train"
    return offer.item


def declined(game: Game, buyer: str, item: str) -> bool:
    """Whether an offer of `buyer` for `item` (a train's id or a private's symbol) was
    declined in the run of offers and answers that ends the action log (what the buyer has
    just tried): each offer is the buyer's purchase followed by the seller's answer."""
    log = game.actions
    i = len(log) - 1
    while i >= 1:
        answer, proposal = log[i], log[i - 1]
        if not (isinstance(answer, Choose) and answer.choice == DECLINE):
            return False
        if not isinstance(proposal, BuyTrain | BuyCompany):
            return False
        offered = proposal.train if isinstance(proposal, BuyTrain) else proposal.company
        if proposal.entity == buyer and offered == item:
            return True
        i -= 2
    return False
