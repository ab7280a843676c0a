"""Core trains: variants, per-kind train limits, and the depot's offer."""

from __future__ import annotations

import pytest

from tresham.core.actions import BuyTrain, action_from_json
from tresham.core.trains import Depot, Phase, TrainType, TrainVariant

# 1854 Table 5: a "2" may be bought as a local "2+"; majors keep 4 trains, locals 2
TWO = TrainType("2", 2, 100, 3, variants=(TrainVariant("2+", 2, 120),))
PHASE_3 = Phase("3", "3", 4, ("yellow", "green"), 2, kind_limits=(("local", 2),))


def test_variant_lookup() -> None:
    assert TWO.variant(None) == TrainVariant("2", 2, 100)
    assert TWO.variant("2") == TrainVariant("2", 2, 100)
    assert TWO.variant("2+") == TrainVariant("2+", 2, 120)
    with pytest.raises(KeyError):
        TWO.variant("3+")


def test_limits_by_corporation_kind() -> None:
    assert PHASE_3.limit("major") == 4
    assert PHASE_3.limit("local") == 2


def test_buy_train_variant_round_trips_and_old_saves_load() -> None:
    action = BuyTrain("KK", "2-0", 120, "2+")
    assert action_from_json(action.to_json()) == action
    old = {"type": "buy_train", "entity": "KK", "train": "2-0", "price": 100}
    assert action_from_json(old) == BuyTrain("KK", "2-0", 100)


def test_depot_offers_the_next_train_of_each_type_in_order() -> None:
    depot = Depot.build([TWO, TrainType("3", 3, 180, 2)])
    assert [t.tid for t in depot.purchasable(set())] == ["2-0"]
    for tid in ("2-0", "2-1", "2-2"):
        depot.trains[tid].owner = "KK"
    assert [t.tid for t in depot.purchasable(set())] == ["3-0"]
