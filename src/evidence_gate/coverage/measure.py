"""The measures of the change's coverage, from values only: which changed lines are executable,
which ran, and which ran under a test that strength found able to fail (`red`, or `unjudged`: it
calls what the change adds).

A changed line is one the diff model adds to a production file (never a context line); it is
executable when a report measures it. Each executed changed line is attributed to tests:

- by the coverage contexts of the line, where a report recorded them (coverage.py's dynamic
  contexts): each names the test that ran it. A line run outside any test (a module's top level,
  run when a test imports it: the `""` context) is attributed to the tests that ran the file's
  other lines;
- otherwise by name: the test files the adapter's naming rules pair with the production file
  (`test_cart.py`, `cart_test.go`, `cart.test.js`, `CartTest.java` for `cart`/`Cart`).

A line is strongly covered when one of its tests is red or unjudged, weakly covered when it ran
under still-green tests, tests that could not be run or tests strength did not judge, and a gap when
nothing ran it; without any strength verdict, a line that ran is covered, its tests' strength unknown. Where a line
can be attributed to no test at all, value weighting is unavailable, with the file named: a share
of lines whose tests are unknown would be a guess. Percentages are exact fractions (Decimal).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum

from evidence_gate.coverage.model import Lines
from evidence_gate.model import Change, FileKind, FileStatus

STRONG_VERDICTS = frozenset({"red", "unjudged"})


class PathState(StrEnum):
    STRONG = "strong"  # run by a test that fails without the change
    WEAK = "weak"  # run only by tests that pass without it, could not be run, or were not judged
    COVERED = "covered"  # run by tests, whose strength is unknown: strength judged nothing
    UNCOVERED = "uncovered"


@dataclass(frozen=True, kw_only=True)
class CodePath:
    """A run of consecutive changed executable lines of one file in one state: what the diagram,
    the proposals and the annotations name."""

    path: str
    start: int
    end: int
    state: PathState
    tests: tuple[str, ...] = ()  # for a weak path: the tests that ran it (and their verdicts)

    @property
    def lines(self) -> str:
        """`line 3`, `lines 14-15`."""
        return f"line {self.start}" if self.start == self.end else f"lines {self.start}-{self.end}"


@dataclass(frozen=True, kw_only=True)
class Attribution:
    """What strength says of the changed tests, and how a production file's lines find their tests."""

    verdicts: Mapping[str, str] | None  # test file -> strength verdict; None: strength did not judge
    unavailable: str | None  # why there are no verdicts
    paired: Mapping[str, tuple[str, ...]]  # production file -> the test files named after it
    test_of_context: Callable[[str], str | None]  # a coverage context -> its test file


@dataclass(frozen=True, kw_only=True)
class Measures:
    changed_lines: dict[str, tuple[int, ...]]  # executable changed lines, per file
    covered_lines: dict[str, tuple[int, ...]]
    strong: int  # executable changed lines run by a red or unjudged test
    coverage_pct: Decimal | None  # None: no executable changed line
    value_pct: Decimal | None
    value_unavailable: str | None  # why value_pct is None while coverage_pct is not
    paths: tuple[CodePath, ...]

    @property
    def total(self) -> int:
        return sum(len(lines) for lines in self.changed_lines.values())

    @property
    def covered(self) -> int:
        return sum(len(lines) for lines in self.covered_lines.values())

    @property
    def gaps(self) -> tuple[CodePath, ...]:
        return tuple(path for path in self.paths if path.state is PathState.UNCOVERED)

    @property
    def weak_gaps(self) -> tuple[CodePath, ...]:
        return tuple(path for path in self.paths if path.state is PathState.WEAK)


def changed_production_lines(change: Change) -> dict[str, tuple[int, ...]]:
    """Every production file's added lines; a deleted file has none."""
    lines: dict[str, tuple[int, ...]] = {}
    for changed in change.of_kind(FileKind.PRODUCTION):
        if changed.status is FileStatus.DELETED or changed.binary:
            continue
        added = tuple(sorted({line.number for line in changed.added_lines}))
        if added:
            lines[changed.path] = added
    return lines


