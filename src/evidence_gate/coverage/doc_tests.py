"""Rust doc tests that ran, which a coverage report does not measure.

cargo prints each doc test it ran with the file and line of its example, relative to its crate:
`test src/lib.rs - Either<L,R>::unwrap_left (line 540) ... ok`. cargo llvm-cov measures doc tests
only with `--doctests`, which needs a nightly toolchain, so on stable the lines a doc test runs read
as run by no test. A changed line is not judged uncovered on that report's word when a doc test
that passed has its example in the same hunk of the change (the change documents and tests the code
it adds): such lines are set aside, and said so, neither covered nor uncovered. A hunk with no doc
test of its own is judged as before.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from evidence_gate.coverage.gathering import ChangeCoverage
from evidence_gate.coverage.model import Lines
from evidence_gate.model import Change
from evidence_gate.summary.read import numbered_lines

MAX_DOC_TESTS = 100_000  # doc tests remembered from the logs; past those, the rest are not read
_DOC_TEST = re.compile(r"^test (?P<file>[\w./-]{1,1000}\.rs) - .{0,2000}? \(line (?P<line>\d{1,9})\) \.\.\. ok\s*$")


@dataclass(frozen=True, kw_only=True)
class SetAside:
    changed: dict[str, tuple[int, ...]]  # each production file's added lines, those set aside taken out
    note: str | None  # what was set aside, and why
    lines: dict[str, frozenset[int]] = field(default_factory=dict)  # the lines set aside, per file


def doc_tests_run(logs: Iterable[Path]) -> dict[str, set[int]]:
    """The passing doc tests the logs name: each example's file (as cargo prints it, relative to
    its crate) and the line its example starts on."""
    found: dict[str, set[int]] = {}
    count = 0
    for log in logs:
        for _, line in numbered_lines(log):
            match = _DOC_TEST.match(line) if line.startswith("test ") else None
            if match is None:
                continue
            found.setdefault(match.group("file"), set()).add(int(match.group("line")))
            count += 1
            if count >= MAX_DOC_TESTS:
                return found
    return found


def set_aside(
    changed: Mapping[str, tuple[int, ...]],
    files: Mapping[str, Lines],
    change: Change,
    doc_tests: Mapping[str, set[int]],
) -> SetAside:
    """`changed` without its lines that the report measured and saw run by no test, in a hunk that
    holds the example of a doc test that passed."""
    if not doc_tests:
        return SetAside(changed=dict(changed), note=None)
    kept: dict[str, tuple[int, ...]] = {}
    aside: dict[str, frozenset[int]] = {}
    hunks = {file.path: file.hunks for file in change.files}
    for path, lines in changed.items():
        examples = sorted(_examples_of(path, doc_tests))
        report = files.get(path)
        if not examples or report is None:
            kept[path] = lines
            continue
        # The hunks (new-side spans, in order) that hold an example: one bisection each.
        spans = [
            (hunk.new_start, hunk.new_start + hunk.new_lines - 1)
            for hunk in hunks.get(path, ())
            if _holds(examples, hunk.new_start, hunk.new_start + hunk.new_lines - 1)
        ]
        starts = [start for start, _ in spans]
        unrun = {
            line
            for line in lines
            if line in report.measured
            and line not in report.covered
            and (at := bisect_right(starts, line) - 1) >= 0
            and line <= spans[at][1]
        }
        kept[path] = tuple(line for line in lines if line not in unrun)
        if unrun:
            aside[path] = frozenset(unrun)
    if not aside:
        return SetAside(changed=kept, note=None)
    where = ", ".join(f"{len(lines)} of {path}" for path, lines in sorted(aside.items())[:3])
    total = sum(len(lines) for lines in aside.values())
    return SetAside(
        changed=kept,
        lines=aside,
        note=(
            f"{total} changed lines ({where}) run by no test the coverage report measures sit in"
            " hunks whose doc tests ran and passed, which the report does not measure (cargo llvm-cov measures"
            " doc tests only with --doctests, on nightly): they are set aside, neither covered nor uncovered"
        ),
    )


def doc_tested(found: ChangeCoverage, change: Change, logs: Iterable[Path]) -> SetAside:
    """`set_aside` for the change's coverage, with the doc tests the logs name, read only when a Rust
    file changed."""
    if not any(path.endswith(".rs") for path in found.changed):
        return SetAside(changed=dict(found.changed), note=None)
    return set_aside(found.changed, found.map.files, change, doc_tests_run(logs))


def _holds(ordered: list[int], first: int, last: int) -> bool:
    """Whether the sorted `ordered` holds a line from `first` to `last`."""
    at = bisect_left(ordered, first)
    return at < len(ordered) and ordered[at] <= last


def _examples_of(path: str, doc_tests: Mapping[str, set[int]]) -> set[int]:
    """The doc-test example lines of `path`, whose doc tests cargo names relative to their crate."""
    pure = PurePosixPath(path)
    found: set[int] = set()
    for file, lines in doc_tests.items():
        parts = PurePosixPath(file).parts
        if pure.parts[-len(parts) :] == parts:
            found |= lines
    return found
