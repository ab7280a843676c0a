"""1883's own decisions in a player's words: what each one is, what it costs and what follows.

Government Concessions (§5.6, §6.12), buying Political Support cards (§5.5), the Co-operative's
loot (§8.1.6), proposing the SEFTA merger (§8.4), SARSA's buses (§8.3.1) and port tokens
(§6.6), named by places and trains as players name them; `words.py` adds the consequences it
finds on a search copy. The answers to 1883's prompts (playing the cards, §7.0; a bonus's
destination, §5.6.1; the SEFTA merger's consent and odd shares, §8.4; the air raids'
downgrades, §11.2 #13) are worded by their prompts (`Prompt.words`, in their mechanism's
module).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tresham.core.actions import Action, Choose
from tresham.core.display import FactTable, MapMarker
from tresham.core.rounds.operating import OperatingRound
from tresham.titles.t1883 import concessions, coop, sefta
from tresham.titles.t1883.actions import BuyConcession, BuySupport, PlaceBus, PlacePort
from tresham.titles.t1883.state import state_of

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.titles.t1883.rules import Title1883

#: What 1883's own trains do (§6.9.5).
TRAIN_NOTES = {
    "2G": (
        "gravity train: after the other trains it runs downhill between two stations next to "
        "each other, one of them its own, for half their value; a d10 for each: 1-7 it earns, "
        "8-9 it does not, 10 it crashes and goes back; only beside a 2, 3 or 3bis train (no "
        "more 2G than those), not counted toward the train limit nor as the train a "
        "corporation must own"
    ),
}


def concession_text(title: Title1883, game: Game, corp: str, number: int) -> str:
    """A Government Concession as its buyer weighs it (§5.6, §5.6.1, §6.12): the places to
    join in order, its price, this phase's bonus, the deadline and the penalty."""
    row = concessions.facts(game, str(number))
    places = " \N{EN DASH} ".join(p["name"] for p in row["route"])
    level = title.phase_facts[game.phase.name]["concession_bonus"]
    money = title.money
    return (
        f"Buy Government Concession {number} for {corp} ({money(int(row['cost']))}): join "
        f"{places} within {row['due_ors']} operating rounds for a bonus of "
        f"{money(int(row['bonus'][level]))} now, or pay {money(2 * int(row['cost']))}"
    )


def support_text(title: Title1883, game: Game, player: str) -> str:
    """§5.5: a card bought in a stock round, played later against a Random Event or to pay a
    concession's bonus to the shareholders (§5.6.1)."""
    cost = title.support_cost(game, player)
    held = state_of(game).support.held.get(player, 0)
    price = f" for {title.money(cost)}" if cost is not None else ""
    return (
        f"Buy a Political Support card{price} (you hold {held}): play it against a Random "
        "Event, or to pay a concession's bonus to the shareholders"
    )


def _loot_text(game: Game, corp: str) -> str:
    """§8.1.6: the president takes the revenue and half his share's value, and is ousted."""
    rnd = game.state.round
    revenue = (rnd.turn.revenue or 0) if isinstance(rnd, OperatingRound) else 0
    half = game.state.market.price(corp) // 2
    money = game.title.money
    return (
        f"Loot {corp}: take its {money(revenue)} yourself, sell your 10% share to the pool for "
        f"{money(half)} and leave the presidency for good ({corp}'s price moves left)"
    )


def choice_text(game: Game, action: Choose) -> str | None:
    """A `Choose` of one of 1883's steps in words; None if it is none of them (a prompt's
    answers are worded by the prompt)."""
    if action.choice == coop.LOOT:
        return _loot_text(game, action.entity)
    if action.choice == sefta.MERGE:
        return "Propose merging FMV and FSMMF into SEFTA (the other president is asked)"
    return None


def action_words(title: Title1883, game: Game, action: Action, words: Any) -> str | None:
    """1883's own actions in words (None: the common words apply)."""
    match action:
        case BuyConcession(corporation=corp, concession=number):
            return concession_text(title, game, corp, number)
        case BuySupport(entity=player):
            return support_text(title, game, player)
        case PlaceBus(hex=coord):
            return f"Place a bus token in {words.place(coord)}"
        case PlacePort(hex=coord):
            return f"Place a port token in {words.place(coord)}"
        case Choose():
            return choice_text(game, action)
    return None


