"""Detection speed on a 100,000-file tree, against a plain directory walk of the same tree.

Detection must not read every file: it lists the root and up to three levels below it, skips
vendored and build directories, and reads only the manifests a rule asks about. The baseline is
`os.walk` over the whole tree, measured in the same process on the same files, so the ratio holds
on a shared, noisy machine. Targets: detection within 2x of the walk, and under 1 s.

Run: python bench/detect_bench.py [--files N] [--repeat K]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from evidence_gate.stacks.detect import detect
from evidence_gate.stacks.table import default_table


def build_tree(root: Path, total: int) -> int:
    """A monorepo: a Go service, a web front end with a large node_modules, deep source trees."""
    manifests = {
        "go.mod": "module example.com/shop\n\ngo 1.22\n",
        "web/package.json": json.dumps({"dependencies": {"react": "18"}, "scripts": {"test": "vitest"}}),
        "web/index.html": "<!doctype html>\n",
        "services/billing/Cargo.toml": '[package]\nname = "billing"\n',
        "tools/lint/pyproject.toml": "[project]\nname = 'lint'\n",
    }
    for rel, text in manifests.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    written = len(manifests)
    areas = ["web/node_modules", "internal", "web/src", "vendor", "services/billing/src"]
    index = 0
    while written < total:
        area = areas[index % len(areas)]
        directory = root / area / f"pkg{index // 50 % 40}" / f"mod{index % 50}" / f"part{index // 2000}"
        directory.mkdir(parents=True, exist_ok=True)
        for file_number in range(min(25, total - written)):
            (directory / f"file{file_number}.txt").write_text("x")
            written += 1
        index += 1
    return written


def best_of(repeat: int, function: Callable[[], object]) -> float:
    timings = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        timings.append(time.perf_counter() - start)
    return min(timings)


def plain_walk(root: Path) -> int:
    count = 0
    for _, _, files in os.walk(root):
        count += len(files)
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    table = default_table()
    with tempfile.TemporaryDirectory(prefix="evidence-gate-bench-") as scratch:
        root = Path(scratch)
        written = build_tree(root, args.files)
        assert plain_walk(root) == written
        detection = detect(root, table)
        assert detection.primary.adapter_id == "go", detection.primary
        walk_seconds = best_of(args.repeat, lambda: plain_walk(root))
        detect_seconds = best_of(args.repeat, lambda: detect(root, table))
    ratio = detect_seconds / walk_seconds
    print(f"files: {written}")
    print(f"plain walk: {walk_seconds * 1000:.1f} ms")
    print(f"detect:     {detect_seconds * 1000:.1f} ms")
    print(f"ratio detect/walk: {ratio:.3f} (target <= 2.0); detect under 1 s: {detect_seconds < 1.0}")
    return 0 if ratio <= 2.0 and detect_seconds < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())
