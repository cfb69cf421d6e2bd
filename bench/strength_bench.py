"""Test strength's own cost: its wall time over the sum of the test runs' own wall times, and what
`--jobs 2` gains over `--jobs 1`, on a generated Python project whose changed test files each take a
moment and are all red (every file runs three times: at the head, without the change, at the head
again). Both are ratios of runs in the same process, so they hold on a shared, noisy machine. They
are wall times, not CPU time: the tests sleep, as real tests wait, and the parallel jobs' gain is in
wall time.

Targets: the overhead at most 1.15 with one job (worktrees, the revert, the import check and the
bookkeeping cost under 15% of the tests' own time); two jobs faster than one on two cores. Then the
same files judged with the job's own JUnit report of the head (pytest's, written by a real run): at
most 2 runs each, the report standing for the first head run.

Run: python -m bench.strength_bench [--files N] [--seconds S] [--quick]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from bench.scratch_repo import git
from bench.table import Row, render, seconds
from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.effects import effects_for
from evidence_gate.facts import case_sources
from evidence_gate.ledger.payloads.strength import Verdict
from evidence_gate.model import Counts
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import default_table
from evidence_gate.strength.session import Options, Outcome, Stack, judge_change
from evidence_gate.summary.base import CaseResult
from evidence_gate.summary.node_ids import node_prefix
from evidence_gate.summary.read import read_source

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


def reported(repo: Path) -> dict[str, Counts]:
    """The job's own test run of the head, as the gate reads its JUnit report: its cases by file."""
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "--junitxml=build/junit.xml", "tests"],
        cwd=repo,
        env={**os.environ, "PYTHONPATH": "src"},
        capture_output=True,
        check=True,
    )
    found: dict[str, Counts] = {}

    def tally(case: CaseResult) -> None:
        shown = node_prefix(case.classname, lambda path: (repo / path).is_file())
        case = replace(case, shown_as=f"{shown}::{case.name}" if shown else None, from_pytest=True)
        one = Counts(passed=int(case.outcome == "passed"), failed=int(case.outcome == "failed"), skipped=0)
        for key in case_sources(case, repo):
            found[key] = found[key] + one if key in found else one

    read_source(repo / "build" / "junit.xml", ["junit"], None, tally)
    return found


def judged(repo: Path, base: str, jobs: int, cases: dict[str, Counts] | None = None) -> tuple[float, Outcome]:
    table = default_table()
    effects = effects_for(repo, os.environ)
    detection = detect(repo, table)
    change = collect_changes(effects.checkout(), base, "HEAD", PathClassifier(table=table, matches=detection.matches))
    stack = Stack(table=table, adapter=table.get("python"))
    started = time.perf_counter()
    options = Options(timeout=300, jobs=jobs, reported=cases)
    outcome = judge_change(effects, change, stack, options, lambda judged, total: None)
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
        with_report, shortened = judged(repo, base, 1, reported(repo))
    for found in (outcome, shortened):
        assert all(item.verdict is Verdict.RED for item in found.judged), [item.reason for item in found.judged]
    most = max(sum(run is not None for run in (item.head, item.base, item.rerun)) for item in shortened.judged)
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
        Row(
            "strength",
            f"{count} test files with the job's JUnit report: runs of a file, at most",
            f"{most} ({seconds(with_report)})",
            f"without it 3 ({seconds(one)})",
            with_report / one,
            "<= 2 runs",
            most <= 2,
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
