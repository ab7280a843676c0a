"""1883's Random Event cards and the Political Support plays against them (§7, §11, §6.2).

- In every OR but the very first, after the privates pay, the next card of the event deck is
  drawn and resolved (6.0, 6.2). The deck starts with the First Era cards (1-12) shuffled;
  the first 3bisT and the first 6T form the next era's deck from the unused cards marked
  for it and the new era's cards, shuffled (7.1). An empty deck draws nothing until the next
  era (7.1).
- A card that names "players" asks them in turn from the Priority Cardholder; one that names
  "Corporations" asks their presidents from the highest share price down (7.0, the operating
  order's ties). Who holds enough Political Support cards may play them to avoid the effect;
  played cards go back to the supply (7.0). Who cannot is affected at once.
- Revenue effects (strikes, Autarchy, Trains Are on Time, Hot Autumn) change the run's value
  after the regular trains and the 2GT, before the dividend; halving rounds down and +50%
  rounds up, both to a multiple of L.10 (the §11 examples: 130 -> 60, 130 -> 200). A
  revenue reduced to zero moves the share price left as any zero revenue does (6.8.3), which
  is the move the strike cards describe (ruling R23).
- Flooding and the Landslide close the F hexes and the hill and mountain hexes to tile lays
  for the OR; the off-board cards change an off-board location's value for the OR.
- Money set aside by the Second World War and "The Front Wins" leaves the bank until the
  Tax Shield returns L.500 (11.2 #18, 11.3 #30-31).

The random victims (Magnacucchi) and the air raids' hexes are rolled with the game's one
generator. Card marks for the next eras are reconstructed (ruling R22).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tresham.core.actions import Action, Bankrupt, Choose, DiscardTrain, SellShares
from tresham.core.prompts import Prompt
from tresham.core.rounds.operating import OperatingRound
from tresham.core.stock import bundle_price, emergency_bundles, sell_to_pool
from tresham.titles.t1883 import air_raids, coop
from tresham.titles.t1883.dice import d10
from tresham.titles.t1883.facts import DATA, GRAVITY_KINDS, rules_of
from tresham.titles.t1883.state import ClosedHex, Debt, Events, OrEffects, SupportAsk, state_of

if TYPE_CHECKING:
    from tresham.core.game import Game
    from tresham.core.rng import GameRandom

RULE = "1883 §7"
CARDS = "1883 §11"
#: Prompts: a Political Support play against an event; a player raising money for an event
#: (6.9.6); the train a corporation gives up to the War Effort after playing a card.
SUPPORT = "event_support"
RAISE = "event_raise"
WAR_TRAIN = "war_effort_train"
PLAY = "play_support"
DECLINE = "decline"
WORLD_WAR_FEE = 10
GOLD_PERCENT = 10
GOLD_CARDS = 3
MONEY_ASIDE = 500
POOL_CAP = 50
#: Which corporations a card names, by kind (the Co-operative is "cooperative").
RAILWAYS = ("railway",)
COMPANIES = ("railway", "bus")
EVERY = ("railway", "bus", "cooperative")
RAILWAYS_AND_COOP = ("railway", "cooperative")
#: Era decks begin with the first purchase of these trains (7.1).
ERA_ON = {"3bis": 2, "6": 3}
STRIKES = ("general_strike", "railway_strike", "bus_strike")


def enabled(game: Game) -> bool:
    """12.3 "Create Your Own Destiny" plays without events and Political Support cards."""
    return not game.options.get("no_events")


def cards(game: Game) -> dict[int, dict[str, Any]]:
    """The event cards by number (11.0)."""
    return {int(c["number"]): c for c in DATA["events"]}


def new_state(game: Game, rng: GameRandom) -> Events:
    """The event deck and effects at the start: the First Era cards shuffled (2.3 d)."""
    first = [n for n, c in cards(game).items() if c["eras"][0] == 1]
    return Events(rng.permutation(first) if enabled(game) else [])


#: What a Random Event does to whoever plays no Political Support card against it (§11).
EFFECT_WORDS = {
    "zero": "earns nothing this operating round",
    "half": "earns half this operating round",
    "gold": "gives 10% of their money, rounded up",
    "war_effort": "loses its dearest train (half its price paid back)",
    "marshall": "gets no Marshall Plan move",
}
#: What playing the cards does instead.
SUPPORTED_WORDS = {
    "zero": "earns in full",
    "half": "earns in full",
    "gold": "keeps all their money",
    "war_effort": "chooses which train to lose (never a 2G)",
    "marshall": "moves its share price one space right",
}


def _ev(game: Game) -> Events:
    return state_of(game).events


def undrawn(game: Game) -> tuple[int, ...]:
    """The deck's undrawn cards, in the order they will be drawn (no player knows it)."""
    return tuple(_ev(game).deck)


