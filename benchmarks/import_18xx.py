"""Benchmark: time to import each 18xx.games export (prints figures).

For every export in ``tests/data/18xx-games/<title>/`` (copies of ``../shared``'s), or the
files given: the import time, the site actions per second, and the share of that time spent
re-tracing routes versus replaying the save that the import produces (a plain replay of
tresham's own log).

Run: .venv/bin/python benchmarks/import_18xx.py [FILE.json ...]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from tresham.io.save import from_save, to_save
from tresham.io.site_import import import_export

GAMES = Path(__file__).resolve().parents[1] / "tests" / "data" / "18xx-games"


def main() -> None:
    files = [Path(a) for a in sys.argv[1:]] or sorted(GAMES.glob("*/*.json"))
    if not files:
        print(f"no exports found under {GAMES}")
        return
    total_import = total_replay = 0.0
    total_actions = 0
    for path in files:
        data = json.loads(path.read_text())
        start = time.perf_counter()
        result = import_export(data)
        imported = time.perf_counter() - start
        saved = to_save(result.game)
        start = time.perf_counter()
        from_save(saved)
        replayed = time.perf_counter() - start
        total_import += imported
        total_replay += replayed
        total_actions += result.actions_imported
        print(
            f"{path.parent.name}/{path.name}: {result.actions_imported} site actions, "
            f"{len(saved['actions'])} tresham actions, {result.runs_retraced} routes; "
            f"import {imported:.2f} s ({result.actions_imported / imported:.0f} actions/s), "
            f"replay of the save {replayed:.2f} s, ratio import/replay "
            f"{imported / replayed:.2f}"
        )
    print(
        f"total: {len(files)} files, {total_actions} site actions, import {total_import:.2f} s, "
        f"replay {total_replay:.2f} s"
    )


if __name__ == "__main__":
    main()
