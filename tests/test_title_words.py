"""Every title's own decisions in a player's words (1883 §5.5, §5.6, §6.6, §8.1.6, §8.3.1,
§8.4, §11; 1854 §4, §5.3, §5.3.1, §5.10, §5.12, §6.4.1): no legal action of a whole game
falls back to the generic "type and values" wording."""

from __future__ import annotations

import io
import random
import re

import pytest
from rich.console import Console

from test_1883_events import draw
from test_1883_operating import floated, turn_at
from tresham.bots.random_bot import choose
from tresham.core.actions import Action, Choose, LayTile, Pass
from tresham.core.deals import OFFER
from tresham.core.game import Game
from tresham.core.prompts import COMMON, Prompt
from tresham.io.save import new_game
from tresham.terminal import Terminal
from tresham.titles.registry import get_title
from tresham.titles.t1854.actions import BuildTunnel, BuyMailContract, MergeLocals
from tresham.titles.t1883.actions import BuyConcession, BuySupport
from tresham.words import Words

#: Games walked per title (random play, every legal action of every position worded).
GAMES = {"1849": 2, "1854": 1, "1883": 2}


class Ids:
    """What a player never reads: a train's id ("4H-0") or a named place's bare coordinate
    ("C1" where the board says "Palermo (C1)")."""

    def __init__(self, g: Game) -> None:
        trains = "|".join(re.escape(t) for t in sorted(g.state.depot.trains, key=len)[::-1])
        self.train = re.compile(rf"(?<![\w+-])({trains})(?![\w+-])")
        board = g.state.map.board
        self.named = {c: board.place(c) for c in board.hexes if board.town(c) != c}
        coords = "|".join(sorted(self.named, key=len)[::-1])
        self.coord = re.compile(rf"(?<![\w(])({coords})(?![\w)])")

    def problems(self, line: str) -> list[str]:
        out = [f"train id {m}" for m in self.train.findall(line)]
        out += [f"bare {m} (say {self.named[m]})" for m in self.coord.findall(line)]
        return out


def walk(title: str, seed: int) -> dict[str, str]:
    """Every action type met in a random game of `title`, with one of its texts; fails on an
    action worded generically, and on a train id or a named place's bare coordinate in any
    action's words or log line."""
    t = get_title(title)
    players = ["Ann", "Bob", "Cid", "Dan", "Eve"][: t.player_range[0] + seed % 2]
    g = Game(t, players, seed)
    ids = Ids(g)
    rng = random.Random(seed)
    seen: dict[str, str] = {}
    while not g.state.finished and len(g.actions) < 3000:
        words = Words(g)
        for action in g.legal_actions():
            text = words.text(action)
            assert text != Words.generic(action) or isinstance(action, Choose), (title, action)
            key = action.type + (f":{action.choice}" if isinstance(action, Choose) else "")
            assert not key.startswith("choose:") or text != action.choice.capitalize(), text
            assert not ids.problems(text), (text, ids.problems(text))
            seen.setdefault(key, text)
        logged = len(g.state.events)
        g.apply(choose(g, rng))
        for line in g.state.events[logged:]:
            assert not ids.problems(line), (line, ids.problems(line))
    return seen


@pytest.mark.parametrize("title", sorted(GAMES))
def test_no_action_of_a_game_is_worded_generically(title: str) -> None:
    seen: dict[str, str] = {}
    for seed in range(GAMES[title]):
        seen.update(walk(title, seed))
    own = {"1883": {"buy_concession", "buy_support", "choose:loot"}, "1854": {"build_tunnel"}}
    assert own.get(title, set()) <= seen.keys(), sorted(seen)


def text(g: Game, action: Action) -> str:
    return Words(g).text(action)


