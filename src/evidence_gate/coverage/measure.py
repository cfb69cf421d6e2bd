"""The measures of the change's coverage, from values only: which changed lines are executable,
which ran, and which ran under a test that strength found `red` (it fails without the change).

A changed line is one the diff model adds to a production file (never a context line); it is
executable when a report measures it, or measures the multi-line statement that holds it on another
line (`statements.py`: it is judged by that line). Each executed changed line is attributed to tests:

- by the coverage contexts of the line, where a report recorded them (coverage.py's dynamic
  contexts): each names the test that ran it. A line run outside any test (a module's top level,
  run when a test imports it: the `""` context) is attributed to the tests that ran the file's
  other lines;
- otherwise by name: the test files the adapter's naming rules pair with the production file
  (`test_cart.py`, `cart_test.go`, `cart.test.js`, `CartTest.java` for `cart`/`Cart`).

A line is strongly covered when one of its tests is red; weakly covered only when every test that
ran it is one strength judged still-green; a gap when nothing ran it. Any other line that ran is
covered, its tests' strength unknown: strength did not judge them (not-run, unjudged, a test that
is not among the changed ones), judged nothing at all, or no test can be named for the line. Such a
line is never called weak: it counts as coverage of any test, and why is said. When every line that
ran is of that kind, value weighting is unavailable. Percentages are exact fractions (Decimal).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from evidence_gate.coverage.model import Lines
from evidence_gate.ledger.payloads.coverage import PathState, percent
from evidence_gate.model import Change, FileKind, FileStatus

RED = "red"
STILL_GREEN = "still-green"
MAX_REASONS = 3  # the tests named in why some lines are not weighed; the rest are counted


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
    reasons: Mapping[str, str] = field(default_factory=dict)  # test file -> why strength gave its verdict


@dataclass(frozen=True, kw_only=True)
class Measures:
    changed_lines: dict[str, tuple[int, ...]]  # executable changed lines, per file
    covered_lines: dict[str, tuple[int, ...]]
    strong: int  # executable changed lines run by a red test
    coverage_pct: Decimal | None  # None: no executable changed line
    value_pct: Decimal | None  # strong lines, and those whose tests strength did not judge, over all
    value_unavailable: str | None  # why value_pct is None while coverage_pct is not
    paths: tuple[CodePath, ...]
    unknown: int = 0  # executable changed lines run by tests strength did not judge: counted as any test's
    unknown_why: str | None = None  # why those lines' tests have no strength verdict
    # Of the executable changed lines, those judged by the line a report measures their statement on.
    continued_lines: dict[str, tuple[int, ...]] = field(default_factory=dict)
    unmeasured: tuple[str, ...] = ()  # the changed production files no report names
    no_statement: tuple[str, ...] = ()  # those a report names, with no executable changed line

    @property
    def total(self) -> int:
        return sum(len(lines) for lines in self.changed_lines.values())

    @property
    def covered(self) -> int:
        return sum(len(lines) for lines in self.covered_lines.values())

    @property
    def continued(self) -> int:
        return sum(len(lines) for lines in self.continued_lines.values())

    @property
    def gaps(self) -> tuple[CodePath, ...]:
        return tuple(path for path in self.paths if path.state is PathState.UNCOVERED)

    @property
    def weak_gaps(self) -> tuple[CodePath, ...]:
        return tuple(path for path in self.paths if path.state is PathState.WEAK)


def changed_production_lines(change: Change) -> dict[str, tuple[int, ...]]:
    """Every production file's added lines (a file's own tests' left out); a deleted file has none."""
    return {path: tuple(sorted(lines)) for path, lines in changed_production_text(change).items()}


def changed_production_text(change: Change) -> dict[str, dict[int, str]]:
    """Every production file's added lines, each with its text (a file's own tests' left out); a
    deleted file has none."""
    texts: dict[str, dict[int, str]] = {}
    for changed in change.of_kind(FileKind.PRODUCTION):
        if changed.status is FileStatus.DELETED or changed.binary:
            continue
        if added := {line.number: line.text for hunk in changed.production_hunks for line in hunk.added}:
            texts[changed.path] = added
    return texts