def concessions_table(title: Title1883, game: Game) -> FactTable:
    """§5.6, §6.12: every concession still in play, who holds it, the operating rounds left
    before its penalty, and the bonus it pays now."""
    held = state_of(game).concessions.status
    level = title.phase_facts[game.phase.name]["concession_bonus"]
    money = title.money
    rows = []
    for number, status in held.items():
        if status.removed:
            continue
        row = concessions.facts(game, number)
        if status.due is None:
            left = f"{row['due_ors']} once bought"
        else:
            left = f"{status.due} (the last)" if status.due == 1 else str(status.due)
        rows.append(
            (
                number,
                " \N{EN DASH} ".join(p["name"] for p in row["route"]),
                money(int(row["cost"])),
                money(int(row["bonus"][level])),
                status.owner or "for sale",
                left,
                money(2 * int(row["cost"])),
            )
        )
    return FactTable(
        "concessions",
        "Government Concessions",
        ("", "places, in order", "price", "bonus now", "holder", "ORs left", "penalty"),
        tuple(rows),
        "A holder that has not joined its places when its operating rounds run out gives the "
        "concession back and pays the penalty (§6.12).",
    )


def concessions_held(title: Title1883, game: Game, corp: str) -> list[str]:
    """§5.6, §6.12: each Government Concession `corp` holds, the places it must join, the
    operating rounds left and the penalty; in its last operating round (and the stock round
    before it) a warning, so the penalty never comes unannounced."""
    lines = []
    for number, status in state_of(game).concessions.status.items():
        if status.owner != corp or status.removed or status.due is None:
            continue
        row = concessions.facts(game, number)
        places = " \N{EN DASH} ".join(p["name"] for p in row["route"])
        penalty = title.money(2 * int(row["cost"]))
        if status.due > 1:
            lines.append(
                f"Government Concession {number}: join {places} within {status.due} "
                f"operating rounds, or pay {penalty}"
            )
            continue
        which = "this" if isinstance(game.state.round, OperatingRound) else "the next"
        lines.append(
            f"\N{WARNING SIGN} Government Concession {number}: {which} operating round is "
            f"the last to join {places}; if not, {corp} pays {penalty} at its end"
        )
    return lines


def support_table(title: Title1883, game: Game) -> FactTable:
    """§5.5: each player's Political Support cards and the price of their next one."""
    support = state_of(game).support
    rows = []
    for p in game.state.players:
        cost = title.support_cost(game, p.name)
        rows.append((p.name, str(support.held[p.name]), title.money(cost) if cost else "none"))
    return FactTable(
        "support",
        "Political Support cards",
        ("player", "cards", "next card"),
        tuple(rows),
        f"{support.supply} left in the supply. A card avoids a Random Event's effect, or pays a "
        "concession's bonus to the shareholders (§7.0, §5.6.1).",
    )


def ports_table(game: Game) -> FactTable:
    """§6.6: each corporation's port tokens, placed (by the port's name) and still to place."""
    board = game.state.map.board
    rows = tuple(
        (sym, ", ".join(board.place(h) for h in entry.placed) or "none", str(entry.unplaced))
        for sym, entry in state_of(game).ports.items()
    )
    return FactTable("ports", "Port tokens", ("corporation", "placed in", "to place"), rows)


def fact_tables(title: Title1883, game: Game) -> list[FactTable]:
    """The concessions, the support cards and the ports."""
    return [concessions_table(title, game), support_table(title, game), ports_table(game)]


def map_markers(game: Game) -> list[MapMarker]:
    """§6.6 port tokens placed, §8.3.1 SARSA's bus tokens, on their hexes."""
    board = game.state.map.board
    st = state_of(game)
    out = [
        MapMarker(coord, "port", sym, f"{sym}'s port token in {board.place(coord)}")
        for sym, entry in st.ports.items()
        for coord in entry.placed
    ]
    bus = next((sym for sym, c in game.state.corps.items() if c.kind == "bus"), None)
    if bus is not None:
        out.extend(
            MapMarker(coord, "bus", bus, f"{bus}'s bus token in {board.place(coord)}")
            for coord in st.bus_tokens
        )
    return out