def shuffle_undrawn(game: Game, rng: random.Random) -> None:
    """In a bot's search copy: the undrawn cards of the deck in a new order (no player knows
    the real one, 2.3 d), drawn from the cards in the order of their numbers, so that the
    new order owes nothing to the real one (a shuffle of the real order by a known seed
    could be undone)."""
    ev = _ev(game)
    ev.deck = sorted(ev.deck)
    rng.shuffle(ev.deck)


# ====================================================================== eras
def on_first_purchase(game: Game, kind: str) -> None:
    """7.1: the first 3bisT (6T) forms the Second (Third) Era deck: the unused cards marked
    for it and the new era's cards, shuffled. 12.2 "Bombs Away": with the Third Era, the air
    raids happen at once if they have not yet."""
    era = ERA_ON.get(kind)
    if era is None or not enabled(game):
        return
    ev = _ev(game)
    every = cards(game)
    kept = [n for n in ev.deck if era in every[n]["eras"]]
    new = [n for n, c in every.items() if c["eras"][0] == era]
    ev.deck = game.state.rng.permutation(kept + new)
    ev.era = era
    game.log(f"Era {era} of the Random Events begins: {len(ev.deck)} cards")
    if era == 3 and game.options.get("bombs_away"):
        raids = next(n for n, c in every.items() if c["effect"] == "air_raids")
        if raids not in ev.drawn:
            if raids in ev.deck:
                ev.deck.remove(raids)
            ev.drawn.append(raids)
            game.log("Bombs Away (12.2): the air raids happen now")
            _air_raids(game, every[raids])


# ====================================================================== drawing
def begin_operating_round(game: Game) -> None:
    """6.2: the Priority Cardholder draws a card (none in the very first OR); Hot Autumn
    repeats until the next SR (11.3 #26)."""
    ev = _ev(game)
    ev.effects = OrEffects()
    if ev.hot_autumn:
        game.log("Hot Autumn goes on")
        _hot_autumn(game, {})
    if game.state.operating_round_no == 1 or not enabled(game):
        return
    if not ev.deck:
        game.log("No Random Event: the deck is empty until the next era (7.1)")
        return
    number = ev.deck.pop(0)
    ev.drawn.append(number)
    card = cards(game)[number]
    game.log(f"Random Event {number}: {card['name']}")
    HANDLERS[card["effect"]](game, card)


def begin_stock_round(game: Game) -> None:
    """11.3 #26: Hot Autumn stays on the map until the next SR."""
    _ev(game).hot_autumn = False


def end_of_operating_round(game: Game, operated: list[str]) -> None:
    """Remember who operated, for the Railroad Accident of the next OR (11.1 #6)."""
    _ev(game).last_operated = list(operated)


def events_drawn(game: Game) -> int:
    """How many event cards have been drawn so far."""
    return len(_ev(game).drawn)


def cash_aside(game: Game) -> int:
    """Money the Second World War and "The Front Wins" have taken from the bank."""
    return _ev(game).aside


# ====================================================================== who is named
def _corps(game: Game, kinds: tuple[str, ...]) -> list[str]:
    """Operating corporations of these kinds, highest share price first (7.0)."""
    s = game.state
    live = [
        sym
        for sym, c in s.corps.items()
        if c.kind in kinds and c.floated and not c.closed and sym in s.market
        and not (c.kind == "cooperative" and coop.frozen(game))
    ]  # fmt: skip
    return s.market.operating_order(live)


def _players(game: Game) -> list[str]:
    """Players still in the game, from the Priority Cardholder clockwise (7.0)."""
    s = game.state
    n = len(s.players)
    seats = [s.players[(s.priority + i) % n] for i in range(n)]
    return [p.name for p in seats if not p.bankrupt]


def support(game: Game, player: str) -> int:
    """The player's Political Support cards."""
    return state_of(game).support.held[player]