def percent(part: int, whole: int) -> Decimal:
    return Decimal(part) * 100 / Decimal(whole)


def measure(
    changed: Mapping[str, tuple[int, ...]], coverage: Mapping[str, Lines], attribution: Attribution
) -> Measures:
    executable: dict[str, tuple[int, ...]] = {}
    covered: dict[str, tuple[int, ...]] = {}
    states: list[_LineState] = []
    unattributed: str | None = None
    strong = 0
    for path, lines in changed.items():
        report = coverage.get(path)
        if report is None:
            continue
        measured = tuple(line for line in lines if line in report.measured)
        if not measured:
            continue
        executable[path] = measured
        covered[path] = tuple(line for line in measured if line in report.covered)
        order = sorted(report.measured)
        previous: int | None = None
        for line in measured:
            # One path goes on only over lines nothing measures (blank, comments), never over unchanged code.
            joins = previous is not None and bisect_left(order, line) - bisect_right(order, previous) == 0
            previous = line
            if line not in report.covered:
                states.append(_LineState(path, line, PathState.UNCOVERED, (), joins))
                continue
            tests = _tests_of(path, line, report, attribution)
            if not tests and unattributed is None:
                unattributed = (
                    f"no test can be named for {path}: the reports record no per-test contexts "
                    "(coverage.py's --cov-context=test) and no test file is named after it"
                )
            verdicts = attribution.verdicts
            if verdicts is None:
                states.append(_LineState(path, line, PathState.COVERED, (), joins))
            elif any(verdicts.get(test) in STRONG_VERDICTS for test in tests):
                strong += 1
                states.append(_LineState(path, line, PathState.STRONG, (), joins))
            else:
                named = tuple(f"{test} ({verdicts.get(test, 'not judged by strength')})" for test in sorted(tests))
                states.append(_LineState(path, line, PathState.WEAK, named, joins))
    total = sum(len(lines) for lines in executable.values())
    coverage_pct = percent(sum(len(lines) for lines in covered.values()), total) if total else None
    why = attribution.unavailable if attribution.verdicts is None else unattributed
    value_pct = None if coverage_pct is None or why else percent(strong, total)
    return Measures(
        changed_lines=executable,
        covered_lines=covered,
        strong=strong,
        coverage_pct=coverage_pct,
        value_pct=value_pct,
        value_unavailable=why if coverage_pct is not None else None,
        paths=_paths(states),
    )


def _tests_of(path: str, line: int, report: Lines, attribution: Attribution) -> frozenset[str]:
    if report.contexts is None:
        return frozenset(attribution.paired.get(path, ()))
    names = report.contexts.get(line, frozenset())
    tests = {test for name in names if name and (test := attribution.test_of_context(name))}
    if not tests and names <= {""}:  # run on import: on behalf of the tests that ran the file
        every = {name for names in report.contexts.values() for name in names if name}
        tests = {test for name in every if (test := attribution.test_of_context(name))}
    return frozenset(tests)


@dataclass(frozen=True)
class _LineState:
    path: str
    line: int
    state: PathState
    tests: tuple[str, ...]
    joins: bool  # nothing measured lies between it and the file's previous changed executable line


def _paths(states: list[_LineState]) -> tuple[CodePath, ...]:
    """Lines of one state (and, for weak ones, the same tests) that join as one path."""
    paths: list[CodePath] = []
    for item in states:
        last = paths[-1] if paths else None
        if item.joins and last is not None and last.state is item.state and last.tests == item.tests:
            paths[-1] = CodePath(path=item.path, start=last.start, end=item.line, state=item.state, tests=item.tests)
        else:
            paths.append(CodePath(path=item.path, start=item.line, end=item.line, state=item.state, tests=item.tests))
    return tuple(paths)
