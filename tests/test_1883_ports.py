"""1883's port tokens (§6.6)."""

from __future__ import annotations

from test_1883_operating import turn_at
from test_1883_start import TITLE, game, sell_privates
from tresham.core.rules_protocols import Stop, TrainSpec
from tresham.titles.t1883 import ports
from tresham.titles.t1883.actions import PlacePort
from tresham.titles.t1883.operating import rules_for
from tresham.titles.t1883.state import state_of

T2 = TrainSpec("2-0", "2", 2)


# 1883 §6.6: FSF owns two port tokens: the first from its first OR, the second in another
# port city only after the first 3T; they go on anchor cities only
def test_fsf_port_tokens() -> None:
    g = game()
    sell_privates(g)
    turn_at(g, "FSF", "track")
    first = ports.options(g, "FSF")
    assert {a.hex for a in first} == {"C3", "C5", "D10"}
    assert PlacePort("FSF", "C3") in g.legal_actions()
    g.apply(PlacePort("FSF", "C3"))
    assert ports.placed(g, "FSF") == ["C3"]
    assert ports.options(g, "FSF") == []  # the second waits for the first 3T
    TITLE.on_train_bought(g, "3")
    assert {a.hex for a in ports.options(g, "FSF")} == {"C5", "D10"}


# 1883 §6.6: +20 for each of its trains running to, from or through the port city; +10
# from the first 4T
def test_port_bonus() -> None:
    g = game()
    sell_privates(g)
    state_of(g).ports["FSF"].placed.append("C3")
    node = g.state.map.tile("C3").nodes[0]
    stops = [Stop("C3", 0, node), Stop("B4", 0, g.state.map.tile("B4").nodes[0])]
    assert rules_for(g, "FSF").run_bonus(T2, "FSF", stops) == 20
    assert rules_for(g, "SAFRE").run_bonus(T2, "SAFRE", stops) == 0
    for kind in ("3", "3bis", "4"):
        TITLE.on_train_bought(g, kind)
    assert rules_for(g, "FSF").run_bonus(T2, "FSF", stops) == 10


# 1883 §6.8.4: Sassuolo's brown and grey city pays its higher value when a run starts or ends
# there, its lower one when the run passes through
def test_sassuolo_two_values() -> None:
    from tresham.core.tiles import NodeDef

    g = game()
    sassuolo = Stop("L4", 0, NodeDef("city", 30, 2, (), 50))
    a = Stop("L6", 0, g.state.map.tile("L6").nodes[0])
    b = Stop("M5", 0, NodeDef("town", 10))
    rules = rules_for(g, "SAFRE")
    assert rules.run_bonus(T2, "SAFRE", [sassuolo, a]) == 20
    assert rules.run_bonus(T2, "SAFRE", [a, sassuolo]) == 20
    assert rules.run_bonus(T2, "SAFRE", [a, sassuolo, b]) == 0