def _decider(game: Game, entity: str) -> str | None:
    """Who plays cards for `entity`: the player, or the corporation's president."""
    if entity in game.state.corps:
        return game.state.shares.president.get(entity)
    return entity


def _pay_support(game: Game, player: str, count: int) -> None:
    cards_of = state_of(game).support
    cards_of.held[player] -= count
    cards_of.supply += count


def _ask(game: Game, entity: str, effect: str, cost: int) -> None:
    """7.0: who holds `cost` cards may play them against the effect; anyone else suffers it."""
    decider = _decider(game, entity)
    if decider is not None and support(game, decider) >= cost:
        _ev(game).asks.append(SupportAsk(entity, effect, cost))
        game.state.pending.append((SUPPORT, entity))
    else:
        _suffer(game, entity, effect)


# ====================================================================== prompts
class Support(Prompt):
    """7.0: who holds enough Political Support cards plays them against an event's effect,
    or declines and suffers it."""

    kind = SUPPORT
    rule = SUPPORT

    def actions(self, game: Game, entity: str) -> list[Action]:
        return [Choose(entity, PLAY), Choose(entity, DECLINE)]

    def process(self, game: Game, entity: str, action: Action) -> None:
        assert isinstance(action, Choose)
        asks = _ev(game).asks
        ask = next(a for a in asks if a.entity == entity)
        asks.remove(ask)
        effect, cost = ask.effect, ask.cost
        if action.choice == PLAY:
            decider = _decider(game, entity)
            assert decider is not None
            _pay_support(game, decider, cost)
            game.log(f"{decider} plays {cost} Political Support for {entity}")
            _supported(game, entity, effect)
        else:
            _suffer(game, entity, effect)
        _reorder(game)

    def words(self, game: Game, entity: str, action: Action, words: Any) -> str | None:
        """Play the cards the Random Event asks for, or suffer its effect."""
        if not isinstance(action, Choose):
            return None
        ask = next((a for a in _ev(game).asks if a.entity == entity), None)
        if ask is None:
            return "Play a Political Support card" if action.choice == PLAY else "Play no card"
        cards = (
            "a Political Support card" if ask.cost == 1 else f"{ask.cost} Political Support cards"
        )
        if action.choice == PLAY:
            instead = SUPPORTED_WORDS.get(ask.effect, "avoids the event")
            return f"Play {cards}: {entity} {instead}"
        return f"Play no card: {entity} {EFFECT_WORDS.get(ask.effect, 'suffers the event')}"

    def why(self, game: Game, entity: str) -> str:
        """7.0: the Random Event's effect, and the cards that avoid it."""
        ask = next((a for a in _ev(game).asks if a.entity == entity), None)
        decider = _decider(game, entity)
        if ask is None or decider is None:
            return ""
        cards = "a Political Support card" if ask.cost == 1 else f"{ask.cost} of them"
        return (
            f"A Random Event: {entity} {EFFECT_WORDS.get(ask.effect, 'suffers the event')} "
            f"unless {decider} plays {cards} (7.0)"
        )


class WarTrain(Prompt):
    """The train (not a gravity train) a corporation gives up to the War Effort."""

    kind = WAR_TRAIN
    rule = WAR_TRAIN

    def actions(self, game: Game, entity: str) -> list[Action]:
        s = game.state
        gravity = GRAVITY_KINDS
        return [
            DiscardTrain(entity, t)
            for t in s.corps[entity].trains
            if s.depot.trains[t].kind not in gravity
        ]

    def process(self, game: Game, entity: str, action: Action) -> None:
        assert isinstance(action, DiscardTrain)
        _lose_train(game, entity, action.train)
        _reorder(game)

    def why(self, game: Game, entity: str) -> str:
        """§11.2 #23 with support played: the president chooses the train lost."""
        pres = game.state.shares.president.get(entity) or entity
        return (
            f"The War Effort takes a train of {entity}: {pres} played Political Support and "
            "chooses which (never a gravity train), half its price paid back (§11.2 #23)"
        )


