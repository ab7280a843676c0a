"""What a game is made from is checked once, the same way on every path: a new game, a save
being loaded and the command line (core/game_spec.py); the server's paths are in
tests/test_server_edges.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tresham.cli import main
from tresham.core.errors import quote
from tresham.core.game import Game
from tresham.core.game_spec import MAX_NAME, MAX_SEED, SetupError
from tresham.io.save import from_save, new_game, to_save
from tresham.titles.registry import get_title

BAD_NAMES = [
    ("", "players[0]"),
    ("   ", "players[0]"),
    ("x" * (MAX_NAME + 1), "players[0]"),
    ("A\x00", "players[0]"),
    ("A\tB", "players[0]"),
    ("\ud800", "players[0]"),
    (" Ann", "players[0]"),
    (7, "players[0]"),
    (None, "players[0]"),
]


@pytest.mark.parametrize(("name", "field"), BAD_NAMES)
def test_bad_names_are_refused(name: Any, field: str) -> None:
    with pytest.raises(SetupError) as info:
        new_game("1849", [name, "Bob", "Cid"])
    assert info.value.field == field and info.value.rule == "setup"
    assert info.value.message.isprintable() and info.value.message.isascii()


def test_names_that_are_fine() -> None:
    game = new_game("1849", ["Ann Lee", "Bob-2", "Zoë", "x" * MAX_NAME])
    assert game.player_names[2] == "Zoë"


@pytest.mark.parametrize(
    ("players", "field"),
    [
        (["Ann", "Ann", "Cid"], "players[1]"),
        (["Ann", "Bob"], "players"),
        ("Ann,Bob,Cid", "players"),
        (["Ann", "Bob", "CTL"], "players[2]"),
        (["Ann", "Bob", "bank"], "players[2]"),
    ],
)
def test_bad_player_lists_are_refused(players: Any, field: str) -> None:
    with pytest.raises(SetupError) as info:
        new_game("1849", players)
    assert info.value.field == field


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 2**70, 1.5, "5", True, None])
def test_bad_seeds_are_refused(seed: Any) -> None:
    with pytest.raises(SetupError) as info:
        new_game("1849", ["A", "B", "C"], seed)
    assert info.value.field == "seed"


def test_the_largest_seed_plays() -> None:
    assert new_game("1849", ["A", "B", "C"], MAX_SEED).seed == MAX_SEED


@pytest.mark.parametrize(
    ("title", "options", "field"),
    [
        ("1849", {"delay_ift": "false"}, "options.delay_ift"),  # text is not a boolean
        ("1849", {"delay_ift": 1}, "options.delay_ift"),
        ("1849", {"delay_ift": None}, "options.delay_ift"),
        ("1849", {"rule_set": "rails"}, "options.rule_set"),
        ("1849", {"rule_set": True}, "options.rule_set"),
        ("1849", {"no_events": True}, "options.no_events"),  # another title's option
        ("1883", {"delay_ift": True}, "options.delay_ift"),
        ("1854", {"maybe": "yes"}, "options.maybe"),
        ("1849", {f"k{i}": True for i in range(10_000)}, "options.k0"),
        ("1849", ["delay_ift"], "options"),
        ("1883", {"rng": "dice"}, "options.rng"),
    ],
)
def test_bad_options_are_refused(title: str, options: Any, field: str) -> None:
    with pytest.raises(SetupError) as info:
        new_game(title, ["A", "B", "C"], 1, options)
    assert info.value.field == field


def test_false_means_off() -> None:
    # {"delay_ift": false} is the variant off: the order is the one without the option
    plain = new_game("1849", ["A", "B", "C"], 4)
    off = new_game("1849", ["A", "B", "C"], 4, {"delay_ift": False})
    assert off.state_hash() == plain.state_hash()


def test_every_title_declares_its_options() -> None:
    for name, expected in (
        (
            "1849",
            {
                "rng",
                "rule_set",
                "delay_ift",
                "reduced_4p_corps",
                "acquiring_station_tokens",
                "bonds",
                "electric_dreams",
            },
        ),
        ("1883", {"rng", "no_events", "bombs_away", "mandatory_sefta"}),
        ("1854", {"rng"}),
    ):
        specs = get_title(name).option_specs()
        assert {s.name for s in specs} == expected
        for spec in specs:
            spec.check(spec.default)  # the default is allowed
            assert spec.description


def test_quote_never_repeats_what_cannot_be_encoded() -> None:
    for value in ("\ud800", "\x00", "é" * 500, b"\xff", {"a": "\udfff"}):
        text = quote(value)
        assert text.isascii() and len(text) <= 60
        text.encode("utf-8")


def test_unknown_titles_are_refused() -> None:
    for title in ("1830", None, ["1849"], 1849):
        with pytest.raises(SetupError) as info:
            get_title(title)
        assert info.value.field == "title"


# ---------------------------------------------------------------------- saves
def _save(**changes: Any) -> dict[str, Any]:
    data = to_save(new_game("1849", ["A", "B", "C"], 2))
    data.update(changes)
    return data


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"seed": 2**70}, "seed"),
        ({"seed": -3}, "seed"),
        ({"seed": "5"}, "seed"),
        ({"players": ["A", "B", "C" * 100]}, "players[2]"),
        ({"players": ["A", "B\x00", "C"]}, "players[1]"),
        ({"options": {"delay_ift": "false"}}, "options.delay_ift"),
        ({"options": {"bombs_away": True}}, "options.bombs_away"),
        ({"title": "1830"}, "title"),
    ],
)
def test_a_save_is_checked_as_a_new_game_is(changes: dict[str, Any], field: str) -> None:
    with pytest.raises(SetupError) as info:
        from_save(_save(**changes))
    assert info.value.field == field


# ---------------------------------------------------------------------- the command line
@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "1849", "--games", "1", "--option", "delay_ift=maybe"],
        ["simulate", "1849", "--games", "1", "--option", "bombs_away"],
        ["simulate", "1849", "--games", "1", "--players", "7"],
        ["simulate", "1849", "--games", "1", "--seed", "-1"],
        ["play", "1849", "--names", "A,B,C\tD"],
        ["play", "1849", "--names", "A,A,B"],
        ["play", "1883", "--players", "3", "--option", "rule_set=18xx.games"],
    ],
)
def test_the_command_line_refuses_with_exit_code_2(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")


def test_replay_refuses_a_bad_save_with_exit_code_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(_save(options={"delay_ift": "false"})))
    assert main(["replay", str(path)]) == 2
    assert "options.delay_ift" in capsys.readouterr().err


def test_the_command_line_types_its_options(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "1849", "--games", "1", "--option", "delay_ift=false", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out.splitlines()[-1])["finished"] == 1


def test_a_game_keeps_what_it_was_given() -> None:
    game = Game(get_title("1883"), ["A", "B"], 9, {"no_events": True})
    assert game.options == {"no_events": True}