def measure(
    changed: Mapping[str, tuple[int, ...]], coverage: Mapping[str, Lines], attribution: Attribution
) -> Measures:
    executable: dict[str, tuple[int, ...]] = {}
    covered: dict[str, tuple[int, ...]] = {}
    continued: dict[str, tuple[int, ...]] = {}
    states: list[_LineState] = []
    unjudged: dict[str, str] = {}  # a test strength did not judge -> its verdict and reason
    unnamed: dict[str, str] = {}  # a file with an executed line no test can be named for -> why
    for path, lines in changed.items():
        report = coverage.get(path)
        if report is None:
            continue
        measured = tuple(line for line in lines if line in report.measured)
        if not measured:
            continue
        executable[path] = measured
        covered[path] = tuple(line for line in measured if line in report.covered)
        if report.continued:
            continued[path] = tuple(line for line in measured if line in report.continued)
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
            if not tests:
                unnamed.setdefault(path, _UNNAMED if report.contexts is None else _UNNAMED_CONTEXTS)
            state, named = _state(tests, attribution.verdicts)
            if state is PathState.COVERED and attribution.verdicts is not None:
                for test in sorted(tests):  # a still-green one among them is judged: not the reason
                    if attribution.verdicts.get(test) != STILL_GREEN:
                        unjudged.setdefault(test, _unjudged(test, attribution))
            states.append(_LineState(path, line, state, named, joins))
    total = sum(len(lines) for lines in executable.values())
    coverage_pct = percent(sum(len(lines) for lines in covered.values()), total) if total else None
    strong = sum(1 for item in states if item.state is PathState.STRONG)
    unknown = sum(1 for item in states if item.state is PathState.COVERED)
    weighed = strong + sum(1 for item in states if item.state is PathState.WEAK)
    unknown_why = _why(unjudged, unnamed) if unknown and attribution.verdicts is not None else None
    nothing_weighed = unknown > 0 and weighed == 0  # every line that ran has tests strength did not judge
    if attribution.verdicts is None:
        why: str | None = attribution.unavailable or "no strength verdicts"
    else:
        why = unknown_why if nothing_weighed else None
    value_pct = None if coverage_pct is None or why else percent(strong + unknown, total)
    return Measures(
        changed_lines=executable,
        covered_lines=covered,
        strong=strong,
        coverage_pct=coverage_pct,
        value_pct=value_pct,
        value_unavailable=why if coverage_pct is not None else None,
        paths=_paths(states),
        unknown=unknown,
        unknown_why=unknown_why,
        continued_lines=continued,
        unmeasured=tuple(path for path in changed if path not in coverage),
        no_statement=tuple(path for path in changed if path in coverage and path not in executable),
    )


_UNNAMED = (
    "the reports record no per-test contexts (coverage.py's --cov-context=test) and no test file is named after it"
)
_UNNAMED_CONTEXTS = "its per-test contexts name no test file of the repository"


def _state(tests: frozenset[str], verdicts: Mapping[str, str] | None) -> tuple[PathState, tuple[str, ...]]:
    """An executed line's state, from the verdicts of the tests that ran it; a weak line's tests
    named with their verdict."""
    if verdicts is None:
        return PathState.COVERED, ()
    if any(verdicts.get(test) == RED for test in tests):
        return PathState.STRONG, ()
    if tests and all(verdicts.get(test) == STILL_GREEN for test in tests):
        return PathState.WEAK, tuple(f"{test} ({STILL_GREEN})" for test in sorted(tests))
    return PathState.COVERED, ()


def _unjudged(test: str, attribution: Attribution) -> str:
    """What strength said of a test it did not judge red or still-green: `not-run: <its reason>`."""
    verdict = (attribution.verdicts or {}).get(test)
    if verdict is None:
        return "not judged by strength in this run"
    reason = attribution.reasons.get(test)
    return f"{verdict}: {reason}" if reason else verdict


def _why(unjudged: Mapping[str, str], unnamed: Mapping[str, str]) -> str:
    """Why some executed lines have no strength verdict: the tests strength did not judge (the
    first MAX_REASONS, with what it said), and the files with a line no test can be named for."""
    parts = []
    tests = list(unjudged.items())
    if tests:
        named = "; ".join(f"{test}: {said}" for test, said in tests[:MAX_REASONS])
        more = f"; and {len(tests) - MAX_REASONS} more tests" if len(tests) > MAX_REASONS else ""
        parts.append(f"strength did not judge the tests that run these lines ({named}{more})")
    parts += [f"no test can be named for {path}: {why}" for path, why in unnamed.items()]
    return "; ".join(parts)


def _tests_of(path: str, line: int, report: Lines, attribution: Attribution) -> frozenset[str]:
    if report.contexts is None:
        return frozenset(attribution.paired.get(path, ()))
    names = report.contexts.get(line, frozenset())
    tests = {test for name in names if name and (test := attribution.test_of_context(name))}
    if not tests and names <= {""}:  # run on import: on behalf of the tests that ran the file
        every = {name for names in report.contexts.values() for name in names if name} | report.all_contexts - {""}
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
