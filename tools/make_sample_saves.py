"""Write the sample saves the save-format tests load (tests/data/save_samples/).

Each is a random game of a title cut after a number of actions, saved in the current save
format, with the position's public facts in ``expected.json``. Run it only when a new save
format version or a new title's rules version begins: the older files must stay, so that the
tests keep loading every earlier version.

Run: .venv/bin/python tools/make_sample_saves.py [TITLE=RULES_VERSION ...]
(a title's older rules version that has no sample yet, e.g. ``1883=4``)
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

from save_facts import facts  # noqa: E402
from tresham.bots.random_bot import choose  # noqa: E402
from tresham.io.save import VERSION, new_game, to_save  # noqa: E402

OUT = HERE.parent / "tests/data/save_samples"
#: (title, players, seed, actions, options)
SAMPLES = [
    ("1849", 4, 11, 600, {}),
    ("1883", 3, 5, 600, {}),
    ("1883", 4, 8, 400, {"mandatory_sefta": True}),
    ("1854", 4, 1, 4000, {}),  # rules version 2: through Phase 8, with mergers
]


def main(argv: list[str]) -> None:
    versions = {title: int(v) for title, v in (arg.split("=") for arg in argv)}
    OUT.mkdir(parents=True, exist_ok=True)
    expected_path = OUT / "expected.json"
    expected = json.loads(expected_path.read_text()) if expected_path.exists() else {}
    for title, players, seed, count, options in SAMPLES:
        players_ = [f"P{i + 1}" for i in range(players)]
        game = new_game(title, players_, seed, options, versions.get(title))
        rng = random.Random(seed)
        while len(game.actions) < count and not game.state.finished:
            game.apply(choose(game, rng))
        data = to_save(game)
        name = f"{title}-r{game.rules_version}-s{seed}-v{VERSION}.json"
        if (OUT / name).exists():
            continue  # a sample of an earlier version is never rewritten
        (OUT / name).write_text(json.dumps(data, indent=1) + "\n")
        expected[name] = facts(game)
        print(f"{name}: {len(game.actions)} actions")
    expected_path.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