# 1883 §5.6 / §5.6.1 / §6.12 (Appendix 3, Concession 1): Casalecchio - Bazzano - Vignola,
# L.15, two operating rounds, a bonus of L.100 in the first phases, a penalty of twice the cost
def test_a_concession_says_its_places_price_deadline_bonus_and_penalty() -> None:
    g = floated("FBV", (2, 8))
    assert text(g, BuyConcession("A", "FBV", 1)) == (
        "Buy Government Concession 1 for FBV (L.15): join Casalecchio \N{EN DASH} Bazzano "
        "\N{EN DASH} Vignola within 2 operating rounds for a bonus of L.100 now, or pay L.30"
    )


# 1883 §5.5: the next card's price by the cards held (one at the start: L.10)
def test_a_support_card_says_its_price_and_use() -> None:
    g = floated("FBV", (2, 8))
    assert text(g, BuySupport("A")).startswith("Buy a Political Support card for L.10 (you hold 1)")


# 1883 §8.1.6: looting takes the revenue and ousts the president
def test_loot_says_it_ousts_the_president() -> None:
    g = floated("FBV", (2, 8))
    rnd = turn_at(g, "CCFR", "loot")
    rnd.turn.revenue = 85
    words = text(g, Choose("CCFR", "loot"))
    assert "take its L.85 yourself" in words and "leave the presidency for good" in words


# 1883 §11.2 #23 War Effort: the card's effect and what a card played changes
def test_an_event_choice_says_what_each_answer_does() -> None:
    from positions import give_train

    g = floated("FBV", (2, 8))
    for kind in ("2", "3"):
        give_train(g, "FBV", kind)
    draw(g, 23)
    assert text(g, Choose("FBV", "play_support")) == (
        "Play a Political Support card: FBV chooses which train to lose (never a 2G)"
    )
    assert text(g, Choose("FBV", "decline")) == (
        "Play no card: FBV loses its dearest train (half its price paid back)"
    )


# 1854 ruling ML1 and §5.3 (ruling T2): a prompt's answers are worded by the prompt, the same
# action otherwise by the title
def test_1854s_prompts_word_their_answers() -> None:
    from test_1854_major_local import phase_5_round, until
    from test_1854_operating import sd_asks_for_c21

    g = phase_5_round()
    until(g, "L2")
    assert text(g, MergeLocals("L2", "L3")) == "Merge L2 with L3 into a Major Local Railway"
    g.apply(MergeLocals("L2", "L3"))
    assert text(g, MergeLocals("L3", "L2")) == (
        "Agree: merge L3 with L2 into a Major Local Railway"
    )
    assert text(g, Pass("L3")) == "Refuse the merger: L3 carries on alone"
    g = sd_asks_for_c21()
    ask = next(a for a in g.legal_actions() if isinstance(a, LayTile) and a.hex == "C21")
    g.apply(ask)
    where = g.state.map.board.place("C21")
    assert text(g, Choose("KE", "grant")) == f"Let SD lay tile {ask.tile} on {where}"
    assert text(g, Choose("KE", "refuse")) == f"Refuse SD tile {ask.tile} on {where}"


# 1854 §5.12, Table 6: a 100 G contract earns 10 G a turn in phase 2, up to 60 G in phase 8
def test_a_mail_contract_says_what_it_earns() -> None:
    g = Game(get_title("1854"), ["A", "B", "C"], 1)
    words = text(g, BuyMailContract("SD", 100))
    assert words.startswith("Buy a 100 G mail contract: SD collects 10 G at the start of each")
    assert "up to 60 G later" in words and "(6 left in the bank)" in words


# 1854 §5.3.1: a tunnel is named by its hex, its shape and the sides it joins
def test_a_tunnel_says_its_shape_and_sides() -> None:
    g = Game(get_title("1854"), ["A", "B", "C"], 1)
    words = text(g, BuildTunnel("SD", "J36", 0, 4))
    assert words.startswith("Build a gentle tunnel through J36, from the south-west to the east")
    assert "toward Sankt Pölten (J38)" in words


