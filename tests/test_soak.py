"""`make soak` (tools/soak.py, tools/crash_soak.py) in miniature: every kind of unit runs and
lands in the ledger, a second run resumes from the ledger with nothing left to do, and a
failed unit counts as failed until `--rerun-failed` runs it clean (then it is listed as
fixed)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def soak(ledger: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(ROOT / "tools/soak.py"), "--ledger", str(ledger)]
    command += ["--games", "2", "--chunk", "1", "--fuzz-actions", "30", "--fuzz-chunk", "30"]
    command += ["--crash-kills", "1", "--titles", "1849", "server", *extra]
    return subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)


def test_a_small_soak_runs_every_kind_of_unit_and_resumes(tmp_path: Path) -> None:
    ledger = tmp_path / "ledger.jsonl"
    first = soak(ledger)
    assert first.returncode == 0, first.stdout + first.stderr
    assert "0 of 5 units already done" in first.stdout
    units = [json.loads(line) for line in ledger.read_text().splitlines()]
    assert sorted((u["kind"], u.get("title") or u["backend"]) for u in units) == [
        ("crash", "postgresql"),
        ("crash", "sqlite"),
        ("fuzz", "1849"),
        ("simulate", "1849"),
        ("simulate", "1849"),
    ]
    assert all(u["result"]["exit"] == 0 for u in units)
    report = json.loads(first.stdout[first.stdout.index("{") :])
    for backend in ("sqlite", "postgresql"):
        assert report[backend]["kills"] == 1 and report[backend]["lost"] == 0
    assert report["1849"]["simulate"]["games"] == 2
    assert report["1849"]["fuzz"]["tried"] >= 30
    again = soak(ledger)
    assert "5 of 5 units already done" in again.stdout
    assert len(ledger.read_text().splitlines()) == 5

    # a unit that failed (as a bug would make it) fails the run until it is run again clean
    simulated = next(u for u in units if u["kind"] == "simulate")
    broken = simulated | {"result": simulated["result"] | {"exit": 1, "notes": ["boom"]}}
    with ledger.open("a") as fh:
        fh.write(json.dumps(broken) + "\n")
    resumed = soak(ledger)
    assert resumed.returncode == 1
    assert json.loads(resumed.stdout[resumed.stdout.index("{") :])["1849"]["units_failed"] == 1
    rerun = soak(ledger, "--rerun-failed")
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert "4 of 5 units already done" in rerun.stdout
    totals = json.loads(rerun.stdout[rerun.stdout.index("{") :])
    assert totals["1849"]["units_failed"] == 0
    assert totals["1849"]["simulate"]["games"] == 2  # each unit counted once, by its latest run
    assert [f["notes"] for f in totals["fixed"]] == [["boom"]]
