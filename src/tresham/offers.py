"""A pending offer (``core/deals.py``) as the tables show it: the server's public state, the
browser table, the terminal and the turn notifications all say it the same way.

An offer's facts name the item as its players say it (a train by its type, or the variant it
was bought as: "4H"; a private company by its name), the price in the title's money, and who
must answer: the seller's controlling player (a corporation's president, or the seller
itself)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tresham.core.deals import ACCEPT

if TYPE_CHECKING:
    from tresham.core.game import Game


def offer_facts(game: Game) -> dict[str, Any] | None:
    """The pending offer, or None: ``{"buyer", "buyer_player", "seller", "asked", "kind",
    "item", "item_name", "price", "price_text", "text"}`` (`asked`: the player who answers
    for the seller; `text`: the offer in one sentence)."""
    s = game.state
    offer = s.offer
    if offer is None:
        return None
    facts: dict[str, Any] = dict(offer.to_dict())
    item = offer.item
    if facts["kind"] == "train":
        train = s.depot.trains.get(item)
        name = (train.variant or train.kind) if train is not None else item
        shown = f"train {name}"
    else:
        company = s.companies.get(item)
        name = company.name if company is not None and company.name else item
        shown = name if name == item else f"{name} ({item})"
    facts.update(
        {
            "buyer_player": game.title.controller(game, offer.buyer),
            "asked": game.title.controller(game, offer.seller),
            "item_name": name,
            "price_text": game.title.money(offer.price),
        }
    )
    facts["text"] = f"{offer.buyer} offers {facts['price_text']} to {offer.seller} for {shown}"
    return facts


def answer_text(facts: dict[str, Any], choice: str) -> str:
    """The seller's answer `choice` to the offer, as a button or a menu says it."""
    if choice == ACCEPT:
        return f"Accept: sell {facts['item_name']} to {facts['buyer']} for {facts['price_text']}"
    return f"Decline: {facts['seller']} keeps {facts['item_name']}"


def waiting_text(facts: dict[str, Any]) -> str:
    """The offer, and who must answer it."""
    asked, seller = facts["asked"], facts["seller"]
    who = asked if asked == seller else f"{asked} answers for {seller}"
    return f"{facts['text']}. {who}: accept or decline?"