# 1883 §5.8: a closed corporation goes back to wait for a new start (unfloated, not gone);
# what closed it says so, as for any other title's closure
def test_a_closure_that_leaves_the_corporation_startable_is_said() -> None:
    from tresham.titles.t1883.rules import Title1883
    from tresham.words import Snapshot

    g = floated("FBV", (7, 0))
    before = Snapshot.of(g)
    assert isinstance(g.title, Title1883)
    g.title.close_corporation(g, "FBV")
    # its shares go back to the initial offering without compensation: the holder loses them
    assert "FBV closes. Lost with it: A's 30% of FBV" in before.changes(
        Snapshot.of(g), Words(g), None
    )


# 1883 §5.3.2: the FSF private closes when its corporation starts; it is named as a private
def test_a_private_closing_is_named_as_the_private() -> None:
    from tresham.words import Snapshot

    g = Game(get_title("1883"), ["A", "B", "C", "D"], 1)
    before = Snapshot.of(g)
    g.state.companies["FSF"].closed = True
    changes = before.changes(Snapshot.of(g), Words(g), None)
    assert "The private Ferrovia Suzzara Ferrara Presidency (FSF) closes" in changes


# 1849 §End (the bank breaks and pays on): the bank is never said to hold a negative amount
def test_a_broken_bank_is_said_without_a_negative_amount() -> None:
    from tresham.words import bank_words

    def money(amount: int) -> str:
        return f"L.{amount}"

    assert bank_words(1200, False, money) == "L.1200"
    assert bank_words(0, True, money) == "L.0 (broken)"
    assert bank_words(-1599, True, money) == "broken (it has paid L.1599 beyond its last)"


def test_1854s_orient_express_and_plus_trains_in_players_words() -> None:
    """§5.6, §5.9: the Orient Express is named so wherever a train is named (the rulebook's
    "OE" is its card's short name), and the depot says what it and the plus trains do."""
    game = new_game("1854", ["Ann", "Bob", "Cid", "Dan"], 3)
    depot = game.state.depot
    oe = next(t.tid for t in depot.trains.values() if t.kind == "OE")
    assert Words(game).train(oe) == "Orient Express"
    note = game.title.train_note("OE")
    assert "Paris" in note and "Constantinople" in note and "8-train" in note
    assert "only a Local Railway runs it, to 2 large stations" in game.title.train_note("2+")
    assert game.title.train_note("4") == ""


@pytest.mark.parametrize("title", ["1849", "1854", "1883"])
def test_every_prompt_tells_watchers_why(title: str) -> None:
    """Every prompt a title registers says to those who watch what is asked and why (its own
    ``why``, the public state's ``asked``); the offer alone has a panel of its own."""
    prompts = {**COMMON, **get_title(title).prompts}
    silent = {kind for kind, p in prompts.items() if type(p).why is Prompt.why}
    assert silent == {OFFER}


def test_1854s_local_railways_have_their_own_heading() -> None:
    """1854 §3.1.2: a Local Railway's certificate is a private certificate, but players list
    the Local Railways apart from the privates (P1...); the other titles have privates only."""
    g = new_game("1854", ["Ann", "Bob", "Cid", "Dan"], 1)
    group = {co: g.title.company_group(g, co) for co in g.state.companies}
    assert {co for co, kind in group.items() if kind == "Local Railways"} == {
        f"L{n}" for n in range(1, 7)
    }
    assert {kind for co, kind in group.items() if not co.startswith("L")} == {"privates"}
    for title in ("1849", "1883"):
        other = new_game(title, ["Ann", "Bob", "Cid"], 1)
        assert {other.title.company_group(other, co) for co in other.state.companies} == {
            "privates"
        }
    g.state.companies["L2"].owner = g.state.companies["P1"].owner = "Ann"
    screen = io.StringIO()
    Terminal(g, Console(file=screen, width=200)).show()
    head = next(line for line in screen.getvalue().splitlines() if "player" in line)
    ann = next(line for line in screen.getvalue().splitlines() if " Ann " in line)
    assert head.index("privates") < head.index("Local Railways")
    assert ann.index("P1") < head.index("Local Railways") <= ann.index("L2")
