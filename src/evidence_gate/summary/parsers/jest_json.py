"""The report `jest --json` writes (`--outputFile` or stdout): the run's totals (`numTotalTests`,
`numFailedTests`, ..., `success`) and `testResults`, one entry per test file with its `status`,
`message` and `assertionResults`, one entry per test.

Counting is per test, from `assertionResults[].status`:

- `passed` is passed, except a `test.failing` test (`"failing": true`), which passed by failing as
  expected: an expected failure, so skipped (see `Counts`);
- `failed` is failed (a `test.failing` test that passed is failed too, as jest says);
- `pending` (`test.skip`, `xit`), `skipped`, `disabled` and `todo` are skipped;
- any other status, or none, makes the report unparsed: a status not known cannot be weighed.

A test file whose entry says `failed` (or carries a `testExecError`) but none of whose tests failed
(a syntax error, a missing module, a failing `afterAll`) counts as one failed test, and a note names
the file and its first error line: jest's own "Tests:" total leaves such a file out, and a reading
that let it vanish would pass a broken suite. It is not a test, so it is not handed to `on_case`
(as a JUnit suite's own failure is not). A run jest marks `"wasInterrupted": true` did not run every file: unparsed.

The declared totals are cross-checked with the entries and any disagreement is noted; the entries
win, except in the one direction that would hide a failure: when the totals declare more failed
tests (`numFailedTests`) or failed files (`numFailedTestSuites`) than the entries show, the
difference is added as failed tests, and `"success": false` with nothing failed counts one.

`jest --json` without `--outputFile` writes the report to stdout; captured together with stderr
(`2>&1`) it is a console log, not this report, and is read as one.

The report is streamed (see `json_stream`): a file of any size costs one test's fields at a time,
plus the names of at most `_HELD_CASES` tests of the current file, which the file's path (written
after its tests) completes before they are handed to `on_case`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

from evidence_gate.model import Counts
from evidence_gate.summary.base import CaseResult, DocumentParser, Reading, clip
from evidence_gate.summary.json_stream import (
    ARRAY,
    ITEM,
    OBJECT,
    JsonPath,
    Malformed,
    Opened,
    Scalar,
    count,
    read_json,
    text,
    unread,
)
from evidence_gate.workspace import Refused

# jest writes its totals first, in this order. vitest's json reporter writes a look-alike that opens
# with `numTotalTestSuites`, counts describe blocks as suites and does not mark `test.fails`: read as
# jest's, it would be miscounted, so it is not recognised.
_START = re.compile(rb'\A\s*\{\s*"numFailedTestSuites"\s*:')
_SEPARATOR = " \u203a "  # how jest's console joins describe blocks and a title
_SKIPPED = frozenset({"pending", "skipped", "disabled", "todo"})
_HELD_CASES = 10_000
_MAX_NOTES = 20

_DECLARED = (
    "numTotalTests",
    "numPassedTests",
    "numFailedTests",
    "numPendingTests",
    "numTodoTests",
    "numTotalTestSuites",
    "numFailedTestSuites",
    "numRuntimeErrorTestSuites",
)
_FILE = ("testResults", ITEM)
_TEST = (*_FILE, "assertionResults", ITEM)
_WANTED: tuple[JsonPath, ...] = (
    (),
    *((key,) for key in _DECLARED),
    ("success",),
    ("wasInterrupted",),
    ("testResults",),
    _FILE,
    (*_FILE, "name"),
    (*_FILE, "status"),
    (*_FILE, "message"),
    (*_FILE, "testExecError"),
    (*_FILE, "assertionResults"),
    _TEST,
    (*_TEST, "status"),
    (*_TEST, "title"),
    (*_TEST, "failing"),
    (*_TEST, "ancestorTitles", ITEM),
    (*_TEST, "location", "line"),
    (*_TEST, "failureMessages", ITEM),
)


@dataclass
class _Test:
    status: str | None = None
    title: str = ""
    failing: bool = False
    ancestors: list[str] = field(default_factory=list)
    line: int | None = None
    message: str | None = None


@dataclass
class _File:
    name: str | None = None
    status: str | None = None
    message: str | None = None
    exec_error: bool = False
    tests: int = 0
    failed: int = 0
    held: list[CaseResult] = field(default_factory=list)


@dataclass
class _Scan:
    """What the stream has shown so far; `value` and `close` are the `json_stream.Reader`."""

    on_case: Callable[[CaseResult], None] | None
    declared: dict[str, int] = field(default_factory=dict)
    success: bool | None = None
    interrupted: bool = False
    saw_results: bool = False
    passed: int = 0
    failed: int = 0
    skipped: int = 0
    statuses: dict[str, int] = field(default_factory=dict)  # assertion statuses as jest counts them
    failed_files: int = 0
    broken_files: int = 0  # failed files without a failed test, each counted as one failed test
    file: _File = field(default_factory=_File)
    test: _Test = field(default_factory=_Test)
    notes: list[str] = field(default_factory=list)

    def value(self, path: JsonPath, value: Scalar | Opened) -> None:
        if path == ():
            if value is not OBJECT:
                raise Malformed("the JSON is not an object: not a jest --json report")
        elif path == ("testResults",) or path[-1] == "assertionResults":
            if value is not ARRAY:
                raise Malformed(f"`{path[-1]}` is not an array")
            self.saw_results = self.saw_results or len(path) == 1
        elif len(path) == 1:
            self._top(path[0], value)
        elif path == _FILE:
            if value is not OBJECT:
                raise Malformed("a `testResults` entry is not an object")
            self.file = _File()
        elif path == _TEST:
            if value is not OBJECT:
                raise Malformed("an `assertionResults` entry is not an object")
            self.test = _Test()
        elif len(path) == 3:
            self._file_field(path[2], value)
        else:
            self._test_field(path[4:], value)

    def _top(self, key: str, value: Scalar | Opened) -> None:
        if key == "success":
            self.success = value if isinstance(value, bool) else None
        elif key == "wasInterrupted":
            self.interrupted = value is True
        else:
            self.declared[key] = count(value, f"`{key}`")

    def _file_field(self, key: str, value: Scalar | Opened) -> None:
        if key == "name":
            self.file.name = text(value)
        elif key == "status":
            self.file.status = text(value)
        elif key == "message":
            self.file.message = text(value)
        elif key == "testExecError":
            self.file.exec_error = value is not None

    def _test_field(self, key: JsonPath, value: Scalar | Opened) -> None:
        test = self.test
        if key == ("status",):
            test.status = text(value)
        elif key == ("title",):
            test.title = text(value) or ""
        elif key == ("failing",):
            test.failing = value is True
        elif key == ("ancestorTitles", ITEM):
            if isinstance(value, str) and len(test.ancestors) < 100:
                test.ancestors.append(clip(value))
        elif key == ("location", "line"):
            test.line = value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None
        elif key == ("failureMessages", ITEM) and test.message is None:
            test.message = text(value)

    def close(self, path: JsonPath) -> None:
        if path == _TEST:
            self._close_test()
        else:
            self._close_file()

    def _close_test(self) -> None:
        test = self.test
        status = test.status
        if status is None:
            raise Malformed(f"the test {clip(test.title)!r} has no `status`")
        if status == "passed":
            outcome = "skipped" if test.failing else "passed"
        elif status == "failed":
            outcome = "failed"
        elif status in _SKIPPED:
            outcome = "skipped"
        else:
            raise Malformed(f"the test {clip(test.title)!r} has an unknown status {clip(status, 40)!r}")
        self.statuses[status] = self.statuses.get(status, 0) + 1
        self.passed += outcome == "passed"
        self.failed += outcome == "failed"
        self.skipped += outcome == "skipped"
        self.file.tests += 1
        self.file.failed += outcome == "failed"
        if self.on_case is None:
            return
        case = CaseResult(
            name=clip(test.title),
            classname=_SEPARATOR.join(test.ancestors),
            file=None,
            line=test.line,
            outcome=outcome,
            message=clip(test.message) if test.message and outcome == "failed" else None,
            shown_as=clip(_SEPARATOR.join((*test.ancestors, test.title))),
        )
        if len(self.file.held) < _HELD_CASES:
            self.file.held.append(case)
        else:
            self.on_case(case)

    def _close_file(self) -> None:
        file = self.file
        name = clip(file.name) if file.name else "(a test file without a name)"
        failed_file = file.status == "failed" or file.exec_error
        self.failed_files += failed_file
        if self.on_case is not None:
            for case in file.held:
                self.on_case(_with_file(case, file.name))
        if failed_file and not file.failed:
            self.broken_files += 1
            self.failed += 1
            first = (file.message or "").strip().splitlines()
            why = f": {clip(first[0].strip(' ●'))}" if first else ""
            self._note(f"{name} failed without a failed test{why}; counted as 1 failed test")
        self.file = _File()

    def _note(self, note: str) -> None:
        if len(self.notes) < _MAX_NOTES:
            self.notes.append(note)

    def reading(self) -> Reading:
        if not self.saw_results:
            raise Malformed("no `testResults`: not a jest --json report, or one without its tests")
        if self.interrupted:
            raise Malformed('jest says `"wasInterrupted": true`: the run stopped before every test file ran')
        self._cross_check()
        counts = Counts(passed=self.passed, failed=self.failed, skipped=self.skipped)
        return Reading(parser=PARSER.name, counts=counts, notes=tuple(self.notes))

    def _cross_check(self) -> None:
        declared = self.declared
        tests = sum(self.statuses.values())
        seen = {
            "numTotalTests": tests,
            "numPassedTests": self.statuses.get("passed", 0),
            "numFailedTests": self.statuses.get("failed", 0),
            "numPendingTests": sum(self.statuses.get(status, 0) for status in ("pending", "skipped", "disabled")),
            "numTodoTests": self.statuses.get("todo", 0),
            "numFailedTestSuites": self.failed_files,
        }
        for key, number in seen.items():
            if key in declared and declared[key] != number:
                self._note(f"`{key}` is {declared[key]} but the report lists {number}; the listed entries were counted")
        missing = max(0, declared.get("numFailedTests", 0) - seen["numFailedTests"])
        missing_files = max(0, declared.get("numFailedTestSuites", 0) - self.failed_files)
        if missing or missing_files:
            self.failed += missing + missing_files
            self._note(
                f"the totals declare {missing + missing_files} more failures than the entries show; "
                "counted as failed tests"
            )
        if self.success is False and not self.failed:
            self.failed += 1
            self._note('`"success": false` without a failed test; counted as 1 failed test')


def _with_file(case: CaseResult, file: str | None) -> CaseResult:
    if file is None:
        return case
    return CaseResult(
        name=case.name,
        classname=case.classname,
        file=clip(file),
        line=case.line,
        outcome=case.outcome,
        message=case.message,
        shown_as=case.shown_as,
    )


class JestJsonParser(DocumentParser):
    """Reads a `jest --json` report, test by test."""

    name: ClassVar[str] = "jest-json"
    names_cases: ClassVar[bool] = True
    trusts: ClassVar[str] = (
        "`testResults[].assertionResults[].status`, and each test file's `status`; the `num...` totals "
        "and `success` only cross-check (a failure they declare beyond the entries counts)"
    )

    def recognises(self, head: bytes) -> bool:
        return _START.match(head.lstrip(b"\xef\xbb\xbf")) is not None and b'"numTotalTests"' in head

    def parse(self, path: Path, on_case: Callable[[CaseResult], None] | None = None) -> Reading:
        scan = _Scan(on_case=on_case)
        try:
            read_json(path, scan, _WANTED, (_FILE, _TEST))
            return scan.reading()
        except (Malformed, Refused) as error:
            return unread(self.name, error)


PARSER = JestJsonParser()
