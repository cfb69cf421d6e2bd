"""The gate-edit inventory on a generated 10,000-file diff, against `git diff` itself on the same diff.

The inventory reads the diff once (`collect_changes`: one run of git for the raw and patch output)
and tags every hunk; the baseline is `git diff --patch` of the same two commits, measured in the same process, so
the ratio holds on a shared, noisy machine. Target: within 3x of the diff. Its peak memory
(tracemalloc) is printed for the whole diff and for a quarter of it: per file, it must not grow with
the diff's size (the change model is what it keeps, no more).

Run: python bench/inventory_bench.py [--files N] [--repeat K]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

from evidence_gate.changes import PathClassifier, collect_changes
from evidence_gate.git import Git
from evidence_gate.integrity.idioms import default_idioms
from evidence_gate.integrity.tagger import Inventory, inventory
from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import default_table
from scratch_repo import git  # bench/, beside this script

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


def best_of(repeat: int, function: Callable[[], object]) -> float:
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        timings.append(time.perf_counter() - start)
    return min(timings)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    table, idioms = default_table(), default_idioms()
    peaks = {}
    with tempfile.TemporaryDirectory(prefix="inventory-bench-") as scratch:
        for files in (args.files // 4, args.files):
            repo = Path(scratch) / f"repo-{files}"
            repo.mkdir()
            base, head = build(repo, files)
            checkout = Git(repo, os.environ)
            classifier = PathClassifier(table=table, matches=detect(repo, table).matches)

            def inventoried(
                base: str = base, head: str = head, checkout: Git = checkout, classifier: PathClassifier = classifier
            ) -> Inventory:
                return inventory(collect_changes(checkout, base, head, classifier), idioms)

            tracemalloc.start()
            found = inventoried()
            peaks[files] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            assert len(found.tagged) >= files // 5, "the generated skips were not all tagged"
        diff = best_of(args.repeat, lambda: git_diff(repo, base, head))
        model = best_of(args.repeat, lambda: collect_changes(checkout, base, head, classifier))
        ours = best_of(args.repeat, inventoried)
    quarter, whole = args.files // 4, args.files
    print(
        f"inventory of {whole:,} files: {ours:.2f} s (the diff model {model:.2f} s, tagging the rest);"
        f" git diff: {diff:.2f} s; ratio {ours / diff:.2f}x (target <= 3x)"
    )
    print(
        f"peak memory: {peaks[quarter] / 2**20:.1f} MiB for {quarter:,} files, {peaks[whole] / 2**20:.1f} MiB for"
        f" {whole:,}; per file {peaks[quarter] / quarter / 1024:.1f} KiB, then {peaks[whole] / whole / 1024:.1f} KiB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
