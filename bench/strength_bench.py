"""Test strength's own cost: its wall time over the sum of the test runs' own wall times, and what
`--jobs 2` gains over `--jobs 1`, on a generated Python project whose changed test files each take a
moment and are all red (every file runs three times: at the head, without the change, at the head
again). Both are ratios of runs in the same process, so they hold on a shared, noisy machine. They
are wall times, not CPU time: the tests sleep, as real tests wait, and the parallel jobs' gain is in
wall time.

Targets: the overhead at most 1.15 with one job (worktrees, the revert, the import check and the
bookkeeping cost under 15% of the tests' own time); two jobs faster than one on two cores.

Run: python -m bench.strength_bench [--files N] [--seconds S] [--quick]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from bench.scratch_repo import git
from bench.table import Row, render, seconds
from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.effects import effects_for
from evidence_gate.ledger.payloads.strength import Verdict
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import default_table
from evidence_gate.strength.session import Options, Outcome, Stack, judge_change

TEST = "import time\n\nfrom shop.cart import total\n\n\ndef test_{n}():\n    time.sleep({seconds})\n"
TEST += "    assert total([10]) == 12\n"
PYPROJECT = "[project]\nname = 'shop'\nversion = '1'\n\n[tool.pytest.ini_options]\naddopts = '-p no:cacheprovider'\n"


def build(repo: Path, files: int, seconds: float) -> str:
    git(repo, "init", "--quiet", "--initial-branch=main")
    (repo / "pyproject.toml").write_text(PYPROJECT)
    (repo / "src" / "shop").mkdir(parents=True)
    (repo / "src" / "shop" / "__init__.py").write_text("")
    (repo / "src" / "shop" / "cart.py").write_text("def total(prices):\n    return sum(prices)\n")
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "-m", "base")
    base = git(repo, "rev-parse", "HEAD")
    (repo / "src" / "shop" / "cart.py").write_text("def total(prices):\n    return sum(prices) * 12 // 10\n")
    (repo / "tests").mkdir()
    for n in range(files):
        (repo / "tests" / f"test_{n}.py").write_text(TEST.format(n=n, seconds=seconds))
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "-m", "head")
    return base


def judged(repo: Path, base: str, jobs: int) -> tuple[float, Outcome]:
    table = default_table()
    effects = effects_for(repo, os.environ)
    detection = detect(repo, table)
    change = collect_changes(effects.checkout(), base, "HEAD", PathClassifier(table=table, matches=detection.matches))
    stack = Stack(table=table, adapter=table.get("python"))
    started = time.perf_counter()
    outcome = judge_change(effects, change, stack, Options(timeout=300, jobs=jobs), lambda judged, total: None)
    return time.perf_counter() - started, outcome


FULL = {"files": 6, "seconds": 0.3}
QUICK = {"files": 2, "seconds": 0.1}
TARGET = 1.15


def rows(quick: bool = False, files: int | None = None, sleep: float | None = None) -> list[Row]:
    sizes = QUICK if quick else FULL
    count, pause = files or int(sizes["files"]), sleep or sizes["seconds"]
    with tempfile.TemporaryDirectory(prefix="strength-bench-") as scratch:
        repo = Path(scratch) / "repo"
        repo.mkdir()
        base = build(repo, count, pause)
        one, outcome = judged(repo, base, 1)
        two, _ = judged(repo, base, 2)
    assert all(item.verdict is Verdict.RED for item in outcome.judged), [item.reason for item in outcome.judged]
    runs = sum(run.seconds for item in outcome.judged for run in (item.head, item.base, item.rerun) if run is not None)
    label = f"{count} test files, 3 runs each"
    return [
        Row(
            "strength",
            f"{label}: wall time, --jobs 1",
            seconds(one),
            f"the test runs {seconds(runs)}",
            one / runs,
            f"<= {TARGET}x",
            one / runs <= TARGET,
        ),
        Row(
            "strength",
            f"{label}: wall time, --jobs 2",
            seconds(two),
            f"--jobs 1 {seconds(one)}",
            two / one,
            "< 1x (two cores)",
            two < one,
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer and shorter tests, for a quick look")
    parser.add_argument("--files", type=int)
    parser.add_argument("--seconds", type=float, help="each test's own sleep")
    args = parser.parse_args()
    found = rows(args.quick, args.files, args.seconds)
    print(render(found))
    return 0 if all(row.met is not False for row in found) else 1


if __name__ == "__main__":
    sys.exit(main())