class Raise(Prompt):
    """6.9.6: a player raising the money an event costs."""

    kind = RAISE
    rule = RAISE

    def actions(self, game: Game, entity: str) -> list[Action]:
        return _raise_actions(game, entity)

    def process(self, game: Game, entity: str, action: Action) -> None:
        _raise_process(game, entity, action)
        _reorder(game)

    def why(self, game: Game, entity: str) -> str:
        """6.9.6: what the player owes, what they have, and how they raise the rest."""
        debt = _ev(game).owed.get(entity)
        if debt is None:
            return ""
        money = game.title.money
        return (
            f"{entity} owes the bank {money(debt.amount)} for a Random Event and has "
            f"{money(game.player(entity).cash)}: {entity} sells shares to raise the rest (6.9.6)"
        )


def _reorder(game: Game) -> None:
    """6.0: the operating order follows the share prices after the event (before anyone
    has operated)."""
    rnd = game.state.round
    if isinstance(rnd, OperatingRound) and rnd.index == 0 and not rnd.turn.started:
        rnd.order = game.state.market.operating_order(
            [c for c in rnd.order if c in game.state.market]
        )


# ====================================================================== effects
def _suffer(game: Game, entity: str, effect: str) -> None:
    """An entity that did not (or could not) play support suffers the effect."""
    ev = _ev(game)
    if effect in ("zero", "half"):
        ev.effects.revenue.setdefault(entity, []).append(effect)
        game.log(f"{entity}'s revenue this OR: {'none' if effect == 'zero' else 'halved'}")
    elif effect == "gold":
        loss = -(-game.player(entity).cash * GOLD_PERCENT // 100)
        game.transfer(entity, "bank", loss)
        game.log(f"{entity} gives L.{loss} of gold for the homeland")
    elif effect == "war_effort":
        _lose_train(game, entity, _dearest_train(game, entity))
    else:
        assert effect == "marshall"


def _supported(game: Game, entity: str, effect: str) -> None:
    """What playing support does: the effect is avoided; for the War Effort the corporation
    chooses the train it loses (not a 2GT); the Marshall Plan moves the price right."""
    if effect == "war_effort":
        game.state.pending.insert(0, (WAR_TRAIN, entity))
    elif effect == "marshall":
        rules_of(game).move_price(game, entity, "right")
        game.log(f"{entity} moves right with the Marshall Plan")
    else:
        game.log(f"{entity} avoids the event")


def adjust_revenue(game: Game, corp: str, revenue: int) -> int:
    """The run's value after this OR's revenue effects (11.0 notes)."""
    for effect in _ev(game).effects.revenue.get(corp, []):
        if effect == "zero":
            revenue = 0
        elif effect == "half":
            revenue = revenue // 20 * 10
        else:
            revenue += -(-revenue // 20) * 10
    return revenue


def closed_hexes(game: Game) -> dict[str, str]:
    """Hexes where no tile may be laid or upgraded this OR, with the card that closes them."""
    closed: dict[str, str] = {}
    for c in _ev(game).effects.closed:
        closed.setdefault(c.coord, c.card)
    return closed


def red_week(game: Game) -> bool:
    """11.1 #10: whether the FS track is closed this OR."""
    return _ev(game).effects.red_week


def offboard_bonus(game: Game) -> dict[str, int]:
    """This OR's changes to off-board values, by hex."""
    return _ev(game).effects.offboards


# ====================================================================== the cards
def _world_war(game: Game, card: dict[str, Any]) -> None:
    """#1: every player pays L.10 to the bank; who cannot raises it as in 6.9.6."""
    for name in _players(game):
        owe(game, name, WORLD_WAR_FEE, None)
    game.log(f"Every player pays L.{WORLD_WAR_FEE}")


def _close_hexes(game: Game, card: dict[str, Any]) -> None:
    """#2 Flooding: the F hexes; #5 Landslide: the hill and mountain hexes."""
    board = game.state.map.board.extra
    if card["effect"] == "flooding":
        hexes = board["flood_hexes"]
    else:
        hexes = board["hills"] + board["mountains"]
    _ev(game).effects.closed.extend(ClosedHex(h, f"{CARDS} #{card['number']}") for h in hexes)


def _general_strike(game: Game, card: dict[str, Any]) -> None:
    """#3-4: every railway and bus corporation plays a card or earns nothing (the
    Co-operative is spared); the Strike Breaker or Hot Autumn cancels it."""
    ev = _ev(game)
    if ev.strike_breaker_or == game.state.operating_round_no:
        game.log("The Strike Breaker cancels the General Strike")
        return
    if _absorbed(game):
        return
    for corp in _corps(game, COMPANIES):
        _ask(game, corp, "zero", 1)


def _absorbed(game: Game) -> bool:
    """11.3 #26: under Hot Autumn the strike cards have no effect."""
    if _ev(game).hot_autumn:
        game.log("Hot Autumn absorbs the strike")
        return True
    return False


def _accident(game: Game, card: dict[str, Any]) -> None:
    """#6: the railway corporation that operated last OR with the highest share price moves
    left; ties: more trains (2GT aside), then more cash, then all of them."""
    s = game.state
    gravity = GRAVITY_KINDS
    ran = [
        c for c in _ev(game).last_operated
        if c in s.corps and s.corps[c].kind == "railway" and not s.corps[c].closed
        and c in s.market
    ]  # fmt: skip
    if not ran:
        game.log("No railway corporation operated last OR: no accident")
        return

    def key(corp: str) -> tuple[int, int, int]:
        trains = sum(1 for t in s.corps[corp].trains if s.depot.trains[t].kind not in gravity)
        return (s.market.price(corp), trains, s.corps[corp].cash)

    worst = max(key(c) for c in ran)
    for corp in s.market.operating_order([c for c in ran if key(c) == worst]):
        game.log(f"{corp} suffers a railroad accident")
        rules_of(game).move_price(game, corp, "left")


def _railway_strike(game: Game, card: dict[str, Any]) -> None:
    """#7-9: every railway corporation plays a card or earns half (SARSA and the
    Co-operative are spared)."""
    if _absorbed(game):
        return
    for corp in _corps(game, RAILWAYS):
        _ask(game, corp, "half", 1)


def _red_week(game: Game, card: dict[str, Any]) -> None:
    """#10: no route along the FS red track this OR."""
    _ev(game).effects.red_week = True


def _strike_breaker(game: Game, card: dict[str, Any]) -> None:
    """#11: a General Strike drawn in the next OR has no effect."""
    _ev(game).strike_breaker_or = game.state.operating_round_no + 1


def _offboards(game: Game, card: dict[str, Any]) -> None:
    """#12, #21, #25: off-board values change for this OR."""
    places = game.state.map.board.extra["offboards"]
    bonus = _ev(game).effects.offboards
    for name, delta in card["offboards"].items():
        coord = places[name]["hex"]
        bonus[coord] = bonus.get(coord, 0) + int(delta)
        game.log(f"{name}: {'+' if delta > 0 else ''}{delta} this OR")


def _air_raids(game: Game, card: dict[str, Any]) -> None:
    """#13: ten hexes are bombed, each by two d10 rolled in turn from the Priority Cardholder
    (tens, then units; a face of 10 reads 0); see ``air_raids.py``."""
    players = _players(game)
    by_number = {
        n: coord
        for coord, numbers in game.state.map.board.extra["hex_numbers"].items()
        for n in numbers
    }
    for i in range(10):
        roller = players[i % len(players)]
        number = (d10(game) % 10) * 10 + d10(game) % 10
        coord = by_number.get(number)
        where = game.state.map.board.place(coord) if coord else "no hex"
        game.log(f"{roller} rolls {number:02d}: {where}")
        if coord is not None:
            air_raids.queue(game, roller, coord)
    air_raids.settle(game)


def _autarchy(game: Game, card: dict[str, Any]) -> None:
    """#14: every corporation (the Co-operative too) plays a card or earns half."""
    for corp in _corps(game, EVERY):
        _ask(game, corp, "half", 1)


def _empire(game: Game, card: dict[str, Any]) -> None:
    """#15: each player with fewer than nine cards gains one (while the supply lasts)."""
    most = int(DATA["political_support"]["max_per_player"])
    for name in _players(game):
        if support(game, name) < most and state_of(game).support.supply > 0:
            _pay_support(game, name, -1)
            game.log(f"{name} gains a Political Support card")


def _occupation(game: Game, card: dict[str, Any]) -> None:
    """#16: the first available train leaves play, with a purchase's phase effects."""
    s = game.state
    title = rules_of(game)
    regular = [t for t in s.depot.in_bank() if s.depot.types[t.kind].available_on is None]
    if not regular:
        game.log("No train left to remove")
        return
    train = regular[0]
    s.depot.remove(train.tid)
    game.log(f"A {s.depot.name(train.tid)} train is removed from play")
    title.on_train_bought(game, train.kind)


def _gold(game: Game, card: dict[str, Any]) -> None:
    """#17: each player gives 10% of their money (rounded up), or plays three cards."""
    for name in _players(game):
        _ask(game, name, "gold", GOLD_CARDS)


def _money_aside(game: Game, card: dict[str, Any]) -> None:
    """#18, #31: L.500 leaves the bank, put aside."""
    s = game.state
    amount = min(MONEY_ASIDE, s.bank.cash)
    s.bank.pay_out(amount)
    _ev(game).aside += amount
    game.log(f"L.{amount} is taken from the bank and put aside")


def _money_back(game: Game, card: dict[str, Any]) -> None:
    """#30: the bank recovers L.500 of the money put aside (only L.500 if both were drawn)."""
    ev = _ev(game)
    amount = min(MONEY_ASIDE, ev.aside)
    ev.aside -= amount
    game.state.bank.take_in(amount)
    game.log(f"The bank recovers L.{amount}")


def _lose_support(game: Game, card: dict[str, Any]) -> None:
    """#19, #20, #27: each player with a card loses one."""
    for name in _players(game):
        if support(game, name):
            _pay_support(game, name, 1)
            game.log(f"{name} loses a Political Support card")


def _on_time(game: Game, card: dict[str, Any]) -> None:
    """#22: railway corporations and the Co-operative earn 50% more (not SARSA)."""
    for corp in _corps(game, RAILWAYS_AND_COOP):
        _ev(game).effects.revenue.setdefault(corp, []).append("plus_half")


def _war_effort(game: Game, card: dict[str, Any]) -> None:
    """#23: of the railway corporations with two or more trains (2GT aside), the one with
    the most, then the dearest train, then the highest price (all tied ones) loses its
    dearest train, or plays a card and chooses which; the bank pays half its price."""
    s = game.state
    gravity = GRAVITY_KINDS

    def trains(corp: str) -> list[str]:
        return [t for t in s.corps[corp].trains if s.depot.trains[t].kind not in gravity]

    def dearest(corp: str) -> int:
        return max(s.depot.types[s.depot.trains[t].kind].price for t in trains(corp))

    owners = [c for c in _corps(game, RAILWAYS) if len(trains(c)) >= 2]
    if not owners:
        game.log("No railway corporation owns two trains: no effect")
        return
    best = max((len(trains(c)), dearest(c), s.market.price(c)) for c in owners)
    for corp in owners:
        if (len(trains(corp)), dearest(corp), s.market.price(corp)) == best:
            _ask(game, corp, "war_effort", 1)


def _dearest_train(game: Game, corp: str) -> str:
    s = game.state
    gravity = GRAVITY_KINDS
    own = [t for t in s.corps[corp].trains if s.depot.trains[t].kind not in gravity]
    return max(own, key=lambda t: s.depot.types[s.depot.trains[t].kind].price)


def _lose_train(game: Game, corp: str, tid: str) -> None:
    s = game.state
    s.corps[corp].trains.remove(tid)
    s.depot.remove(tid)
    half = s.depot.types[s.depot.trains[tid].kind].price // 2
    game.transfer("bank", corp, half)
    game.log(f"{corp} gives its {s.depot.name(tid)} train to the war effort and receives L.{half}")


def _bus_strike(game: Game, card: dict[str, Any]) -> None:
    """#24: SARSA plays a card or earns half."""
    if _absorbed(game):
        return
    for corp in _corps(game, ("bus",)):
        _ask(game, corp, "half", 1)


def _hot_autumn(game: Game, card: dict[str, Any]) -> None:
    """#26: every railway and bus corporation plays a card or earns nothing, this OR and
    every OR until the next SR."""
    _ev(game).hot_autumn = True
    for corp in _corps(game, COMPANIES):
        _ask(game, corp, "zero", 1)


def _magnacucchi(game: Game, card: dict[str, Any]) -> None:
    """#28: the players holding a card roll a d10; the highest loses one (ties roll again,
    ruling R22)."""
    holders = [n for n in _players(game) if support(game, n)]
    while len(holders) > 1:
        rolls = {n: d10(game) for n in holders}
        top = max(rolls.values())
        game.log(", ".join(f"{n} rolls {r}" for n, r in rolls.items()))
        holders = [n for n in holders if rolls[n] == top]
    if holders:
        _pay_support(game, holders[0], 1)
        game.log(f"{holders[0]} loses a Political Support card")


def _marshall(game: Game, card: dict[str, Any]) -> None:
    """#29: the corporation with the lowest share price may play a card to move right."""
    corps = _corps(game, COMPANIES)
    if corps:
        _ask(game, corps[-1], "marshall", 1)


HANDLERS: dict[str, Callable[[Game, dict[str, Any]], None]] = {
    "world_war": _world_war,
    "flooding": _close_hexes,
    "general_strike": _general_strike,
    "landslide": _close_hexes,
    "accident": _accident,
    "railway_strike": _railway_strike,
    "red_week": _red_week,
    "strike_breaker": _strike_breaker,
    "offboards": _offboards,
    "air_raids": _air_raids,
    "autarchy": _autarchy,
    "empire": _empire,
    "occupation": _occupation,
    "gold": _gold,
    "money_aside": _money_aside,
    "lose_support": _lose_support,
    "on_time": _on_time,
    "war_effort": _war_effort,
    "bus_strike": _bus_strike,
    "hot_autumn": _hot_autumn,
    "magnacucchi": _magnacucchi,
    "marshall": _marshall,
    "money_back": _money_back,
}


# ====================================================================== raising money
def owe(game: Game, player: str, amount: int, corp: str | None) -> None:
    """`player` pays `amount` to the bank; who lacks the money raises it as in 6.9.6 (a
    prompt), keeping the presidency of `corp` (the corporation the debt is for, if any), which
    closes if the player goes bankrupt."""
    if game.player(player).cash >= amount:
        game.transfer(player, "bank", amount)
        return
    owed = _ev(game).owed
    if player in owed:
        owed[player].amount += amount
        return
    owed[player] = Debt(amount, corp)
    game.state.pending.append((RAISE, player))


def _raise_actions(game: Game, player: str) -> list[Action]:
    """6.9.6 for a player owing money: sales of their shares (the pool within 50%, never the
    Co-operative's share); bankruptcy when even every sale falls short."""
    debt = _ev(game).owed[player]
    amount, corp = debt.amount, debt.corp
    short = amount - game.player(player).cash
    sales = player_sales(game, player, corp or "", short, player)
    out: list[Action] = list(sales)
    if cannot_raise(game, sales, short):
        out.append(Bankrupt(player))
    return out


def cannot_raise(game: Game, sales: list[SellShares], shortfall: int) -> bool:
    """Whether even the largest sale of every corporation falls short (6.9.6)."""
    best: dict[str, int] = {}
    for a in sales:
        best[a.corporation] = max(
            best.get(a.corporation, 0), bundle_price(game, a.corporation, a.percent)
        )
    return sum(best.values()) < shortfall


def player_sales(
    game: Game, player: str, buyer: str, shortfall: int, entity: str
) -> list[SellShares]:
    """6.9.6: the sales `player` may make to raise `shortfall` (for the corporation `buyer`,
    whose presidency they keep; "" for none), as actions of `entity`: their shares of started
    corporations, the pool within 50%, never the Co-operative's share, a bundle only if no
    smaller one covers it."""
    s = game.state
    started = [sym for sym, oc in s.corps.items() if oc.kind != "cooperative" and sym in s.market]
    return [
        SellShares(entity, sym, pct, last)
        for sym, pct, last in emergency_bundles(game, player, buyer, started, shortfall, POOL_CAP)
    ]


def _raise_process(game: Game, player: str, action: Action) -> None:
    ev = _ev(game)
    title = rules_of(game)
    if isinstance(action, Bankrupt):
        title.bankrupt(game, player, ev.owed.pop(player).corp)
        return
    assert isinstance(action, SellShares)
    sell_to_pool(game, player, action.corporation, action.percent, action.last)
    game.log(f"{player} sells {action.percent}% of {action.corporation} (6.9.6)")
    title.move_price(game, action.corporation, "down", action.percent // 10)
    owed = ev.owed[player].amount
    if game.player(player).cash >= owed:
        game.transfer(player, "bank", owed)
        del ev.owed[player]
    else:
        game.state.pending.insert(0, (RAISE, player))


#: The events' prompts, registered by the title (``Title.prompts``).
PROMPTS: tuple[Prompt, ...] = (Support(), Raise(), WarTrain())
