"""The gate-edit inventory on a generated 10,000-file diff, against `git diff` itself on the same diff.

The inventory reads the diff once (`collect_changes`: one run of git for the raw and patch output)
and tags every hunk; the baseline is `git diff --patch` of the same two commits, measured in the same process, so
the ratio holds on a shared, noisy machine. Target: within 3x of the diff's CPU time (git's own, as
a child process, counted on both sides). Its peak memory (tracemalloc) is measured for the whole diff
and for a quarter of it: per file, it must not grow with the diff's size (the change model is what it
keeps, no more), which is taken as at most 10% more per file for four times the files.

Run: python -m bench.inventory_bench [--files N] [--repeat K] [--quick]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import tracemalloc
from pathlib import Path

from bench.scratch_repo import git
from bench.table import Row, best_of, render, seconds
from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.git import Git
from evidence_gate.integrity.idioms import default_idioms
from evidence_gate.integrity.tagger import Inventory, inventory
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import default_table

TEST = "import pytest\n\n\ndef test_{n}():\n    assert {n} + 1 == {m}\n"


def git_diff(repo: Path, base: str, head: str) -> bytes:
    """The baseline: git's own patch of the same two commits, read whole as the inventory reads it."""
    return subprocess.run(["git", "diff", "--patch", base, head], cwd=repo, check=True, capture_output=True).stdout


def build(repo: Path, files: int) -> tuple[str, str]:
    """A python project whose change edits `files` test files: a fifth of them gain a skip."""
    git(repo, "init", "--quiet", "--initial-branch=main")
    (repo / "pyproject.toml").write_text("[project]\nname = 'shop'\n")
    for n in range(files):
        path = repo / "tests" / f"pkg{n // 500}" / f"test_{n}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(TEST.format(n=n, m=n + 1))
    git(repo, "add", "--all")
    git(repo, "commit", "--quiet", "-m", "base")
    base = git(repo, "rev-parse", "HEAD")
    for n in range(files):
        path = repo / "tests" / f"pkg{n // 500}" / f"test_{n}.py"
        text = TEST.format(n=n, m=n + 2 if n % 3 else n + 1)
        path.write_text(text.replace("def test_", "@pytest.mark.skip\ndef test_") if n % 5 == 0 else text)
    git(repo, "commit", "--quiet", "-am", "head")
    return base, git(repo, "rev-parse", "HEAD")


FULL_FILES, QUICK_FILES = 10_000, 1_000
TARGET = 3.0
GROWTH = 1.1  # per file, the whole diff's peak over a quarter's


def rows(quick: bool = False, files: int | None = None, repeat: int = 3) -> list[Row]:
    whole = files or (QUICK_FILES if quick else FULL_FILES)
    quarter = whole // 4
    table, idioms = default_table(), default_idioms()
    peaks = {}
    with tempfile.TemporaryDirectory(prefix="inventory-bench-") as scratch:
        for count in (quarter, whole):
            repo = Path(scratch) / f"repo-{count}"
            repo.mkdir()
            base, head = build(repo, count)
            checkout = Git(repo, os.environ)
            classifier = PathClassifier(table=table, matches=detect(repo, table).matches)

            def inventoried(
                base: str = base, head: str = head, checkout: Git = checkout, classifier: PathClassifier = classifier
            ) -> Inventory:
                return inventory(collect_changes(checkout, base, head, classifier), idioms)

            tracemalloc.start()
            found = inventoried()
            peaks[count] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            assert len(found.tagged) >= count // 5, "the generated skips were not all tagged"
        diff = best_of(repeat, lambda: git_diff(repo, base, head))
        model = best_of(repeat, lambda: collect_changes(checkout, base, head, classifier))
        ours = best_of(repeat, inventoried)
    per_quarter, per_whole = peaks[quarter] / quarter / 1024, peaks[whole] / whole / 1024
    return [
        Row(
            "inventory",
            f"{whole:,}-file diff: CPU time",
            seconds(ours),
            f"git diff {seconds(diff)}",
            ours / diff,
            f"<= {TARGET}x",
            ours / diff <= TARGET,
            note=f"the diff model takes {seconds(model)} of it, tagging the rest",
        ),
        Row(
            "inventory",
            f"{whole:,}-file diff: peak memory per file",
            f"{per_whole:.1f} KiB",
            f"{quarter:,} files: {per_quarter:.1f} KiB",
            per_whole / per_quarter,
            f"<= {GROWTH}x",
            per_whole <= per_quarter * GROWTH,
            peaks[whole] / 2**20,
        ),
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a small diff, for a quick look")
    parser.add_argument("--files", type=int)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    found = rows(args.quick, args.files, args.repeat)
    print(render(found))
    return 0 if all(row.met is not False for row in found) else 1


if __name__ == "__main__":
    sys.exit(main())
